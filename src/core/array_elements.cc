#include "onyx/core/array_elements.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>

#include "onyx/core/float_formats.h"

namespace onyx {

namespace {

template <class T>
T clampedInteger(double value) {
  if (std::isnan(value)) return 0;
  double low = static_cast<double>(std::numeric_limits<T>::lowest());
  double high = static_cast<double>(std::numeric_limits<T>::max());
  if (value <= low) return std::numeric_limits<T>::lowest();
  if (value >= high) return std::numeric_limits<T>::max();
  return static_cast<T>(value);
}

int8_t clampedNarrowInteger(double value, int low, int high) {
  if (std::isnan(value)) return 0;
  double truncated = std::trunc(value);
  if (truncated < low) return static_cast<int8_t>(low);
  if (truncated > high) return static_cast<int8_t>(high);
  return static_cast<int8_t>(truncated);
}

}  // namespace

bool isNarrowFloat(ElementType type) {
  return type == ElementType::kFloat16 || type == ElementType::kBfloat16 ||
         type == ElementType::kFloat4E2M1 || float8FormatOf(type).has_value();
}

double elementAsDouble(const Array& array, size_t index) {
  switch (array.type()) {
    case ElementType::kFloat: return array.data<float>()[index];
    case ElementType::kDouble: return array.data<double>()[index];
    case ElementType::kFloat16: return float16ToFloat(array.data<uint16_t>()[index]);
    case ElementType::kBfloat16: return bfloat16ToFloat(array.data<uint16_t>()[index]);
    case ElementType::kFloat4E2M1: return float4E2M1ToFloat(array.data<uint8_t>()[index]);
    case ElementType::kInt8:
    case ElementType::kInt4:
    case ElementType::kInt2: return array.data<int8_t>()[index];
    case ElementType::kUint8:
    case ElementType::kUint4:
    case ElementType::kUint2:
    case ElementType::kBool: return array.data<uint8_t>()[index];
    case ElementType::kInt16: return array.data<int16_t>()[index];
    case ElementType::kUint16: return array.data<uint16_t>()[index];
    case ElementType::kInt32: return array.data<int32_t>()[index];
    case ElementType::kUint32: return array.data<uint32_t>()[index];
    case ElementType::kInt64: return static_cast<double>(array.data<int64_t>()[index]);
    case ElementType::kUint64: return static_cast<double>(array.data<uint64_t>()[index]);
    default: break;
  }
  if (std::optional<Float8Format> format = float8FormatOf(array.type())) {
    return float8ToFloat(array.data<uint8_t>()[index], *format);
  }
  return 0;
}

void storeDouble(Array& array, size_t index, double value) {
  switch (array.type()) {
    case ElementType::kFloat: array.data<float>()[index] = static_cast<float>(value); return;
    case ElementType::kDouble: array.data<double>()[index] = value; return;
    case ElementType::kFloat16:
      array.data<uint16_t>()[index] = floatToFloat16(static_cast<float>(value));
      return;
    case ElementType::kBfloat16:
      array.data<uint16_t>()[index] = floatToBfloat16(static_cast<float>(value));
      return;
    case ElementType::kFloat4E2M1:
      array.data<uint8_t>()[index] = floatToFloat4E2M1(static_cast<float>(value));
      return;
    case ElementType::kInt8: array.data<int8_t>()[index] = clampedInteger<int8_t>(value); return;
    case ElementType::kInt4:
      array.data<int8_t>()[index] = clampedNarrowInteger(value, -8, 7);
      return;
    case ElementType::kInt2:
      array.data<int8_t>()[index] = clampedNarrowInteger(value, -2, 1);
      return;
    case ElementType::kUint4:
      array.data<uint8_t>()[index] = static_cast<uint8_t>(clampedNarrowInteger(value, 0, 15));
      return;
    case ElementType::kUint2:
      array.data<uint8_t>()[index] = static_cast<uint8_t>(clampedNarrowInteger(value, 0, 3));
      return;
    case ElementType::kUint8: array.data<uint8_t>()[index] = clampedInteger<uint8_t>(value); return;
    case ElementType::kBool: array.data<bool>()[index] = value != 0; return;
    case ElementType::kInt16: array.data<int16_t>()[index] = clampedInteger<int16_t>(value); return;
    case ElementType::kUint16:
      array.data<uint16_t>()[index] = clampedInteger<uint16_t>(value);
      return;
    case ElementType::kInt32: array.data<int32_t>()[index] = clampedInteger<int32_t>(value); return;
    case ElementType::kUint32:
      array.data<uint32_t>()[index] = clampedInteger<uint32_t>(value);
      return;
    case ElementType::kInt64: array.data<int64_t>()[index] = clampedInteger<int64_t>(value); return;
    case ElementType::kUint64:
      array.data<uint64_t>()[index] = clampedInteger<uint64_t>(value);
      return;
    default: break;
  }
  if (std::optional<Float8Format> format = float8FormatOf(array.type())) {
    array.data<uint8_t>()[index] =
        *format == Float8Format::kE8M0
            ? floatToFloat8E8M0(static_cast<float>(value), true, E8M0Rounding::kUp)
            : floatToFloat8(static_cast<float>(value), *format, true);
  }
}

Array widenToFloat(const Array& array) {
  if (!isNarrowFloat(array.type())) return array;
  Array wide(ElementType::kFloat, array.shape());
  float* out = wide.data<float>();
  for (size_t i = 0; i < array.size(); ++i) out[i] = static_cast<float>(elementAsDouble(array, i));
  return wide;
}

Array narrowFromFloat(const Array& computed, ElementType target) {
  if (target == computed.type()) return computed;
  Array narrow(target, computed.shape());
  const float* in = computed.data<float>();
  for (size_t i = 0; i < computed.size(); ++i) storeDouble(narrow, i, in[i]);
  return narrow;
}

}  // namespace onyx
