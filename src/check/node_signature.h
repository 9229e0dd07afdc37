// Internal: the rules that need the operator's schema or the called function — the operator
// resolves and is not deprecated (R41, R42), input and output counts and omissions (R43–R45),
// attribute names, kinds and presence (R46–R49), type constraints (R51), control-flow bodies
// (R52), calls of model-local functions (R53), and for nodes in a function the agreement of
// the function's and the model's imports (R98). The parts live in signature_*.cc and
// function_calls.cc; docs/checker.md says what each reports.
//
// The graph walker calls checkNodeSignature once for every node it meets — in the main
// graph, nested graphs, training graphs and function bodies — after the node's own rules
// (R39, R40, R11/R97) and the value rules of its attributes, and before the graphs its
// attributes hold are walked. `path` formats the node's path (`graph.node[3](conv1)`) when
// called: call it only for a diagnostic.
//
// Cost: one registry lookup per node (a hash of the op name, a compare, a scan of at most ten
// versions), then work linear in the node's inputs, outputs and attributes; nothing is
// formatted unless a diagnostic is reported.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <unordered_set>

#include "check/opset_imports.h"
#include "check/place.h"
#include "onyx/core/diagnostic.h"
#include "onyx/ir/model.h"

namespace onyx::check {

/// What the signature rules remember across the nodes of one checkModel run.
class SignatureMemo {
 public:
  /// True the first time the custom operator (`domain`, `op_type`) is met: R41 warns once
  /// per operator, not once per node (a model of 10,000 contrib-op nodes gets one line each).
  bool firstCustomUse(std::string_view domain, std::string_view op_type);

 private:
  struct Key {
    std::string_view domain;
    std::string_view op_type;
    bool operator==(const Key&) const = default;
  };
  struct KeyHash {
    size_t operator()(const Key& key) const;
  };
  std::unordered_set<Key, KeyHash> custom_operators_;
};

struct NodeContext {
  const Model* model = nullptr;
  int64_t ir_version = 0;                       // the model's, 0 when absent
  const OpsetImports* imports = nullptr;        // what the node resolves against: the model's
                                                // imports, or its function's in a body
  const OpsetImports* model_imports = nullptr;  // the model's (R98 compares the two)
  const Function* function = nullptr;           // the function whose body holds the node
  const Function* callee = nullptr;             // the model-local function the node calls
  SignatureMemo* memo = nullptr;                // null: every custom-operator node is reported
};

void checkNodeSignature(const Node& node, const NodeContext& context, const LazyPath& path,
                        Diagnostics& out);

}  // namespace onyx::check
