// Internal to the evaluator: the walk over a compiled plan (plan.h), and the kernel host the
// kernels of one Evaluator share (threads, seed, subgraph calls).
#pragma once

#include <map>
#include <memory>
#include <span>
#include <unordered_map>
#include <utility>
#include <vector>

#include "eval/engine/frame.h"
#include "eval/engine/plan.h"
#include "eval/kernels/thread_pool.h"
#include "onyx/core/buffer_pool.h"
#include "onyx/eval/evaluator.h"
#include "onyx/ops/callee.h"
#include "onyx/ops/kernel_context.h"

namespace onyx::eval_internal {

class Executor final : public KernelHost, public PlanContext {
 public:
  Executor(const Model& model, const EvalOptions& options);
  ~Executor() override;

  /// The main graph's plan, compiled on first use (an error names the node).
  Result<const GraphPlan*> mainPlan();
  /// Runs `plan` in `frame`, whose input slots are set; the plan's outputs.
  Result<std::vector<EvalValue>> runPlan(const GraphPlan& plan, Frame& frame);
  BufferPool& buffers() { return buffers_; }
  EvalObserver* observer() const { return options_.observer; }

  // KernelHost
  Result<std::vector<EvalValue>> runSubgraph(const Graph& graph,
                                             std::vector<EvalValue> inputs) override;
  int threads() const override;
  uint64_t seed() const override { return options_.seed; }
  void runParts(size_t parts, const std::function<void(size_t part)>& body) override {
    pool_.run(parts, body);
  }
  int64_t maxIterations() const override { return options_.max_iterations; }
  const NativeKernels* nativeKernels() const override;

  // PlanContext
  const CalleeResolver& callees() const override { return callees_; }
  Result<const EvalValue*> constant(const Value& value) override;
  Result<const Function*> operatorBody(const Node& node, const OpSchema& schema, int64_t opset,
                                       const OpsetImports& imports) override;
  std::span<const Provider* const> providers() const override;
  bool fusions() const override { return options_.fusions; }
  InitializerInputs initializerInputs() const override {
    return initializerInputsOf(model_, options_.constant_initializers);
  }

 private:
  // Where the walk is: the frame and plan of the node running, and the function call it is
  // in (for attribute references). Set for a node's run and restored after it.
  struct Position {
    const GraphPlan* plan = nullptr;
    Frame* frame = nullptr;
    const Node* caller = nullptr;
    const Function* callee = nullptr;
  };
  class Enter;

  Status runStep(const GraphPlan& plan, const PlanStep& step, Frame& frame);
  /// Runs a node; given `declined`, on channels-last values through its channels-last kernel
  /// (its outputs channels-last), and sets *declined when that declines, having done nothing.
  Status runNode(const BoundNode& bound, Frame& frame, bool* declined = nullptr);
  /// Whether each image `bound` reads (channels_last_kernels.h) is channels-last here, or a
  /// tensor of one element, and one at least is channels-last.
  bool imagesChannelsLast(const BoundNode& bound, const Frame& frame) const;
  Result<std::vector<EvalValue>> callFunction(const BoundNode& bound, KernelContext& ctx);
  void warnIfReordered(const GraphPlan& plan, std::string_view where);
  // The plan of `graph`, run by the node running now.
  Result<const GraphPlan*> subgraphPlan(const Graph& graph);

  const Model& model_;
  const EvalOptions& options_;
  CalleeResolver callees_;
  OpsetImports model_imports_;
  std::unique_ptr<GraphPlan> main_plan_;
  std::unordered_map<const Function*, OpsetImports> function_imports_;
  std::unordered_map<const Function*, std::unique_ptr<GraphPlan>> function_plans_;
  std::unordered_map<const Node*, std::unique_ptr<FunctionBody>> operator_bodies_;
  std::map<std::pair<const GraphPlan*, const Graph*>, std::unique_ptr<GraphPlan>> passed_subgraphs_;
  std::unordered_map<const Value*, EvalValue> constants_;
  ThreadPool pool_;
  BufferPool buffers_;
  Position at_;
  int depth_ = 0;
};

}  // namespace onyx::eval_internal
