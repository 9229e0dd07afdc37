#include "ops/math/float_arithmetic.h"

#include <cstddef>
#include <functional>

#include "ops/wider_vectors.h"

namespace onyx::ops::float_arithmetic {

namespace {

template <class Op>
ONYX_WIDER_VECTORS void both(const float* a, const float* b, float* out, size_t count) {
  for (size_t i = 0; i < count; ++i) out[i] = Op()(a[i], b[i]);
}

template <class Op>
ONYX_WIDER_VECTORS void repeatedA(float a, const float* b, float* out, size_t count) {
  for (size_t i = 0; i < count; ++i) out[i] = Op()(a, b[i]);
}

template <class Op>
ONYX_WIDER_VECTORS void repeatedB(const float* a, float b, float* out, size_t count) {
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
