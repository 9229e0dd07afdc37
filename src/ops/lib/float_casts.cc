#include "ops/lib/float_casts.h"

#include "ops/wider_vectors.h"

namespace onyx::ops::cast {

namespace {

template <class S>
inline void convert(const S* __restrict from, size_t count, float* __restrict to) {
  for (size_t i = 0; i < count; ++i) to[i] = static_cast<float>(from[i]);
}

}  // namespace

ONYX_WIDER_VECTORS void toFloats(const int32_t* from, size_t count, float* to) {
  convert(from, count, to);
}
ONYX_WIDER_VECTORS void toFloats(const int64_t* from, size_t count, float* to) {
  convert(from, count, to);
}
ONYX_WIDER_VECTORS void toFloats(const uint8_t* from, size_t count, float* to) {
  convert(from, count, to);
}
ONYX_WIDER_VECTORS void toFloats(const int8_t* from, size_t count, float* to) {
  convert(from, count, to);
}
ONYX_WIDER_VECTORS void toFloats(const double* from, size_t count, float* to) {
  convert(from, count, to);
}

}  // namespace onyx::ops::cast
