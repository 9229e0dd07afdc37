// Internal to the evaluator: the form in which a slot of a Frame (engine/frame.h) holds its
// value.
//
// The model says what a value is: its type and shape. Between steps that read it faster
// another way, the plan may hold it in another form, on two axes:
//   - layout: as declared, or channels-last (N, H, W, C), which oneDNN's convolutions and
//     the channels-last kernels (channels_last_kernels.h) read and write;
//   - precision: exact, or a FLOAT16 value held as the FLOAT tensor it was computed in, not
//     yet rounded (kernels/halves_as_floats.h), as onnxruntime runs float16 on CPUs.
// Steps declare the forms they take and give (OtherForms); the plan decides where values
// are held so and where they are converted back (engine/layout_plan.h, engine/form_plan.h).
// Any other reader gets the value back in the declared form: the conversions are here, one
// per axis. A new form is a new value on an axis, with its conversion back.
#pragma once

#include <cstdint>

#include "onyx/ops/eval_value.h"
#include "onyx/ops/kernel_context.h"

namespace onyx::eval_internal {

enum class Layout : uint8_t {
  kDeclared,
  kChannelsLast,
};

enum class Precision : uint8_t {
  kExact,
  kFloatForHalf,  // a FLOAT tensor that stands for the FLOAT16 one it rounds to
};

struct ValueForm {
  Layout layout = Layout::kDeclared;
  Precision precision = Precision::kExact;
  bool operator==(const ValueForm&) const = default;
};

inline constexpr ValueForm kDeclaredForm{};

/// The forms besides the declared one that a step takes for a value it reads, or may give
/// for a value it writes: what a fused step (fusion_pattern.h) or a provided kernel
/// (provider.h) declares, for the plan to convert in between (engine/form_plan.h).
struct OtherForms {
  bool channels_last = false;
  bool float_for_half = false;
};

/// `value`, held in layout `from`, in the declared layout (its precision unchanged).
void toDeclaredLayout(EvalValue& value, Layout from);
/// `value`, held in precision `from`, in its exact type (its layout unchanged): a FLOAT tensor
/// for FLOAT16 rounded over `ctx`'s threads (this thread alone when null).
void toExactPrecision(EvalValue& value, Precision from, const KernelContext* ctx);

}  // namespace onyx::eval_internal
