// onyx/passes/extract.h — cutting a model down to the part between named values.
//
// extractModel keeps, of the main graph, the nodes that compute the named outputs from the
// named inputs: walking back from each output, it stops at a named input, takes the
// initializers it meets and refuses anything else (a graph input that is not named, a value
// nothing defines), naming the output that needs it. What the part does not read goes: nodes,
// initializers, value_info entries, the model-local functions no kept node calls. The rest
// stays as it was: kept nodes with their names, attributes and subgraphs, the types declared
// for kept values, the opset imports, metadata and doc strings. Tensors are not copied, so
// external data stays referenced, and writing the part beside the model writes no data.
//
// The part's inputs are the named ones, in the order given (a value a node computed becomes an
// input of its type, under its name), then the inputs with a default (an initializer) that
// the part reads and that were not named, which keep their default. A named input is kept
// even when no output reads it; ExtractReport::unread_inputs lists it.
//
// Errors are Status values (kNotFound for a name the main graph does not define,
// kInvalidArgument for a part that cannot be cut: an output the inputs do not reach, a cycle,
// an input whose node also computes a value the part needs); the model is then unchanged.
// Cost: O(nodes + values) of the main graph, plus one inference of the model when a boundary
// value declares no type. Not thread-safe: the model is changed.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "onyx/core/status.h"
#include "onyx/ir/model.h"

// Exported from the shared libraries: the public API (see src/CMakeLists.txt).
#pragma GCC visibility push(default)

namespace onyx {

struct ExtractBoundary {
  /// The values the part starts from. Unset: the main graph's inputs that the part reads.
  std::optional<std::vector<std::string>> inputs;
  /// The values the part computes, its outputs in this order. Unset: the main graph's
  /// outputs.
  std::optional<std::vector<std::string>> outputs;
};

struct ExtractReport {
  size_t nodes_kept = 0;
  size_t nodes_removed = 0;
  size_t initializers_removed = 0;
  size_t functions_removed = 0;
  /// Named inputs that no output of the part reads (kept as inputs all the same).
  std::vector<std::string> unread_inputs;
};

/// Cuts `model` down to the part of its main graph between `boundary`'s values (see above).
Result<ExtractReport> extractModel(Model& model, const ExtractBoundary& boundary);

}  // namespace onyx

#pragma GCC visibility pop
