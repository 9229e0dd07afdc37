// onyx/ir/editor.h — changing a model through one object that holds its arena.
//
// Every mutation that allocates needs the model's arena. A GraphEditor holds it, so code
// that changes a model names the model once and the arena never:
//
//     GraphEditor edit(model);
//     Node* relu = edit.createNode(*model.graph, "Relu", {x});
//     edit.setIntAttr(relu, "axis", 1);
//     Patch patch = edit.patch(*model.graph);  // edits applied in one step, or none
//
// Each function does what the member of the same name does (graph.h, node.h, value.h,
// unique_names.h, clone.h), with the same costs. An editor is a reference to its model: it
// does not own it and is as cheap to make as a pointer.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <span>
#include <string_view>

#include "onyx/ir/clone.h"
#include "onyx/ir/model.h"
#include "onyx/ir/patch.h"
#include "onyx/ir/unique_names.h"

// Exported from the shared libraries: the public API (see src/CMakeLists.txt).
#pragma GCC visibility push(default)

namespace onyx {

class GraphEditor {
 public:
  explicit GraphEditor(Model& model) : model_(&model) {}

  Model& model() const { return *model_; }
  Arena& arena() const { return model_->arena(); }

  /// A patch of `graph` (a graph of this model): see patch.h.
  Patch patch(Graph& graph) const { return Patch(*model_, graph); }

  // ---- graphs --------------------------------------------------------------------------------

  Graph* newGraph() const { return onyx::newGraph(arena()); }
  Node* createNode(Graph& graph, std::string_view op_type, std::span<Value* const> reads = {},
                   size_t output_count = 1) const {
    return graph.createNode(arena(), op_type, reads, output_count);
  }
  Node* createNode(Graph& graph, std::string_view op_type, std::initializer_list<Value*> reads,
                   size_t output_count = 1) const {
    return graph.createNode(arena(), op_type, reads, output_count);
  }
  Result<Value*> addInput(Graph& graph, std::string_view name, Type* type = nullptr) const {
    return graph.addInput(arena(), name, type);
  }
  void addOutput(Graph& graph, Value* value) const { graph.addOutput(arena(), value); }
  Result<Value*> addInitializer(Graph& graph, Tensor* tensor) const {
    return graph.addInitializer(arena(), tensor);
  }
  Result<Value*> addSparseInitializer(Graph& graph, SparseTensor* tensor) const {
    return graph.addSparseInitializer(arena(), tensor);
  }
  Graph* cloneGraph(const Graph& source, Graph* parent = nullptr, Node* owner = nullptr) const {
    return onyx::cloneGraph(arena(), source, parent, owner);
  }

  // ---- values --------------------------------------------------------------------------------

  void setType(Value* value, Type* type) const { value->setType(arena(), type); }
  Status rename(Value* value, std::string_view name) const {
    return renameValue(arena(), *value, name);
  }
  std::string_view uniqueName(Graph& graph, std::string_view hint) const {
    return uniqueValueName(arena(), graph, hint);
  }

  // ---- nodes ---------------------------------------------------------------------------------

  void addInput(Node* node, Value* value) const { node->addInput(arena(), value); }
  void insertInput(Node* node, size_t i, Value* value) const {
    node->insertInput(arena(), i, value);
  }
  Value* addOutput(Node* node, std::string_view hint = {}) const {
    return node->addOutput(arena(), hint);
  }
  Result<Value*> addOutputNamed(Node* node, std::string_view name) const {
    return node->addOutputNamed(arena(), name);
  }
  NodeRareFields& rare(Node* node) const { return node->rare(arena()); }

  // ---- attributes (node.h: a setter replaces an attribute of the same name) -----------------

  Attribute& setFloatAttr(Node* node, std::string_view name, float value) const {
    return node->setFloatAttr(arena(), name, value);
  }
  Attribute& setIntAttr(Node* node, std::string_view name, int64_t value) const {
    return node->setIntAttr(arena(), name, value);
  }
  Attribute& setStringAttr(Node* node, std::string_view name, std::string_view value) const {
    return node->setStringAttr(arena(), name, value);
  }
  Attribute& setTensorAttr(Node* node, std::string_view name, Tensor* value) const {
    return node->setTensorAttr(arena(), name, value);
  }
  Graph* setGraphAttr(Node* node, std::string_view name) const {
    return node->setGraphAttr(arena(), name);
  }
  Attribute& setGraphAttr(Node* node, std::string_view name, Graph* subgraph) const {
    return node->setGraphAttr(arena(), name, subgraph);
  }
  Attribute& setTypeAttr(Node* node, std::string_view name, Type* value) const {
    return node->setTypeAttr(arena(), name, value);
  }
  Attribute& setFloatsAttr(Node* node, std::string_view name, std::span<const float> values) const {
    return node->setFloatsAttr(arena(), name, values);
  }
  Attribute& setFloatsAttr(Node* node, std::string_view name,
                           std::initializer_list<float> values) const {
    return node->setFloatsAttr(arena(), name, values);
  }
  Attribute& setIntsAttr(Node* node, std::string_view name, std::span<const int64_t> values) const {
    return node->setIntsAttr(arena(), name, values);
  }
  Attribute& setIntsAttr(Node* node, std::string_view name,
                         std::initializer_list<int64_t> values) const {
    return node->setIntsAttr(arena(), name, values);
  }
  Attribute& setStringsAttr(Node* node, std::string_view name,
                            std::span<const std::string_view> values) const {
    return node->setStringsAttr(arena(), name, values);
  }
  Attribute& setStringsAttr(Node* node, std::string_view name,
                            std::initializer_list<std::string_view> values) const {
    return node->setStringsAttr(arena(), name, values);
  }
  Attribute& setTensorsAttr(Node* node, std::string_view name,
                            std::span<Tensor* const> values) const {
    return node->setTensorsAttr(arena(), name, values);
  }
  Attribute& setGraphsAttr(Node* node, std::string_view name,
                           std::span<Graph* const> subgraphs) const {
    return node->setGraphsAttr(arena(), name, subgraphs);
  }
  Attribute& setAttrRef(Node* node, std::string_view name, AttributeKind kind,
                        std::string_view referenced) const {
    return node->setAttrRef(arena(), name, kind, referenced);
  }

 private:
  Model* model_;
};

}  // namespace onyx

#pragma GCC visibility pop
