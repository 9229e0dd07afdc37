// `initializer-to-constant`: the reverse of constant-to-initializer, for runtimes that want
// every constant as a node. Each initializer that is not a graph input (an input's default
// stays, being part of the interface) becomes a Constant node under the same name, at the
// top of its graph in initializer order: `value` for a dense tensor (the tensor as it is,
// external data included), `sparse_value` for a sparse one (from opset 11). Every graph
// that holds initializers is converted, nested ones included.
#include <vector>

#include "onyx/ir/editor.h"
#include "onyx/passes/standard_passes.h"
#include "passes/pass_patches.h"

namespace onyx {

namespace {

class InitializerToConstantPass final : public passes_internal::RecordingGraphPass {
 public:
  std::string_view name() const override { return "initializer-to-constant"; }
  std::string_view summary() const override {
    return "turn initializers that are not graph inputs into Constant nodes of the same name";
  }
  Preserves preserves() const override {
    return Preserves::kNodeOrder | Preserves::kFunctionsAndImports;
  }

 protected:
  Result<PassResult> recordGraph(Model& model, Graph& graph, const GraphScope& scope, PassContext&,
                                 passes_internal::PassPatches& patches) override {
    PassResult result;
    std::optional<int64_t> opset = scope.imports.versionOf("");
    if (!opset) return result;  // Constant would not resolve
    GraphEditor edit(model);
    Node* first = *graph.nodes().begin();  // null for an empty graph: the nodes go last
    auto convert = [&](const Tensor* named, Tensor* dense, SparseTensor* sparse) {
      Value* value = graph.lookup(named->nameOrEmpty());
      if (value == nullptr || value->graph() != &graph || value->isGraphInput()) return;
      Patch& patch = patches.of(graph);
      Node* node = patch.addNode("Constant", {}, 1, first);
      if (dense != nullptr) {
        Tensor* copy = edit.arena().make<Tensor>(*dense);
        copy->name = std::nullopt;
        edit.setTensorAttr(node, "value", copy);
      } else {
        edit.setSparseTensorAttr(node, "sparse_value", sparse);
      }
      // The initializer gives its name back as it goes.
      patch.nameValue(node->output(0), value->name());
      patch.replaceAllUsesWith(value, node->output(0));
      patch.removeInitializer(value);
      ++result.nodes_added;
      ++result.entries_changed;
    };
    for (Tensor* tensor : graph.initializers) convert(tensor, tensor, nullptr);
    if (*opset >= 11) {
      for (SparseTensor* sparse : graph.sparse_initializers) {
        if (sparse->values != nullptr) convert(sparse->values, nullptr, sparse);
      }
    }
    return result;
  }
};

}  // namespace

std::unique_ptr<Pass> makeInitializerToConstantPass() {
  return std::make_unique<InitializerToConstantPass>();
}

}  // namespace onyx
