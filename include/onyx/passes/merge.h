// onyx/passes/merge.h — composing two models into one.
//
// mergeModels puts model B after model A in one main graph: B's nodes after A's, B's inputs
// that are connected reading A's outputs, B's others inputs after A's, B's outputs after A's
// (an output of A that a connection takes is no output of the result). Each model's names may
// first get a prefix (its values and nodes, nested graphs' included, the connections' names
// given as the models have them); a name both models still define is refused, except a graph
// input without a default that both declare alike, and an initializer both hold alike (the
// tied embedding two halves of one model read), which the result has once. Operator sets
// imported at different versions are reconciled by converting the model at the lower version up
// (opset_conversion.h), all or nothing; the IR version is the higher of the two; B's
// model-local functions join A's (one of two identical ones). Tensors are not copied: the
// result shares B's bytes, external data included (its references stay as B had them).
//
// Errors are Status values (kNotFound for a connection naming no output of A or no input of B;
// kInvalidArgument for clashing names or types; a conversion's own error naming the nodes);
// `a` is then unchanged. `b` is changed either way (prefixed, converted): it is the material.
// Cost: a copy of A's graph (for all or nothing), plus O(B), plus conversions.
#pragma once

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "onyx/core/status.h"
#include "onyx/ir/model.h"

// Exported from the shared libraries: the public API (see src/CMakeLists.txt).
#pragma GCC visibility push(default)

namespace onyx {

struct MergeOptions {
  /// (an output of A, an input of B): the input reads the output. Names before prefixing.
  std::vector<std::pair<std::string, std::string>> connections;
  /// Put before every value and node name of A, and of B.
  std::string prefix_a;
  std::string prefix_b;
};

struct MergeReport {
  size_t nodes_a = 0;
  size_t nodes_b = 0;
  /// The conversions made, as "B: ai.onnx 17 -> 21".
  std::vector<std::string> conversions;
  /// Graph inputs both models declared, read once.
  std::vector<std::string> shared_inputs;
};

/// Puts `b` after `a`, in `a` (see above).
Result<MergeReport> mergeModels(Model& a, Model& b, const MergeOptions& options);

/// Prefixes every value and node name of `model`'s main graph and the graphs nested in it with
/// `prefix` (quantization annotations and declarations follow). Nothing for an empty prefix.
Status prefixNames(Model& model, std::string_view prefix);

}  // namespace onyx

#pragma GCC visibility pop
