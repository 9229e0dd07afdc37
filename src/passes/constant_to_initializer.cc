// `constant-to-initializer`: Constant nodes of the main graph and of the graphs nested in it
// (If branches, Loop and Scan bodies) become initializers of the graph they sit in, under the
// name their output had, so every reader (nested graphs included) and every graph output
// reads the same name. The dense forms convert: `value` (the tensor as it is, external data
// included), value_float(s), value_int(s), value_string(s) (as the tensors the operator
// defines: scalars and 1-D). sparse_value stays a Constant: as a sparse initializer its
// readers would see a sparse tensor, which onyx's evaluator (like most runtimes) does not
// feed to dense operators.
//
// A nested graph's initializers are constants of that graph (IR.md allows them, and
// onnxruntime's optimised models have them); function bodies have none, so their Constants
// stay, as do those of training graphs. Models below IR 4, where every initializer must also
// be a graph input, are left alone: that would add inputs.
#include <string>
#include <vector>

#include "onyx/core/array.h"
#include "onyx/ir/constant_value.h"
#include "onyx/ir/editor.h"
#include "onyx/ir/opset_imports.h"
#include "onyx/ir/tensor_array.h"
#include "onyx/ir/walk.h"
#include "onyx/passes/standard_passes.h"
#include "passes/pass_patches.h"

namespace onyx {

namespace {

// The tensor a Constant's value_* attribute stands for; null for another form.
Tensor* tensorOfListForm(const GraphEditor& edit, const Node& node) {
  if (std::optional<float> one = node.floatAttr("value_float")) {
    return edit.tensorFromArray(Array::scalar<float>(ElementType::kFloat, *one));
  }
  if (std::optional<int64_t> one = node.intAttr("value_int")) {
    return edit.tensorFromArray(Array::scalar<int64_t>(ElementType::kInt64, *one));
  }
  if (node.hasAttr("value_floats")) {
    std::span<const float> values = node.floatsAttr("value_floats");
    Array array(ElementType::kFloat, {static_cast<int64_t>(values.size())});
    std::copy(values.begin(), values.end(), array.data<float>());
    return edit.tensorFromArray(array);
  }
  if (node.hasAttr("value_ints")) {
    std::span<const int64_t> values = node.intsAttr("value_ints");
    Array array(ElementType::kInt64, {static_cast<int64_t>(values.size())});
    std::copy(values.begin(), values.end(), array.data<int64_t>());
    return edit.tensorFromArray(array);
  }
  if (OptString one = node.stringAttr("value_string")) {
    Array array(ElementType::kString, {});
    array.strings()[0] = std::string(*one);
    return edit.tensorFromArray(array);
  }
  if (node.hasAttr("value_strings")) {
    std::span<const std::string_view> values = node.stringsAttr("value_strings");
    Array array(ElementType::kString, {static_cast<int64_t>(values.size())});
    for (size_t i = 0; i < values.size(); ++i) array.strings()[i] = std::string(values[i]);
    return edit.tensorFromArray(array);
  }
  return nullptr;
}

// The tensor of the initializer that takes the Constant's place: null when its form is not
// one this pass converts (an attribute reference, a missing value).
Tensor* tensorOfConstant(const GraphEditor& edit, const Node& node) {
  if (node.attributes.size() != 1 || node.attributes[0]->isReference()) return nullptr;
  if (const Tensor* value = node.tensorAttr("value")) return edit.arena().make<Tensor>(*value);
  return tensorOfListForm(edit, node);
}

class ConstantToInitializerPass final : public Pass {
 public:
  std::string_view name() const override { return "constant-to-initializer"; }
  std::string_view summary() const override {
    return "turn the Constant nodes of the main graph and the graphs nested in it into "
           "initializers of the same name";
  }
  Preserves preserves() const override {
    return Preserves::kNodeOrder | Preserves::kFunctionsAndImports;
  }

  Result<PassResult> run(Model& model, PassContext& context) override {
    PassResult result;
    if (model.graph == nullptr || model.ir_version.value_or(0) < 4) return result;
    GraphEditor edit(model);
    passes_internal::PassPatches patches(model, context);
    std::vector<Graph*> graphs;
    forEachGraph(model, [&](Graph& graph) {
      if (model.graph->encloses(&graph)) graphs.push_back(&graph);  // not a function body
    });
    for (Graph* graph : graphs) {
      for (Node* node : graph->nodes()) {
        if (!isStandardOperator(*node, "Constant") || node->outputCount() != 1 ||
            node->output(0) == nullptr) {
          continue;
        }
        Tensor* tensor = tensorOfConstant(edit, *node);
        if (tensor == nullptr) continue;
        // The initializer takes the output's name, which the Constant gives back as it goes.
        Patch& patch = patches.of(*graph);
        Value* initializer = patch.addInitializer(tensor);
        patch.nameValue(initializer, node->output(0)->name());
        patch.replaceAllUsesWith(node->output(0), initializer);
        patch.removeNode(node);
        ++result.nodes_removed;
      }
      ONYX_RETURN_IF_ERROR(patches.graphRecorded());
    }
    ONYX_RETURN_IF_ERROR(patches.commit());
    return result;
  }
};

}  // namespace

std::unique_ptr<Pass> makeConstantToInitializerPass() {
  return std::make_unique<ConstantToInitializerPass>();
}

}  // namespace onyx
