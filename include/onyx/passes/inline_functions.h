// onyx/passes/inline_functions.h — replacing a function call by the function's body.
//
// A node may call a model-local function (ModelProto.functions, matched by domain, name and,
// from IR 10, overload) or a standard operator the spec defines as a function (a
// "function-operator": Softmax, LayerNormalization, Celu, ...; onyx/ops/function_body.h).
// Which one it calls is onyx/ops/callee.h's answer, the same the checker, inference and the
// evaluator get: a standard operator at the imported opset comes before a model-local
// function of the same name.
// Inlining puts the body's nodes where the node was:
//   - the body's inputs and outputs become the node's actual inputs and outputs (a formal
//     input the node leaves out, or "", becomes ""; the node's output values stay, with their
//     names, types and uses, now produced by the body's nodes);
//   - the body's other values get fresh names, unique in the graph's scope;
//   - an attribute reference (`@alpha`) takes the node's attribute, else the function's
//     default (attribute_proto; for a function-operator, the schema's default), else the
//     attribute is dropped, as IR.md says;
//   - graphs nested in the body (If, Loop, Scan bodies) are copied with the same renaming and
//     binding;
//   - the opsets the body imports are added to those where the node is (the model's, or its
//     function's); importing a domain at another version than they do is an error.
// Use-lists, producers and scopes stay consistent (verifyModel passes after).
//
// Errors are Status values, and a failed call leaves the model as it was. Costs: inlining a
// node is linear in the size of its body, plus a name-uniqueness test per new value (a hash
// lookup per enclosing scope and per graph nested in the node's graph); a function-operator's
// body is parsed (or built, then parsed) each time, about as long as the body's text.
// Not thread-safe: the model is changed.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "onyx/core/status.h"
#include "onyx/ir/model.h"

// Exported from the shared libraries: the public API (see src/CMakeLists.txt).
#pragma GCC visibility push(default)

namespace onyx {

/// Inlines `node`, a node of `model` (in its main graph, a nested graph, a training graph or a
/// function body): a call of a model-local function, or else a node of a standard operator
/// that has a function body at the opset it is imported at. The node is destroyed. Errors:
/// kInvalidArgument when the node calls neither, passes more inputs or outputs than the body
/// declares, or the body imports a domain at another version than the node's scope does;
/// kUnsupported when a body cannot be built for this node (a builder needs an input type that
/// is not declared) or an output the node uses is one of the body's inputs; kNotFound when the
/// operator has no body at that opset.
Status inlineNode(Model& model, Node& node);

struct InlineOptions {
  /// Also inline nodes of standard operators that have a function body at their opset. A
  /// node whose body cannot be built, or whose body would import a domain at a conflicting
  /// version, is left as it is and listed in InlineReport::left_alone.
  bool function_operators = false;
  /// The bodies inlined may call functions in turn; they are inlined too, to this depth.
  /// Deeper nesting is an error (kLimitExceeded).
  int max_depth = 64;
  /// Remove the model-local functions that nothing calls any more.
  bool remove_unused_functions = true;
};

struct InlineReport {
  size_t function_calls = 0;     // calls of model-local functions inlined
  size_t operator_calls = 0;     // function-operator nodes inlined
  size_t functions_removed = 0;  // model-local functions removed as unused
  /// Function-operator nodes left as they are: `op_type (node name): why`.
  std::vector<std::string> left_alone;
};

/// Inlines every call of a model-local function in the main graph, its nested graphs and the
/// training graphs, and with options.function_operators every function-operator node; what
/// the inlined bodies call is inlined in turn. A model-local function that calls itself,
/// directly or through others, is an error (kInvalidArgument), as are the errors of
/// inlineNode() for a model-local function. The calls are inlined in batches, each through
/// patches (onyx/ir/patch.h): on error the batches already applied are taken back, newest
/// first, and the model is unchanged (it writes the same bytes). On success the calls inlined
/// and the functions removed (with their bodies) read as removed (graph() is null); every
/// other pointer into the model stays valid. O(size of the model + size of what is inlined), and
/// memory for what is inlined only.
Result<InlineReport> inlineAllFunctions(Model& model, const InlineOptions& options = {});

}  // namespace onyx

#pragma GCC visibility pop
