// Internal: defining and removing values in a graph's scope, and discarding subgraphs —
// the bookkeeping every mutation shares.
#pragma once

#include <string_view>

#include "onyx/ir/graph.h"

namespace onyx::ir_internal {

/// A new value of `graph` named `name` (already in the arena, not taken), in its name table
/// and value list. O(1) expected.
Value* defineValue(Arena& arena, Graph& graph, std::string_view name);

/// Takes `value` out of its graph: out of the name table (when it is there), detached
/// (graph = null), counted for compaction. Its uses must be gone. O(1) amortized.
void removeValue(Value* value);

/// Unlinks every use inside `graph` and the graphs nested in it, and takes `graph` out of
/// its parent's subgraphs: the graph is dead. O(its size).
void discardGraph(Graph* graph);

/// Discards `graph` (discardGraph) and marks every node and value in it, nested graphs
/// included, as removed (graph() null), so that no reference to them reads as live. O(its
/// size).
void retireGraph(Graph* graph);

/// Makes `subgraph` a subgraph of `owner`'s graph held by `owner`: adopts a graph with no
/// parent, accepts one already scoped there. O(1).
void adoptGraph(Arena& arena, Node* owner, Graph* subgraph);

/// Finds the ValueInfo among `list` that is `value`'s declaration candidate (bound to it).
ValueInfo* findDeclaration(const ArenaList<ValueInfo*>& list, const Value* value);

/// Points `value`'s declaration at another entry of its graph bound to it (value_info
/// first, then outputs), or null. O(value_info + outputs).
void redeclare(Value* value);

/// Lists `value` (a named value of `graph` that is no input) as the graph's last input,
/// declared `type`. O(1).
void appendInput(Arena& arena, Graph& graph, Value* value, Type* type);

}  // namespace onyx::ir_internal
