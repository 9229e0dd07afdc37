// onyx/ir/constant_value.h — whether a value always holds the same tensor, and which.
//
// A value is constant when it is an initializer no graph input overrides, or the output of a
// standard Constant node. The passes fold and match on this, the evaluator plans on it; this
// is the one place that says what counts.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "onyx/ir/graph.h"

// Exported from the shared libraries: the public API (see src/CMakeLists.txt).
#pragma GCC visibility push(default)

namespace onyx {

/// The tensor `value` always holds: an initializer that is not also a graph input (a graph
/// input with an initializer is a default the caller may override), or the `value` attribute
/// of the standard Constant node that produces it. Null otherwise (and for null). O(1), plus
/// the Constant's attributes.
const Tensor* constantTensor(const Value* value);

/// The integers `value` always holds: an INT64 or INT32 constant tensor, or a Constant's
/// value_int / value_ints. nullopt when it is not constant or holds another type.
std::optional<std::vector<int64_t>> constantIntegers(const Value* value);

}  // namespace onyx

#pragma GCC visibility pop
