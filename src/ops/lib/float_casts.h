// Internal: Cast to FLOAT from the integer types, DOUBLE and FLOAT16 (and to FLOAT16) in
// loops that vectorize (compiled
// for AVX2 too; every width gives the same bits: each element is one conversion, rounded to
// nearest even). What cast_kernels.h's general loop computes, faster: a dequantizing
// network casts every int32 sum of its integer convolutions to float.
#pragma once

#include <cstddef>
#include <cstdint>

namespace onyx::ops::cast {

void toFloats(const int32_t* from, size_t count, float* to);
void toFloats(const int64_t* from, size_t count, float* to);
void toFloats(const uint8_t* from, size_t count, float* to);
void toFloats(const int8_t* from, size_t count, float* to);
void toFloats(const double* from, size_t count, float* to);

/// FLOAT16 (as its 16-bit codes) to FLOAT and back, rounded to nearest even, as
/// float16ToFloat and floatToFloat16 convert one element (onyx/core/float_formats.h).
void halvesToFloats(const uint16_t* from, size_t count, float* to);
void floatsToHalves(const float* from, size_t count, uint16_t* to);

}  // namespace onyx::ops::cast
