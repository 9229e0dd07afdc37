// onyx/core/array_elements.h — reading and writing an Array's elements as numbers, whatever
// their storage, and converting whole arrays between the narrow floating-point formats and
// FLOAT.
//
// Kernels compute FLOAT16, BFLOAT16, the FLOAT8 types and FLOAT4E2M1 in FLOAT, as onnx's
// reference does: widen, compute, narrow back rounding to nearest even (saturating where the
// format has no infinity). These functions are that widening and narrowing.
#pragma once

#include <cstddef>

#include "onyx/core/array.h"

// Exported from the shared libraries: the public API (see src/CMakeLists.txt).
#pragma GCC visibility push(default)

namespace onyx {

/// Whether `type` is a floating-point type kernels compute in FLOAT (FLOAT16, BFLOAT16, the
/// FLOAT8 types, FLOAT4E2M1).
bool isNarrowFloat(ElementType type);

/// Element `index` of a numeric or BOOL array as a double (exact for every type but the
/// 64-bit integers past 2^53). 0 for STRING and complex arrays.
double elementAsDouble(const Array& array, size_t index);

/// Stores `value` into element `index`: floating-point types round to nearest even (the
/// narrow ones saturate when they have no infinity, as Cast's default does); integer types
/// truncate toward zero and clamp to their range, NaN giving 0; BOOL is value != 0.
void storeDouble(Array& array, size_t index, double value);

/// A FLOAT copy of a narrow floating-point array; FLOAT and DOUBLE arrays are returned as they
/// are (shared, not copied).
Array widenToFloat(const Array& array);

/// `computed` (FLOAT) as `target`, rounded as storeDouble does; returned as is when `target`
/// is FLOAT.
Array narrowFromFloat(const Array& computed, ElementType target);

}  // namespace onyx

#pragma GCC visibility pop
