#include "passes/folding.h"

#include <string>
#include <vector>

#include "onyx/core/element_type.h"
#include "onyx/ir/editor.h"
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

Value* addConstant(Patch& patch, Node& node, Tensor* tensor, std::string_view hint,
                   std::string_view name) {
  Value* value = nullptr;
  if (holdsInitializers(patch.model(), patch.graph())) {
    value = patch.addInitializer(tensor);
  } else {
    Node* constant = patch.addNode("Constant", {}, 1, &node);
    GraphEditor(patch.model()).setTensorAttr(constant, "value", tensor);
    value = constant->output(0);
  }
  if (!name.empty()) {
    patch.nameValue(value, name);
  } else {
    patch.nameAfter(value, hint);
  }
  return value;
}

bool replaceByConstants(Patch& patch, Node& node, std::span<const FoldedOutput> folded,
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
  for (const FoldedOutput& one : folded) {
    Value* old = node.output(one.output);
    if (old == nullptr) continue;
    Value* constant = stays ? addConstant(patch, node, one.tensor, old->name())
                            : addConstant(patch, node, one.tensor, {}, old->name());
    patch.replaceAllUsesWith(old, constant);
    if (constant->producer() != nullptr) {
      ++changes.nodes_added;
    } else {
      ++changes.entries_changed;
    }
  }
  if (stays) {
    ++changes.nodes_rewritten;
    return true;
  }
  patch.removeNode(&node);
  ++changes.nodes_removed;
  return true;
}

}  // namespace onyx::passes_internal
