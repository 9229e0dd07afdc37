#include "ops/quantization/quantize_floats.h"

#include <bit>

#include "ops/math/vector_math.h"
#include "ops/wider_vectors.h"

namespace onyx::ops::quant {

namespace {

using vector_math::select;

// round_half_even(x / scale) + zero clamped to [low, high]; `low` for a quotient outside
// int32 or NaN. rint rounds in the current mode, which onyx leaves at nearest-even (roundeven
// has no vector form in g++ 12); comparisons through select, so the loop vectorizes.
inline float quantized(float x, float scale, float zero, float low, float high) {
  float rounded = __builtin_rintf(x / scale);
  bool inside = (rounded >= -2147483648.0f) & (rounded < 2147483648.0f);  // no branch
  float shifted = rounded + zero;
  float clamped = select(shifted < low, low, select(shifted > high, high, shifted));
  return select(inside, clamped, low);
}

}  // namespace

ONYX_WIDER_VECTORS FloatBounds floatBounds(const float* values, size_t count, float low,
                                           float high) {
  // Lanes of their own, folded at the end, so that the loop vectorizes (a select is no
  // reduction the compiler knows); min and max do not depend on the order but for the sign
  // of a zero.
  constexpr size_t kLanes = 16;
  float lows[kLanes], highs[kLanes];
  uint32_t unfinite[kLanes] = {};
  for (size_t l = 0; l < kLanes; ++l) lows[l] = low, highs[l] = high;
  size_t i = 0;
  for (; i + kLanes <= count; i += kLanes) {
    for (size_t l = 0; l < kLanes; ++l) {
      float v = values[i + l];
      lows[l] = select(v < lows[l], v, lows[l]);
      highs[l] = select(v > highs[l], v, highs[l]);
      // v - v is NaN exactly for NaN and the infinities.
      unfinite[l] |= static_cast<uint32_t>((v - v) != 0.0f);
    }
  }
  for (; i < count; ++i) {
    float v = values[i];
    lows[0] = select(v < lows[0], v, lows[0]);
    highs[0] = select(v > highs[0], v, highs[0]);
    unfinite[0] |= static_cast<uint32_t>((v - v) != 0.0f);
  }
  uint32_t any_unfinite = 0;
  for (size_t l = 0; l < kLanes; ++l) {
    low = select(lows[l] < low, lows[l], low);
    high = select(highs[l] > high, highs[l], high);
    any_unfinite |= unfinite[l];
  }
  return {low, high, any_unfinite == 0};
}

ONYX_WIDER_VECTORS void quantizeFloatsToUint8(const float* from, size_t count, float scale,
                                              float zero, uint8_t* to) {
  for (size_t i = 0; i < count; ++i) {
    to[i] = static_cast<uint8_t>(static_cast<int32_t>(quantized(from[i], scale, zero, 0, 255)));
  }
}

ONYX_WIDER_VECTORS void quantizeFloatsToInt8(const float* from, size_t count, float scale,
                                             float zero, int8_t* to) {
  for (size_t i = 0; i < count; ++i) {
    to[i] = static_cast<int8_t>(static_cast<int32_t>(quantized(from[i], scale, zero, -128, 127)));
  }
}

ONYX_WIDER_VECTORS void dequantizeToFloats(const uint8_t* from, size_t count, float scale,
                                           float zero, float* to) {
  for (size_t i = 0; i < count; ++i) to[i] = (static_cast<float>(from[i]) - zero) * scale;
}

ONYX_WIDER_VECTORS void dequantizeToFloats(const int8_t* from, size_t count, float scale,
                                           float zero, float* to) {
  for (size_t i = 0; i < count; ++i) to[i] = (static_cast<float>(from[i]) - zero) * scale;
}

ONYX_WIDER_VECTORS void dequantizeToFloats(const int32_t* from, size_t count, float scale,
                                           double zero, float* to) {
  const double wide_scale = scale;
  for (size_t i = 0; i < count; ++i) {
    to[i] = static_cast<float>((static_cast<double>(from[i]) - zero) * wide_scale);
  }
}

namespace {

// The QDQ Add's loop: each product rounded to float before the sum (the file is compiled
// without contracting a product and a sum into one fused operation), as the DequantizeLinear
// nodes round them; the Relu chosen outside the loop, so that each loop vectorizes.
template <bool kRelu, class Byte>
inline void addQuantizedLoop(const Byte* a, const Byte* b, size_t count, float a_scale,
                             float a_zero, float b_scale, float b_zero, float y_scale, float y_zero,
                             float low, float high, Byte* to) {
  for (size_t i = 0; i < count; ++i) {
    float sum = (static_cast<float>(a[i]) - a_zero) * a_scale +
                (static_cast<float>(b[i]) - b_zero) * b_scale;
    if constexpr (kRelu) sum = select(sum < 0.0f, 0.0f, sum);
    to[i] = static_cast<Byte>(static_cast<int32_t>(quantized(sum, y_scale, y_zero, low, high)));
  }
}

template <class Byte>
inline void addQuantizedAs(const Byte* a, const Byte* b, size_t count, const QuantizedAddition& how,
                           float low, float high, Byte* to) {
  if (how.relu) {
    addQuantizedLoop<true>(a, b, count, how.a_scale, how.a_zero, how.b_scale, how.b_zero,
                           how.y_scale, how.y_zero, low, high, to);
  } else {
    addQuantizedLoop<false>(a, b, count, how.a_scale, how.a_zero, how.b_scale, how.b_zero,
                            how.y_scale, how.y_zero, low, high, to);
  }
}

}  // namespace

ONYX_WIDER_VECTORS void addQuantized(const uint8_t* a, const uint8_t* b, size_t count,
                                     const QuantizedAddition& how, uint8_t* to) {
  addQuantizedAs(a, b, count, how, 0, 255, to);
}

ONYX_WIDER_VECTORS void addQuantized(const int8_t* a, const int8_t* b, size_t count,
                                     const QuantizedAddition& how, int8_t* to) {
  addQuantizedAs(a, b, count, how, -128, 127, to);
}

}  // namespace onyx::ops::quant
