#include "ir/scope.h"

#include "core/development_checks.h"
#include "ir/graph_builder.h"

namespace onyx::ir_internal {

using B = GraphBuilder;

Value* defineValue(Arena& arena, Graph& graph, std::string_view name) {
  Value* value = arena.make<Value>();
  B::name(value) = name;
  B::graph(value) = &graph;
  B::values(&graph).push_back(arena, value);
  if (!name.empty()) NameTableWriter::put(B::names(&graph), arena, value);
  return value;
}

void removeValue(Value* value) {
  ONYX_ASSERT(!value->hasUses() && "a value is removed only once nothing reads it");
  Graph* graph = value->graph();
  if (graph == nullptr) return;
  if (!value->name().empty() && graph->names().find(value->name()) == value) {
    B::names(graph).erase(value->name());
  }
  B::graph(value) = nullptr;
  size_t& removed = ++B::removedValues(graph);
  // Compact once half the list is removed: each removal costs O(1) amortized.
  if (removed > 16 && removed * 2 > graph->values().size()) {
    graph->compact();
  }
}

namespace {

void unlinkAll(Graph& graph) {
  for (Node* node = graph.firstNode(); node != nullptr; node = node->next()) {
    for (Use& use : B::inputs(node)) use.set(nullptr);
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
  if (Graph* parent = graph->parent()) {
    ArenaList<Graph*>& siblings = B::subgraphs(parent);
    for (size_t i = 0; i < siblings.size(); ++i) {
      if (siblings[i] == graph) {
        siblings.erase(i);
        break;
      }
    }
  }
  B::parent(graph) = nullptr;
  B::owner(graph) = nullptr;
}

namespace {

void markRemoved(Graph& graph) {
  for (Node* node = graph.firstNode(); node != nullptr; node = node->next()) {
    for (const Attribute* attribute : node->attributes) {
      if (attribute->g != nullptr) markRemoved(*attribute->g);
      for (Graph* sub : attribute->rare().graphs) markRemoved(*sub);
    }
    B::graph(node) = nullptr;
  }
  for (Value* value : graph.values()) B::graph(value) = nullptr;
}

}  // namespace

void retireGraph(Graph* graph) {
  discardGraph(graph);
  markRemoved(*graph);
}

void adoptGraph(Arena& arena, Node* owner, Graph* subgraph) {
  if (subgraph->parent() == owner->graph() && subgraph->owner() == owner) return;
  ONYX_ASSERT(subgraph->parent() == nullptr && subgraph->owner() == nullptr &&
              "a subgraph held elsewhere cannot be adopted; clone it");
  B::parent(subgraph) = owner->graph();
  B::owner(subgraph) = owner;
  B::subgraphs(owner->graph()).push_back(arena, subgraph);
}

ValueInfo* findDeclaration(const ArenaList<ValueInfo*>& list, const Value* value) {
  for (ValueInfo* info : list) {
    if (info->bound() == value) return info;
  }
  return nullptr;
}

void appendInput(Arena& arena, Graph& graph, Value* value, Type* type) {
  ValueInfo* info = arena.make<ValueInfo>();
  info->name = value->name();
  info->type = type;
  info->value = value;
  B::graphInput(value) = info;
  graph.inputs.push_back(arena, info);
}

void redeclare(Value* value) {
  ValueInfo*& declaration = B::valueInfo(value);
  declaration = nullptr;
  if (value->graph() == nullptr) return;
  declaration = findDeclaration(value->graph()->value_info, value);
  if (declaration == nullptr) declaration = findDeclaration(value->graph()->outputs, value);
}

}  // namespace onyx::ir_internal
