// onyx/ir/topo_sort.h — putting a graph's node list in topological order.
#pragma once

#include <vector>

#include "onyx/core/status.h"
#include "onyx/ir/graph.h"

// Exported from the shared libraries: the public API (see src/CMakeLists.txt).
#pragma GCC visibility push(default)

namespace onyx {

/// Reorders the node list of `graph`, and of every graph nested in it, so that each node
/// comes after the nodes that produce what it reads — its inputs and the values its
/// subgraphs capture from this graph. Nodes already in order keep their order (the sort
/// is stable: among ready nodes, the earliest in the old list goes first).
///
/// On a cycle nothing is changed; the Status names the nodes on one cycle, in order, and
/// `cycle` (when given) receives them. O(N log N + E) for N nodes and E input slots,
/// including those of nested graphs.
Status topologicalSort(Graph& graph, std::vector<Node*>* cycle = nullptr);

/// The order topologicalSort gives `graph`'s own nodes (not those of nested graphs), leaving
/// the graph as it is; an error naming the nodes on a cycle.
Result<std::vector<const Node*>> topologicalOrder(const Graph& graph);

}  // namespace onyx

#pragma GCC visibility pop
