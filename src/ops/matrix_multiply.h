// Internal: the one place float matrix products happen (MatMul, Gemm, Conv through im2col,
// attention), on oneDNN's sgemm when the evaluator runs the kernel (NativeKernels).
//
// oneDNN was chosen by measurement (bench/README.md): on this project's machines its sgemm
// runs at 1.1-4x Debian OpenBLAS's on the shapes of convolution and transformer layers,
// without OpenBLAS's need for OPENBLAS_CORETYPE to use AVX-512.
#pragma once

#include <cstddef>

#include "onyx/ops/kernel_context.h"

namespace onyx::ops {

/// C = alpha * op(A) * op(B) + beta * C with row-major floats: op(A) is [m, k] (A is [k, m]
/// when `trans_a`), op(B) is [k, n]; lda, ldb, ldc are the row strides as stored. The work
/// is cut into blocks of rows (or of columns, for few rows) whose sizes depend only on m, n
/// and k, each block one single-threaded sgemm, the blocks spread over ctx.threads()
/// threads: the result does not depend on the thread count.
void multiplyFloat(const KernelContext& ctx, bool trans_a, bool trans_b, size_t m, size_t n,
                   size_t k, float alpha, const float* a, size_t lda, const float* b, size_t ldb,
                   float beta, float* c, size_t ldc);

/// `count` products of the same sizes, split together (a batched MatMul's): C_i = alpha *
/// op(A_i) * op(B_i) + beta * C_i with A_i at a + a_offsets[i], B_i at b + b_offsets[i] and
/// C_i at c + i * c_stride (offsets in elements).
void multiplyFloatBatches(const KernelContext& ctx, size_t count, const size_t* a_offsets,
                          const size_t* b_offsets, size_t c_stride, bool trans_a, bool trans_b,
                          size_t m, size_t n, size_t k, float alpha, const float* a, size_t lda,
                          const float* b, size_t ldb, float beta, float* c, size_t ldc);

/// The same product on the calling thread alone, for kernels that split their work
/// themselves (Conv's column tiles): each call's result depends only on its arguments.
void multiplyFloatOnThisThread(const KernelContext& ctx, bool trans_a, bool trans_b, size_t m,
                               size_t n, size_t k, float alpha, const float* a, size_t lda,
                               const float* b, size_t ldb, float beta, float* c, size_t ldc);

}  // namespace onyx::ops
