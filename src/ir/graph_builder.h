// Internal: write access to the links the IR keeps private (node lists, use-lists,
// producers, scopes, name tables, declarations), for the code that builds or maintains
// them: the loader, which writes a graph field by field at full speed, and the IR's own
// mutations outside the member functions. Not installed: a user of the library changes a
// graph through its methods, GraphEditor or a Patch, which keep the links consistent.
// Every function is a reference to one field, inlined to a plain load or store.
#pragma once

// The layers that build graphs field by field define this (src/CMakeLists.txt), and the tests
// of those internals; a pass that wants the links has a missing operation on GraphEditor or
// Patch instead (tests/build/passes_includes_graph_builder.cc).
#ifndef ONYX_BUILDS_GRAPH_LINKS
#error \
    "ir/graph_builder.h writes the IR's private links, for the IR itself and the loader (layers ir, serde, text); elsewhere edit through GraphEditor or a Patch"
#endif

#include <cstdint>
#include <string_view>

#include "ir/name_table_writer.h"
#include "onyx/ir/editor.h"
#include "onyx/ir/graph.h"

namespace onyx::ir_internal {

class GraphBuilder {
 public:
  /// An editor for what is built in `arena` outside a model (the loader's own arenas,
  /// inference's side table): model() and patch() are not for it.
  static GraphEditor editorOn(Arena& arena) { return GraphEditor(nullptr, &arena); }

  // ---- Graph -------------------------------------------------------------------------------
  static Node*& firstNode(Graph* graph) { return graph->first_node_; }
  static Node*& lastNode(Graph* graph) { return graph->last_node_; }
  static size_t& nodeCount(Graph* graph) { return graph->node_count_; }
  static Graph*& parent(Graph* graph) { return graph->parent_; }
  static Node*& owner(Graph* graph) { return graph->owner_; }
  static NameTable& names(Graph* graph) { return graph->names_; }
  static ArenaList<Graph*>& subgraphs(Graph* graph) { return graph->subgraphs_; }
  static ArenaList<Value*>& values(Graph* graph) { return graph->values_; }
  static size_t& removedValues(Graph* graph) { return graph->removed_values_; }
  static uint64_t& nameCounter(Graph* graph) { return graph->name_counter_; }

  // ---- Node --------------------------------------------------------------------------------
  static ArenaList<Use>& inputs(Node* node) { return node->inputs_; }
  static ArenaList<Value*>& outputs(Node* node) { return node->outputs_; }
  static Graph*& graph(Node* node) { return node->graph_; }
  static Node*& prev(Node* node) { return node->prev_; }
  static Node*& next(Node* node) { return node->next_; }

  // ---- Value -------------------------------------------------------------------------------
  static std::string_view& name(Value* value) { return value->name_; }
  static Graph*& graph(Value* value) { return value->graph_; }
  static Node*& producer(Value* value) { return value->producer_; }
  static uint32_t& outputIndex(Value* value) { return value->output_index_; }
  static ValueInfo*& valueInfo(Value* value) { return value->value_info_; }
  static ValueInfo*& graphInput(Value* value) { return value->input_; }
  static Tensor*& initializer(Value* value) { return value->initializer_; }
  static SparseTensor*& sparseInitializer(Value* value) { return value->sparse_initializer_; }
  static bool& functionInput(Value* value) { return value->function_input_; }
  static Use*& firstUse(Value* value) { return value->first_use_; }

  // ---- Use ---------------------------------------------------------------------------------
  static Value*& value(Use* use) { return use->value_; }
  static Node*& user(Use* use) { return use->user_; }
  static Use*& next(Use* use) { return use->next_; }
  static Use**& prev(Use* use) { return use->prev_; }
};

}  // namespace onyx::ir_internal
