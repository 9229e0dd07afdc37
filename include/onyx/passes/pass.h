// onyx/passes/pass.h — what a transformation of a model declares and returns.
//
// A pass changes a model in place so that it means the same (the same outputs for the same
// inputs) and returns what it changed. Every pass keeps the model's interface: the names,
// order and types of the main graph's inputs and outputs, and the initializers that are also
// inputs (user-overridable defaults). A pass that changes nothing leaves the model exactly
// as it was, so that it writes the same bytes; the pass manager's fixed point relies on it.
//
// Passes change graphs through the IR's public operations only, so that use-lists, producers
// and scopes stay consistent (verifyModel passes after each pass): a Patch (onyx/ir/patch.h)
// per graph, which records edits and applies them all or none (applyAll across graphs), so
// that a pass that finds half-way that it cannot finish leaves the model as it was. The IR's
// private links (src/ir/graph_builder.h) do not compile in this layer. A few built-in passes
// still edit one edit at a time (docs/passes.md, "Writing a pass").
//
// Writing one: see docs/passes.md. Most passes work graph by graph: derive from GraphPass and
// implement runOnGraph; it is called once for the main graph, each training graph, each
// function body and every graph nested in them (If/Loop/Scan bodies, at any depth).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "onyx/core/status.h"
#include "onyx/ir/constant_value.h"
#include "onyx/ir/graph_scope.h"
#include "onyx/ir/model.h"
#include "onyx/ops/callee.h"
#include "onyx/ops/eval_value.h"

// Exported from the shared libraries: the public API (see src/CMakeLists.txt).
#pragma GCC visibility push(default)

namespace onyx {

/// What a pass leaves as it was, for the pass manager and for passes that keep results
/// between passes. Flags; a pass declares the ones it guarantees.
enum class Preserves : uint32_t {
  kNothing = 0,
  /// The nodes that remain keep their relative order in their node lists.
  kNodeOrder = 1u << 0,
  /// Every Value, Node and Graph that remains is the same object (no pointer into the model
  /// is invalidated except those of what was removed), and keeps the type inference gives
  /// it: shape-inference results computed before the pass stay valid for what remains.
  kInferredTypes = 1u << 1,
  /// The model-local functions and opset imports are untouched.
  kFunctionsAndImports = 1u << 2,
};

constexpr Preserves operator|(Preserves a, Preserves b) {
  return static_cast<Preserves>(static_cast<uint32_t>(a) | static_cast<uint32_t>(b));
}
constexpr bool preserves(Preserves set, Preserves flag) {
  return (static_cast<uint32_t>(set) & static_cast<uint32_t>(flag)) == static_cast<uint32_t>(flag);
}

/// What one run of a pass changed. A run changed the model exactly when changed() is true.
struct PassResult {
  size_t nodes_removed = 0;
  size_t nodes_added = 0;
  /// Nodes changed in place: an input re-pointed, an attribute rewritten, moved in the list.
  size_t nodes_rewritten = 0;
  /// Other entries removed or converted: initializers, value_info entries, opset imports,
  /// functions.
  size_t entries_changed = 0;

  bool changed() const {
    return nodes_removed + nodes_added + nodes_rewritten + entries_changed > 0;
  }
  PassResult& operator+=(const PassResult& other) {
    nodes_removed += other.nodes_removed;
    nodes_added += other.nodes_added;
    nodes_rewritten += other.nodes_rewritten;
    entries_changed += other.entries_changed;
    return *this;
  }
};

/// Runs one node on constant inputs as `onyx run` would, for passes that fold constants. The
/// passes layer does not link the evaluator: the evaluator's side supplies an implementation
/// (its native kernels, so that a folded value has the bits a run computes), the caller
/// passes it in OptimizeOptions. Without one, folding passes leave nodes as they are.
class NodeEvaluator {
 public:
  virtual ~NodeEvaluator() = default;
  /// The outputs of `node` (a node of `model`) on `inputs`, one per node input (an empty
  /// EvalValue for an omitted one).
  virtual Result<std::vector<EvalValue>> run(const Model& model, const Node& node,
                                             std::span<const EvalValue> inputs) = 0;
};

/// The types shape inference gives a model's values, for passes that decide from shapes
/// (a Reshape to the shape its input has). Inference runs beside the model, which is neither
/// copied nor annotated: an optimised model gains no value_info it did not have. A type is
/// put in its declared form the first time it is asked for.
class InferredTypes {
 public:
  /// `constant_initializers`: InferOptions::constant_initializers.
  explicit InferredTypes(const Model& model, bool constant_initializers = false);
  ~InferredTypes();
  InferredTypes(const InferredTypes&) = delete;
  InferredTypes& operator=(const InferredTypes&) = delete;

  /// The inferred type of `value` (a value of the model this was made from) when it is a
  /// node output that inference typed, else its declared type; null when neither is known.
  /// O(1) expected.
  const Type* typeOf(const Value& value) const;

 private:
  struct Known;
  std::unique_ptr<Known> known_;
};

/// What passes may use beyond the model: options and results shared between passes.
class PassContext {
 public:
  PassContext() = default;
  PassContext(const PassContext&) = delete;
  PassContext& operator=(const PassContext&) = delete;

  /// Also remove nodes of operators onyx does not know (which might have side effects),
  /// and merge their duplicates. Off by default.
  bool aggressive = false;
  /// For folding passes; not owned, may be null.
  NodeEvaluator* node_evaluator = nullptr;
  /// The bytes a folded node may add to the model per output, beyond the bytes of the
  /// constants it leaves unread (constant-folding): a fold that would grow the model more is
  /// not done. OptimizeOptions, `onyx optimize` and Python's optimize take this default.
  size_t fold_limit = 1024;
  /// Take the initializers listed as graph inputs for the constants they hold, as in a model
  /// before IR 4 (onyx/ir/constant_value.h), for folding and for inference. Off by default:
  /// from IR 4 on such an initializer is a default the caller may override.
  bool constant_initializers = false;
  /// For tests of a pass's all or nothing: a pass that records its edits in patches, a patch
  /// per graph applied together at its end, fails as one meeting an error half-way would once
  /// it has recorded the edits of this many graphs, before it changes any. Unset: never.
  std::optional<size_t> fail_after_graphs;

  /// What the initializers listed as graph inputs of `model` are, for the passes that ask
  /// whether a value is constant: initializerInputsOf(model, constant_initializers).
  InitializerInputs initializerInputs(const Model& model) const;
  /// Shape inference's types for `model`, computed on first use and kept until a pass that
  /// does not preserve them changes the model.
  const InferredTypes& inferredTypes(const Model& model);
  /// What each node of `model` calls (onyx/ops/callee.h), indexed on first use and kept
  /// until a pass that does not preserve the functions changes the model.
  const CalleeResolver& callees(const Model& model);
  /// Drops what a pass that changed the model and kept only `kept` made stale (the pass
  /// manager calls it after each such pass).
  void changed(Preserves kept);

 private:
  std::unique_ptr<InferredTypes> inferred_;
  std::unique_ptr<CalleeResolver> callees_;
};

/// A transformation of a model.
class Pass {
 public:
  virtual ~Pass() = default;
  /// The name `--passes` takes: lowercase words joined by '-'.
  virtual std::string_view name() const = 0;
  /// One line for `--list-passes`.
  virtual std::string_view summary() const = 0;
  virtual Preserves preserves() const = 0;
  /// Changes `model`. On error the model may be partly changed but stays consistent
  /// (verifyModel passes); the pass manager stops.
  virtual Result<PassResult> run(Model& model, PassContext& context) = 0;
};

/// A pass that works on each graph alone: the main graph, the training graphs, the function
/// bodies and every graph nested in them. The graphs are listed before the first call and
/// visited innermost first, so a pass may remove a node that holds graphs already visited.
/// Each call is given the graph's scope (onyx/ir/graph_scope.h): a node binds to the opsets
/// imported there, which in a function body are the function's, not the model's.
class GraphPass : public Pass {
 public:
  Result<PassResult> run(Model& model, PassContext& context) override;

 protected:
  virtual Result<PassResult> runOnGraph(Model& model, Graph& graph, const GraphScope& scope,
                                        PassContext& context) = 0;
};

}  // namespace onyx

#pragma GCC visibility pop
