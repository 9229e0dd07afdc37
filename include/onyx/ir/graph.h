// onyx/ir/graph.h — GraphProto in the IR: a scope of values and an ordered list of nodes.
//
// A graph defines values (node outputs, inputs, initializers) under unique names in its
// name table; a subgraph (held by a node attribute) sees its own names and those of its
// enclosing graphs, and may define none of the latter (no shadowing). The node list is in
// file order, which a valid model keeps topological (topo_sort.h restores it).
//
// Changes that allocate (new nodes, inputs, outputs, initializers) go through GraphEditor
// (editor.h), which holds the model's arena and copies the strings it is given into it;
// the others are methods here, and Patch (patch.h) records a set of them to apply at once.
// The node list and the scope are read-only. What each costs is stated with it;
// docs/graph-api.md has the full table.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

#include "onyx/core/status.h"
#include "onyx/ir/fields.h"
#include "onyx/ir/name_table.h"
#include "onyx/ir/node.h"
#include "onyx/ir/tensor.h"
#include "onyx/ir/type.h"
#include "onyx/ir/value.h"

// Exported from the shared libraries: the public API (see src/CMakeLists.txt).
#pragma GCC visibility push(default)

namespace onyx {

/// How deep graphs may nest (a graph in an attribute of a node of a graph ...) for the walks
/// that recurse once a level: the checker reports a deeper one (R4) and does not walk it, and
/// pictures stop there. A decoded model nests at most a third of LoadOptions::max_depth graphs
/// (a graph sits in an attribute in a node in a graph); only a model built through the API
/// can reach this.
inline constexpr int kMaxGraphNesting = 256;

struct TensorAnnotation {
  OptString tensor_name;
  ArenaList<StringStringEntry> quant_parameter_tensor_names;
  UnknownFields unknown;
};

struct Graph {
  OptString name;
  ArenaList<Tensor*> initializers;
  OptString doc_string;
  ArenaList<ValueInfo*> inputs;
  ArenaList<ValueInfo*> outputs;
  // May hold entries whose value was removed (ValueInfo::isRemoved): they are not written
  // and go at the next compaction.
  ArenaList<ValueInfo*> value_info;
  ArenaList<TensorAnnotation*> quantization_annotation;
  ArenaList<SparseTensor*> sparse_initializers;
  ArenaList<StringStringEntry> metadata_props;
  UnknownFields unknown;

  // ---- structure (read-only: the methods below and Patch change it) ---------------------

  /// The node list, in file order (which a valid model keeps topological).
  Node* firstNode() const { return first_node_; }
  Node* lastNode() const { return last_node_; }
  size_t nodeCount() const { return node_count_; }
  /// The enclosing graph: null for a main graph, a function body or a training graph.
  Graph* parent() const { return parent_; }
  /// The node whose attribute holds this graph; null for a graph no node holds.
  Node* owner() const { return owner_; }
  /// Each name defined here, to its (first) definition.
  const NameTable& names() const { return names_; }
  /// The graphs held by attributes of this graph's nodes.
  const std::span<Graph* const> subgraphs() const { return {subgraphs_.data(), subgraphs_.size()}; }
  /// Every value this scope owns, in creation order. May hold removed values (with
  /// `graph() == nullptr`) until the list compacts; removing values invalidates a walk of it.
  const std::span<Value* const> values() const { return {values_.data(), values_.size()}; }
  /// How many entries of values() are removed ones, waiting for the list to compact.
  size_t removedValueCount() const { return removed_values_; }

  // ---- scope -------------------------------------------------------------------------------

  /// The value `name` resolves to from inside this graph: its own names first, then the
  /// enclosing graphs'. Null when no scope defines it. O(nesting depth).
  Value* lookup(std::string_view value_name) const {
    for (const Graph* scope = this; scope != nullptr; scope = scope->parent_) {
      if (Value* found = scope->names_.find(value_name)) return found;
    }
    return nullptr;
  }
  /// Whether `other` is this graph or nested (at any depth) inside it. O(nesting depth).
  bool encloses(const Graph* other) const {
    for (; other != nullptr; other = other->parent_) {
      if (other == this) return true;
    }
    return false;
  }
  /// The inputs an operator passes to this graph (a body of If, Loop, Scan, ...): those no
  /// initializer backs. Up to IR 3 every initializer had to be an input, so a body listed its
  /// own after the ones passed. O(inputs).
  size_t passedInputCount() const {
    size_t passed = 0;
    for (const ValueInfo* info : inputs) {
      if (info == nullptr || info->value == nullptr || !info->value->isInitializer()) ++passed;
    }
    return passed;
  }

  // ---- nodes -------------------------------------------------------------------------------

  NodeRange nodes() const { return NodeRange(first_node_); }

  // New nodes: GraphEditor::createNode.

  /// Appends `node` (a detached node of this graph, or a fresh one) to the node list. O(1).
  void appendNode(Node* node) {
    node->graph_ = this;
    node->prev_ = last_node_;
    node->next_ = nullptr;
    if (last_node_ != nullptr) {
      last_node_->next_ = node;
    } else {
      first_node_ = node;
    }
    last_node_ = node;
    ++node_count_;
  }
  /// Puts `node` (detached, of this graph) first in the node list. O(1).
  void prependNode(Node* node);
  /// Node::destroy().
  Status removeNode(Node* node);

  /// Calls `fn(node)` on every node of this graph and of the graphs nested in it, each
  /// node before the nodes of its subgraphs. `fn` may rewrite around the node it is given:
  /// replace it, destroy it, insert nodes (not visited) or change its attributes.
  template <class Fn>
  void forEachNode(Fn&& fn) const;

  // ---- inputs, outputs, initializers ---------------------------------------------------------

  // Adding inputs, outputs and initializers: GraphEditor::addInput, addOutput, addInitializer.
  /// Removes `value` from the inputs. A value that is also an initializer stays defined;
  /// any other is removed from the graph, which is refused while it has uses. O(inputs).
  Status removeInput(Value* value);
  /// Removes output `index`. O(outputs), plus O(value_info) when it was the value's
  /// declaration.
  Status removeOutput(size_t index);
  /// Removes `value`'s initializer (dense or sparse). A value that is also a graph input
  /// stays defined; any other is removed, which is refused while it has uses.
  /// O(initializers).
  Status removeInitializer(Value* value);
  /// Removes the initializers (dense or sparse) of all `values` at once, under the rules of
  /// removeInitializer; checked first, so on error nothing is removed. For removing many:
  /// O(initializers + values) where one call each would be O(initializers) per value.
  Status removeInitializers(std::span<Value* const> values);

  /// Drops removed values from `values` and removed entries from `value_info`. Also done
  /// by itself once half of `values` is removed. O(values + value_info).
  void compact();

 private:
  friend class GraphEditor;
  friend class ir_internal::GraphBuilder;
  Node* first_node_ = nullptr;
  Node* last_node_ = nullptr;
  size_t node_count_ = 0;
  Graph* parent_ = nullptr;
  Node* owner_ = nullptr;
  NameTable names_;
  ArenaList<Graph*> subgraphs_;
  ArenaList<Value*> values_;
  size_t removed_values_ = 0;  // removed since the last compaction
  uint64_t name_counter_ = 0;  // suffixes tried by GraphEditor::uniqueName
};

template <class Fn>
void Graph::forEachNode(Fn&& fn) const {
  for (Node* node = first_node_; node != nullptr;) {
    Node* next = node->next();
    fn(node);
    // By index: a rewrite inside a subgraph may change this node's attribute lists.
    for (size_t a = 0; node->graph() == this && a < node->attributes.size(); ++a) {
      const Attribute* attribute = node->attributes[a];
      if (attribute->g != nullptr) attribute->g->forEachNode(fn);
      for (size_t g = 0; g < attribute->rare().graphs.size(); ++g) {
        attribute->rare().graphs[g]->forEachNode(fn);
      }
    }
    node = next;
  }
}

}  // namespace onyx

#pragma GCC visibility pop
