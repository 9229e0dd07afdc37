#include "ops/lib/float_casts.h"

#include <bit>

#include "onyx/core/float_formats.h"
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

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)

// _Float16 read and written through the arrays' 16-bit codes.
typedef _Float16 HalfCode __attribute__((may_alias));

namespace {

template <class From, class To>
inline void convertHalves(const From* from, size_t count, To* to) {
  for (size_t i = 0; i < count; ++i) to[i] = static_cast<To>(from[i]);
}

// F16C's conversions where the CPU has them (g++'s target_clones cannot name F16C alone, so
// the choice is made here); libgcc's elsewhere. Both round to nearest even.
__attribute__((target("avx2,f16c"))) void halvesToFloatsF16c(const HalfCode* from, size_t count,
                                                             float* to) {
  convertHalves(from, count, to);
  // F16C quiets a signalling NaN; float16ToFloat (and numpy, the reference) keeps it
  // signalling: the quiet bit it set is cleared again, without a branch.
  const uint16_t* codes = reinterpret_cast<const uint16_t*>(from);
  for (size_t i = 0; i < count; ++i) {
    const uint32_t code = codes[i];
    const uint32_t signalling = ((code & 0x7e00u) == 0x7c00u) & ((code & 0x1ffu) != 0);
    to[i] = std::bit_cast<float>(std::bit_cast<uint32_t>(to[i]) & ~(signalling << 22));
  }
}
__attribute__((target("avx2,f16c"))) void floatsToHalvesF16c(const float* from, size_t count,
                                                             HalfCode* to) {
  convertHalves(from, count, to);
}
bool hasF16c() {
  static const bool has = __builtin_cpu_supports("f16c") && __builtin_cpu_supports("avx2");
  return has;
}

}  // namespace

void halvesToFloats(const uint16_t* from, size_t count, float* to) {
  const HalfCode* halves = reinterpret_cast<const HalfCode*>(from);
  if (hasF16c()) {
    halvesToFloatsF16c(halves, count, to);
  } else {
    convertHalves(halves, count, to);
  }
}

void floatsToHalves(const float* from, size_t count, uint16_t* to) {
  HalfCode* halves = reinterpret_cast<HalfCode*>(to);
  if (hasF16c()) {
    floatsToHalvesF16c(from, count, halves);
  } else {
    convertHalves(from, count, halves);
  }
}

#else  // other compilers (clang, which the sanitizer build uses): onyx's own conversions

void halvesToFloats(const uint16_t* from, size_t count, float* to) {
  for (size_t i = 0; i < count; ++i) to[i] = float16ToFloat(from[i]);
}

void floatsToHalves(const float* from, size_t count, uint16_t* to) {
  for (size_t i = 0; i < count; ++i) to[i] = floatToFloat16(from[i]);
}

#endif

}  // namespace onyx::ops::cast
