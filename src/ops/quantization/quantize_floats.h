// Internal: the loops of QuantizeLinear, DequantizeLinear and DynamicQuantizeLinear between
// FLOAT and the 8-bit and 32-bit integers, written to vectorize (compiled for AVX2 too, chosen when
// the library loads; every width gives the same bits). They compute what the operators' general
// code computes, element for element.
#pragma once

#include <cstddef>
#include <cstdint>

namespace onyx::ops::quant {

struct FloatBounds {
  float low = 0;
  float high = 0;
  bool finite = true;  // no NaN or infinity among the values
};

/// The smallest and largest of `count` floats and of `low` and `high` (DynamicQuantizeLinear's
/// range includes 0), and whether every value is finite.
FloatBounds floatBounds(const float* values, size_t count, float low, float high);

/// to[i] = round_half_even(from[i] / scale) + zero, clamped to [low, high] (the integer type's
/// range), where a quotient that rounds outside int32 or is NaN gives `low`, as numpy's
/// astype(int32) leads the reference to. Written as uint8 or as int8.
void quantizeFloatsToUint8(const float* from, size_t count, float scale, float zero, uint8_t* to);
void quantizeFloatsToInt8(const float* from, size_t count, float scale, float zero, int8_t* to);

/// to[i] = (from[i] - zero) * scale, in float for the 8-bit types (the difference is exact,
/// the product rounded once, as the reference's float arithmetic) and in double for int32,
/// then rounded to float (the reference promotes int32 to double).
void dequantizeToFloats(const uint8_t* from, size_t count, float scale, float zero, float* to);
void dequantizeToFloats(const int8_t* from, size_t count, float scale, float zero, float* to);
void dequantizeToFloats(const int32_t* from, size_t count, float scale, double zero, float* to);

}  // namespace onyx::ops::quant
