// Internal to the evaluator: the values of one graph while it runs, in the numbered slots
// its plan gave them (plan.h).
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "eval/engine/plan.h"
#include "eval/kernels/halves_as_floats.h"
#include "onyx/ops/eval_value.h"

namespace onyx::eval_internal {

struct Frame {
  explicit Frame(const GraphPlan& plan, const Frame* outer_frame)
      : slots(plan.slot_count),
        channels_last(plan.slot_count, false),
        wide(plan.slot_count, false),
        outer(outer_frame) {}

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

  /// Empties `slot` when no later step reads it.
  void drop(uint32_t slot) {
    slots[slot].reset();
    channels_last[slot] = false;
    wide[slot] = false;
  }

  /// Rounds a wide slot's FLOAT tensor to the FLOAT16 one it stands for, over `ctx`'s threads
  /// (this thread alone when null).
  void narrow(uint32_t slot, const KernelContext* ctx) {
    if (!wide[slot]) return;
    wide[slot] = false;
    if (slots[slot] && slots[slot]->isTensor()) {
      slots[slot]->tensor = roundedToHalves(slots[slot]->tensor, ctx);
    }
  }

  std::vector<std::optional<EvalValue>> slots;
  /// Slots holding a channels-last tensor (N, H, W, C), which only steps that read that
  /// layout see (fusion_pattern.h, channels_last_kernels.h).
  std::vector<bool> channels_last;
  /// Slots holding a FLOAT16 value as the FLOAT tensor it was computed in, not yet rounded:
  /// between nodes that run float16 on floats (ProvidedKernel::widens, FusedStep::readsWide),
  /// a value stays float, as onnxruntime's float16 on CPUs does; any other reader gets it
  /// rounded to FLOAT16 first, and a value the plan keeps narrow (GraphPlan::narrow) is
  /// rounded when it is written.
  std::vector<bool> wide;
  const Frame* outer;
};

}  // namespace onyx::eval_internal
