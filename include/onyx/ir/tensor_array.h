// onyx/ir/tensor_array.h — a TensorProto's elements as an Array, and back.
#pragma once

#include "onyx/core/array.h"
#include "onyx/core/status.h"
#include "onyx/ir/tensor.h"

// Exported from the shared libraries: the public API (see src/CMakeLists.txt).
#pragma GCC visibility push(default)

namespace onyx {

class Arena;

/// The elements of a TensorProto (raw, typed or string data; external data already
/// resolved) as an Array. Errors: unknown data type, data that does not fit the dims.
Result<Array> arrayFromTensor(const Tensor& tensor);

/// A TensorProto holding `array`'s elements as raw_data (strings as string_data), its bytes
/// in `arena`; sub-byte types are packed.
Tensor* tensorFromArray(const Array& array, Arena& arena);

}  // namespace onyx

#pragma GCC visibility pop
