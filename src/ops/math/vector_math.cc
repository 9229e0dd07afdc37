#include "ops/math/vector_math.h"

#include <algorithm>

#include "ops/wider_vectors.h"

namespace onyx::ops::vector_math {

ONYX_WIDER_VECTORS void expFloats(const float* from, float* to, size_t count) {
  for (size_t i = 0; i < count; ++i) to[i] = expFloat(from[i]);
}

ONYX_WIDER_VECTORS void expShiftedFloats(const float* __restrict from, float shift,
                                         float* __restrict to, size_t count) {
  for (size_t i = 0; i < count; ++i) to[i] = expFloat(from[i] - shift);
}

ONYX_WIDER_VECTORS void siluFloats(const float* x, float* to, size_t count) {
  for (size_t i = 0; i < count; ++i) to[i] = x[i] * sigmoidFloat(x[i]);
}

ONYX_WIDER_VECTORS void gatedSiluFloats(const float* x, const float* up, float* to, size_t count) {
  for (size_t i = 0; i < count; ++i) {
    const float silu = x[i] * sigmoidFloat(x[i]);
    to[i] = silu * up[i];
  }
}

ONYX_WIDER_VECTORS void erfFloats(const float* from, float* to, size_t count) {
  // Most inputs of the Erf in a GELU are small: a block with no |x| >= kErfSplit skips the
  // exponential. Both loops give the same bits for such a block.
  constexpr size_t kBlock = 32;
  for (size_t begin = 0; begin < count; begin += kBlock) {
    const size_t length = std::min(kBlock, count - begin);
    const float* x = from + begin;
    float* y = to + begin;
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
