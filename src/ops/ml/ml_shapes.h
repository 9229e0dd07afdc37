// Internal: what the ai.onnx.ml operators' shape rules share.
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>

#include "onyx/ops/inference_context.h"

namespace onyx::ops {

inline constexpr int32_t kMlFloat = 1;
inline constexpr int32_t kMlInt64 = 7;
inline constexpr int32_t kMlString = 8;

/// The batch size N of a model input that is [N, C] or [C] (then 1); nullopt when the rank
/// is unknown, and (after failing) for another rank.
std::optional<DimValue> batchOf(InferenceContext& ctx, size_t input = 0);

/// The number of entries of an ints, floats or strings attribute; 0 when absent.
size_t attributeLength(const InferenceContext& ctx, std::string_view name);

/// The label type of a classifier: string when `strings` has entries, else int64.
int32_t labelType(const InferenceContext& ctx, std::string_view strings);

/// A classifier's outputs: labels [N] of `label_type`, scores [N, classes].
void setClassifierOutputs(InferenceContext& ctx, int32_t label_type, DimValue classes);

}  // namespace onyx::ops
