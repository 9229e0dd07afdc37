// `dead-code`: removes what no output depends on.
//
// Per graph: nodes none of whose outputs is read (by a node, a graph output or a graph
// nested in the graph), on a worklist, so a chain goes in one run; then initializers
// nothing reads. The value_info entries of removed values go with them (the writer leaves
// them out). Per model: model-local functions no graph calls, directly or through other
// functions, and opset imports no node, function or function import names.
//
// Kept, always: graph inputs, and initializers that are graph inputs (a default the user
// may override); nodes of operators onyx does not know, which might have side effects
// (unless PassContext::aggressive); the main graph's initializers when the model has
// training_info, whose bindings name them; the default domain's import.
#include <string>
#include <unordered_set>
#include <vector>

#include "ir/nested_reads.h"
#include "onyx/ir/opset_imports.h"
#include "onyx/ir/walk.h"
#include "onyx/passes/standard_passes.h"
#include "passes/pass_helpers.h"
#include "passes/pass_patches.h"

namespace onyx {

namespace {

using passes_internal::isKnownOperator;

// The nodes a run removes, across the model's graphs, recorded before any goes: a value
// whose every reader is among them (or inside a graph one of them holds) counts as unread.
class Removals {
 public:
  void add(const Node* node) { removed_.insert(node); }
  bool contains(const Node* node) const { return removed_.contains(node); }

  /// Whether something that stays reads `value`: a node, or an output of a graph that stays.
  bool read(const Value& value) const {
    for (const Use& use : value.uses()) {
      if (use.user() != nullptr ? !goes(use.user()) : !goes(graphOf(use))) return true;
    }
    return false;
  }
  bool read(const Node& node) const {
    for (const Value* output : node.outputs()) {
      if (output != nullptr && read(*output)) return true;
    }
    return false;
  }

 private:
  // A node goes when it is removed or a node that holds its graph, at any depth, is.
  bool goes(const Node* node) const {
    for (; node != nullptr; node = node->graph() != nullptr ? node->graph()->owner() : nullptr) {
      if (removed_.contains(node)) return true;
    }
    return false;
  }
  bool goes(const Graph* graph) const { return graph != nullptr && goes(graph->owner()); }

  std::unordered_set<const Node*> removed_;
};

class DeadCodePass final : public passes_internal::RecordingGraphPass {
 public:
  std::string_view name() const override { return "dead-code"; }
  std::string_view summary() const override {
    return "remove nodes, initializers, functions and opset imports no output depends on";
  }
  Preserves preserves() const override { return Preserves::kNodeOrder | Preserves::kInferredTypes; }

 protected:
  void started() override {
    removals_ = {};
    changed_.clear();
  }

  // The graphs are recorded innermost first, so that a node read only from a graph the run
  // empties goes too (`removals_` spans the model), then applied in one step.
  Result<PassResult> recordGraph(Model& model, Graph& graph, const GraphScope&,
                                 PassContext& context,
                                 passes_internal::PassPatches& patches) override {
    PassResult result;
    result.nodes_removed =
        recordDeadNodes(graph, context.aggressive, context.callees(model), removals_, patches);
    bool bound_by_training = &graph == model.graph && !model.training_info.empty();
    if (!bound_by_training) {
      result.entries_changed = recordUnusedInitializers(graph, removals_, patches);
    }
    if (result.changed()) changed_.push_back(&graph);
    return result;
  }

  Status committed(Model& model, PassContext&, PassResult& result) override {
    // The declarations of removed values are not written, but the printer and readers of
    // the list still see them until the graph compacts.
    for (Graph* graph : changed_) graph->compact();
    result.entries_changed += passes_internal::removeUncalledFunctions(model);
    result.entries_changed += removeUnusedImports(model);
    return Status::ok();
  }

 private:
  static size_t recordDeadNodes(Graph& graph, bool aggressive, const CalleeResolver& callees,
                                Removals& removals, passes_internal::PassPatches& patches) {
    // Last node first, so that in a sorted graph a node's readers go before it is looked at;
    // a removed node puts its producers back on the list, so any order converges.
    std::vector<Node*> work(graph.nodes().begin(), graph.nodes().end());
    size_t removed = 0;
    while (!work.empty()) {
      Node* node = work.back();
      work.pop_back();
      if (removals.contains(node) || removals.read(*node)) continue;
      if (!aggressive && !isKnownOperator(*node, callees)) continue;
      auto reconsider = [&](const Value* read) {
        if (read->producer() != nullptr && read->graph() == &graph) {
          work.push_back(read->producer());
        }
      };
      for (size_t i = 0; i < node->inputCount(); ++i) {
        if (const Value* input = node->input(i)) reconsider(input);
      }
      forEachNestedRead(*node, reconsider);
      removals.add(node);
      patches.of(graph).removeNode(node);
      ++removed;
    }
    return removed;
  }

  static size_t recordUnusedInitializers(Graph& graph, const Removals& removals,
                                         passes_internal::PassPatches& patches) {
    size_t removed = 0;
    auto consider = [&](const Tensor* tensor) {
      if (tensor == nullptr) return;
      Value* value = graph.lookup(tensor->nameOrEmpty());
      if (value != nullptr && value->graph() == &graph && !value->isGraphInput() &&
          !removals.read(*value)) {
        patches.of(graph).removeInitializer(value);
        ++removed;
      }
    };
    for (const Tensor* tensor : graph.initializers) consider(tensor);
    for (const SparseTensor* sparse : graph.sparse_initializers) consider(sparse->values);
    return removed;
  }

  static size_t removeUnusedImports(Model& model) {
    std::unordered_set<std::string> used;
    auto use = [&used](std::string_view domain) {
      used.insert(std::string(canonicalDomain(domain)));
    };
    forEachGraph(model, [&](Graph& graph) {
      for (const Node* node : graph.nodes()) use(node->domainOrDefault());
    });
    for (const Function* function : model.functions) {
      use(function->domainOrEmpty());
      for (const OperatorSetId& import : function->opset_import) {
        use(import.domain.value_or(std::string_view()));
      }
    }
    std::vector<std::string> unused;
    for (const OperatorSetId& import : model.opset_import) {
      std::string_view domain = canonicalDomain(import.domain.value_or(std::string_view()));
      if (!domain.empty() && !used.contains(std::string(domain))) {
        unused.emplace_back(import.domain.value_or(std::string_view()));
      }
    }
    size_t removed = 0;
    for (const std::string& domain : unused) removed += model.removeOpset(domain) ? 1 : 0;
    return removed;
  }

  Removals removals_;            // of this run, across its graphs
  std::vector<Graph*> changed_;  // the graphs this run removes from
};

}  // namespace

std::unique_ptr<Pass> makeDeadCodePass() { return std::make_unique<DeadCodePass>(); }

}  // namespace onyx
