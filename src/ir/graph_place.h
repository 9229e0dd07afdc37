// Internal: where a graph sits in its model, in the style of core/place_path.h and the
// checker's words (docs/checker.md, "Paths"): the model's root graphs with their places, and
// the path of a graph held by a node's attribute. Inference, the evaluator, the verifier,
// the sorter and the converter name a place inside a graph with these, as the checker names
// the same place.
#pragma once

#include <functional>
#include <string>

#include "onyx/ir/graph.h"
#include "onyx/ir/model.h"
#include "onyx/ir/node.h"

namespace onyx {

/// `attribute[0](body).g`, or `attribute[1](branches).graphs[1](then)` for an item of a
/// graph list: where `owner` holds `graph`; empty when none of its attributes holds it.
/// O(attributes of the owner + graphs they hold).
std::string graphPathInNode(const Node& owner, const Graph& graph);

/// Calls `visit(graph, place)` for each root graph of `model`: its main graph ("graph"), each
/// training info's initialization and algorithm ("training_info[0].algorithm"), each
/// function's body ("functions[1](f)") and each graph a function's attribute default holds
/// ("functions[1](f).attribute_proto[0](body).g", "....graphs[2](then)"). Absent roots are
/// skipped. O(roots).
void forEachRootGraph(const Model& model,
                      const std::function<void(Graph& graph, const std::string& place)>& visit);

/// Where `graph`, a graph of `model` at any depth, is: its root's place, then each node and
/// attribute that hold it ("graph.node[3](loop).attribute[0](body).g"). Empty when `graph`
/// is none of `model`'s. O(nesting x nodes of the enclosing graphs, + roots).
std::string placeOf(const Model& model, const Graph& graph);

/// `node[3](conv1) (Conv)`: a node's place in its graph's list (`index`), then its operator,
/// as messages that list nodes (a cycle, a cut) name them.
std::string describeNode(const Node& node, size_t index);

}  // namespace onyx
