// Internal to the evaluator: the values of one graph while it runs, in the numbered slots
// its plan gave them (plan.h).
#pragma once

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "eval/engine/plan.h"
#include "eval/layout/value_form.h"
#include "onyx/ops/eval_value.h"

namespace onyx::eval_internal {

struct Frame {
  explicit Frame(const GraphPlan& plan, const Frame* outer_frame)
      : slots(plan.slot_count),
        forms(plan.slot_count, 0),
        keeps_declared(plan.keeps_declared),
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

  /// Holds `value` in `slot`, in the forms `held`; brought back to the declared form now (over
  /// `ctx`'s threads, this thread alone when null) where the plan keeps the slot declared.
  void store(uint32_t slot, EvalValue value, FormSet held, const KernelContext* ctx) {
    slots[slot] = std::move(value);
    forms[slot] = held;
    if (held != 0 && keeps_declared[slot]) forms[slot] = toDeclared(*slots[slot], held, held, ctx);
  }

  /// Empties `slot` when no later step reads it.
  void drop(uint32_t slot) {
    slots[slot].reset();
    forms[slot] = 0;
  }

  /// Applies a step's planned conversions (form_plan.h): a slot not held in a form to drop
  /// costs a compare.
  void convert(const Conversions& conversions) {
    for (const Conversion& conversion : conversions) {
      FormSet& held = forms[conversion.slot];
      if ((held & conversion.drop) == 0 || !slots[conversion.slot]) continue;
      held = toDeclared(*slots[conversion.slot], held, conversion.drop, nullptr);
    }
  }

  std::vector<std::optional<EvalValue>> slots;
  /// The forms each slot holds its value in (value_form.h; none: the declared form), only
  /// between steps that take them; a value the plan keeps declared (GraphPlan::keeps_declared)
  /// is converted back as it is stored.
  std::vector<FormSet> forms;
  const std::vector<bool>& keeps_declared;  // the plan's
  const Frame* outer;
};

}  // namespace onyx::eval_internal
