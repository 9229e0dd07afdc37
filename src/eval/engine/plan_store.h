// Internal to the evaluator: the plans of one Evaluator, compiled when first asked for, and
// what compiling needs (PlanContext: constants converted once, function-operator bodies built
// once per node, the providers, the options). The walk (executor.h) asks it for the plan of
// the main graph, of a function at its first call, and of a graph passed to a function
// through an attribute reference; it never compiles itself. Executors on several threads
// share one: what it makes, it makes under its lock, once.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <span>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <utility>

#include "eval/engine/plan.h"
#include "onyx/eval/evaluator.h"
#include "onyx/ops/callee.h"

namespace onyx::eval_internal {

class PlanStore final : public PlanContext {
 public:
  PlanStore(const Model& model, const EvalOptions& options);
  ~PlanStore() override;

  /// The main graph's plan (an error names the node).
  Result<const GraphPlan*> mainPlan();
  /// The plan of `function`'s body, called by a node of operator `caller_op`. Compiled at
  /// its first call, not with the caller: a function may call itself.
  Result<const GraphPlan*> functionPlan(const Function& function, std::string_view caller_op);
  /// The plan of `graph` run from within `running` (null: the main graph's level) when
  /// `running` does not hold it: a calling function's graph attribute, reached through a
  /// reference, seeing what `running` sees.
  Result<const GraphPlan*> passedPlan(const GraphPlan* running, const Graph& graph);

  // PlanContext
  const CalleeResolver& callees() const override { return callees_; }
  Result<const EvalValue*> constant(const Value& value) override;
  Result<const Function*> operatorBody(const Node& node, const OpSchema& schema, int64_t opset,
                                       const OpsetImports& imports) override;
  std::span<const Provider* const> providers() const override;
  bool fusions() const override { return options_.fusions; }
  bool int8Activations() const override { return options_.int8_activations; }
  CpuTier cpuTier() const override { return tier_; }
  InitializerInputs initializerInputs() const override;
  uint32_t nextRunIndex() override { return bound_nodes_++; }
  std::shared_ptr<const void> modelBytes() const override { return model_bytes_; }

 private:
  /// Says once, through the observer, which graphs of `plan` run out of file order.
  void warnIfReordered(const GraphPlan& plan, std::string_view where);

  const Model& model_;
  const EvalOptions& options_;
  // The session's tier, read once: an unreadable ONYX_MAX_ISA fails each run
  // (Evaluator::run).
  CpuTier tier_;
  CalleeResolver callees_;
  OpsetImports model_imports_;
  // What keeps the bytes of the model's constants alive for arrays that view them or are
  // shared with other sessions (constant_arrays.h).
  std::shared_ptr<const void> model_bytes_;
  std::unique_ptr<GraphPlan> main_plan_;
  std::unordered_map<const Function*, OpsetImports> function_imports_;
  std::unordered_map<const Function*, std::unique_ptr<GraphPlan>> function_plans_;
  std::unordered_map<const Node*, std::unique_ptr<FunctionBody>> operator_bodies_;
  std::unordered_set<const Graph*> operator_body_graphs_;  // their bodies' graphs
  std::map<std::pair<const GraphPlan*, const Graph*>, std::unique_ptr<GraphPlan>> passed_plans_;
  std::unordered_map<const Value*, EvalValue> constants_;
  uint32_t bound_nodes_ = 0;
  // Recursive: compiling a plan asks for constants and operator bodies.
  std::recursive_mutex mutex_;
};

}  // namespace onyx::eval_internal
