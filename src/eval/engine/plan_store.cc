// The plans of one Evaluator, compiled when first asked for (plan_store.h).
#include "eval/engine/plan_store.h"

#include <string>
#include <vector>

#include "core/place_path.h"
#include "eval/engine/constant_arrays.h"
#include "ir/graph_place.h"
#include "onyx/core/quote.h"
#include "onyx/ir/constant_value.h"
#include "onyx/ir/function.h"
#include "onyx/ir/tensor_array.h"
#include "onyx/ir/value.h"
#include "onyx/ops/function_body.h"

namespace onyx::eval_internal {

PlanStore::PlanStore(const Model& model, const EvalOptions& options)
    : model_(model),
      options_(options),
      tier_(cappedCpuTierOrBaseline(options.max_isa)),
      callees_(model),
      model_imports_(model.opset_import),
      model_bytes_(model.bytesOwner()) {}

PlanStore::~PlanStore() = default;

std::span<const Provider* const> PlanStore::providers() const { return eval_internal::providers(); }

InitializerInputs PlanStore::initializerInputs() const {
  return initializerInputsOf(model_, options_.constant_initializers);
}

Result<const EvalValue*> PlanStore::constant(const Value& value) {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  auto cached = constants_.find(&value);
  if (cached != constants_.end()) return &cached->second;
  // An input's default is its initializer whatever the model's reading; anything else
  // constant is what constant_value.h says (a Constant node's tensor included).
  const Tensor* tensor = value.initializer();
  if (tensor == nullptr) tensor = constantTensor(&value, initializerInputs());
  if (tensor == nullptr) {
    return Status(ErrorCode::kInternal, quoted(value.name()) + " is not a constant");
  }
  // An operator body's constants lie in the body's own arena, not the model's: they are this
  // session's alone (and small).
  const Graph* outermost = value.graph();
  while (outermost != nullptr && outermost->owner() != nullptr) {
    outermost = outermost->owner()->graph();
  }
  Result<Array> array = operator_body_graphs_.contains(outermost)
                            ? arrayFromTensor(*tensor)
                            : constantArray(*tensor, model_bytes_);
  if (!array) {
    return Status(array.status().code(),
                  std::string(value.initializer() != nullptr ? "initializer " : "constant ") +
                      quoted(value.name()) + ": " + array.status().message());
  }
  return &constants_.emplace(&value, EvalValue::of(std::move(*array))).first->second;
}

Result<const Function*> PlanStore::operatorBody(const Node& node, const OpSchema& schema,
                                                int64_t opset, const OpsetImports& imports) {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  auto found = operator_bodies_.find(&node);
  if (found != operator_bodies_.end()) return found->second->function;
  Result<FunctionBody> body = functionBodyFor(schema, node, opset, imports);
  if (!body) return body.status();
  auto owned = std::make_unique<FunctionBody>(std::move(body).value());
  const Function* function = owned->function;
  operator_body_graphs_.insert(function->body);
  operator_bodies_.emplace(&node, std::move(owned));
  return function;
}

void PlanStore::warnIfReordered(const GraphPlan& plan, std::string_view where) {
  if (plan.reordered) {
    std::string message = std::string(where) +
                          ": the nodes are not in topological order (the spec requires it); "
                          "they run in the order their inputs allow. `onyx convert --sort` "
                          "repairs the file";
    if (options_.observer != nullptr) {
      options_.observer->warning(message);
    } else {
      EvalObserver().warning(message);
    }
  }
  for (const auto& [graph, inner] : plan.subgraphs) {
    std::string path(where);
    if (graph->owner() != nullptr) path = joinPath(path, graphPathInNode(*graph->owner(), *graph));
    warnIfReordered(*inner, path);
  }
}

Result<const GraphPlan*> PlanStore::mainPlan() {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  if (main_plan_ == nullptr) {
    const Graph& graph = *model_.graph;
    Result<std::unique_ptr<GraphPlan>> plan = compileGraph(
        graph, model_imports_, nullptr, graphInputs(graph), graphOutputs(graph), *this);
    if (!plan) return std::move(plan).takeStatus().within("graph");
    main_plan_ = std::move(plan).value();
    warnIfReordered(*main_plan_, "graph");
  }
  return main_plan_.get();
}

Result<const GraphPlan*> PlanStore::functionPlan(const Function& function,
                                                 std::string_view caller_op) {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  auto found = function_plans_.find(&function);
  if (found != function_plans_.end()) return found->second.get();
  const OpsetImports& imports =
      function_imports_.try_emplace(&function, function.opset_import).first->second;
  std::vector<const Value*> inputs(function.inputs.begin(), function.inputs.end());
  std::vector<const Value*> outputs;
  for (const Use* output : function.outputs) outputs.push_back(output->value());
  Result<std::unique_ptr<GraphPlan>> made =
      compileGraph(*function.body, imports, nullptr, inputs, outputs, *this);
  if (!made) return std::move(made).takeStatus();
  const GraphPlan* plan =
      function_plans_.emplace(&function, std::move(made).value()).first->second.get();
  warnIfReordered(*plan, caller_op);
  return plan;
}

Result<const GraphPlan*> PlanStore::passedPlan(const GraphPlan* running, const Graph& graph) {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  auto& made = passed_plans_[{running, &graph}];
  if (made == nullptr) {
    const OpsetImports& imports = running != nullptr ? *running->imports : model_imports_;
    Result<std::unique_ptr<GraphPlan>> plan =
        compileGraph(graph, imports, running, graphInputs(graph), graphOutputs(graph), *this);
    if (!plan) return plan.status();
    made = std::move(plan).value();
  }
  return made.get();
}

}  // namespace onyx::eval_internal
