// onyx/ir/graph_scope.h — what governs a graph: the function whose body holds it, and the
// operator sets imported there.
//
// A node of a model-local function's body binds to the opsets the function imports; a node
// anywhere else (the main graph, a training graph, an If/Loop/Scan body nested in them)
// binds to the model's. The checker, inference, the evaluator, the passes and opset
// conversion all need this answer for every graph they visit; scopeOf() is the one place it
// is derived.
#pragma once

#include <cstdint>
#include <string_view>

#include "onyx/ir/model.h"
#include "onyx/ir/opset_imports.h"

// Exported from the shared libraries: the public API (see src/CMakeLists.txt).
#pragma GCC visibility push(default)

namespace onyx {

struct GraphScope {
  /// The model-local function whose body holds the graph, at any depth; null for the main
  /// graph, the training graphs and the graphs nested in them.
  const Function* function = nullptr;
  /// The opsets in force: the function's imports, else the model's.
  OpsetImports imports;

  /// The version `domain` ("" or "ai.onnx" for the default domain) is imported at here; 0
  /// when it is not imported.
  int64_t opset(std::string_view domain = {}) const {
    return imports.versionOf(domain).value_or(0);
  }
};

/// The scope of `graph`, a graph of `model` (its main graph, a training graph, a function
/// body, or a graph nested in any of them). O(nesting depth + functions + imports).
GraphScope scopeOf(const Model& model, const Graph& graph);

/// The opset_import list that governs `graph`: its function's, else the model's. For passes
/// that add an import where they add nodes (the inliner, opset conversion).
ArenaList<OperatorSetId>& importListOf(Model& model, const Graph& graph);

/// The scope of the graph `node` is in.
inline GraphScope scopeOf(const Model& model, const Node& node) {
  return scopeOf(model, *node.graph());
}

}  // namespace onyx

#pragma GCC visibility pop
