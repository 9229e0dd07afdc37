// Internal: what several math operators' shape rules share (docs/inference.md).
#pragma once

#include <cstdint>
#include <optional>

#include "onyx/ops/inference_context.h"

namespace onyx::ops {

/// The one element of input `i` (a scalar or a one-element vector) when the engine knows
/// it, as a number or a symbolic value; nullopt otherwise.
std::optional<DimValue> scalarInputData(InferenceContext& ctx, size_t i);

/// Softmax, LogSoftmax and Hardmax: output 0 has input 0's shape; `axis` must name one of
/// its axes. Versions before 13 coerce the input to 2-D at `axis`, so there `axis` may
/// also be the rank itself (everything in the first factor).
void inferSoftmaxFamily(InferenceContext& ctx);

/// HannWindow, HammingWindow, BlackmanWindow: a vector of `size` elements of type
/// `output_datatype`.
void inferCosineWindow(InferenceContext& ctx);

/// Whether `elem_type` is a TensorProto.DataType code of a tensor element (not UNDEFINED).
bool isTensorElemType(int64_t elem_type);

}  // namespace onyx::ops
