// Internal, header-only (each .cc under src/ops/<family>/ is one operator): what the shape rules of
// the tensor and generator families share — lists given by an attribute in early versions and by an
// input later, constant float tensors (Resize's scales, Range's bounds), axes lists, slicing
// arithmetic.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <algorithm>
#include <cmath>
#include <cstring>

#include "onyx/core/element_type.h"
#include "onyx/core/float_formats.h"
#include "onyx/ir/tensor.h"
#include "onyx/ir/tensor_data.h"
#include "onyx/ops/inference_context.h"
#include "ops/shape_rules.h"

namespace onyx::ops {

/// The numbers of `data` when every element is a known number; nullopt otherwise (and for
/// null).
inline std::optional<std::vector<int64_t>> knownNumbers(const Dims* data);

/// The elements of a constant numeric tensor (float types, integers, bool) as doubles, when
/// there are at most kMaxPropagatedElements; nullopt for null, other types, unreadable data.
inline std::optional<std::vector<double>> constantNumbers(const Tensor* tensor);

/// The numbers of input `i`: its propagated data, else its constant's elements.
inline std::optional<std::vector<double>> inputNumbers(InferenceContext& ctx, size_t i);

/// A list of integers an operator takes as attribute `attribute` in some versions and as
/// input `input` in others (Squeeze's axes, Slice's starts, Pad's pads, ...).
struct IntList {
  /// Whether the node gives the list at all (the input present, or the attribute set).
  bool given = false;
  /// Whether its elements are known; then `values` holds them.
  bool known = false;
  std::vector<int64_t> values;
};
inline IntList intList(InferenceContext& ctx, std::optional<size_t> input,
                       std::string_view attribute);

/// `axes` in [-rank, rank) made non-negative; fails the node (naming `what`) on an axis out
/// of range or repeated.
inline std::optional<std::vector<size_t>> normalizeAxes(InferenceContext& ctx,
                                                        std::span<const int64_t> axes, size_t rank,
                                                        std::string_view what = "axes");

/// `count` fresh (unknown) dimensions.
inline Dims freshDims(InferenceContext& ctx, size_t count);

/// A dimension for messages: the number, or its expression.
inline std::string dimText(InferenceContext& ctx, DimValue dim);

/// The length of slicing an axis of `size` elements from `start` to `end` by `step` (not 0),
/// with the spec's clamping of negative and out-of-range bounds; and the first index taken.
struct SliceRange {
  int64_t first = 0;
  int64_t length = 0;
};
inline SliceRange sliceRange(int64_t size, int64_t start, int64_t end, int64_t step);

/// floor(dim * scale) (Resize's and Upsample's output size): exact for a number; for a
/// symbol, kept symbolic when the scale is a whole number, else a fresh dimension.
inline DimValue scaledDim(InferenceContext& ctx, DimValue dim, double scale);

/// Whether `code` is an integer element type whose values can carry propagated data
/// (int32, int64: shapes and indices).
inline bool carriesData(int32_t code);

// ---- definitions ----------------------------------------------------------------------

namespace tensor_rules_detail {

template <typename T>
inline T load(const char* bytes) {
  T value;
  std::memcpy(&value, bytes, sizeof(T));
  return value;
}

}  // namespace tensor_rules_detail

inline std::optional<std::vector<int64_t>> knownNumbers(const Dims* data) {
  if (data == nullptr) return std::nullopt;
  std::vector<int64_t> numbers;
  numbers.reserve(data->size());
  for (DimValue element : *data) {
    if (!element.isKnown()) return std::nullopt;
    numbers.push_back(element.value());
  }
  return numbers;
}

inline std::optional<std::vector<double>> constantNumbers(const Tensor* tensor) {
  if (tensor == nullptr || !tensor->data_type) return std::nullopt;
  uint64_t count = 1;
  for (int64_t dim : tensor->dims) {
    if (dim < 0 || dim > static_cast<int64_t>(kMaxPropagatedElements)) return std::nullopt;
    count *= static_cast<uint64_t>(dim);
    if (count > kMaxPropagatedElements) return std::nullopt;
  }
  auto type = static_cast<ElementType>(*tensor->data_type);
  size_t width = 0;
  switch (type) {
    case ElementType::kFloat:
    case ElementType::kInt32:
    case ElementType::kUint32: width = 4; break;
    case ElementType::kDouble:
    case ElementType::kInt64:
    case ElementType::kUint64: width = 8; break;
    case ElementType::kFloat16:
    case ElementType::kBfloat16:
    case ElementType::kInt16:
    case ElementType::kUint16: width = 2; break;
    case ElementType::kInt8:
    case ElementType::kUint8:
    case ElementType::kBool: width = 1; break;
    default: return std::nullopt;
  }
  Result<TensorBytes> bytes = rawBytes(*tensor);
  if (!bytes.isOk()) return std::nullopt;
  std::string_view raw = bytes->bytes();
  if (raw.size() != count * width) return std::nullopt;
  std::vector<double> numbers;
  numbers.reserve(count);
  for (size_t i = 0; i < count; ++i) {
    const char* at = raw.data() + i * width;
    double value = 0;
    switch (type) {
      case ElementType::kFloat: value = tensor_rules_detail::load<float>(at); break;
      case ElementType::kDouble: value = tensor_rules_detail::load<double>(at); break;
      case ElementType::kInt32: value = tensor_rules_detail::load<int32_t>(at); break;
      case ElementType::kUint32: value = tensor_rules_detail::load<uint32_t>(at); break;
      case ElementType::kInt64:
        value = static_cast<double>(tensor_rules_detail::load<int64_t>(at));
        break;
      case ElementType::kUint64:
        value = static_cast<double>(tensor_rules_detail::load<uint64_t>(at));
        break;
      case ElementType::kFloat16:
        value = float16ToFloat(tensor_rules_detail::load<uint16_t>(at));
        break;
      case ElementType::kBfloat16:
        value = bfloat16ToFloat(tensor_rules_detail::load<uint16_t>(at));
        break;
      case ElementType::kInt16: value = tensor_rules_detail::load<int16_t>(at); break;
      case ElementType::kUint16: value = tensor_rules_detail::load<uint16_t>(at); break;
      case ElementType::kInt8: value = tensor_rules_detail::load<int8_t>(at); break;
      case ElementType::kUint8:
      case ElementType::kBool: value = tensor_rules_detail::load<uint8_t>(at); break;
      default: return std::nullopt;
    }
    numbers.push_back(value);
  }
  return numbers;
}

inline std::optional<std::vector<double>> inputNumbers(InferenceContext& ctx, size_t i) {
  if (std::optional<std::vector<int64_t>> known = knownNumbers(ctx.inputData(i))) {
    return std::vector<double>(known->begin(), known->end());
  }
  return constantNumbers(ctx.inputConstant(i));
}

inline IntList intList(InferenceContext& ctx, std::optional<size_t> input,
                       std::string_view attribute) {
  IntList list;
  if (input && ctx.hasInput(*input)) {
    list.given = true;
    if (std::optional<std::vector<int64_t>> numbers = knownNumbers(ctx.inputData(*input))) {
      list.known = true;
      list.values = std::move(*numbers);
    }
    return list;
  }
  if (!attribute.empty()) {
    if (std::optional<std::vector<int64_t>> values = ctx.intsAttribute(attribute)) {
      list.given = list.known = true;
      list.values = std::move(*values);
    }
  }
  return list;
}

inline std::optional<std::vector<size_t>> normalizeAxes(InferenceContext& ctx,
                                                        std::span<const int64_t> axes, size_t rank,
                                                        std::string_view what) {
  std::vector<size_t> result;
  result.reserve(axes.size());
  std::vector<bool> seen(rank, false);
  for (int64_t axis : axes) {
    std::optional<size_t> normalized = normalizeAxis(ctx, axis, rank, what);
    if (!normalized) return std::nullopt;
    if (seen[*normalized]) {
      ctx.fail(std::string(what) + " repeat axis " + std::to_string(*normalized));
      return std::nullopt;
    }
    seen[*normalized] = true;
    result.push_back(*normalized);
  }
  return result;
}

/// `count` fresh dimensions; callers bound `count` (ctx.setOutputRank does).
inline Dims freshDims(InferenceContext& ctx, size_t count) {
  Dims dims;
  dims.reserve(count);
  for (size_t i = 0; i < count; ++i) dims.push_back(ctx.dims().fresh());
  return dims;
}

inline std::string dimText(InferenceContext& ctx, DimValue dim) {
  return dim.isKnown() ? std::to_string(dim.value()) : ctx.dims().text(dim);
}

inline SliceRange sliceRange(int64_t size, int64_t start, int64_t end, int64_t step) {
  if (size <= 0 || step == 0) return {};
  if (start < 0) start += size;
  if (end < 0) end += size;
  SliceRange range;
  if (step > 0) {
    start = std::clamp<int64_t>(start, 0, size);
    end = std::clamp<int64_t>(end, 0, size);
    if (end > start) {
      range.length = (end - start - 1) / step + 1;
    }
  } else {
    start = std::clamp<int64_t>(start, 0, size - 1);
    end = std::clamp<int64_t>(end, -1, size - 1);
    if (start > end) {
      // -step may not be representable: divide as unsigned.
      uint64_t magnitude = step == INT64_MIN ? uint64_t{1} << 63 : static_cast<uint64_t>(-step);
      range.length = static_cast<int64_t>(static_cast<uint64_t>(start - end - 1) / magnitude + 1);
    }
  }
  range.first = start;
  return range;
}

inline DimValue scaledDim(InferenceContext& ctx, DimValue dim, double scale) {
  if (dim.isKnown()) {
    double scaled = std::floor(static_cast<double>(dim.value()) * scale);
    if (scaled >= 0 && scaled < 9.0e18) return DimValue::known(static_cast<int64_t>(scaled));
    return ctx.dims().fresh();
  }
  if (scale >= 1 && scale < 1.0e9 && scale == std::floor(scale)) {
    return ctx.dims().multiply(dim, DimValue::known(static_cast<int64_t>(scale)));
  }
  return ctx.dims().fresh();
}

inline bool carriesData(int32_t code) {
  return code == static_cast<int32_t>(ElementType::kInt64) ||
         code == static_cast<int32_t>(ElementType::kInt32);
}

}  // namespace onyx::ops
