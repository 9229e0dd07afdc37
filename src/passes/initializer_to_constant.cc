// `initializer-to-constant`: the reverse of constant-to-initializer, for runtimes that want
// every constant as a node. Each initializer that is not a graph input (an input's default
// stays, being part of the interface) becomes a Constant node under the same name, at the
// top of its graph in initializer order: `value` for a dense tensor (the tensor as it is,
// external data included), `sparse_value` for a sparse one (from opset 11). Every graph
// that holds initializers is converted, nested ones included.
#include <vector>

#include "onyx/ir/editor.h"
#include "onyx/ir/unique_names.h"
#include "onyx/passes/standard_passes.h"

namespace onyx {

namespace {

class InitializerToConstantPass final : public GraphPass {
 public:
  std::string_view name() const override { return "initializer-to-constant"; }
  std::string_view summary() const override {
    return "turn initializers that are not graph inputs into Constant nodes of the same name";
  }
  Preserves preserves() const override {
    return Preserves::kNodeOrder | Preserves::kFunctionsAndImports;
  }

 protected:
  Result<PassResult> runOnGraph(Model& model, Graph& graph, const GraphScope& scope,
                                PassContext&) override {
    PassResult result;
    std::optional<int64_t> opset = scope.imports.versionOf("");
    if (!opset) return result;  // Constant would not resolve
    GraphEditor edit(model);
    Node* first = *graph.nodes().begin();  // null for an empty graph
    std::vector<Value*> converted;
    std::vector<Node*> made;
    auto convert = [&](const Tensor* named, Tensor* dense, SparseTensor* sparse) {
      Value* value = graph.lookup(named->nameOrEmpty());
      if (value == nullptr || value->graph() != &graph || value->isGraphInput()) return;
      Node* node = edit.createNode(graph, "Constant", {}, 1);
      if (dense != nullptr) {
        Tensor* copy = edit.arena().make<Tensor>(*dense);
        copy->name = std::nullopt;
        edit.setTensorAttr(node, "value", copy);
      } else {
        edit.setSparseTensorAttr(node, "sparse_value", sparse);
      }
      if (first != nullptr) {
        node->insertBefore(first);
      } else {
        graph.appendNode(node);
      }
      value->replaceAllUsesWith(node->output(0));
      converted.push_back(value);
      made.push_back(node);
    };
    for (Tensor* tensor : graph.initializers) convert(tensor, tensor, nullptr);
    if (*opset >= 11) {
      for (SparseTensor* sparse : graph.sparse_initializers) {
        if (sparse->values != nullptr) convert(sparse->values, nullptr, sparse);
      }
    }
    if (converted.empty()) return result;
    std::vector<std::string_view> names;
    for (const Value* value : converted) names.push_back(value->name());
    if (Status removed = graph.removeInitializers(converted); !removed) return removed;
    for (size_t i = 0; i < made.size(); ++i) {
      if (Status renamed = edit.rename(made[i]->output(0), names[i]); !renamed) {
        return renamed;
      }
    }
    result.nodes_added = made.size();
    result.entries_changed = converted.size();
    return result;
  }
};

}  // namespace

std::unique_ptr<Pass> makeInitializerToConstantPass() {
  return std::make_unique<InitializerToConstantPass>();
}

}  // namespace onyx
