// Internal: walking the graphs a node's attributes hold (If's branches, Loop's body, ...).
// The topological sort and the evaluator's plan both need to know what such a graph reads
// from the graph around its node: a node holding one runs after those values exist, and
// keeps them alive until it ends.
#pragma once

#include "onyx/ir/attribute.h"
#include "onyx/ir/graph.h"
#include "onyx/ir/node.h"
#include "onyx/ir/value.h"

namespace onyx {

/// Calls `visit(graph)` for each graph `node`'s attributes hold (`g`, then `graphs`).
template <class Visit>
void forEachGraphOf(const Node& node, Visit&& visit) {
  for (const Attribute* attribute : node.attributes) {
    if (attribute->g != nullptr) visit(*attribute->g);
    for (const Graph* graph : attribute->rare().graphs) {
      if (graph != nullptr) visit(*graph);
    }
  }
}

/// Calls `visit(value)` for every value read inside the graphs `node` holds, at any depth:
/// their nodes' inputs and their outputs (null entries skipped).
template <class Visit>
void forEachNestedRead(const Node& node, Visit&& visit) {
  forEachGraphOf(node, [&](const Graph& graph) {
    for (const Node* inner : graph.nodes()) {
      for (size_t i = 0; i < inner->inputCount(); ++i) {
        if (const Value* input = inner->input(i)) visit(input);
      }
      forEachNestedRead(*inner, visit);
    }
    for (const ValueInfo* output : graph.outputs) {
      if (const Value* value = output->bound()) visit(value);
    }
  });
}

}  // namespace onyx
