// Internal: the inliner's machinery for other passes. An If whose condition is known replaced
// by the branch it takes (constant folding does it, as onnxruntime's does), and standard
// operators replaced by their function bodies until the caller knows whether to keep them
// (opset conversion does it for an operator the target opset lacks).
#pragma once

#include <cstddef>
#include <memory>
#include <span>
#include <vector>

#include "onyx/core/status.h"
#include "onyx/ir/model.h"
#include "onyx/ops/function_body.h"

namespace onyx::passes_internal {

/// One call inlined: the body's nodes stand before the call and compute its outputs; the call
/// stays in its graph, its outputs omitted, until finishInlined removes it or undoInlined puts
/// the graph back as it was.
struct InlinedCall {
  Node* call;
  std::vector<Node*> copies;  // the body's nodes, in order, just before the call
  // The call's outputs, now produced by copies (null where the call had none).
  std::vector<Value*> outputs;
  ArenaList<OperatorSetId>* imports;
  size_t imports_before;  // the entries the import list had
  size_t batch;           // calls of one batch were inlined together (CallInliner)
};

/// Calls inlined together: each body recorded into the patch of its call's graph
/// (onyx/ir/patch.h), every patch applied at once.
class CallInliner {
 public:
  explicit CallInliner(Model& model);
  ~CallInliner();
  CallInliner(const CallInliner&) = delete;
  CallInliner& operator=(const CallInliner&) = delete;

  /// Records the body `node` calls: a model-local function (with `local_functions`) or the
  /// function body of its standard operator (with `function_operators`); onyx/ops/callee.h
  /// decides which it calls, from the imports where the node is. `type_of` answers for inputs whose
  /// types are not declared (a body that depends on an element type, as CastLike's does). An error
  /// (nothing to inline, a builder that refuses the node, a body that does not fit it, an opset
  /// imported at another version) records nothing.
  Status add(Node& node, bool local_functions, bool function_operators,
             const ValueTypeOf* type_of = nullptr);

  /// Applies what add() recorded, all or nothing, and returns the calls, in the order added
  /// (all of them `batch`).
  Result<std::vector<InlinedCall>> apply(size_t batch = 0);

 private:
  struct State;
  std::unique_ptr<State> state_;
};

/// Removes the calls (their outputs are the copies' now), all at once.
void finishInlined(Model& model, std::span<const InlinedCall> calls);
/// Puts the graphs back as they were before `calls` were inlined, newest batch first: the
/// calls' outputs are their own again, the copies go, the imports added are dropped.
void undoInlined(Model& model, std::span<const InlinedCall> calls);

/// Puts the nodes of `node`'s then_branch (`condition` true) or else_branch where `node` is,
/// the If's outputs now computed by them (through an Identity where the branch gives a value
/// it does not compute: an outer value, an initializer, one value twice), and removes `node`.
/// The branch's initializers become the graph's, its values get fresh names unique in the
/// scope, graphs nested in it are copied with the same renaming; what it reads of enclosing
/// graphs it still reads. An error leaves the model as it was.
Status inlineIfBranch(Model& model, Node& node, bool condition);

}  // namespace onyx::passes_internal
