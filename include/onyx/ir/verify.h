// onyx/ir/verify.h — checking the invariants the graph API keeps.
//
// For tools that edit graphs (and their tests): after a rewrite, verify that the IR is
// consistent. This is not the model checker: it does not know operators or types, and
// an undefined read is fine here. It checks
//   - node lists: links, counts, every node's graph;
//   - use-lists: every input slot and graph/function output is linked exactly once into
//     the list of the value it reads, and every use in a list is such a slot;
//   - producers: every node output is a value of the node's graph that names the node and
//     the output index, and the other way round;
//   - scopes: a read value is defined in the reading graph or an enclosing one; every
//     subgraph names its parent and owner, and is held by an attribute of its owner;
//   - names: the name table holds each value under its own name, no two values of a graph
//     share a name (SSA), and no value shadows one of an enclosing graph;
//   - declarations: graph inputs, initializers and value_info entries agree with the
//     values they declare.
// A model loaded from a file that breaks SSA (two definitions of a name) fails here too.
// Read-only; O(size of the model) with hash sets. Every broken invariant is one Diagnostic
// (code kInternal, no rule) whose path names the place (`graph.node[3](relu).input[0]`).
#pragma once

#include "onyx/core/diagnostic.h"
#include "onyx/core/status.h"
#include "onyx/ir/model.h"

// Exported from the shared libraries: the public API (see src/CMakeLists.txt).
#pragma GCC visibility push(default)

namespace onyx {

/// Verifies `graph` and the graphs nested in it. Uses of its values from outside it are
/// not checked (verify the enclosing graph for that). Empty when consistent.
Diagnostics verifyGraph(const Graph& graph);
/// Verifies a function's body and its inputs and outputs.
Diagnostics verifyFunction(const Function& function);
/// Verifies the main graph, the training graphs and the function bodies.
Diagnostics verifyModel(const Model& model);

/// What a verification found as one Status: ok when nothing, else an `internal` error whose
/// message counts the problems and lists the first ten, each with its path.
Status verifiedStatus(const Diagnostics& problems);

}  // namespace onyx

#pragma GCC visibility pop
