// Internal: the path of a graph held by a node's attribute, below that node, in the style of
// core/place_path.h. Inference and the evaluator name a failure inside a subgraph with it, as
// the checker names the same place.
#pragma once

#include <string>

#include "onyx/ir/graph.h"
#include "onyx/ir/node.h"

namespace onyx {

/// `attribute[0](body).g`, or `attribute[1](branches).graphs[1](then)` for an item of a
/// graph list: where `owner` holds `graph`; empty when none of its attributes holds it.
/// O(attributes of the owner + graphs they hold).
std::string graphPathInNode(const Node& owner, const Graph& graph);

}  // namespace onyx
