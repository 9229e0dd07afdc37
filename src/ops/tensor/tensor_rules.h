// Internal: what the shape rules of the tensor and generator families share — lists given by
// an attribute in early versions and by an input later, constant float tensors (Resize's
// scales, Range's bounds), axes lists, slicing arithmetic.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "onyx/ops/inference_context.h"

namespace onyx::ops {

/// The numbers of `data` when every element is a known number; nullopt otherwise (and for
/// null).
std::optional<std::vector<int64_t>> knownNumbers(const Dims* data);

/// The elements of a constant numeric tensor (float types, integers, bool) as doubles, when
/// there are at most kMaxPropagatedElements; nullopt for null, other types, unreadable data.
std::optional<std::vector<double>> constantNumbers(const Tensor* tensor);

/// The numbers of input `i`: its propagated data, else its constant's elements.
std::optional<std::vector<double>> inputNumbers(InferenceContext& ctx, size_t i);

/// A list of integers an operator takes as attribute `attribute` in some versions and as
/// input `input` in others (Squeeze's axes, Slice's starts, Pad's pads, ...).
struct IntList {
  /// Whether the node gives the list at all (the input present, or the attribute set).
  bool given = false;
  /// Whether its elements are known; then `values` holds them.
  bool known = false;
  std::vector<int64_t> values;
};
IntList intList(InferenceContext& ctx, std::optional<size_t> input, std::string_view attribute);

/// `axes` in [-rank, rank) made non-negative; fails the node (naming `what`) on an axis out
/// of range or repeated.
std::optional<std::vector<size_t>> normalizeAxes(InferenceContext& ctx,
                                                 std::span<const int64_t> axes, size_t rank,
                                                 std::string_view what = "axes");

/// `count` fresh (unknown) dimensions.
Dims freshDims(InferenceContext& ctx, size_t count);

/// A dimension for messages: the number, or its expression.
std::string dimText(InferenceContext& ctx, DimValue dim);

/// The length of slicing an axis of `size` elements from `start` to `end` by `step` (not 0),
/// with the spec's clamping of negative and out-of-range bounds; and the first index taken.
struct SliceRange {
  int64_t first = 0;
  int64_t length = 0;
};
SliceRange sliceRange(int64_t size, int64_t start, int64_t end, int64_t step);

/// floor(dim * scale) (Resize's and Upsample's output size): exact for a number; for a
/// symbol, kept symbolic when the scale is a whole number, else a fresh dimension.
DimValue scaledDim(InferenceContext& ctx, DimValue dim, double scale);

/// Whether `code` is an integer element type whose values can carry propagated data
/// (int32, int64: shapes and indices).
bool carriesData(int32_t code);

}  // namespace onyx::ops
