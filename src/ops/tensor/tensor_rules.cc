#include "ops/tensor/tensor_rules.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "onyx/core/element_type.h"
#include "onyx/ir/tensor.h"
#include "onyx/ir/tensor_data.h"
#include "ops/shape_rules.h"

namespace onyx::ops {

namespace {

template <typename T>
T load(const char* bytes) {
  T value;
  std::memcpy(&value, bytes, sizeof(T));
  return value;
}

double halfToDouble(uint16_t bits) {
  int exponent = (bits >> 10) & 0x1f;
  double mantissa = bits & 0x3ff;
  double magnitude;
  if (exponent == 0) {
    magnitude = std::ldexp(mantissa, -24);
  } else if (exponent == 31) {
    magnitude = mantissa == 0 ? INFINITY : NAN;
  } else {
    magnitude = std::ldexp(mantissa + 1024, exponent - 25);
  }
  return (bits & 0x8000) != 0 ? -magnitude : magnitude;
}

}  // namespace

std::optional<std::vector<int64_t>> knownNumbers(const Dims* data) {
  if (data == nullptr) return std::nullopt;
  std::vector<int64_t> numbers;
  numbers.reserve(data->size());
  for (DimValue element : *data) {
    if (!element.isKnown()) return std::nullopt;
    numbers.push_back(element.value());
  }
  return numbers;
}

std::optional<std::vector<double>> constantNumbers(const Tensor* tensor) {
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
      case ElementType::kFloat: value = load<float>(at); break;
      case ElementType::kDouble: value = load<double>(at); break;
      case ElementType::kInt32: value = load<int32_t>(at); break;
      case ElementType::kUint32: value = load<uint32_t>(at); break;
      case ElementType::kInt64: value = static_cast<double>(load<int64_t>(at)); break;
      case ElementType::kUint64: value = static_cast<double>(load<uint64_t>(at)); break;
      case ElementType::kFloat16: value = halfToDouble(load<uint16_t>(at)); break;
      case ElementType::kBfloat16: {
        uint32_t bits = static_cast<uint32_t>(load<uint16_t>(at)) << 16;
        value = load<float>(reinterpret_cast<const char*>(&bits));
        break;
      }
      case ElementType::kInt16: value = load<int16_t>(at); break;
      case ElementType::kUint16: value = load<uint16_t>(at); break;
      case ElementType::kInt8: value = load<int8_t>(at); break;
      case ElementType::kUint8:
      case ElementType::kBool: value = load<uint8_t>(at); break;
      default: return std::nullopt;
    }
    numbers.push_back(value);
  }
  return numbers;
}

std::optional<std::vector<double>> inputNumbers(InferenceContext& ctx, size_t i) {
  if (std::optional<std::vector<int64_t>> known = knownNumbers(ctx.inputData(i))) {
    return std::vector<double>(known->begin(), known->end());
  }
  return constantNumbers(ctx.inputConstant(i));
}

IntList intList(InferenceContext& ctx, std::optional<size_t> input, std::string_view attribute) {
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

std::optional<std::vector<size_t>> normalizeAxes(InferenceContext& ctx,
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

Dims freshDims(InferenceContext& ctx, size_t count) {
  Dims dims;
  dims.reserve(count);
  for (size_t i = 0; i < count; ++i) dims.push_back(ctx.dims().fresh());
  return dims;
}

std::string dimText(InferenceContext& ctx, DimValue dim) {
  return dim.isKnown() ? std::to_string(dim.value()) : ctx.dims().text(dim);
}

SliceRange sliceRange(int64_t size, int64_t start, int64_t end, int64_t step) {
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

DimValue scaledDim(InferenceContext& ctx, DimValue dim, double scale) {
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

bool carriesData(int32_t code) {
  return code == static_cast<int32_t>(ElementType::kInt64) ||
         code == static_cast<int32_t>(ElementType::kInt32);
}

}  // namespace onyx::ops
