#include "ir/scope.h"

#include "core/development_checks.h"

namespace onyx::ir_internal {

Value* defineValue(Arena& arena, Graph& graph, std::string_view name) {
  Value* value = arena.make<Value>();
  value->name = name;
  value->graph = &graph;
  graph.values.push_back(arena, value);
  if (!name.empty()) graph.names.put(arena, value);
  return value;
}

void removeValue(Value* value) {
  ONYX_ASSERT(!value->hasUses() && "a value is removed only once nothing reads it");
  Graph* graph = value->graph;
  if (graph == nullptr) return;
  if (!value->name.empty() && graph->names.find(value->name) == value) {
    graph->names.erase(value->name);
  }
  value->graph = nullptr;
  ++graph->removed_values;
  // Compact once half the list is removed: each removal costs O(1) amortized.
  if (graph->removed_values > 16 && graph->removed_values * 2 > graph->values.size()) {
    graph->compact();
  }
}

namespace {

void unlinkAll(Graph& graph) {
  for (Node* node = graph.first_node; node != nullptr; node = node->next) {
    for (Use& use : node->inputs) use.set(nullptr);
    for (const Attribute* attribute : node->attributes) {
      if (attribute->g != nullptr) unlinkAll(*attribute->g);
      for (Graph* sub : attribute->rare().graphs) unlinkAll(*sub);
    }
  }
  for (ValueInfo* info : graph.outputs) info->output.set(nullptr);
}

}  // namespace

void discardGraph(Graph* graph) {
  unlinkAll(*graph);
  if (Graph* parent = graph->parent) {
    for (size_t i = 0; i < parent->subgraphs.size(); ++i) {
      if (parent->subgraphs[i] == graph) {
        parent->subgraphs.erase(i);
        break;
      }
    }
  }
  graph->parent = nullptr;
  graph->owner = nullptr;
}

void adoptGraph(Arena& arena, Node* owner, Graph* subgraph) {
  if (subgraph->parent == owner->graph && subgraph->owner == owner) return;
  ONYX_ASSERT(subgraph->parent == nullptr && subgraph->owner == nullptr &&
              "a subgraph held elsewhere cannot be adopted; clone it");
  subgraph->parent = owner->graph;
  subgraph->owner = owner;
  owner->graph->subgraphs.push_back(arena, subgraph);
}

ValueInfo* findDeclaration(const ArenaList<ValueInfo*>& list, const Value* value) {
  for (ValueInfo* info : list) {
    if (info->bound() == value) return info;
  }
  return nullptr;
}

void redeclare(Value* value) {
  value->value_info = nullptr;
  if (value->graph == nullptr) return;
  value->value_info = findDeclaration(value->graph->value_info, value);
  if (value->value_info == nullptr) {
    value->value_info = findDeclaration(value->graph->outputs, value);
  }
}

}  // namespace onyx::ir_internal
