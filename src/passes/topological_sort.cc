// `topological-sort`: topologicalSort (onyx/ir/topo_sort.h) as a pass. A model already in
// order is left exactly as it was; a cycle is an error and changes nothing.
#include <vector>

#include "onyx/ir/topo_sort.h"
#include "onyx/ir/walk.h"
#include "onyx/passes/standard_passes.h"

namespace onyx {

namespace {

// Every node list of the model, concatenated: what the sort may reorder.
std::vector<const Node*> nodeOrder(const Model& model) {
  std::vector<const Node*> order;
  forEachGraph(model, [&order](Graph& graph) {
    for (const Node* node : graph.nodes()) order.push_back(node);
  });
  return order;
}

class TopologicalSortPass final : public Pass {
 public:
  std::string_view name() const override { return "topological-sort"; }
  std::string_view summary() const override {
    return "put every node list in topological order, keeping file order where it can";
  }
  Preserves preserves() const override {
    return Preserves::kInferredTypes | Preserves::kFunctionsAndImports;
  }

  Result<PassResult> run(Model& model, PassContext&) override {
    std::vector<const Node*> before = nodeOrder(model);
    if (Status sorted = topologicalSort(model); !sorted) return sorted;
    std::vector<const Node*> after = nodeOrder(model);
    PassResult result;
    for (size_t i = 0; i < before.size() && i < after.size(); ++i) {
      if (before[i] != after[i]) ++result.nodes_rewritten;  // moved
    }
    return result;
  }
};

}  // namespace

std::unique_ptr<Pass> makeTopologicalSortPass() { return std::make_unique<TopologicalSortPass>(); }

}  // namespace onyx
