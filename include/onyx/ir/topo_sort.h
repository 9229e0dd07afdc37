// onyx/ir/topo_sort.h — putting a graph's node list in topological order.
#pragma once

#include <vector>

#include "onyx/core/status.h"
#include "onyx/ir/graph.h"
#include "onyx/ir/model.h"

// Exported from the shared libraries: the public API (see src/CMakeLists.txt).
#pragma GCC visibility push(default)

namespace onyx {

/// Reorders the node list of `graph`, and of every graph nested in it, so that each node
/// comes after the nodes that produce what it reads — its inputs and the values its
/// subgraphs capture from this graph. Nodes already in order keep their order (the sort
/// is stable: among ready nodes, the earliest in the old list goes first).
///
/// On a cycle nothing is changed; the Status names the nodes on one cycle, in order (its
/// path is the place of their graph below `graph`, empty for `graph` itself), and `cycle`
/// (when given) receives them. O(N log N + E) for N nodes and E input slots, including
/// those of nested graphs.
Status topologicalSort(Graph& graph, std::vector<Node*>* cycle = nullptr);

/// The same for every node list of `model`: the main graph, the training graphs, the
/// function bodies, graphs given as function attribute defaults, and every graph nested in
/// them. All or nothing: on a cycle anywhere no list is changed, and the Status path names
/// the cycle's graph as the checker does (`graph.node[2](if).attribute[0](then_branch).g`,
/// `functions[0](F)`). Only the lists' order changes, so a model already in order is left
/// exactly as it was and writes the same bytes. `moved` (when given) receives how many nodes
/// changed position.
Status topologicalSort(Model& model, std::vector<Node*>* cycle = nullptr, size_t* moved = nullptr);

/// The order topologicalSort gives `graph`'s own nodes (not those of nested graphs), leaving
/// the graph as it is; an error naming the nodes on a cycle.
Result<std::vector<const Node*>> topologicalOrder(const Graph& graph);

}  // namespace onyx

#pragma GCC visibility pop
