// Internal: Cast to FLOAT from the integer types and DOUBLE in loops that vectorize (compiled
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

}  // namespace onyx::ops::cast
