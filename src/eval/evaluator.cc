// The public face of the evaluator: a model's inputs bound by name and checked against the
// graph's declarations, then the walk (executor.h).
#include "onyx/eval/evaluator.h"

#include <iostream>

#include "eval/engine/executors.h"
#include "eval/kernels/onednn_support.h"
#include "onyx/core/element_type.h"
#include "onyx/core/quote.h"
#include "onyx/ir/constant_value.h"
#include "onyx/ir/value.h"

namespace onyx {

namespace {

// Whether `value` fits the declared `type`: kind, element type, rank, known dims.
std::string mismatch(const EvalValue& value, const Type* type) {
  if (type == nullptr || type->kind != Type::Kind::kTensor) return {};
  if (!value.isTensor()) return "a tensor is declared";
  const Array& array = value.tensor;
  if (type->elem_type && *type->elem_type != static_cast<int32_t>(array.type())) {
    return std::string("the element type is ") + std::string(elementTypeName(array.type())) +
           ", declared " + std::string(elementTypeName(*type->elem_type));
  }
  if (type->shape == nullptr) return {};
  if (type->shape->rank() != array.rank()) {
    return "the rank is " + std::to_string(array.rank()) + ", declared " +
           std::to_string(type->shape->rank());
  }
  for (size_t axis = 0; axis < array.rank(); ++axis) {
    const Dimension& dim = type->shape->dims[axis];
    if (dim.dim_value && *dim.dim_value != array.dim(axis)) {
      return "dimension " + std::to_string(axis) + " is " + std::to_string(array.dim(axis)) +
             ", declared " + std::to_string(*dim.dim_value);
    }
  }
  return {};
}

}  // namespace

void EvalObserver::warning(std::string_view message) {
  std::cerr << "warning: " << message << "\n";
}

Evaluator::Evaluator(const Model& model, EvalOptions options)
    : model_(model),
      options_(std::make_unique<EvalOptions>(options)),
      executors_(std::make_unique<eval_internal::Executors>(model, *options_)) {
  eval_internal::capOneDnnIsa();
}

Evaluator::~Evaluator() = default;

namespace {

// Bounds the executor's run for as long as it lives, when `limits` bound anything.
class BoundedRun {
 public:
  BoundedRun(eval_internal::Executor& executor, const RunOptions& limits)
      : executor_(limits.deadline || limits.cancellation != nullptr || limits.memory_limit
                      ? &executor
                      : nullptr) {
    if (executor_ != nullptr) executor_->limitRun(&limits);
  }
  ~BoundedRun() {
    if (executor_ != nullptr) executor_->limitRun(nullptr);
  }
  BoundedRun(const BoundedRun&) = delete;
  BoundedRun& operator=(const BoundedRun&) = delete;

 private:
  eval_internal::Executor* executor_;
};

}  // namespace

Result<std::vector<EvalValue>> Evaluator::run(std::span<const NamedValue> inputs,
                                              const RunOptions& limits) {
  using eval_internal::Frame;
  using eval_internal::GraphPlan;
  if (model_.graph == nullptr) {
    return Status(ErrorCode::kInvalidArgument, "the model has no graph");
  }
  if (Result<CpuTier> tier = cappedCpuTier(options_->max_isa); !tier) return tier.status();
  const Graph& graph = *model_.graph;
  eval_internal::Executors::Lease executor = executors_->lease();
  Result<const GraphPlan*> compiled = executor->mainPlan();
  if (!compiled) return compiled.status();
  const GraphPlan& plan = **compiled;
  BufferPoolScope reuse(executor->buffers());
  BoundedRun bounded(*executor, limits);
  Frame frame(plan, nullptr);
  for (const NamedValue& input : inputs) {
    const Value* formal = graph.lookup(input.name);
    if (formal == nullptr || formal->graphInput() == nullptr || formal->graph() != &graph) {
      return Status(ErrorCode::kInvalidArgument,
                    "the graph has no input named " + quoted(input.name));
    }
    if (fixedInitializer(formal, executor->plans().initializerInputs()) != nullptr) {
      return Status(ErrorCode::kInvalidArgument,
                    "input " + quoted(input.name) + " is an initializer, which " +
                        (model_.ir_version.value_or(4) < 4
                             ? "a model before IR 4 does not let the caller override"
                             : "the run takes as a constant (constant_initializers)"));
    }
    if (std::string why = mismatch(input.value, formal->type()); !why.empty()) {
      return Status(ErrorCode::kInvalidArgument, "input " + quoted(input.name) + ": " + why);
    }
    frame.slots[plan.slot_of.at(formal)] = input.value;
  }
  for (size_t i = 0; i < graph.inputs.size(); ++i) {
    const Value* formal = graph.inputs[i]->value;
    if (formal == nullptr || plan.input_slots[i] < 0) continue;
    std::optional<EvalValue>& slot = frame.slots[static_cast<size_t>(plan.input_slots[i])];
    if (slot) continue;
    if (formal->initializer() == nullptr) {
      return Status(ErrorCode::kInvalidArgument,
                    "input " + quoted(formal->name()) + " is not given");
    }
    // An input with an initializer left out takes the initializer.
    Result<const EvalValue*> initial = executor->plans().constant(*formal);
    if (!initial) return initial.status();
    slot = **initial;
  }
  return executor->runPlan(plan, frame);
}

Result<std::vector<EvalValue>> evaluate(const Model& model, std::span<const NamedValue> inputs,
                                        const EvalOptions& options) {
  Evaluator evaluator(model, options);
  return evaluator.run(inputs);
}

}  // namespace onyx
