// onyx/ir/tensor_array.h — a TensorProto's elements as an Array, and back.
#pragma once

#include "onyx/core/array.h"
#include "onyx/core/status.h"
#include "onyx/ir/tensor.h"

// Exported from the shared libraries: the public API (see src/CMakeLists.txt).
#pragma GCC visibility push(default)

namespace onyx {

/// The elements of a TensorProto (raw, typed or string data; external data already
/// resolved) as an Array. Errors: unknown data type, data that does not fit the dims.
Result<Array> arrayFromTensor(const Tensor& tensor);

// The way back, into a model: GraphEditor::tensorFromArray.

}  // namespace onyx

#pragma GCC visibility pop
