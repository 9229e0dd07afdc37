// Internal to the evaluator: int32 sums turned into uint8 or int8 as oneDNN's int8 epilogue
// (and onnxruntime's QLinearConv) computes it, for the paths that sum the products without
// oneDNN (CPUs below VNNI): the sum times its channel's scale (x_scale * w_scale / y_scale) in
// float, a Relu as a clamp at 0, rounded to nearest even, the output zero point added,
// saturated to the type's range.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>

#include "onyx/core/array.h"

namespace onyx::eval_internal {

struct Requantization {
  std::span<const float> scales;  // one, or one per channel
  int32_t zero = 0;
  ElementType type = ElementType::kUint8;  // UINT8 or INT8
  bool relu = false;

  /// The scaled sum's bounds before the zero point: the type's range less it, from 0 with a
  /// Relu. Integers, so clamping before the rounding equals clamping after it.
  float low() const {
    const float lowest = (type == ElementType::kInt8 ? -128.0f : 0.0f) - static_cast<float>(zero);
    return relu ? std::max(lowest, 0.0f) : lowest;
  }
  float high() const {
    return (type == ElementType::kInt8 ? 127.0f : 255.0f) - static_cast<float>(zero);
  }
  /// `sum` requantized with `scale`, before the zero point is added: an integer in
  /// [low, high]. Adding and subtracting 1.5 * 2^23 rounds a float of magnitude below 2^22 to
  /// nearest even (the default rounding mode) in two vector operations, where nearbyint is a
  /// call per element without SSE4.1.
  static float scaled(int32_t sum, float scale, float low, float high) {
    constexpr float kRoundingShift = 12582912.0f;
    const float value = std::min(std::max(static_cast<float>(sum) * scale, low), high);
    return (value + kRoundingShift) - kRoundingShift;
  }
};

/// `rows` rows of `width` sums, row r of channel first_channel + r (its scale) and read from
/// sums[r * sums_stride], requantized into to[r * to_stride] (bytes of `how.type`): a
/// channels-first image's channels, or one tile of them.
void requantize(const int32_t* sums, size_t sums_stride, size_t rows, size_t width,
                size_t first_channel, const Requantization& how, void* to, size_t to_stride);

/// `rows` rows of `width` sums (row-major, contiguous), column j of channel j (its scale):
/// a matrix product's, requantized into `to` (bytes of `how.type`) in the same order.
void requantizeByColumn(const int32_t* sums, size_t rows, size_t width, const Requantization& how,
                        void* to);

}  // namespace onyx::eval_internal
