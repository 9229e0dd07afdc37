// Internal: the exact integer matrix product of ConvInteger and QLinearConv on CPUs with
// AVX512-VNNI: C = (A - a_zero) (B - b_zero) in int32 wrapping arithmetic, A int8 (the weights),
// B uint8 (the input's bytes as im2col gathers them).
//
// vpdpbusd multiplies four unsigned bytes of B by four signed bytes of A, adds the four products
// (each at most 255 * 128 in magnitude) and adds that to an int32 lane without saturating, so
// every partial sum is exact modulo 2^32, as the spec's int32 accumulator. It takes four steps
// of depth per instruction where byte_pair_gemm.h's vpmaddwd takes two, and reads bytes where
// that reads int16. The zero points come off after the products:
//   sum (a - za)(b - zb) = sum a b - za sum b - zb sum a + K za zb      (K: the depth)
// with sum a per row of A kept with the packing, and sum b per column of B formed while B is
// packed. Operands of other byte types are shifted by 128 first (an int8 input plus 128 is a
// uint8, a uint8 weight less 128 an int8), their zero points with them: the differences, and so
// the result, stay the same. Both paths give the same bits.
//
// Layout: A is packed once in panels of kPanelRows rows, the depth in quads: a step holds each
// row's four bytes as one 32-bit word, which the kernel broadcasts. B is packed inside the
// product in panels of 32 columns whose 32-bit lanes hold (b[4q][j] ... b[4q + 3][j]). A depth
// that is not a multiple of four is padded with zeros on both sides, which add nothing.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace onyx::ops::nn {

/// The left operand of byteQuadGemm (rows x depth int8 values, each row with its zero point),
/// packed for its kernel.
class ByteQuadLeft {
 public:
  /// Rows of A in each panel: the kernel's register block is kPanelRows x 32 int32 sums.
  static constexpr size_t kPanelRows = 6;

  ByteQuadLeft() = default;
  /// Packs a[r * lda + k] for r < rows, k < depth; row r's zero point is zeros[r] (int8 range).
  ByteQuadLeft(size_t rows, size_t depth, const int8_t* a, size_t lda, const int32_t* zeros);

  size_t rows() const { return rows_; }
  size_t depth() const { return depth_; }
  /// ceil(depth / 4): the steps of the kernel.
  size_t quads() const { return quads_; }
  size_t panels() const { return (rows_ + kPanelRows - 1) / kPanelRows; }
  /// Rows in panel `panel`: kPanelRows, fewer in the last.
  size_t panelRows(size_t panel) const;
  /// Panel `panel`: quads() steps of panelRows(panel) words, row after row within a step.
  const uint32_t* panel(size_t panel) const { return data_.data() + panel * kPanelRows * quads_; }
  int32_t zero(size_t row) const { return zeros_[row]; }
  /// The sum of row `row`'s values (without its zero point), modulo 2^32.
  uint32_t sum(size_t row) const { return sums_[row]; }

 private:
  size_t rows_ = 0;
  size_t depth_ = 0;
  size_t quads_ = 0;
  std::vector<uint32_t> data_;
  std::vector<int32_t> zeros_;
  std::vector<uint32_t> sums_;
};

/// c[i * ldc + j] = sum over k of (a(i, k) - a.zero(i)) * (b[k * ldb + j] - b_zero), wrapped to
/// int32, for i < a.rows() and j < columns; b has a.depth() rows of uint8. C is overwritten.
/// With `vnni` (the caller's KernelContext::cpuTier() is at least CpuTier::kAvx512Vnni) the
/// VNNI kernel runs, else the portable one (for tests: the integer convolutions take the
/// byte pairs below VNNI, which are faster there); both give the same bits.
void byteQuadGemm(const ByteQuadLeft& a, size_t columns, const uint8_t* b, size_t ldb,
                  int32_t b_zero, int32_t* c, size_t ldc, bool vnni);

}  // namespace onyx::ops::nn
