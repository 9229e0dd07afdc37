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

/// What a QDQ Add computes node by node (DequantizeLinear of both operands, Add, an optional
/// Relu, QuantizeLinear), element by element with the same float operations in the same
/// order, so with the same bits: to[i] = quantized(relu?((a[i] - a_zero) * a_scale +
/// (b[i] - b_zero) * b_scale), y_scale, y_zero). All three of one type, uint8 or int8.
struct QuantizedAddition {
  float a_scale = 1, a_zero = 0;
  float b_scale = 1, b_zero = 0;
  float y_scale = 1, y_zero = 0;
  bool relu = false;
};
void addQuantized(const uint8_t* a, const uint8_t* b, size_t count, const QuantizedAddition& how,
                  uint8_t* to);
void addQuantized(const int8_t* a, const int8_t* b, size_t count, const QuantizedAddition& how,
                  int8_t* to);

}  // namespace onyx::ops::quant
