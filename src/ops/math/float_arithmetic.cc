#include "ops/math/float_arithmetic.h"

#include <cstddef>
#include <functional>

#include "ops/wider_vectors.h"

namespace onyx::ops::float_arithmetic {

namespace {

template <class Op>
ONYX_WIDER_VECTORS void both(const float* __restrict a, const float* __restrict b,
                             float* __restrict out, size_t count) {
  for (size_t i = 0; i < count; ++i) out[i] = Op()(a[i], b[i]);
}

template <class Op>
ONYX_WIDER_VECTORS void repeatedA(float a, const float* __restrict b, float* __restrict out,
                                  size_t count) {
  for (size_t i = 0; i < count; ++i) out[i] = Op()(a, b[i]);
}

template <class Op>
ONYX_WIDER_VECTORS void repeatedB(const float* __restrict a, float b, float* __restrict out,
                                  size_t count) {
  for (size_t i = 0; i < count; ++i) out[i] = Op()(a[i], b);
}

template <class Op>
constexpr elementwise::FloatBinaryLoops loopsOf() {
  return {both<Op>, repeatedA<Op>, repeatedB<Op>};
}

}  // namespace

const elementwise::FloatBinaryLoops kAdd = loopsOf<std::plus<float>>();
const elementwise::FloatBinaryLoops kSub = loopsOf<std::minus<float>>();
const elementwise::FloatBinaryLoops kMul = loopsOf<std::multiplies<float>>();
const elementwise::FloatBinaryLoops kDiv = loopsOf<std::divides<float>>();

}  // namespace onyx::ops::float_arithmetic
