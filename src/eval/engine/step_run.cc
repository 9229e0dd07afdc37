#include "eval/engine/step_run.h"

#include <algorithm>

#include "core/development_checks.h"

#include "onyx/ir/constant_value.h"
#include "onyx/ir/value.h"

namespace onyx::eval_internal {

const Array* FrameStepRun::tensor(const Value* value) {
  if (value == nullptr) return nullptr;
  const EvalValue* held = nullptr;
  Operand operand = plan_.operandOf(value);
  const bool own = operand.from == Operand::From::kSlot && operand.depth == 0;
  // The plan made it exact before the step ran, unless the step reads it as floats.
  ONYX_ASSERT(!own || (frame_.forms[operand.slot] & ~step_.fused->takes(value)) == 0);
  if (operand.from != Operand::From::kAbsent) {
    held = frame_.read(operand);
  } else if (value->initializer() != nullptr ||
             constantTensor(value, plans_.initializerInputs()) != nullptr) {
    // A constant the plan gives no slot: an initializer, or a Constant node's tensor.
    Result<const EvalValue*> constant = plans_.constant(*value);
    held = constant ? *constant : nullptr;
  }
  return held != nullptr && held->isTensor() ? &held->tensor : nullptr;
}

bool FrameStepRun::channelsLast(const Value* value) const {
  std::optional<uint32_t> slot = ownSlot(value);
  return slot && (frame_.forms[*slot] & kChannelsLast) != 0;
}

std::optional<Array> FrameStepRun::takeIfLastRead(const Value* value) {
  std::optional<uint32_t> slot = ownSlot(value);
  if (!slot || std::find(step_.drops.begin(), step_.drops.end(), *slot) == step_.drops.end()) {
    return std::nullopt;
  }
  std::optional<EvalValue>& held = frame_.slots[*slot];
  if (!held || !held->isTensor() || !held->tensor.soleHandle() ||
      (frame_.forms[*slot] & kFloatForHalf) != 0) {
    return std::nullopt;
  }
  std::optional<Array> taken(std::move(held->tensor));
  held.reset();
  return taken;
}

void FrameStepRun::restore(const Value* value, Array array) {
  frame_.slots[*ownSlot(value)] = EvalValue::of(std::move(array));
}

void FrameStepRun::write(const Value* value, Array array, bool channels_last, bool wide) {
  uint32_t slot = plan_.slot_of.at(value);
  frame_.store(slot, EvalValue::of(std::move(array)),
               (channels_last ? kChannelsLast : 0) | (wide ? kFloatForHalf : 0), nullptr);
}

KernelContext FrameStepRun::context(const Node& node) {
  static constexpr OpSchema kNoSignature{};
  for (size_t member : step_.members) {
    const BoundNode& bound = plan_.nodes[member];
    if (bound.node != &node) continue;
    KernelContext ctx(node, bound.schema != nullptr ? *bound.schema : kNoSignature, bound.opset,
                      host_);
    ctx.caller_ = caller_;
    ctx.callee_ = callee_;
    return ctx;
  }
  return KernelContext(node, kNoSignature, 0, host_);
}

std::optional<uint32_t> FrameStepRun::ownSlot(const Value* value) const {
  auto found = value != nullptr ? plan_.slot_of.find(value) : plan_.slot_of.end();
  if (found == plan_.slot_of.end()) return std::nullopt;
  return found->second;
}

}  // namespace onyx::eval_internal
