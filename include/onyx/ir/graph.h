// onyx/ir/graph.h — GraphProto in the IR: a scope of values and an ordered list of nodes.
#pragma once

#include <cstdint>

#include "onyx/ir/fields.h"
#include "onyx/ir/name_table.h"
#include "onyx/ir/node.h"
#include "onyx/ir/tensor.h"
#include "onyx/ir/type.h"
#include "onyx/ir/value.h"

namespace onyx {

struct TensorAnnotation {
  OptString tensor_name;
  ArenaList<StringStringEntry> quant_parameter_tensor_names;
  UnknownFields unknown;
};

struct Graph {
  // The node list, in file order (which a valid model keeps topological).
  Node* first_node = nullptr;
  Node* last_node = nullptr;
  size_t node_count = 0;

  OptString name;
  ArenaList<Tensor*> initializers;
  OptString doc_string;
  ArenaList<ValueInfo*> inputs;
  ArenaList<ValueInfo*> outputs;
  ArenaList<ValueInfo*> value_info;
  ArenaList<TensorAnnotation*> quantization_annotation;
  ArenaList<SparseTensor*> sparse_initializers;
  ArenaList<StringStringEntry> metadata_props;
  UnknownFields unknown;

  // Scope: the enclosing graph (null for a main graph, a function body or a training
  // graph), the node whose attribute holds this graph, and the names defined here.
  Graph* parent = nullptr;
  Node* owner = nullptr;
  NameTable names;
  ArenaList<Graph*> subgraphs;  // graphs held by attributes of this graph's nodes
  ArenaList<Value*> values;     // every value this scope owns, in creation order

  /// The value `name` resolves to from inside this graph: its own names first, then the
  /// enclosing graphs'. Null when no scope defines it.
  Value* lookup(std::string_view value_name) const {
    for (const Graph* scope = this; scope != nullptr; scope = scope->parent) {
      if (Value* found = scope->names.find(value_name)) return found;
    }
    return nullptr;
  }

  /// Appends `node` to the node list.
  void appendNode(Node* node) {
    node->graph = this;
    node->prev = last_node;
    node->next = nullptr;
    if (last_node != nullptr) {
      last_node->next = node;
    } else {
      first_node = node;
    }
    last_node = node;
    ++node_count;
  }

  template <class Fn>
  void forEachNode(Fn&& fn) const {
    for (Node* node = first_node; node != nullptr; node = node->next) fn(node);
  }
};

}  // namespace onyx
