// The evaluator's walk: the steps of a compiled plan, in order, each node through its
// provided or built-in kernel or the plan of the function it calls, subgraphs in frames
// nested in their node's.
#include "eval/engine/executor.h"

#include <algorithm>
#include <chrono>
#include <mutex>
#include <thread>

#include "core/place_path.h"
#include "eval/engine/step_run.h"
#include "eval/fusions/fusion_pattern.h"
#include "eval/kernels/native_kernel_table.h"
#include "eval/layout/channels_last_kernels.h"
#include "ir/graph_place.h"
#include "onyx/core/quote.h"
#include "onyx/ir/function.h"
#include "onyx/ir/node.h"
#include "onyx/ir/tensor_array.h"
#include "onyx/ir/value.h"

namespace onyx::eval_internal {

// Moves the walk to a node's plan and frame (and into a function call) for as long as it
// lives, and back after.
class Executor::Enter {
 public:
  Enter(Executor& executor, Position position) : executor_(executor), saved_(executor.at_) {
    executor_.at_ = position;
  }
  ~Enter() { executor_.at_ = saved_; }
  Enter(const Enter&) = delete;
  Enter& operator=(const Enter&) = delete;

 private:
  Executor& executor_;
  Position saved_;
};

Executor::Executor(PlanStore& plans, const EvalOptions& options)
    : options_(options), plans_(plans), threads_(configuredThreads(options)), pool_(threads_) {}

Executor::~Executor() = default;

int configuredThreads(const EvalOptions& options) {
  if (options.threads > 0) return options.threads;
  return static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
}

int Executor::threads() const { return threads_; }

void Executor::setThreads(int threads) {
  threads_ = threads;
  pool_.setThreads(threads);
}

const NativeKernels* Executor::nativeKernels() const { return &eval_internal::nativeKernels(); }

void Executor::limitRun(const RunOptions* limits) {
  limits_ = limits;
  live_at_start_ = buffers_.liveBytes();
  buffers_.setLimit(limits != nullptr && limits->memory_limit
                        ? std::optional<size_t>(live_at_start_ + *limits->memory_limit)
                        : std::nullopt);
}

Status Executor::stopped() const {
  if (limits_->cancellation != nullptr && limits_->cancellation->cancelled()) {
    return Status(ErrorCode::kCancelled, "the run was cancelled");
  }
  if (limits_->deadline && std::chrono::steady_clock::now() >= *limits_->deadline) {
    return Status(ErrorCode::kDeadlineExceeded, "the run passed its deadline");
  }
  if (limits_->memory_limit) {
    size_t live = buffers_.liveBytes();
    size_t held = live > live_at_start_ ? live - live_at_start_ : 0;
    if (held > *limits_->memory_limit) {
      return Status(ErrorCode::kLimitExceeded, "the run holds " + std::to_string(held) +
                                                   " bytes, past its memory limit of " +
                                                   std::to_string(*limits_->memory_limit));
    }
  }
  return Status::ok();
}

Status Executor::runNode(const BoundNode& bound, Frame& frame, bool* declined) {
  if (bound.kept && bound.kept->ready.load(std::memory_order_acquire)) {
    takeKeptOutputs(bound, frame);
    return Status::ok();
  }
  KernelContext& ctx = contextFor(bound);
  ctx.caller_ = at_.caller;
  ctx.callee_ = at_.callee;
  // Its outputs are held as floats for FLOAT16 (value_form.h) where it ran on floats: a node
  // that widens, or one on its channels-last kernel (which runs float16 on floats too), given
  // such inputs or FLOAT16 ones. Any other node's inputs were made exact (BoundNode::alone).
  const bool widens = declined != nullptr ||
                      (bound.provided != nullptr && (bound.provided->forms() & kFloatForHalf) != 0);
  bool on_floats = false;
  for (const Operand& operand : bound.inputs) {
    if (operand.from != Operand::From::kSlot || operand.depth != 0) continue;
    const std::optional<EvalValue>& held = frame.slots[operand.slot];
    on_floats =
        on_floats || (frame.forms[operand.slot] & kFloatForHalf) != 0 ||
        (widens && held && held->isTensor() && held->tensor.type() == ElementType::kFloat16);
  }
  for (size_t i = 0; i < bound.inputs.size(); ++i) {
    const Operand& operand = bound.inputs[i];
    if (operand.from == Operand::From::kAbsent) continue;
    ctx.inputs_[i] = frame.read(operand);
    if (ctx.inputs_[i] == nullptr && operand.from == Operand::From::kConstant) {
      // A constant only steps reading its bytes were to read (Operand::value): converted now.
      Result<const EvalValue*> constant = plans_.constant(*operand.value);
      if (!constant) return constant.status();
      ctx.inputs_[i] = *constant;
    }
    if (ctx.inputs_[i] == nullptr) {
      return Status(ErrorCode::kInvalidArgument,
                    quoted(bound.node->input(i)->name()) + " has no value");
    }
  }
  // runStep has moved the walk to this node's plan and frame (a kernel's subgraph runs
  // nested in them).
  std::string_view by;  // set last: a kernel that runs a subgraph sets ran_by_ in between
  Status status = runKernel(bound, ctx, declined, by);
  if (declined != nullptr && *declined) {
    std::fill(ctx.inputs_.begin(), ctx.inputs_.end(), nullptr);
    return Status::ok();
  }
  storeOutputs(bound, frame, ctx, status.isOk(), declined != nullptr, on_floats);
  std::fill(ctx.inputs_.begin(), ctx.inputs_.end(), nullptr);
  ran_by_ = by;
  if (status.isOk() && bound.kept && declined == nullptr) keepOutputs(bound, frame);
  return status;
}

void Executor::takeKeptOutputs(const BoundNode& bound, Frame& frame) {
  // Shared with `kept`: a kernel that reads them writes its result elsewhere.
  for (size_t i = 0; i < bound.outputs.size(); ++i) {
    if (bound.outputs[i] < 0) continue;
    frame.store(static_cast<uint32_t>(bound.outputs[i]), bound.kept->values[i], 0, nullptr);
  }
  ran_by_ = "kept";
}

void Executor::keepOutputs(const BoundNode& bound, const Frame& frame) {
  // The first run to finish keeps its outputs for every later one.
  std::lock_guard<std::mutex> lock(bound.kept->mutex);
  if (bound.kept->ready.load(std::memory_order_relaxed)) return;
  bound.kept->values.assign(bound.outputs.size(), EvalValue{});
  for (size_t i = 0; i < bound.outputs.size(); ++i) {
    if (bound.outputs[i] >= 0) bound.kept->values[i] = *frame.slots[size_t(bound.outputs[i])];
  }
  bound.kept->ready.store(true, std::memory_order_release);
}

namespace {

// The object `index` names in `kept`, made by `make` at its first use.
template <class T, class Make>
T& madeOnFirstUse(std::vector<std::unique_ptr<T>>& kept, uint32_t index, Make&& make) {
  if (index >= kept.size()) kept.resize(size_t(index) + 1);
  if (kept[index] == nullptr) kept[index] = make();
  return *kept[index];
}

}  // namespace

ProvidedKernel& Executor::providedFor(const BoundNode& bound) {
  return madeOnFirstUse(provided_, bound.run_index, [&] { return bound.provided->fresh(); });
}

FusedStep& Executor::fusedFor(const PlanStep& step) {
  return madeOnFirstUse(fused_, step.run_index, [&] { return step.fused->replica(); });
}

KernelContext& Executor::contextFor(const BoundNode& bound) {
  // Made at the node's first run on this executor (a node runs once at a time on one
  // executor: a call to its own function runs another plan's nodes).
  if (bound.run_index >= contexts_.size()) contexts_.resize(size_t(bound.run_index) + 1);
  std::unique_ptr<KernelContext>& made = contexts_[bound.run_index];
  if (made == nullptr) {
    static constexpr OpSchema kNoSignature{};
    made = std::make_unique<KernelContext>(
        *bound.node, bound.schema != nullptr ? *bound.schema : kNoSignature, bound.opset, *this);
    made->inputs_.resize(bound.inputs.size(), nullptr);
    made->outputs_.resize(bound.outputs.size());
    made->wanted_.resize(bound.outputs.size());
    for (size_t i = 0; i < bound.outputs.size(); ++i) made->wanted_[i] = bound.outputs[i] >= 0;
    made->last_read_ = bound.last_read;
  }
  return *made;
}

Status Executor::runKernel(const BoundNode& bound, KernelContext& ctx, bool* declined,
                           std::string_view& by) {
  if (bound.function != nullptr) {
    by = "function";
    Result<std::vector<EvalValue>> outputs = callFunction(bound, ctx);
    if (!outputs) return std::move(outputs).takeStatus();
    for (size_t i = 0; i < outputs->size() && i < ctx.outputs_.size(); ++i) {
      ctx.outputs_[i] = std::move((*outputs)[i]);
    }
    return Status::ok();
  }
  if (declined != nullptr) {
    by = bound.channels_last_by;
    Result<bool> ran = bound.channels_last_kernel->run(ctx, bound.kernel);
    if (!ran) return std::move(ran).takeStatus();
    if (!*ran) *declined = true;
    return Status::ok();
  }
  Result<bool> provided = false;
  if (bound.provided != nullptr) provided = providedFor(bound).run(ctx);
  by = bound.provider;
  if (!provided) return std::move(provided).takeStatus();
  if (*provided) return Status::ok();
  by = "built-in";
  return bound.kernel(ctx);
}

void Executor::storeOutputs(const BoundNode& bound, Frame& frame, KernelContext& ctx, bool ran,
                            bool channels_last, bool on_floats) {
  for (size_t i = 0; i < bound.outputs.size(); ++i) {
    // Moved out, or dropped: the context keeps no value between runs.
    if (!ran || bound.outputs[i] < 0) {
      ctx.outputs_[i] = EvalValue{};
      continue;
    }
    // A result of the node's float kernel that stands for FLOAT16 (rounded as it is stored
    // where the plan keeps the value exact).
    EvalValue& made = ctx.outputs_[i];
    const bool for_half = on_floats && made.isTensor() && made.tensor.type() == ElementType::kFloat;
    frame.store(static_cast<uint32_t>(bound.outputs[i]), std::move(made),
                (channels_last ? kChannelsLast : 0) | (for_half ? kFloatForHalf : 0), &ctx);
    ctx.outputs_[i].kind = EvalValue::Kind::kNone;
  }
}

bool Executor::imagesChannelsLast(const BoundNode& bound, const Frame& frame) const {
  bool any = false;
  for (size_t i = 0; i < bound.inputs.size(); ++i) {
    const Operand& input = bound.inputs[i];
    if (input.from == Operand::From::kAbsent || !bound.channels_last_kernel->image(i)) continue;
    if (input.from == Operand::From::kSlot && input.depth == 0 &&
        (frame.forms[input.slot] & kChannelsLast) != 0) {
      any = true;
      continue;
    }
    const EvalValue* value = frame.read(input);
    if (value == nullptr || !value->isTensor() || value->tensor.size() != 1 ||
        value->tensor.rank() > 4) {
      return false;
    }
  }
  return any;
}

void Executor::destineOutputs(const GraphPlan* plan, std::vector<uint32_t> slots,
                              std::vector<Array> arrays) {
  destined_plan_ = plan;
  destined_slots_ = std::move(slots);
  destinations_ = std::move(arrays);
}

Status Executor::runStep(const GraphPlan& plan, const PlanStep& step, Frame& frame) {
  Enter enter(*this, {.plan = &plan, .frame = &frame, .caller = at_.caller, .callee = at_.callee});
  // The caller's memory for the outputs this step makes, when it bound some.
  std::vector<Array> destined;
  if (&plan == destined_plan_) {
    for (size_t member : step.members) {
      for (int32_t slot : plan.nodes[member].outputs) {
        for (size_t i = 0; i < destined_slots_.size(); ++i) {
          if (slot >= 0 && static_cast<uint32_t>(slot) == destined_slots_[i]) {
            destined.push_back(destinations_[i]);
          }
        }
      }
    }
  }
  std::optional<ArrayDestinationScope> destination;
  if (!destined.empty()) destination.emplace(destined);
  if (step.fused != nullptr) {
    frame.convert(step.before);
    FrameStepRun run(*this, plans_, plan, step, frame, at_.caller, at_.callee);
    FusedStep& fused = fusedFor(step);
    Result<bool> ran = fused.run(run);
    const BoundNode& last = plan.nodes[step.members.back()];
    if (!ran) {
      return std::move(ran).takeStatus().within(
          pathSegment("node", last.index, last.node->nameOrEmpty()));
    }
    if (*ran) {
      ran_by_ = fused.ranBy().empty() ? std::string_view(step.fused_by) : fused.ranBy();
      return Status::ok();
    }
    if (options_.observer != nullptr) {
      std::vector<const Node*> members;
      for (size_t member : step.members) members.push_back(plan.nodes[member].node);
      options_.observer->fusionDeclined(members);
    }
    // The deferred nodes whose outputs the members read, run now.
    for (size_t member : step.members) {
      for (const Operand& input : plan.nodes[member].inputs) {
        if (input.from != Operand::From::kSlot || input.depth != 0 || frame.slots[input.slot]) {
          continue;
        }
        auto deferred = plan.deferred_steps.find(input.slot);
        if (deferred == plan.deferred_steps.end()) continue;
        ONYX_RETURN_IF_ERROR(runStep(plan, plan.steps[deferred->second], frame));
      }
    }
  }
  for (size_t member : step.members) {
    const BoundNode& bound = plan.nodes[member];
    auto failed = [&](Status status) {
      return status.within(pathSegment("node", bound.index, bound.node->nameOrEmpty()));
    };
    // On channels-last values, when the plan keeps them so and the producers did.
    if (bound.channels_last && imagesChannelsLast(bound, frame)) {
      bool declined = false;
      Status status = runNode(bound, frame, &declined);
      if (!status.isOk()) return failed(std::move(status));
      if (!declined) continue;
    }
    // Alone, on what it reads in the form the plan converts it to.
    frame.convert(bound.alone);
    Status status = runNode(bound, frame);
    if (!status.isOk()) return failed(std::move(status));
  }
  if (step.fused != nullptr) ran_by_ = "one by one";
  return Status::ok();
}

Result<std::vector<EvalValue>> Executor::runPlan(const GraphPlan& plan, Frame& frame) {
  EvalObserver* observer = options_.observer;
  std::vector<const Node*> members;
  for (const PlanStep& step : plan.steps) {
    // The clock is read only for an observer.
    auto start = observer != nullptr ? std::chrono::steady_clock::now()
                                     : std::chrono::steady_clock::time_point();
    if (step.deferred) {
      for (uint32_t slot : step.drops) frame.drop(slot);
      continue;
    }
    if (limits_ != nullptr) {
      // Checked before the step: a bound passed in the step before (its memory) or since.
      if (Status stop = stopped(); !stop.isOk()) {
        const BoundNode& first = plan.nodes[step.members.front()];
        return stop.within(pathSegment("node", first.index, first.node->nameOrEmpty()));
      }
    }
    ONYX_RETURN_IF_ERROR(runStep(plan, step, frame));
    if (observer != nullptr) {
      auto elapsed = std::chrono::steady_clock::now() - start;
      members.clear();
      for (size_t member : step.members) members.push_back(plan.nodes[member].node);
      auto nanoseconds = std::chrono::duration_cast<std::chrono::nanoseconds>(elapsed);
      if (depth_ == 0) {
        observer->stepRanBy(members, nanoseconds, ran_by_);
      } else {
        observer->innerStepRan(members, nanoseconds, depth_);
      }
    }
    for (uint32_t slot : step.drops) frame.drop(slot);
  }
  std::vector<EvalValue> outputs;
  outputs.reserve(plan.outputs.size());
  for (const Operand& output : plan.outputs) {
    if (output.from == Operand::From::kAbsent) {
      outputs.emplace_back();
      continue;
    }
    const EvalValue* value = frame.read(output);
    if (value == nullptr) return Status(ErrorCode::kInvalidArgument, "an output has no value");
    outputs.push_back(*value);
  }
  return outputs;
}

Result<const GraphPlan*> Executor::subgraphPlan(const Graph& graph) {
  if (at_.plan != nullptr) {
    auto held = at_.plan->subgraphs.find(&graph);
    if (held != at_.plan->subgraphs.end()) return held->second.get();
  }
  return plans_.passedPlan(at_.plan, graph);
}

Result<std::vector<EvalValue>> Executor::runSubgraph(const Graph& graph,
                                                     std::vector<EvalValue> inputs) {
  Result<const GraphPlan*> found = subgraphPlan(graph);
  if (!found) return found.status();
  if (++depth_ > options_.max_depth) {
    --depth_;
    return Status(ErrorCode::kLimitExceeded,
                  "subgraphs nest deeper than " + std::to_string(options_.max_depth));
  }
  const GraphPlan& plan = **found;
  Frame inner(plan, at_.frame);
  for (size_t i = 0; i < plan.input_slots.size(); ++i) {
    if (plan.input_slots[i] < 0) continue;
    std::optional<EvalValue>& slot = inner.slots[static_cast<size_t>(plan.input_slots[i])];
    if (i < inputs.size()) {
      slot = std::move(inputs[i]);
      continue;
    }
    // Up to IR 3 a body lists its initializers as inputs after the passed ones: those take
    // the initializer (Graph::passedInputCount).
    const Value* formal = i < graph.inputs.size() ? graph.inputs[i]->value : nullptr;
    if (formal == nullptr || formal->initializer() == nullptr) continue;
    Result<const EvalValue*> initial = plans_.constant(*formal);
    if (!initial) {
      --depth_;
      return initial.status();
    }
    slot = **initial;
  }
  Result<std::vector<EvalValue>> outputs = runPlan(plan, inner);
  --depth_;
  if (!outputs && graph.owner() != nullptr) {
    // Named as the checker names it: the node's path, then the attribute holding the graph.
    return std::move(outputs).takeStatus().within(graphPathInNode(*graph.owner(), graph));
  }
  return outputs;
}

Result<std::vector<EvalValue>> Executor::callFunction(const BoundNode& bound, KernelContext& ctx) {
  const Function& function = *bound.function;
  if (function.body == nullptr) return std::vector<EvalValue>{};
  if (++depth_ > options_.max_depth) {
    --depth_;
    return Status(ErrorCode::kLimitExceeded,
                  "function calls nest deeper than " + std::to_string(options_.max_depth));
  }
  Result<const GraphPlan*> plan = plans_.functionPlan(function, bound.node->opType());
  if (!plan) {
    --depth_;
    return plan.status();
  }
  Frame body(**plan, nullptr);  // closed: a function reads nothing outside it
  for (size_t i = 0; i < (*plan)->input_slots.size() && i < ctx.inputCount(); ++i) {
    int32_t slot = (*plan)->input_slots[i];
    if (slot >= 0 && ctx.hasInput(i)) body.slots[static_cast<size_t>(slot)] = *ctx.input(i);
  }
  Result<std::vector<EvalValue>> outputs = [&] {
    Enter enter(*this,
                {.plan = nullptr, .frame = nullptr, .caller = &ctx.node(), .callee = &function});
    return runPlan(**plan, body);
  }();
  --depth_;
  return outputs;
}

}  // namespace onyx::eval_internal
