#include "ops/math/vector_math.h"

#include <algorithm>

// On x86-64 Linux, g++ compiles the loops below twice, for AVX2 and for the baseline (SSE2),
// and the loader picks one for the CPU (an ifunc): twice the lanes where AVX2 is there. Not
// FMA, so that both give the same bits.
#if defined(__x86_64__) && defined(__linux__) && defined(__GNUC__) && !defined(__clang__)
#define ONYX_WIDER_VECTORS __attribute__((target_clones("avx2", "default")))
#else
#define ONYX_WIDER_VECTORS
#endif

namespace onyx::ops::vector_math {

ONYX_WIDER_VECTORS void expFloats(const float* __restrict from, float* __restrict to,
                                  size_t count) {
  for (size_t i = 0; i < count; ++i) to[i] = expFloat(from[i]);
}

ONYX_WIDER_VECTORS void expShiftedFloats(const float* __restrict from, float shift,
                                         float* __restrict to, size_t count) {
  for (size_t i = 0; i < count; ++i) to[i] = expFloat(from[i] - shift);
}

ONYX_WIDER_VECTORS void erfFloats(const float* __restrict from, float* __restrict to,
                                  size_t count) {
  // Most inputs of the Erf in a GELU are small: a block with no |x| >= kErfSplit skips the
  // exponential. Both loops give the same bits for such a block.
  constexpr size_t kBlock = 32;
  for (size_t begin = 0; begin < count; begin += kBlock) {
    const size_t length = std::min(kBlock, count - begin);
    const float* __restrict x = from + begin;
    float* __restrict y = to + begin;
    uint32_t large = 0;
    for (size_t i = 0; i < length; ++i) large |= std::fabs(x[i]) >= kErfSplit ? 1u : 0u;
    if (large == 0) {
      for (size_t i = 0; i < length; ++i) y[i] = erfSmallFloat(x[i]);
    } else {
      for (size_t i = 0; i < length; ++i) y[i] = erfFloat(x[i]);
    }
  }
}

}  // namespace onyx::ops::vector_math
