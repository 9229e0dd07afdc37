// onyx/ir/node.h — NodeProto in the IR: an operator call with inputs, outputs, attributes.
//
// A node belongs to one graph (`graph()`) and sits in its node list once inserted. Its input
// slots are the use-list links of the values they read; its outputs are values it defines
// in its graph. Changes that allocate (new inputs, outputs, attributes) go through
// GraphEditor (editor.h), which holds the model's arena; the others are methods here. The
// links (graph, list neighbours, input slots, outputs) are read-only: change them through
// those. Complexities are stated per operation; "inputs"/"outputs"/"attributes" mean this
// node's counts.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <span>

#include "onyx/core/status.h"
#include "onyx/ir/attribute.h"
#include "onyx/ir/device.h"
#include "onyx/ir/fields.h"
#include "onyx/ir/tensor.h"
#include "onyx/ir/value.h"

// Exported from the shared libraries: the public API (see src/CMakeLists.txt).
#pragma GCC visibility push(default)

namespace onyx {

struct Graph;

/// The NodeProto fields few nodes set. They live out of line so that a Node stays small:
/// loading a large graph costs mostly the memory its nodes are written into.
struct NodeRareFields {
  OptString doc_string;
  OptString overload;
  ArenaList<StringStringEntry> metadata_props;
  ArenaList<NodeDeviceConfiguration*> device_configurations;
  UnknownFields unknown;
};

struct Node {
 private:
  // First, where they were when they were public: the decoder writes a node front to back.
  // Input slots are the use-list links themselves; the array is allocated with its final
  // size, so the slots never move while linked.
  ArenaList<Use> inputs_;
  ArenaList<Value*> outputs_;

 public:
  OptString name;
  OptString op_type;
  ArenaList<Attribute*> attributes;
  OptString domain;
  NodeRareFields* rare_fields = nullptr;  // null: none of them set

  /// The graph whose node this is; null once destroyed.
  Graph* graph() const { return graph_; }
  /// Its neighbours in the graph's node list (null at the ends, and while detached).
  Node* prev() const { return prev_; }
  Node* next() const { return next_; }

  /// doc_string, overload, metadata_props, device_configurations and unknown fields: all
  /// absent or empty when the node has none of them. O(1).
  const NodeRareFields& rare() const { return rare_fields != nullptr ? *rare_fields : kNone; }
  // For writing: GraphEditor::rare.

  std::string_view opType() const { return op_type.value_or(std::string_view()); }
  std::string_view domainOrDefault() const { return domain.value_or(std::string_view()); }
  std::string_view nameOrEmpty() const { return name.value_or(std::string_view()); }

  // ---- place in the node list ------------------------------------------------------------

  /// In its graph's node list (a node from GraphEditor::createNode is not until inserted).
  bool isAttached() const;
  /// Puts this detached node into the list just before / after `other`, an attached node of
  /// the same graph. O(1).
  void insertBefore(Node* other);
  void insertAfter(Node* other);
  /// Moves this attached node to just before / after `other` (same graph). O(1).
  void moveBefore(Node* other);
  void moveAfter(Node* other);
  /// Whether this node comes before `other` in their graph's list. O(distance): walks
  /// forward from this node.
  bool isBefore(const Node* other) const;
  /// Removes this node from its graph: unlinks its inputs, discards the subgraphs its
  /// attributes hold, removes its outputs from the graph, and takes it out of the list.
  /// Refused while an output still has a use. The memory stays in the arena until the
  /// model goes; the node is left with `graph == nullptr`. O(inputs + outputs + the size of
  /// its subgraphs).
  Status destroy();

  // ---- inputs ----------------------------------------------------------------------------

  size_t inputCount() const { return inputs_.size(); }
  /// The input slots, each a use of the value it reads (change them with setInput and the
  /// like).
  const std::span<const Use> inputs() const { return {inputs_.data(), inputs_.size()}; }
  /// The value input `i` reads; null for an omitted optional input.
  Value* input(size_t i) const { return inputs_[i].value(); }
  /// Points input `i` at `value` (null: omitted), which must be visible from this node's
  /// graph. O(1).
  void setInput(size_t i, Value* value);
  // Adding input slots allocates: GraphEditor::addInput, insertInput.
  /// Removes input slot `i`; later inputs shift down. O(inputs).
  void removeInput(size_t i);
  void removeAllInputs();
  /// Points every input that reads `from` at `to`. O(inputs).
  void replaceInputWith(Value* from, Value* to);

  // ---- outputs ---------------------------------------------------------------------------

  size_t outputCount() const { return outputs_.size(); }
  /// The values it defines; null for an omitted optional output ("").
  const std::span<Value* const> outputs() const { return {outputs_.data(), outputs_.size()}; }
  /// The value output `i` defines; null for an omitted optional output.
  Value* output(size_t i) const { return outputs_[i]; }
  // Adding outputs allocates: GraphEditor::addOutput, addOutputNamed.
  /// Removes output `i` (later outputs shift down) and its value from the graph. Refused
  /// while the value has uses. O(outputs).
  Status removeOutput(size_t i);
  /// Whether any output is read (in this graph or a nested one). O(outputs).
  bool hasUses() const;
  /// Re-points the uses of each output at the output of `other` in the same position
  /// (`other` has at least as many outputs). O(outputs + their uses).
  void replaceAllUsesWith(const Node* other);

  // ---- attributes --------------------------------------------------------------------------
  // Getters give nothing (nullopt, null, an empty span) when the attribute is absent, of
  // another kind, or a reference. Lookups are by name over the node's attributes:
  // O(attributes).

  /// The attribute named `attribute_name`, or null.
  const Attribute* attribute(std::string_view attribute_name) const;
  Attribute* attribute(std::string_view attribute_name);
  bool hasAttr(std::string_view attribute_name) const {
    return attribute(attribute_name) != nullptr;
  }
  /// Removes the attribute; a graph it held is discarded. False when there is none.
  bool removeAttr(std::string_view attribute_name);
  /// Whether an attribute holds a graph or a list of graphs (a control-flow node: If, Loop,
  /// Scan, ...).
  bool holdsGraphs() const;

  std::optional<float> floatAttr(std::string_view attribute_name) const;
  std::optional<int64_t> intAttr(std::string_view attribute_name) const;
  OptString stringAttr(std::string_view attribute_name) const;
  Tensor* tensorAttr(std::string_view attribute_name) const;
  Graph* graphAttr(std::string_view attribute_name) const;
  SparseTensor* sparseTensorAttr(std::string_view attribute_name) const;
  Type* typeAttr(std::string_view attribute_name) const;
  std::span<const float> floatsAttr(std::string_view attribute_name) const;
  std::span<const int64_t> intsAttr(std::string_view attribute_name) const;
  std::span<const std::string_view> stringsAttr(std::string_view attribute_name) const;
  std::span<Tensor* const> tensorsAttr(std::string_view attribute_name) const;
  std::span<Graph* const> graphsAttr(std::string_view attribute_name) const;
  std::span<SparseTensor* const> sparseTensorsAttr(std::string_view attribute_name) const;
  std::span<Type* const> typesAttr(std::string_view attribute_name) const;

  // Setting an attribute allocates: GraphEditor::setIntAttr and the like.

 private:
  friend struct Graph;  // appendNode links the node inline
  friend class GraphEditor;
  friend class ir_internal::GraphBuilder;
  static const NodeRareFields kNone;

  Graph* graph_ = nullptr;
  Node* prev_ = nullptr;
  Node* next_ = nullptr;
};

/// The nodes of one graph in list order, as a range of Node*. The node the loop is on may
/// be moved or destroyed only if the loop does not go on from it; use Graph::forEachNode to
/// rewrite while walking.
class NodeRange {
 public:
  class iterator {
   public:
    using value_type = Node*;
    using difference_type = std::ptrdiff_t;
    using reference = Node*;
    using pointer = Node**;
    using iterator_category = std::forward_iterator_tag;
    iterator() = default;
    explicit iterator(Node* node) : node_(node) {}
    Node* operator*() const { return node_; }
    iterator& operator++() {
      node_ = node_->next();
      return *this;
    }
    iterator operator++(int) {
      iterator old = *this;
      node_ = node_->next();
      return old;
    }
    bool operator==(const iterator& other) const { return node_ == other.node_; }

   private:
    Node* node_ = nullptr;
  };

  explicit NodeRange(Node* first) : first_(first) {}
  iterator begin() const { return iterator(first_); }
  iterator end() const { return iterator(); }

 private:
  Node* first_;
};

}  // namespace onyx

#pragma GCC visibility pop
