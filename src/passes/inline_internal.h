// Internal: the inliner's machinery for other passes. An If whose condition is known replaced
// by the branch it takes (constant folding does it, as onnxruntime's does), and a standard
// operator replaced by its function body until the caller knows whether to keep it (opset
// conversion does it for an operator the target opset lacks).
#pragma once

#include <cstddef>
#include <vector>

#include "onyx/core/status.h"
#include "onyx/ir/model.h"
#include "onyx/ops/function_body.h"

namespace onyx::passes_internal {

/// One call inlined: enough to take it back (undo) until everything else has succeeded, then
/// to remove what is left of the call (finish). Exactly one of the two is called.
struct InlinedCall {
  Model* model;
  Node* call;
  std::vector<Node*> copies;  // the body's nodes, in order, just before the call
  // The call's outputs, now produced by copies (null where the call had none).
  std::vector<Value*> outputs;
  ArenaList<OperatorSetId>* imports;
  size_t imports_before;  // the entries the import list had

  /// Removes the call, which has no outputs left, so nothing can refuse.
  void finish() const;
  /// Puts the graph back as it was before the call was inlined: the call's outputs are its
  /// own again, the copies go (readers first), the imports added are dropped. Calls inlined
  /// after this one are taken back first.
  void undo() const;
};

/// Puts the function body of `node`'s standard operator (onyx/ops/function_body.h, at the
/// opset its scope imports) before `node`, the node's outputs now computed by the copies; the
/// node stays in its graph without outputs until finish() or undo(). Errors (the operator has
/// no body there, a builder refuses the node, the body does not fit it) change nothing.
/// `type_of` answers for the node's inputs whose types are not declared (a body that depends
/// on an input's element type, as CastLike's does).
Result<InlinedCall> inlineOperatorBody(Model& model, Node& node,
                                       const ValueTypeOf* type_of = nullptr);

/// Puts the nodes of `node`'s then_branch (`condition` true) or else_branch where `node` is,
/// the If's outputs now computed by them, and destroys `node`. The branch's initializers
/// become the graph's, its values get fresh names unique in the scope, graphs nested in it
/// are copied with the same renaming; what it reads of enclosing graphs it still reads. An
/// error (a branch that gives one value as two outputs) leaves the model meaning the same.
Status inlineIfBranch(Model& model, Node& node, bool condition);

}  // namespace onyx::passes_internal
