// Internal: what several math operators' shape rules share (docs/inference.md). Header-only:
// every .cc under src/ops/<family>/ defines an operator (tests/ops/registry_test.cc).
#pragma once

#include <cstdint>
#include <limits>
#include <optional>
#include <string>

#include "onyx/core/element_type.h"
#include "onyx/ops/inference_context.h"
#include "ops/shape_rules.h"

namespace onyx::ops {

/// The one element of input `i` (a scalar or a one-element vector) when the engine knows
/// it, as a number or a symbolic value; nullopt otherwise.
inline std::optional<DimValue> scalarInputData(InferenceContext& ctx, size_t i) {
  const Dims* data = ctx.inputData(i);
  if (data == nullptr || data->size() != 1) return std::nullopt;
  return (*data)[0];
}

/// Whether input `i`, which the operator takes as a scalar, is a scalar where it is a
/// constant (where onnx's signal-processing rules check it, on the values they read: DFT's
/// axis and dft_length, the windows' size, MelWeightMatrix's and STFT's lengths, in
/// onnx/defs/math/defs.cc); fails the node and returns false when it is not.
inline bool constantInputIsScalar(InferenceContext& ctx, size_t i) {
  return ctx.inputConstant(i) == nullptr || inputRankIs(ctx, i, 0);
}

/// Whether `elem_type` is a TensorProto.DataType code of a tensor element (not UNDEFINED).
inline bool isTensorElemType(int64_t elem_type) {
  return elem_type > 0 && elem_type <= std::numeric_limits<int32_t>::max() &&
         elementTypeInfo(static_cast<int32_t>(elem_type)) != nullptr;
}

/// Softmax, LogSoftmax and Hardmax: output 0 has input 0's shape; `axis` must name one of
/// its axes. Versions before 13 coerce the input to 2-D at `axis`, so there `axis` may
/// also be the rank itself (everything in the first factor).
inline void inferSoftmaxFamily(InferenceContext& ctx) {
  const Dims* in = ctx.inputShape(0);
  if (in == nullptr) return;
  int64_t axis = ctx.intAttribute("axis").value_or(ctx.schema().since_version >= 13 ? -1 : 1);
  if (ctx.schema().since_version < 13) {
    // The input is coerced to [prod(dims[:axis]), prod(dims[axis:])]: axis may be the rank.
    int64_t rank = static_cast<int64_t>(in->size());
    if (axis < -rank || axis > rank) {
      ctx.fail("axis " + std::to_string(axis) + " is outside [" + std::to_string(-rank) + ", " +
               std::to_string(rank) + "] for an input of rank " + std::to_string(rank));
      return;
    }
  } else if (!normalizeAxis(ctx, axis, in->size())) {
    return;
  }
  ctx.setOutputShape(0, *in);
}

/// HannWindow, HammingWindow, BlackmanWindow: a vector of `size` elements of type
/// `output_datatype`.
inline void inferCosineWindow(InferenceContext& ctx) {
  int64_t output_type = ctx.intAttribute("output_datatype").value_or(1);
  if (!isTensorElemType(output_type)) {
    ctx.fail("output_datatype " + std::to_string(output_type) + " is not a tensor element type");
    return;
  }
  ctx.setOutputElemType(0, static_cast<int32_t>(output_type));
  if (!constantInputIsScalar(ctx, 0)) return;
  std::optional<DimValue> size = scalarInputData(ctx, 0);
  if (!size) {
    ctx.setOutputShape(0, {ctx.dims().fresh()});
    return;
  }
  // onnx's window inference refuses an empty window too (onnx/defs/math/defs.cc).
  if (size->isKnown() && size->value() <= 0) {
    ctx.fail("size is " + std::to_string(size->value()) + "; a window has 1 element or more");
    return;
  }
  ctx.setOutputShape(0, {*size});
}

}  // namespace onyx::ops
