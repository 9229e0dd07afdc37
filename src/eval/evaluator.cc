// The public face of the evaluator: a model's inputs bound by name and checked against the
// graph's declarations, then the walk (executor.h).
#include "onyx/eval/evaluator.h"

#include <cstring>
#include <iostream>

#include "eval/engine/executors.h"
#include "eval/kernels/onednn_support.h"
#include "onyx/core/element_type.h"
#include "onyx/core/quote.h"
#include "onyx/ir/constant_value.h"
#include "onyx/ir/value.h"
#include "ops/kernels.h"

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
  return run(inputs, {}, limits);
}

namespace {

// The index of each bound output among the graph's outputs, having checked that each names
// one output, once, with an array that overlaps no other bound one and fits its declaration.
Result<std::vector<size_t>> boundOutputIndices(const Graph& graph,
                                               std::span<const BoundOutput> bound) {
  std::vector<size_t> indices;
  for (size_t k = 0; k < bound.size(); ++k) {
    const BoundOutput& output = bound[k];
    const std::string what = "bound output " + quoted(output.name);
    size_t index = 0;
    while (index < graph.outputs.size() && (graph.outputs[index]->bound() == nullptr ||
                                            graph.outputs[index]->bound()->name() != output.name)) {
      ++index;
    }
    if (index == graph.outputs.size()) {
      return Status(ErrorCode::kInvalidArgument,
                    "the graph has no output named " + quoted(output.name) + " to bind");
    }
    if (output.array.isString()) {
      return Status(ErrorCode::kInvalidArgument, what + ": STRING outputs cannot be bound");
    }
    for (size_t earlier = 0; earlier < k; ++earlier) {
      if (indices[earlier] == index) {
        return Status(ErrorCode::kInvalidArgument, what + " is bound twice");
      }
      if (bound[earlier].array.overlaps(output.array)) {
        return Status(ErrorCode::kInvalidArgument,
                      what + ": its array overlaps that of " + quoted(bound[earlier].name));
      }
    }
    if (std::string why = mismatch(EvalValue::of(output.array), graph.outputs[index]->type);
        !why.empty()) {
      return Status(ErrorCode::kInvalidArgument, what + ": " + why);
    }
    indices.push_back(index);
  }
  return indices;
}

// Puts each bound output's value in the caller's array where the kernel did not write it
// there, and returns that array for it.
Status placeBoundOutputs(std::vector<EvalValue>& outputs, std::span<const size_t> indices,
                         std::span<const BoundOutput> bound) {
  for (size_t k = 0; k < bound.size(); ++k) {
    EvalValue& made = outputs[indices[k]];
    Array into = bound[k].array;
    if (!made.isTensor() || made.tensor.type() != into.type() ||
        made.tensor.shape() != into.shape()) {
      std::string got = made.isTensor() ? std::string(elementTypeName(made.tensor.type())) +
                                              ops::shapeText(made.tensor.shape())
                                        : std::string("not a tensor");
      return Status(ErrorCode::kInvalidArgument,
                    "output " + quoted(bound[k].name) + " is " + got + ", its bound array " +
                        std::string(elementTypeName(into.type())) + ops::shapeText(into.shape()));
    }
    if (made.tensor.bytes().data() == into.bytes().data()) continue;
    // Another output that lies there (an input given back, where the array is an input's)
    // keeps its value.
    for (EvalValue& other : outputs) {
      if (&other != &made && other.isTensor() && other.tensor.overlaps(into)) {
        other.tensor = other.tensor.clone();
      }
    }
    std::span<const std::byte> from = made.tensor.bytes();
    if (!from.empty()) std::memmove(into.bytes().data(), from.data(), from.size());
    made = EvalValue::of(std::move(into));
  }
  return Status::ok();
}

// Whether `output` may be written in place where `input` (held in slot `input_slot`) lies:
// `array` is exactly the input's elements, the node that makes the output updates its input
// 0 in place (OpTraits::kUpdatesInPlace) and that input is this one, read last there (nothing
// reads it after the node). A decoder's cache carried from run to run, bound where the past
// lies, is then updated in place (TensorScatter writes only the new rows) instead of written
// beside and copied over it after the run. Any other kernel may read its input after it
// began to write its output (a MatMul does), so the output is then copied in after the run.
bool writesOverItsLastRead(const eval_internal::GraphPlan& plan,
                           const eval_internal::Operand& output, uint32_t input_slot,
                           const Array& input, const Array& array) {
  if (output.from != eval_internal::Operand::From::kSlot || output.depth != 0 ||
      input.bytes().data() != array.bytes().data() ||
      input.bytes().size() != array.bytes().size()) {
    return false;
  }
  for (const eval_internal::BoundNode& bound : plan.nodes) {
    if (std::find(bound.outputs.begin(), bound.outputs.end(), static_cast<int32_t>(output.slot)) ==
        bound.outputs.end()) {
      continue;
    }
    if (bound.schema == nullptr || !hasTraits(bound.schema->traits, OpTraits::kUpdatesInPlace) ||
        bound.outputs.front() != static_cast<int32_t>(output.slot) || bound.inputs.empty() ||
        bound.last_read.empty() || !bound.last_read[0]) {
      return false;
    }
    const eval_internal::Operand& read = bound.inputs[0];
    if (read.from != eval_internal::Operand::From::kSlot || read.depth != 0 ||
        read.slot != input_slot) {
      return false;
    }
    // Read by no other input slot of the node either.
    for (size_t i = 1; i < bound.inputs.size(); ++i) {
      const eval_internal::Operand& other = bound.inputs[i];
      if (other.from == eval_internal::Operand::From::kSlot && other.depth == 0 &&
          other.slot == input_slot) {
        return false;
      }
    }
    return true;
  }
  return false;
}

// One run of `model`'s main graph on `executor` (Evaluator::run, once its turn came).
Result<std::vector<EvalValue>> runOn(eval_internal::Executor& executor, const Model& model,
                                     std::span<const NamedValue> inputs,
                                     std::span<const BoundOutput> bound_outputs,
                                     const RunOptions& limits) {
  using eval_internal::Frame;
  using eval_internal::GraphPlan;
  const Graph& graph = *model.graph;
  Result<const GraphPlan*> compiled = executor.mainPlan();
  if (!compiled) return compiled.status();
  const GraphPlan& plan = **compiled;
  // Counted once the run's arrays are back (declared first, so destroyed last): the pool
  // keeps the sizes a run asks for from one run to the next (BufferPool::runEnded).
  struct RunEnd {
    BufferPool& pool;
    ~RunEnd() { pool.runEnded(); }
  } run_end{executor.buffers()};
  BufferPoolScope reuse(executor.buffers());
  BoundedRun bounded(executor, limits);
  Frame frame(plan, nullptr);
  for (const NamedValue& input : inputs) {
    const Value* formal = graph.lookup(input.name);
    if (formal == nullptr || formal->graphInput() == nullptr || formal->graph() != &graph) {
      return Status(ErrorCode::kInvalidArgument,
                    "the graph has no input named " + quoted(input.name));
    }
    if (fixedInitializer(formal, executor.plans().initializerInputs()) != nullptr) {
      return Status(ErrorCode::kInvalidArgument,
                    "input " + quoted(input.name) + " is an initializer, which " +
                        (model.ir_version.value_or(4) < 4
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
    Result<const EvalValue*> initial = executor.plans().constant(*formal);
    if (!initial) return initial.status();
    slot = **initial;
  }
  if (bound_outputs.empty()) return executor.runPlan(plan, frame);

  Result<std::vector<size_t>> indices = boundOutputIndices(graph, bound_outputs);
  if (!indices) return indices.status();
  // Written in place by the kernels unless the array lies where an input does, which the
  // kernels may read after the output is made.
  std::vector<uint32_t> slots;
  std::vector<Array> arrays;
  for (size_t k = 0; k < bound_outputs.size(); ++k) {
    const eval_internal::Operand& output = plan.outputs[(*indices)[k]];
    const Array& array = bound_outputs[k].array;
    bool over_an_input = false;
    for (const NamedValue& input : inputs) {
      if (!input.value.isTensor() || !input.value.tensor.overlaps(array)) continue;
      over_an_input = over_an_input || !writesOverItsLastRead(
                                           plan, output, plan.slot_of.at(graph.lookup(input.name)),
                                           input.value.tensor, array);
    }
    if (output.from != eval_internal::Operand::From::kSlot || output.depth != 0 || over_an_input ||
        reinterpret_cast<uintptr_t>(array.bytes().data()) % Array::kAlignment != 0) {
      continue;
    }
    slots.push_back(output.slot);
    arrays.push_back(array);
  }
  executor.destineOutputs(&plan, std::move(slots), std::move(arrays));
  Result<std::vector<EvalValue>> outputs = executor.runPlan(plan, frame);
  executor.destineOutputs(nullptr, {}, {});
  if (!outputs) return outputs;
  ONYX_RETURN_IF_ERROR(placeBoundOutputs(*outputs, *indices, bound_outputs));
  return outputs;
}

}  // namespace

Result<std::vector<EvalValue>> Evaluator::run(std::span<const NamedValue> inputs,
                                              std::span<const BoundOutput> bound_outputs,
                                              const RunOptions& limits) {
  if (model_.graph == nullptr) {
    return Status(ErrorCode::kInvalidArgument, "the model has no graph");
  }
  if (Result<CpuTier> tier = cappedCpuTier(options_->max_isa); !tier) return tier.status();
  return executors_->run(limits, [&](eval_internal::Executor& executor) {
    return runOn(executor, model_, inputs, bound_outputs, limits);
  });
}

Result<std::vector<EvalValue>> evaluate(const Model& model, std::span<const NamedValue> inputs,
                                        const EvalOptions& options) {
  Evaluator evaluator(model, options);
  return evaluator.run(inputs);
}

}  // namespace onyx
