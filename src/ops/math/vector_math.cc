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

ONYX_WIDER_VECTORS void addFourScaledRows(const float* const rows[4], const float x[4],
                                          float* __restrict y, size_t count) {
  const float* __restrict r0 = rows[0];
  const float* __restrict r1 = rows[1];
  const float* __restrict r2 = rows[2];
  const float* __restrict r3 = rows[3];
  const float x0 = x[0], x1 = x[1], x2 = x[2], x3 = x[3];
  for (size_t j = 0; j < count; ++j) {
    y[j] += ((x0 * r0[j] + x1 * r1[j]) + x2 * r2[j]) + x3 * r3[j];
  }
}

ONYX_WIDER_VECTORS void addScaledRow(const float* __restrict row, float x, float* __restrict y,
                                     size_t count) {
  for (size_t j = 0; j < count; ++j) y[j] += x * row[j];
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
