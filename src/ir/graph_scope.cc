#include "onyx/ir/graph_scope.h"

namespace onyx {

namespace {

// The function whose body holds `graph` at any depth; null when none does.
Function* owningFunction(const Model& model, const Graph& graph) {
  const Graph* root = &graph;
  while (root->parent() != nullptr) root = root->parent();
  for (Function* function : model.functions) {
    if (function->body == root) return function;
  }
  return nullptr;
}

}  // namespace

GraphScope scopeOf(const Model& model, const Graph& graph) {
  GraphScope scope;
  scope.function = owningFunction(model, graph);
  scope.imports =
      OpsetImports(scope.function != nullptr ? scope.function->opset_import : model.opset_import);
  return scope;
}

ArenaList<OperatorSetId>& importListOf(Model& model, const Graph& graph) {
  Function* function = owningFunction(model, graph);
  return function != nullptr ? function->opset_import : model.opset_import;
}

}  // namespace onyx
