// Internal to the evaluator: the values of one graph while it runs, in the numbered slots
// its plan gave them (plan.h).
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "eval/engine/plan.h"
#include "onyx/ops/eval_value.h"

namespace onyx::eval_internal {

struct Frame {
  explicit Frame(const GraphPlan& plan, const Frame* outer_frame)
      : slots(plan.slot_count), channels_last(plan.slot_count, false), outer(outer_frame) {}

  /// What `operand` reads; null when it has no value (yet).
  const EvalValue* read(const Operand& operand) const {
    switch (operand.from) {
      case Operand::From::kAbsent: return nullptr;
      case Operand::From::kConstant: return operand.constant;
      case Operand::From::kSlot: {
        const Frame* frame = this;
        for (uint32_t out = 0; out < operand.depth && frame != nullptr; ++out) frame = frame->outer;
        if (frame == nullptr) return nullptr;
        const std::optional<EvalValue>& slot = frame->slots[operand.slot];
        return slot ? &*slot : nullptr;
      }
    }
    return nullptr;
  }

  std::vector<std::optional<EvalValue>> slots;
  /// Slots holding a channels-last tensor (N, H, W, C), which only steps that read that
  /// layout see (fusion_pattern.h, channels_last_kernels.h).
  std::vector<bool> channels_last;
  const Frame* outer;
};

}  // namespace onyx::eval_internal
