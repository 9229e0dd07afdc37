// Internal: an If whose condition is known replaced by the branch it takes (constant folding
// does it, as onnxruntime's does), with the machinery that inlines function bodies.
#pragma once

#include "onyx/core/status.h"
#include "onyx/ir/model.h"

namespace onyx::passes_internal {

/// Puts the nodes of `node`'s then_branch (`condition` true) or else_branch where `node` is,
/// the If's outputs now computed by them, and destroys `node`. The branch's initializers
/// become the graph's, its values get fresh names unique in the scope, graphs nested in it
/// are copied with the same renaming; what it reads of enclosing graphs it still reads. An
/// error (a branch that gives one value as two outputs) leaves the model meaning the same.
Status inlineIfBranch(Model& model, Node& node, bool condition);

}  // namespace onyx::passes_internal
