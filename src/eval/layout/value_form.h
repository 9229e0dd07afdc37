// Internal to the evaluator: the forms in which a slot of a Frame (engine/frame.h) may hold
// its value.
//
// The model says what a value is: its type and shape. Between steps that read it faster
// another way, the plan may hold it in other forms:
//   - channels-last (N, H, W, C), which oneDNN's convolutions and the channels-last kernels
//     (channels_last_kernels.h) read and write;
//   - floats for FLOAT16: a FLOAT16 value held as the FLOAT tensor it was computed in, not
//     yet rounded (kernels/halves_as_floats.h), as onnxruntime runs float16 on CPUs.
// A value may be held in several at once (a channels-last float16 image computed in floats).
// Each form is declared once, with its conversion back to the declared form; steps declare
// the forms they take and give (FusedStep::takes and mayGive, ProvidedKernel::forms), and
// the plan decides where values are held so and where they are converted back
// (engine/layout_plan.h, engine/form_plan.h). A new form is one declareForm() and the steps
// that give and take it.
#pragma once

#include <cstdint>
#include <string_view>

#include "onyx/ops/eval_value.h"
#include "onyx/ops/kernel_context.h"

namespace onyx::eval_internal {

/// A set of forms besides the declared one, a bit each; empty: the declared form.
using FormSet = uint32_t;

/// What declares a form: its name (for messages) and its conversion back to the declared
/// form, over `ctx`'s threads (this thread alone when null), into a new tensor (other slots
/// may share the one held).
struct FormDeclaration {
  std::string_view name;
  void (*to_declared)(EvalValue& value, const KernelContext* ctx);
};

/// The built-in forms (declared in value_form.cc).
inline constexpr FormSet kChannelsLast = 1 << 0;
inline constexpr FormSet kFloatForHalf = 1 << 1;

/// Another form, declared by `declaration`, as a set of one; at most 32 forms in all.
FormSet declareForm(const FormDeclaration& declaration);

/// `value`, held in `held`, with the forms of `drop` converted back (the others stay):
/// returns the forms it is still held in.
FormSet toDeclared(EvalValue& value, FormSet held, FormSet drop, const KernelContext* ctx);

}  // namespace onyx::eval_internal
