// onyx/serde/npy.h — NumPy's .npy format (version 1.0, 2.0 and 3.0), for `onyx run`'s
// inputs and outputs.
//
// A .npy file is a magic string, a header (a Python dict literal giving the dtype, the
// element order and the shape) and the raw elements. onyx reads the little-endian numeric
// dtypes and bool ('<f2' '<f4' '<f8' '|i1' '<i2' '<i4' '<i8' '|u1' '<u2' '<u4' '<u8' '|b1',
// '|i1'/'|u1' also spelled with '<' or '='), big-endian ones converted, C order or Fortran
// order (transposed into row-major). Other dtypes (object, strings, structured) are refused
// with the dtype named.
#pragma once

#include <string>
#include <string_view>

#include "onyx/core/array.h"
#include "onyx/core/status.h"

// Exported from the shared libraries: the public API (see src/CMakeLists.txt).
#pragma GCC visibility push(default)

namespace onyx {

/// Decodes a whole .npy file. Errors name what is wrong: the magic, the header, the dtype,
/// a shape whose byte size does not match the data that follows.
Result<Array> parseNpy(std::string_view bytes);

/// Encodes `array` as .npy version 1.0 (2.0 when the header needs it). Element types with no
/// NumPy dtype (BFLOAT16, the FLOAT8 and FLOAT4 types, INT4/UINT4/INT2/UINT2, STRING,
/// complex) are an error.
Result<std::string> serializeNpy(const Array& array);

}  // namespace onyx

#pragma GCC visibility pop
