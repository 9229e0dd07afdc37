// Internal to the evaluator: a float16 node run on its operator's float kernel, its float16
// inputs widened to float and each float output rounded to float16 once, as onnxruntime runs
// float16 on CPUs. For operators whose outputs are float16 exactly when their inputs are (the
// caller chooses them: providers/onyx/halves_as_floats.cc, the channels-last elementwise
// kernel).
#pragma once

#include "onyx/ops/kernel_context.h"

namespace onyx::eval_internal {

/// FLOAT16 `half` widened to a new FLOAT array of its shape, and FLOAT `wide` rounded to a new
/// FLOAT16 one, split over `ctx`'s threads (this thread alone when null).
Array widenedHalves(const Array& half, const KernelContext* ctx);
Array roundedToHalves(const Array& wide, const KernelContext* ctx);

/// Whether an input of the node is a FLOAT16 tensor.
bool hasHalfInput(const KernelContext& ctx);

/// Runs the node's own kernel (its schema's) on its inputs with every FLOAT16 one widened to
/// FLOAT, then rounds each FLOAT output to FLOAT16.
Status runOnFloats(KernelContext& ctx);

}  // namespace onyx::eval_internal
