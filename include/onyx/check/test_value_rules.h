// onyx/check/test_value_rules.h — checking the values of backend test cases (.pb files).
//
// A test case's input_K.pb and output_K.pb hold a TensorProto, a SparseTensorProto or one of
// onnx-data.proto's SequenceProto, MapProto and OptionalProto (onyx/serde/test_data.h). These
// rules say whether such a value is well formed on its own; whether it fits the model's
// input or output type is a question for the evaluator.
#pragma once

#include <string>

#include "onyx/core/diagnostic.h"
#include "onyx/serde/test_data.h"

// Exported from the shared libraries: the public API (see src/CMakeLists.txt).
#pragma GCC visibility push(default)

namespace onyx {

/// Checks `value` and everything nested in it: a sequence says what its elements are, holds
/// only those and holds them of one type (R103); a map has integer or string keys, in the
/// field its key_type names, as many as its values (R104); an optional holds at most one
/// value, of the kind it states (R105); and every tensor and sparse tensor inside obeys the
/// tensor rules (R61–R81, with no IR version to gate element types by and no folder for
/// external data). Diagnostic paths start with `path`, or with the value's kind (`sequence`,
/// `map`, `optional`, `tensor`, `sparse_tensor`) when it is empty. Linear in the size of the
/// value; never copies tensor data. Thread-safe for distinct or unchanging values.
Diagnostics checkTestValue(const TestValue& value, const std::string& path = {});

}  // namespace onyx

#pragma GCC visibility pop
