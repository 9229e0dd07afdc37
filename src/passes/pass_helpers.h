// Internal: facts the standard passes share about nodes and values.
#pragma once

#include <unordered_map>
#include <unordered_set>

#include "onyx/ir/editor.h"
#include "onyx/ir/model.h"
#include "onyx/ops/callee.h"
#include "passes/pass_patches.h"

namespace onyx::passes_internal {

/// Whether `node` is a standard operator or a call of a model-local function: an operator
/// whose meaning onyx knows, so removing or merging it cannot drop a side effect. A node of
/// any other domain might have side effects (a custom op that logs or writes).
bool isKnownOperator(const Node& node, const CalleeResolver& callees);

/// Whether some use of `value` is a graph or function output: its name is then part of an
/// interface and must stay. O(uses).
bool isOutput(const Value& value);

/// Removes the model-local functions that no graph outside every function body calls,
/// directly or through the bodies of the functions it calls. Returns how many went.
size_t removeUncalledFunctions(Model& model);

enum class Bypass {
  kRefused,      // nothing recorded
  kDone,         // the readers of the output will read the replacement
  kNodeRemoved,  // ... and the node, read by nothing then, will go
};

/// The bypasses a pass records in its patches, and what the pass must see of them before they
/// are applied: which values they replace (and by what), which nodes they remove, which values
/// take a graph output's name. A bypass that would depend on another in a way this does not
/// follow is refused; the pass manager's next round makes it on the applied graph.
class Bypasses {
 public:
  explicit Bypasses(PassPatches& patches) : patches_(patches) {}

  /// `value` as its readers will read it once the patches are applied.
  Value* resolved(Value* value) const;
  /// Whether a recorded bypass removes `node`.
  bool removes(const Node* node) const { return removed_.contains(node); }

  /// Records that every reader of `node`'s output `output` reads `replacement` (resolved)
  /// instead, and that `node` goes when nothing will read its other outputs. When the output
  /// is a graph output its name stays: `replacement` takes it, which needs `node` gone and
  /// `replacement` free to be renamed (computed by a node of the same graph that stays, not an
  /// output itself, not renamed by another bypass); else nothing is recorded.
  Bypass bypass(Node& node, size_t output, Value& replacement);
  /// Records the removal of `node`, whose outputs nothing reads.
  void remove(Node& node);

 private:
  // Whether a reader of `node`'s outputs other than `output` remains, or is to come.
  bool otherOutputsRead(const Node& node, size_t output) const;

  PassPatches& patches_;
  std::unordered_map<const Value*, Value*> replaced_;
  std::unordered_set<const Value*> gained_;  // values that take over others' readers
  std::unordered_set<const Value*> renamed_;
  std::unordered_set<const Node*> removed_;
};

}  // namespace onyx::passes_internal
