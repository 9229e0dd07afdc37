#include "passes/folding.h"

#include <string>
#include <vector>

#include "onyx/core/element_type.h"
#include "onyx/ir/editor.h"
#include "onyx/ir/unique_names.h"
#include "passes/pass_helpers.h"

namespace onyx::passes_internal {

uint64_t tensorBytes(const Tensor& tensor) {
  Result<uint64_t> count =
      elementCount(std::span<const int64_t>(tensor.dims.begin(), tensor.dims.size()));
  if (!count || !tensor.data_type) return 0;
  Result<uint64_t> bytes = packedByteSize(static_cast<ElementType>(*tensor.data_type), *count);
  return bytes ? *bytes : 0;
}

namespace {

// Whether `graph` holds its constants as initializers (see folding.h).
bool holdsInitializers(const Model& model, const Graph& graph) {
  return &graph == model.graph && model.ir_version.value_or(0) >= 4;
}

}  // namespace

Value* addConstant(Model& model, Node& node, Tensor* tensor, std::string_view hint) {
  GraphEditor edit(model);
  Graph& graph = *node.graph();
  std::string_view name = edit.uniqueName(graph, hint);
  if (holdsInitializers(model, graph)) {
    tensor->name = name;
    Result<Value*> added = edit.addInitializer(graph, tensor);
    if (added) return *added;
  }
  Node* constant = edit.createNode(graph, "Constant", std::span<Value* const>(), 0);
  Value* output = nullptr;
  if (Result<Value*> named = edit.addOutputNamed(constant, name)) {
    output = *named;
  } else {
    output = edit.addOutput(constant, hint);
  }
  edit.setTensorAttr(constant, "value", tensor);
  constant->insertBefore(&node);
  return output;
}

bool replaceByConstants(Model& model, Node& node, std::span<const FoldedOutput> folded,
                        PassResult& changes) {
  auto isFolded = [&](size_t output) {
    for (const FoldedOutput& one : folded) {
      if (one.output == output) return true;
    }
    return false;
  };
  bool stays = false;
  for (size_t i = 0; i < node.outputCount(); ++i) {
    if (!isFolded(i) && node.output(i) != nullptr && node.output(i)->hasUses()) stays = true;
  }
  if (stays) {
    for (const FoldedOutput& one : folded) {
      if (node.output(one.output) != nullptr && isOutput(*node.output(one.output))) return false;
    }
  }
  // Each constant takes its output's name once the node is gone, so that graph outputs,
  // readers in nested graphs and a reader of the file see the names they had.
  std::vector<std::pair<Value*, std::string_view>> names;
  for (const FoldedOutput& one : folded) {
    Value* old = node.output(one.output);
    if (old == nullptr) continue;
    Value* constant = addConstant(model, node, one.tensor, old->name());
    old->replaceAllUsesWith(constant);
    names.emplace_back(constant, old->name());
    if (constant->producer() != nullptr) {
      ++changes.nodes_added;
    } else {
      ++changes.entries_changed;
    }
  }
  if (stays || !node.destroy()) {
    ++changes.nodes_rewritten;
    return true;
  }
  ++changes.nodes_removed;
  // The names were the removed outputs', so they are free; a failure would leave a valid
  // graph under the constant's own name.
  for (auto [constant, name] : names) (void)GraphEditor(model).rename(constant, name);
  return true;
}

}  // namespace onyx::passes_internal
