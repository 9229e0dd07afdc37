// Internal: the rules that need the operator's schema — the operator resolves and is not
// deprecated, input/output counts and omissions, attribute names, types and presence, type
// constraints, control-flow bodies, calls to model-local functions (R41–R49, R51–R53), and
// for nodes in a function body the agreement of the function's and the model's imports
// (R98). They are written with the operator schemas; until then node_signature_pending.cc
// reports nothing.
//
// The graph walker calls checkNodeSignature once for every node it meets — in the main
// graph, nested graphs, training graphs and function bodies — after the node's own rules
// (R39, R40, R11/R97) and the value rules of its attributes, and before the graphs its
// attributes hold are walked. `path` formats the node's path (`graph.node[3](conv1)`) when
// called: call it only for a diagnostic.
#pragma once

#include <cstdint>

#include "check/opset_imports.h"
#include "check/place.h"
#include "onyx/check/diagnostic.h"
#include "onyx/ir/model.h"

namespace onyx::check {

struct NodeContext {
  const Model* model = nullptr;
  int64_t ir_version = 0;                       // the model's, 0 when absent
  const OpsetImports* imports = nullptr;        // what the node resolves against: the model's
                                                // imports, or its function's in a body
  const OpsetImports* model_imports = nullptr;  // the model's (R98 compares the two)
  const Function* function = nullptr;           // the function whose body holds the node
  const Function* callee = nullptr;             // the model-local function the node calls
};

void checkNodeSignature(const Node& node, const NodeContext& context, const LazyPath& path,
                        Diagnostics& out);

}  // namespace onyx::check
