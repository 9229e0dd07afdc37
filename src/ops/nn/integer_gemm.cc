// ConvInteger's and QLinearConv's matrix product in 32-bit wrapping integers, compiled for
// AVX2 too (wider_vectors.h): its 32-bit multiplies vectorise there, not on the baseline.
#include "ops/nn/conv_kernels.h"
#include "ops/wider_vectors.h"

namespace onyx::ops::nn {

ONYX_WIDER_VECTORS void gemmWrapping(size_t m, size_t n, size_t k, const uint32_t* a, size_t lda,
                                     const uint32_t* b, size_t ldb, uint32_t* c, size_t ldc) {
  gemm<uint32_t>(m, n, k, a, lda, b, ldb, c, ldc);
}

}  // namespace onyx::ops::nn
