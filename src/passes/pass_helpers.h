// Internal: facts the standard passes share about nodes and values.
#pragma once

#include "onyx/ir/editor.h"
#include "onyx/ir/model.h"
#include "onyx/ops/callee.h"

namespace onyx::passes_internal {

/// Whether `node` is a standard operator or a call of a model-local function: an operator
/// whose meaning onyx knows, so removing or merging it cannot drop a side effect. A node of
/// any other domain might have side effects (a custom op that logs or writes).
bool isKnownOperator(const Node& node, const CalleeResolver& callees);

/// Whether some use of `value` is a graph or function output: its name is then part of an
/// interface and must stay. O(uses).
bool isOutput(const Value& value);

enum class Bypass {
  kRefused,      // nothing changed
  kDone,         // the readers of the output read the replacement now
  kNodeRemoved,  // ... and the node, read by nothing any more, was removed
};

/// Makes every reader of `node`'s output `output` read `replacement` instead. When the
/// output is a graph or function output its name stays: `replacement` takes it, which needs
/// `node` gone (its other outputs unread) and `replacement` free to be renamed (computed by
/// a node of the same graph, not an output itself); else nothing changes (kRefused). A node
/// left with no readers is removed.
Bypass bypassOutput(const GraphEditor& edit, Node& node, size_t output, Value& replacement);

}  // namespace onyx::passes_internal
