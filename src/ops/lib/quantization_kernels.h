// Internal: what the quantization kernels share (QuantizeLinear, DequantizeLinear,
// DynamicQuantizeLinear, QLinearMatMul, MatMulInteger): where an element's scale is, rounding
// to a type's precision, and an integer matrix product with zero points.
#pragma once

#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "onyx/core/array.h"
#include "onyx/core/array_elements.h"
#include "onyx/core/float_formats.h"
#include "ops/kernels.h"

namespace onyx::ops::quant {

/// Which scale (and zero point) element each element of x uses: one for all (per tensor),
/// one per index along `axis` (per axis), or one per block of `block` indices along `axis`
/// with the other dims matching x (blocked).
struct ScaleLayout {
  enum class Mode { kTensor, kAxis, kBlocked } mode = Mode::kTensor;
  size_t extent = 1;        // x's dim along the axis
  size_t inner = 1;         // elements after the axis in x
  size_t block = 1;         // blocked: indices per scale along the axis
  size_t scale_extent = 1;  // blocked: the scale's dim along the axis

  size_t index(size_t i) const {
    switch (mode) {
      case Mode::kTensor: return 0;
      case Mode::kAxis: return (i / inner) % extent;
      case Mode::kBlocked: {
        size_t n = i % inner;
        size_t d = (i / inner) % extent;
        size_t o = i / (inner * extent);
        return (o * scale_extent + d / block) * inner + n;
      }
    }
    return 0;
  }
};

/// The layout of `scale` for x of `shape`; an error message in `error` when they do not fit.
inline std::optional<ScaleLayout> scaleLayout(const std::vector<int64_t>& shape, const Array& scale,
                                              int64_t axis, int64_t block, std::string& error) {
  ScaleLayout layout;
  if (scale.rank() == 0 || (scale.rank() == 1 && scale.size() == 1)) return layout;
  std::optional<size_t> at = kernelAxis(axis, shape.size());
  if (!at) {
    error = "axis " + std::to_string(axis) + " is out of range for rank " +
            std::to_string(shape.size());
    return std::nullopt;
  }
  layout.extent = static_cast<size_t>(shape[*at]);
  for (size_t d = *at + 1; d < shape.size(); ++d) layout.inner *= static_cast<size_t>(shape[d]);
  if (block <= 0) {
    if (scale.rank() != 1 || scale.size() != layout.extent) {
      error =
          "the scale must be a scalar or 1-D of the axis' length " + std::to_string(layout.extent);
      return std::nullopt;
    }
    layout.mode = ScaleLayout::Mode::kAxis;
    return layout;
  }
  if (scale.rank() != shape.size()) {
    error = "a blocked scale must have the input's rank";
    return std::nullopt;
  }
  for (size_t d = 0; d < shape.size(); ++d) {
    if (d != *at && scale.dim(d) != shape[d]) {
      error = "a blocked scale must match the input's shape except along the axis";
      return std::nullopt;
    }
  }
  layout.mode = ScaleLayout::Mode::kBlocked;
  layout.block = static_cast<size_t>(block);
  layout.scale_extent = static_cast<size_t>(scale.dim(*at));
  if (layout.scale_extent == 0
          ? layout.extent != 0
          : (layout.extent + layout.block - 1) / layout.block > layout.scale_extent) {
    error = "block_size " + std::to_string(block) + " with " + std::to_string(layout.scale_extent) +
            " scales does not cover the axis' " + std::to_string(layout.extent) + " elements";
    return std::nullopt;
  }
  return layout;
}

/// `value` rounded to the precision of `type` (FLOAT, DOUBLE, FLOAT16, BFLOAT16; others are
/// treated as FLOAT).
inline double roundTo(double value, ElementType type) {
  switch (type) {
    case ElementType::kDouble: return value;
    case ElementType::kFloat16: return float16ToFloat(floatToFloat16(static_cast<float>(value)));
    case ElementType::kBfloat16: return bfloat16ToFloat(floatToBfloat16(static_cast<float>(value)));
    default: return static_cast<float>(value);
  }
}

/// The range of an integer quantized type; nullopt for the others.
inline std::optional<std::pair<double, double>> integerRange(ElementType type) {
  switch (type) {
    case ElementType::kUint8: return std::pair{0.0, 255.0};
    case ElementType::kInt8: return std::pair{-128.0, 127.0};
    case ElementType::kUint16: return std::pair{0.0, 65535.0};
    case ElementType::kInt16: return std::pair{-32768.0, 32767.0};
    case ElementType::kUint4: return std::pair{0.0, 15.0};
    case ElementType::kInt4: return std::pair{-8.0, 7.0};
    case ElementType::kUint2: return std::pair{0.0, 3.0};
    case ElementType::kInt2: return std::pair{-2.0, 1.0};
    case ElementType::kInt32: return std::pair{-2147483648.0, 2147483647.0};
    default: return std::nullopt;
  }
}

/// Rounds to nearest even, then as numpy's astype(int32) on x86 does for NaN and values out
/// of range (INT32_MIN).
inline double rintToInt32(double value) {
  double rounded = std::nearbyint(value);
  if (!(rounded >= -2147483648.0 && rounded <= 2147483647.0)) return -2147483648.0;
  return rounded;
}

/// Whether a zero point array is per tensor or has one value per row (size `rows`) or per
/// column (size `columns`) of a matrix product; nullopt when its shape fits neither.
enum class Granularity { kTensor, kRows, kColumns };

inline std::optional<Granularity> matrixGranularity(const Array* value, int64_t rows,
                                                    int64_t columns, bool per_row) {
  if (value == nullptr || value->size() == 1) return Granularity::kTensor;
  if (per_row && value->size() == static_cast<size_t>(rows) &&
      (value->rank() == 1 || (value->rank() == 2 && value->dim(1) == 1))) {
    return Granularity::kRows;
  }
  if (!per_row && value->size() == static_cast<size_t>(columns) &&
      (value->rank() == 1 || (value->rank() == 2 && value->dim(0) == 1))) {
    return Granularity::kColumns;
  }
  return std::nullopt;
}

/// The integer matrix product (a - a_zero) @ (b - b_zero) with numpy's matmul broadcasting,
/// accumulated in 64 bits and wrapped to int32 as the reference's int32 arithmetic does. The
/// zero points are per tensor, per row of a, per column of b. `then(row, column, sum)` turns
/// each sum into the output element (returned as double and stored with storeDouble).
template <class Then>
Result<Array> integerMatMul(const KernelContext& ctx, const Array& a, const Array& b,
                            const Array* a_zero, const Array* b_zero, ElementType out_type,
                            Then then) {
  if (a.rank() == 0 || b.rank() == 0) return ctx.fail("matrix inputs must not be scalars");
  std::vector<int64_t> a_shape = a.shape(), b_shape = b.shape();
  bool a_vector = a_shape.size() == 1, b_vector = b_shape.size() == 1;
  if (a_vector) a_shape.insert(a_shape.begin(), 1);
  if (b_vector) b_shape.push_back(1);
  int64_t m = a_shape[a_shape.size() - 2], k = a_shape.back();
  int64_t n = b_shape.back();
  if (b_shape[b_shape.size() - 2] != k) {
    return ctx.fail("the inner dimensions differ (" + std::to_string(k) + " and " +
                    std::to_string(b_shape[b_shape.size() - 2]) + ")");
  }
  std::vector<int64_t> a_batch(a_shape.begin(), a_shape.end() - 2);
  std::vector<int64_t> b_batch(b_shape.begin(), b_shape.end() - 2);
  std::optional<std::vector<int64_t>> batch = broadcastShape(a_batch, b_batch);
  if (!batch) return ctx.fail("the batch dimensions do not broadcast");
  std::optional<Granularity> a_mode = matrixGranularity(a_zero, m, n, true);
  std::optional<Granularity> b_mode = matrixGranularity(b_zero, m, n, false);
  if (!a_mode || !b_mode) return ctx.fail("a zero point is neither a scalar nor per row/column");
  std::vector<int64_t> out_shape = *batch;
  if (!a_vector) out_shape.push_back(m);
  if (!b_vector) out_shape.push_back(n);
  Result<Array> made = Array::allocate(out_type, out_shape);
  if (!made) return made.status();
  Array out = std::move(*made);
  std::vector<size_t> a_index = broadcastIndices(a_batch, *batch);
  std::vector<size_t> b_index = broadcastIndices(b_batch, *batch);
  size_t batches = a_index.size();
  auto mm = static_cast<size_t>(m), kk = static_cast<size_t>(k), nn = static_cast<size_t>(n);
  std::vector<int64_t> left(mm * kk), right(kk * nn);
  for (size_t p = 0; p < batches; ++p) {
    for (size_t i = 0; i < mm * kk; ++i) {
      double zero = a_zero == nullptr               ? 0
                    : *a_mode == Granularity::kRows ? elementAsDouble(*a_zero, i / kk)
                                                    : elementAsDouble(*a_zero, 0);
      left[i] = static_cast<int64_t>(elementAsDouble(a, a_index[p] * mm * kk + i) - zero);
    }
    for (size_t i = 0; i < kk * nn; ++i) {
      double zero = b_zero == nullptr                  ? 0
                    : *b_mode == Granularity::kColumns ? elementAsDouble(*b_zero, i % nn)
                                                       : elementAsDouble(*b_zero, 0);
      right[i] = static_cast<int64_t>(elementAsDouble(b, b_index[p] * kk * nn + i) - zero);
    }
    for (size_t r = 0; r < mm; ++r) {
      for (size_t c = 0; c < nn; ++c) {
        // Unsigned arithmetic wraps where int32 would (only the low 32 bits are kept).
        uint64_t sum = 0;
        for (size_t q = 0; q < kk; ++q) {
          sum += static_cast<uint64_t>(left[r * kk + q]) * static_cast<uint64_t>(right[q * nn + c]);
        }
        auto wrapped = static_cast<int32_t>(static_cast<uint32_t>(sum));
        storeDouble(out, (p * mm + r) * nn + c, then(r, c, wrapped));
      }
    }
  }
  return out;
}

}  // namespace onyx::ops::quant
