// Internal: the exact integer matrix product of ConvInteger, QLinearConv, MatMulInteger and
// QLinearMatMul on CPUs without VNNI: C = A B in int32 wrapping arithmetic, where A and B hold
// bytes less their zero points widened to int16.
//
// A uint8 or int8 less a zero point of either type lies in [-383, 383], so it fits int16, and
// AVX2's vpmaddwd multiplies two int16 pairs exactly and adds the two products into an int32
// lane (2 * 383 * 383 is far from overflow; even for any int16 it wraps as int32 arithmetic
// would). Summing those lanes with vpaddd wraps modulo 2^32, as the spec's int32 accumulator
// does. Every partial sum is exact modulo 2^32, so the result does not depend on the order of
// the sums: the AVX2 and the portable path, and any split of the work between threads, give
// the same bits. No zero-point correction terms: the zero points go when the bytes are widened.
//
// Layout: A (the weights of a convolution, reused across every column tile) is packed once,
// in panels of kPanelRows rows with the depth taken in pairs, so that the kernel broadcasts
// one 32-bit (a[r][2p], a[r][2p + 1]) pair per row and step. B is packed inside the product,
// block by block (byte_pair_gemm.cc), in panels of 16 columns whose 32-bit lanes hold
// (b[2p][j], b[2p + 1][j]). An odd depth is padded with a zero.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "onyx/core/array.h"

namespace onyx::ops::nn {

/// Whether elements of `type` are UINT8 or INT8: the operands the byte products take.
inline bool isByteType(ElementType type) {
  return type == ElementType::kUint8 || type == ElementType::kInt8;
}
inline bool isByteArray(const Array* array) {
  return array != nullptr && isByteType(array->type());
}

/// Element `i` of a UINT8 or INT8 array, widened (a zero point, a byte to take it from).
inline int32_t byteAt(const Array& bytes, size_t i) {
  return bytes.type() == ElementType::kInt8 ? int32_t{bytes.data<int8_t>()[i]}
                                            : int32_t{bytes.data<uint8_t>()[i]};
}

/// The left operand of bytePairGemm (rows x depth int16 values), packed for its kernel.
class BytePairLeft {
 public:
  /// Rows of A in each panel: the kernel's register block is kPanelRows x 16 int32 sums.
  static constexpr size_t kPanelRows = 6;

  BytePairLeft() = default;
  /// Packs a[r * lda + k] for r < rows, k < depth.
  BytePairLeft(size_t rows, size_t depth, const int16_t* a, size_t lda);

  size_t rows() const { return rows_; }
  size_t depth() const { return depth_; }
  /// ceil(depth / 2): the steps of the kernel.
  size_t pairs() const { return pairs_; }
  size_t panels() const { return (rows_ + kPanelRows - 1) / kPanelRows; }
  /// Rows in panel `panel`: kPanelRows, fewer in the last.
  size_t panelRows(size_t panel) const;
  /// Panel `panel`: pairs() steps of panelRows(panel) pairs, row after row within a step.
  const uint32_t* panel(size_t panel) const { return data_.data() + panel * kPanelRows * pairs_; }

 private:
  size_t rows_ = 0;
  size_t depth_ = 0;
  size_t pairs_ = 0;
  std::vector<uint32_t> data_;
};

/// c[i * ldc + j] = sum over k of a(i, k) * b[k * ldb + j], wrapped to int32, for i < a.rows()
/// and j < columns; b has a.depth() rows. C is overwritten (zero when the depth is 0). With
/// `avx2` (the caller's KernelContext::cpuTier() is at least CpuTier::kAvx2) the AVX2 kernel
/// runs, else the portable one; both give the same bits.
void bytePairGemm(const BytePairLeft& a, size_t columns, const int16_t* b, size_t ldb, int32_t* c,
                  size_t ldc, bool avx2);

}  // namespace onyx::ops::nn
