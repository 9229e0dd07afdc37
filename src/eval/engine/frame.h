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
        forms(plan.slot_count),
        keeps_exact(plan.keeps_exact),
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

  /// Holds `value` in `slot`, in `form`; rounded to its exact precision now (over `ctx`'s
  /// threads, this thread alone when null) where the plan keeps the slot exact.
  void store(uint32_t slot, EvalValue value, ValueForm form, const KernelContext* ctx) {
    slots[slot] = std::move(value);
    forms[slot] = form;
    if (keeps_exact[slot]) toExactPrecision(slot, ctx);
  }

  /// Applies a step's planned conversions (form_plan.h).
  void convert(const Conversions& conversions) {
    for (uint32_t slot : conversions.to_declared_layout) toDeclaredLayout(slot);
    for (uint32_t slot : conversions.to_exact) toExactPrecision(slot, nullptr);
  }

  /// Empties `slot` when no later step reads it.
  void drop(uint32_t slot) {
    slots[slot].reset();
    forms[slot] = kDeclaredForm;
  }

  /// Brings the value of `slot` to the declared layout (its precision stays).
  void toDeclaredLayout(uint32_t slot) {
    if (forms[slot].layout == Layout::kDeclared) return;
    if (slots[slot]) eval_internal::toDeclaredLayout(*slots[slot], forms[slot].layout);
    forms[slot].layout = Layout::kDeclared;
  }

  /// Brings the value of `slot` to its exact precision (its layout stays), over `ctx`'s
  /// threads (this thread alone when null).
  void toExactPrecision(uint32_t slot, const KernelContext* ctx) {
    if (forms[slot].precision == Precision::kExact) return;
    if (slots[slot]) eval_internal::toExactPrecision(*slots[slot], forms[slot].precision, ctx);
    forms[slot].precision = Precision::kExact;
  }

  std::vector<std::optional<EvalValue>> slots;
  /// The form each slot holds its value in (value_form.h): another than the declared one
  /// only between steps that read it so; a value the plan keeps exact (GraphPlan::keeps_exact) is
  /// rounded when it is written.
  std::vector<ValueForm> forms;
  const std::vector<bool>& keeps_exact;  // the plan's (GraphPlan::keeps_exact)
  const Frame* outer;
};

}  // namespace onyx::eval_internal
