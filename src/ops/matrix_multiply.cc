#include "ops/matrix_multiply.h"

#include <algorithm>

#include "ops/kernels.h"
#include "ops/math/vector_math.h"
#include "ops/native_kernels.h"

namespace onyx::ops {

namespace {

// Rows per block: large enough for sgemm's register blocking, small enough to spread a
// transformer layer's 128 rows over two threads.
constexpr size_t kRowBlock = 64;
constexpr size_t kColumnBlock = 256;

// C = alpha * op(A) * op(B) + beta * C, k > 0: the evaluator's sgemm, or a plain loop for a
// host without one.
void sgemmOnThisThread(const KernelContext& ctx, bool trans_a, bool trans_b, size_t m, size_t n,
                       size_t k, float alpha, const float* a, size_t lda, const float* b,
                       size_t ldb, float beta, float* c, size_t ldc) {
  if (const NativeKernels* native = ctx.nativeKernels()) {
    native->multiply_float(trans_a, trans_b, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
    return;
  }
  for (size_t i = 0; i < m; ++i) {
    for (size_t j = 0; j < n; ++j) {
      float sum = 0.0f;
      for (size_t p = 0; p < k; ++p) {
        sum += (trans_a ? a[p * lda + i] : a[i * lda + p]) *
               (trans_b ? b[j * ldb + p] : b[p * ldb + j]);
      }
      float& out = c[i * ldc + j];
      out = alpha * sum + (beta == 0.0f ? 0.0f : beta * out);
    }
  }
}

// A row times a matrix (a decoder's one-token products by float weights): the matrix's rows
// swept four at a time over blocks of this many columns, four 2 KiB runs at once (sgemm's
// blocks of 256 columns read 1 KiB runs a row of the matrix apart, one row at a time). Blocks
// of 2048 columns were no faster on one thread and left a 2048-column layer to one of two.
constexpr size_t kVectorColumnBlock = 512;

// c[j] = alpha * sum over p of a[p * a_step] * b[p * ldb + j] + beta * c[j], the sum in
// groups of four rows in order: the bits depend on the shapes alone.
void vectorTimesMatrix(const KernelContext& ctx, size_t k, size_t n, float alpha, const float* a,
                       size_t a_step, const float* b, size_t ldb, float beta, float* c) {
  const size_t blocks = (n + kVectorColumnBlock - 1) / kVectorColumnBlock;
  parallelFor(ctx, blocks, 1, [&](size_t begin, size_t end) {
    float sums[kVectorColumnBlock];  // 2 KiB: no allocation on a decoder's every product
    for (size_t block = begin; block < end; ++block) {
      const size_t first = block * kVectorColumnBlock;
      const size_t columns = std::min(kVectorColumnBlock, n - first);
      std::fill(sums, sums + columns, 0.0f);
      size_t p = 0;
      for (; p + 4 <= k; p += 4) {
        const float* rows[4] = {b + p * ldb + first, b + (p + 1) * ldb + first,
                                b + (p + 2) * ldb + first, b + (p + 3) * ldb + first};
        const float x[4] = {a[p * a_step], a[(p + 1) * a_step], a[(p + 2) * a_step],
                            a[(p + 3) * a_step]};
        vector_math::addFourScaledRows(rows, x, sums, columns);
      }
      for (; p < k; ++p) {
        vector_math::addScaledRow(b + p * ldb + first, a[p * a_step], sums, columns);
      }
      float* out = c + first;
      for (size_t j = 0; j < columns; ++j) {
        out[j] = alpha * sums[j] + (beta == 0.0f ? 0.0f : beta * out[j]);
      }
    }
  });
}

}  // namespace

void multiplyFloatOnThisThread(const KernelContext& ctx, bool trans_a, bool trans_b, size_t m,
                               size_t n, size_t k, float alpha, const float* a, size_t lda,
                               const float* b, size_t ldb, float beta, float* c, size_t ldc) {
  if (m == 0 || n == 0) return;
  if (k == 0) {
    for (size_t i = 0; i < m; ++i) {
      for (size_t j = 0; j < n; ++j) c[i * ldc + j] = beta == 0.0f ? 0.0f : beta * c[i * ldc + j];
    }
    return;
  }
  sgemmOnThisThread(ctx, trans_a, trans_b, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

void multiplyFloat(const KernelContext& ctx, bool trans_a, bool trans_b, size_t m, size_t n,
                   size_t k, float alpha, const float* a, size_t lda, const float* b, size_t ldb,
                   float beta, float* c, size_t ldc) {
  const size_t origin = 0;
  multiplyFloatBatches(ctx, 1, &origin, &origin, 0, trans_a, trans_b, m, n, k, alpha, a, lda, b,
                       ldb, beta, c, ldc);
}

void multiplyFloatBatches(const KernelContext& ctx, size_t count, const size_t* a_offsets,
                          const size_t* b_offsets, size_t c_stride, bool trans_a, bool trans_b,
                          size_t m, size_t n, size_t k, float alpha, const float* a, size_t lda,
                          const float* b, size_t ldb, float beta, float* c, size_t ldc) {
  if (m == 0 || n == 0 || count == 0) return;
  if (k == 0) {
    // sgemm would still scale C by beta; the product itself is zero.
    for (size_t item = 0; item < count; ++item) {
      float* out = c + item * c_stride;
      for (size_t i = 0; i < m; ++i) {
        for (size_t j = 0; j < n; ++j) {
          out[i * ldc + j] = beta == 0.0f ? 0.0f : beta * out[i * ldc + j];
        }
      }
    }
    return;
  }
  if (m == 1 && !trans_b && count == 1 && n >= kVectorColumnBlock) {
    vectorTimesMatrix(ctx, k, n, alpha, a, trans_a ? lda : 1, b, ldb, beta, c);
    return;
  }
  // Blocks of rows, or of columns for few rows; every product cut alike.
  bool by_rows = m >= 2 * kRowBlock || n < 2 * kColumnBlock;
  size_t blocks = by_rows ? (m + kRowBlock - 1) / kRowBlock : (n + kColumnBlock - 1) / kColumnBlock;
  parallelFor(ctx, count * blocks, 1, [&](size_t begin, size_t end) {
    for (size_t task = begin; task < end; ++task) {
      size_t item = task / blocks;
      size_t block = task % blocks;
      const float* a_item = a + a_offsets[item];
      const float* b_item = b + b_offsets[item];
      float* c_item = c + item * c_stride;
      if (by_rows) {
        size_t row = block * kRowBlock;
        size_t rows = std::min(kRowBlock, m - row);
        const float* a_block = trans_a ? a_item + row : a_item + row * lda;
        sgemmOnThisThread(ctx, trans_a, trans_b, rows, n, k, alpha, a_block, lda, b_item, ldb, beta,
                          c_item + row * ldc, ldc);
      } else {
        size_t column = block * kColumnBlock;
        size_t columns = std::min(kColumnBlock, n - column);
        const float* b_block = trans_b ? b_item + column * ldb : b_item + column;
        sgemmOnThisThread(ctx, trans_a, trans_b, m, columns, k, alpha, a_item, lda, b_block, ldb,
                          beta, c_item + column, ldc);
      }
    }
  });
}

}  // namespace onyx::ops
