// onyx/ir/constant_value.h — whether a value always holds the same tensor, and which.
//
// A value is constant when it is an initializer no graph input overrides, or the output of a
// standard Constant node. The passes fold and match on this, the evaluator plans on it and
// inference reads it; this is the one place that says what counts.
//
// An initializer that is also a graph input is a default the caller may override from IR 4
// on (IR.md, "Graphs"). Before IR 4 every initializer had to be listed as an input and could
// not be overridden, so there it is a constant; exporters kept listing them for years
// (PyTorch's keep_initializers_as_inputs), and a caller may ask for the IR < 4 reading of
// such a model too (`--constant-initializers`).
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "onyx/ir/graph.h"
#include "onyx/ir/model.h"

// Exported from the shared libraries: the public API (see src/CMakeLists.txt).
#pragma GCC visibility push(default)

namespace onyx {

/// What an initializer that is also a graph input is, in one model.
enum class InitializerInputs : uint8_t {
  kOverridable,  // a default the caller may replace (IR 4 on)
  kConstant,     // a constant (before IR 4, or when the caller says so)
};

/// kConstant for a model before IR 4 or when `asked_constant`, else kOverridable. A model
/// without an IR version is read as IR 4 or later (the sound default).
InitializerInputs initializerInputsOf(const Model& model, bool asked_constant = false);

/// The initializer of `value` when it always holds it: an initializer that is not a graph
/// input, or one that is while `inputs` is kConstant. Null otherwise (and for null). O(1).
const Tensor* fixedInitializer(const Value* value, InitializerInputs inputs);

/// The tensor `value` always holds: a fixed initializer (above), or the `value` attribute of
/// the standard Constant node that produces it. Null otherwise (and for null). O(1), plus the
/// Constant's attributes.
const Tensor* constantTensor(const Value* value, InitializerInputs inputs);

/// The integers `value` always holds: an INT64 or INT32 constant tensor, or a Constant's
/// value_int / value_ints. nullopt when it is not constant or holds another type.
std::optional<std::vector<int64_t>> constantIntegers(const Value* value, InitializerInputs inputs);

}  // namespace onyx

#pragma GCC visibility pop
