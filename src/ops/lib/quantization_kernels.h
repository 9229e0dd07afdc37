// Internal: what the quantization kernels share (QuantizeLinear, DequantizeLinear,
// DynamicQuantizeLinear, QLinearMatMul, MatMulInteger): where an element's scale is, rounding
// to a type's precision, and an integer matrix product with zero points per tensor, row or
// column (of bytes through ops/nn/byte_pair_gemm.h).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "onyx/core/array.h"
#include "onyx/core/array_elements.h"
#include "onyx/core/float_formats.h"
#include "ops/kernels.h"
#include "ops/nn/byte_pair_gemm.h"

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

/// The elements of one task of an elementwise quantization or dequantization (forScaleRuns,
/// DynamicQuantizeLinear's bounds).
inline constexpr size_t kElementwisePiece = size_t{1} << 16;

/// Calls body(begin, count) over [0, size) in pieces that never cross a multiple of `run` (the
/// elements of one scale of a per-tensor or per-axis layout), in parallel on ctx's threads:
/// the loop of an elementwise quantization or dequantization, whose elements are independent
/// (the same bits on any thread count).
template <class Body>
void forScaleRuns(const KernelContext& ctx, size_t size, size_t run, Body body) {
  if (size == 0 || run == 0) return;
  parallelFor(ctx, (size + kElementwisePiece - 1) / kElementwisePiece, 1,
              [&](size_t first, size_t last) {
                for (size_t piece = first; piece < last; ++piece) {
                  size_t begin = piece * kElementwisePiece;
                  const size_t end = std::min(size, begin + kElementwisePiece);
                  while (begin < end) {
                    const size_t stop = std::min(end, (begin / run + 1) * run);
                    body(begin, stop - begin);
                    begin = stop;
                  }
                }
              });
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

/// The shapes of numpy's matmul of a by b, as the integer products see them: a 1-D a is one
/// row [1, K] and a 1-D b one column [K, 1], and that axis is left out of the result; the
/// batch dims (all but the last two) broadcast.
struct MatrixProduct {
  size_t rows = 0, inner = 0, columns = 0;       // M, K, N
  std::vector<int64_t> a_batch, b_batch, batch;  // a's, b's and the result's batch dims
  std::vector<size_t> a_index, b_index;          // for each batch of the result: a's, b's
  std::vector<int64_t> result;                   // the result's shape
};

inline Result<MatrixProduct> matrixProduct(const KernelContext& ctx, const Array& a,
                                           const Array& b) {
  if (a.rank() == 0 || b.rank() == 0) return ctx.fail("matrix inputs must not be scalars");
  std::vector<int64_t> a_shape = a.shape(), b_shape = b.shape();
  bool a_vector = a_shape.size() == 1, b_vector = b_shape.size() == 1;
  if (a_vector) a_shape.insert(a_shape.begin(), 1);
  if (b_vector) b_shape.push_back(1);
  int64_t k = a_shape.back();
  if (b_shape[b_shape.size() - 2] != k) {
    return ctx.fail("the inner dimensions differ (" + std::to_string(k) + " and " +
                    std::to_string(b_shape[b_shape.size() - 2]) + ")");
  }
  MatrixProduct product;
  product.rows = static_cast<size_t>(a_shape[a_shape.size() - 2]);
  product.inner = static_cast<size_t>(k);
  product.columns = static_cast<size_t>(b_shape.back());
  product.a_batch.assign(a_shape.begin(), a_shape.end() - 2);
  product.b_batch.assign(b_shape.begin(), b_shape.end() - 2);
  std::optional<std::vector<int64_t>> batch = broadcastShape(product.a_batch, product.b_batch);
  if (!batch) return ctx.fail("the batch dimensions do not broadcast");
  product.batch = *batch;
  product.a_index = broadcastIndices(product.a_batch, product.batch);
  product.b_index = broadcastIndices(product.b_batch, product.batch);
  product.result = product.batch;
  if (!a_vector) product.result.push_back(a_shape[a_shape.size() - 2]);
  if (!b_vector) product.result.push_back(b_shape.back());
  return product;
}

/// A quantization parameter of a matrix product (a zero point or a scale) and which of its
/// values each element of the result uses. The spec's shapes: a single value (per tensor); a
/// vector of M values (per row, for a) or of N (per column, for b); and for an N-D operand
/// [D1, D2, M, K] or [D1, D2, K, N], the operand's shape with K replaced by 1 ([D1, D2, M, 1]
/// per row, [D1, D2, 1, N] per column), its leading dims broadcasting to the operand's batch
/// dims as numpy's subtraction from the operand would. Absent (null): 0.
class MatrixParameter {
 public:
  enum class Side { kRows, kColumns, kResult };  // a's rows, b's columns, the result's columns

  /// The parameter `name` for `side` of `product`; an error for any other shape.
  static Result<MatrixParameter> of(const KernelContext& ctx, const char* name, const Array* value,
                                    Side side, const MatrixProduct& product) {
    MatrixParameter parameter;
    parameter.value_ = value;
    parameter.per_row_ = side == Side::kRows;
    if (value == nullptr || value->size() == 1) return parameter;
    size_t extent = parameter.per_row_ ? product.rows : product.columns;
    const char* what = parameter.per_row_       ? "per row of a ([..., M, 1])"
                       : side == Side::kColumns ? "per column of b ([..., 1, N])"
                                                : "per column of the result ([..., 1, N])";
    std::vector<int64_t> dims = value->shape();
    // The spec's per-row vector [M] stands for the column [M, 1].
    if (parameter.per_row_ && dims.size() == 1) dims.push_back(1);
    if (dims.size() == 1) dims.insert(dims.begin(), 1);
    int64_t along = parameter.per_row_ ? dims[dims.size() - 2] : dims.back();
    int64_t across = parameter.per_row_ ? dims.back() : dims[dims.size() - 2];
    const std::vector<int64_t>& operand_batch = side == Side::kRows      ? product.a_batch
                                                : side == Side::kColumns ? product.b_batch
                                                                         : product.batch;
    std::vector<int64_t> batch(dims.begin(), dims.end() - 2);
    std::optional<std::vector<int64_t>> joint = broadcastShape(batch, operand_batch);
    if (across != 1 || (along != 1 && static_cast<size_t>(along) != extent) || !joint ||
        *joint != operand_batch) {
      return ctx.fail(std::string(name) + " of shape " + shapeText(value->shape()) +
                      " is neither a single value nor " + what + " for a product of shape " +
                      shapeText(product.result));
    }
    parameter.count_ = static_cast<size_t>(along);
    if (!batch.empty()) {
      std::vector<size_t> own = broadcastIndices(batch, operand_batch);
      const std::vector<size_t>* operand_index = side == Side::kRows      ? &product.a_index
                                                 : side == Side::kColumns ? &product.b_index
                                                                          : nullptr;
      parameter.batches_.resize(product.a_index.size());
      for (size_t p = 0; p < parameter.batches_.size(); ++p) {
        parameter.batches_[p] = own[operand_index != nullptr ? (*operand_index)[p] : p];
      }
    }
    return parameter;
  }

  /// The parameter's tensor; null when absent.
  const Array* array() const { return value_; }

  /// The value for the result's element (`batch`, `row`, `column`).
  double at(size_t batch, size_t row, size_t column) const {
    if (value_ == nullptr) return 0;
    size_t within = count_ == 1 ? 0 : per_row_ ? row : column;
    return elementAsDouble(*value_, (batches_.empty() ? 0 : batches_[batch] * count_) + within);
  }

 private:
  const Array* value_ = nullptr;
  bool per_row_ = true;
  size_t count_ = 1;             // values per matrix: one for all, or one per row or column
  std::vector<size_t> batches_;  // for each batch of the result, the parameter's matrix
};

// ---- integer matrix products ---------------------------------------------------------------

/// Rows of a packed together by byteMatMulSums: a task's product covers one block of rows. 96
/// rows (16 panels of the kernel) make the packing of b, done once per block, a small part of
/// the work.
inline constexpr size_t kByteProductRowBlock = 96;

/// to[r * columns + c] = bytes[first + r * columns + c] - row_zero[r] - column_zero[c], where
/// `bytes` is INT8 or UINT8 and the zero points are bytes too: each difference lies in
/// [-383, 383], within int16.
inline void bytesLessZeros(const Array& bytes, size_t first, size_t rows, size_t columns,
                           const std::vector<int32_t>& row_zero,
                           const std::vector<int32_t>& column_zero, int16_t* to) {
  // Byte pointers may alias anything: restrict says these do not, or the loop stays scalar.
  int16_t* __restrict target = to;
  const int32_t* __restrict zeros = column_zero.data();
  auto widen = [&](const auto* __restrict from) {
    for (size_t r = 0; r < rows; ++r) {
      const int32_t row_offset = row_zero[r];
      for (size_t c = 0; c < columns; ++c) {
        target[r * columns + c] =
            static_cast<int16_t>(from[first + r * columns + c] - row_offset - zeros[c]);
      }
    }
  };
  if (bytes.type() == ElementType::kInt8) {
    widen(bytes.data<int8_t>());
  } else {
    widen(bytes.data<uint8_t>());
  }
}

/// Whether byteMatMulSums takes the product: a, b and the zero points present all INT8 or
/// UINT8.
inline bool isByteProduct(const Array& a, const Array& b, const MatrixParameter& a_zero,
                          const MatrixParameter& b_zero) {
  auto byte_or_absent = [](const MatrixParameter& zero) {
    return zero.array() == nullptr || nn::isByteArray(zero.array());
  };
  return nn::isByteArray(&a) && nn::isByteArray(&b) && byte_or_absent(a_zero) &&
         byte_or_absent(b_zero);
}

/// The sums of integerMatMul into `sums` (the result's elements in row-major order), for a
/// product isByteProduct takes: by bytePairGemm (exact, and the same bits on every CPU tier and
/// thread count), parallel over batches, blocks of rows and tiles of columns.
inline void byteMatMulSums(const KernelContext& ctx, const Array& a, const Array& b,
                           const MatrixProduct& product, const MatrixParameter& a_zero,
                           const MatrixParameter& b_zero, int32_t* sums) {
  const size_t mm = product.rows, kk = product.inner, nn = product.columns;
  const size_t batches = product.a_index.size();
  if (batches * mm * nn == 0) return;

  // Each matrix of a and of b is widened (and a's packed) once, however many batches of the
  // result broadcast it. A zero point's batch follows its operand's (MatrixParameter), so the
  // first batch of the result that uses a matrix gives its zero points.
  const size_t a_matrices = *std::max_element(product.a_index.begin(), product.a_index.end()) + 1;
  const size_t b_matrices = *std::max_element(product.b_index.begin(), product.b_index.end()) + 1;
  constexpr size_t kUnused = ~size_t{0};
  std::vector<size_t> a_user(a_matrices, kUnused), b_user(b_matrices, kUnused);
  for (size_t p = batches; p-- > 0;) {
    a_user[product.a_index[p]] = p;
    b_user[product.b_index[p]] = p;
  }
  const size_t row_blocks = (mm + kByteProductRowBlock - 1) / kByteProductRowBlock;
  // Widened and packed block by block, b widened rows by rows, on the node's threads: each
  // element's value is the same whatever the split.
  std::vector<nn::BytePairLeft> left(a_matrices * row_blocks);
  parallelFor(ctx, a_matrices * row_blocks, 1, [&](size_t first, size_t last) {
    std::vector<int16_t> widened;
    std::vector<int32_t> row_zero, no_zero(kk, 0);
    for (size_t task = first; task < last; ++task) {
      const size_t q = task / row_blocks;
      if (a_user[q] == kUnused) continue;
      const size_t r0 = task % row_blocks * kByteProductRowBlock;
      const size_t rows = std::min(kByteProductRowBlock, mm - r0);
      row_zero.resize(rows);
      for (size_t r = 0; r < rows; ++r) {
        row_zero[r] = static_cast<int32_t>(a_zero.at(a_user[q], r0 + r, 0));
      }
      widened.resize(rows * kk);
      bytesLessZeros(a, (q * mm + r0) * kk, rows, kk, row_zero, no_zero, widened.data());
      left[task] = nn::BytePairLeft(rows, kk, widened.data(), kk);
    }
  });
  std::vector<int16_t> right(b_matrices * kk * nn);
  std::vector<std::vector<int32_t>> column_zeros(b_matrices);
  for (size_t q = 0; q < b_matrices; ++q) {
    if (b_user[q] == kUnused) continue;
    column_zeros[q].resize(nn);
    for (size_t c = 0; c < nn; ++c) {
      column_zeros[q][c] = static_cast<int32_t>(b_zero.at(b_user[q], 0, c));
    }
  }
  const size_t rows_per_task = std::max<size_t>(1, (size_t{1} << 16) / std::max<size_t>(nn, 1));
  const size_t row_chunks = std::max<size_t>(1, (kk + rows_per_task - 1) / rows_per_task);
  parallelFor(ctx, b_matrices * row_chunks, 1, [&](size_t first, size_t last) {
    std::vector<int32_t> no_zero;
    for (size_t task = first; task < last; ++task) {
      const size_t q = task / row_chunks;
      if (b_user[q] == kUnused) continue;
      const size_t k0 = task % row_chunks * rows_per_task;
      if (k0 >= kk) continue;
      const size_t rows = std::min(rows_per_task, kk - k0);
      no_zero.assign(rows, 0);
      const size_t at = (q * kk + k0) * nn;
      bytesLessZeros(b, at, rows, nn, no_zero, column_zeros[q], right.data() + at);
    }
  });

  // Column tiles of about 128K elements of b (as the convolutions take them), in whole panels of
  // the kernel's 16 columns (a panel cut short costs a whole one).
  size_t tile = std::max<size_t>(16, (size_t{1} << 17) / std::max<size_t>(kk, 1));
  tile = std::min(nn, (tile + 15) / 16 * 16);
  const size_t tiles = (nn + tile - 1) / tile;
  const size_t tasks = batches * row_blocks * tiles;
  const size_t work = std::min(mm, kByteProductRowBlock) * std::max<size_t>(kk, 1) * tile;
  const bool avx2 = ctx.cpuTier() >= CpuTier::kAvx2;
  parallelFor(ctx, tasks, std::max<size_t>(1, (size_t{1} << 16) / work),
              [&](size_t begin, size_t end) {
                for (size_t task = begin; task < end; ++task) {
                  const size_t t = task % tiles;
                  const size_t block = (task / tiles) % row_blocks;
                  const size_t p = task / tiles / row_blocks;
                  const size_t c0 = t * tile;
                  const nn::BytePairLeft& rows = left[product.a_index[p] * row_blocks + block];
                  const int16_t* columns = right.data() + product.b_index[p] * kk * nn + c0;
                  int32_t* out = sums + (p * mm + block * kByteProductRowBlock) * nn + c0;
                  nn::bytePairGemm(rows, std::min(tile, nn - c0), columns, nn, out, nn, avx2);
                }
              });
}

/// The integer matrix product (a - a_zero) @ (b - b_zero) of `product`'s shapes, summed as the
/// spec's 32-bit accumulator does (wrapping). `then(batch, row, column, sum)` turns each sum
/// into the result's element (returned as double and stored with storeDouble); it may be
/// called from several threads at once. Bytes go through byteMatMulSums; other types (the
/// float8 of QLinearMatMul) are summed here in 64 bits and wrapped.
template <class Then>
Result<Array> integerMatMul(const KernelContext& ctx, const Array& a, const Array& b,
                            const MatrixProduct& product, const MatrixParameter& a_zero,
                            const MatrixParameter& b_zero, ElementType out_type, Then then) {
  Result<Array> made = Array::allocate(out_type, product.result);
  if (!made) return made.status();
  Array out = std::move(*made);
  size_t mm = product.rows, kk = product.inner, nn = product.columns;
  if (isByteProduct(a, b, a_zero, b_zero)) {
    std::vector<int32_t> sums(out.size());
    byteMatMulSums(ctx, a, b, product, a_zero, b_zero, sums.data());
    // Array keeps each element in its own byte or more (sub-byte types unpacked), so rows
    // may be stored from different threads.
    const size_t rows = product.a_index.size() * mm;
    parallelFor(ctx, rows, std::max<size_t>(1, 4096 / std::max<size_t>(nn, 1)),
                [&](size_t begin, size_t end) {
                  for (size_t row = begin; row < end; ++row) {
                    for (size_t c = 0; c < nn; ++c) {
                      const size_t i = row * nn + c;
                      storeDouble(out, i, then(row / mm, row % mm, c, sums[i]));
                    }
                  }
                });
    return out;
  }
  std::vector<int64_t> left(mm * kk), right(kk * nn);
  for (size_t p = 0; p < product.a_index.size(); ++p) {
    for (size_t i = 0; i < mm * kk; ++i) {
      double value = elementAsDouble(a, product.a_index[p] * mm * kk + i);
      left[i] = static_cast<int64_t>(value - a_zero.at(p, i / kk, 0));
    }
    for (size_t i = 0; i < kk * nn; ++i) {
      double value = elementAsDouble(b, product.b_index[p] * kk * nn + i);
      right[i] = static_cast<int64_t>(value - b_zero.at(p, 0, i % nn));
    }
    for (size_t r = 0; r < mm; ++r) {
      for (size_t c = 0; c < nn; ++c) {
        // Unsigned arithmetic wraps where int32 would (only the low 32 bits are kept).
        uint64_t sum = 0;
        for (size_t q = 0; q < kk; ++q) {
          sum += static_cast<uint64_t>(left[r * kk + q]) * static_cast<uint64_t>(right[q * nn + c]);
        }
        auto wrapped = static_cast<int32_t>(static_cast<uint32_t>(sum));
        storeDouble(out, (p * mm + r) * nn + c, then(p, r, c, wrapped));
      }
    }
  }
  return out;
}

}  // namespace onyx::ops::quant
