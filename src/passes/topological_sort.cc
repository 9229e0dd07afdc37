// `topological-sort`: topologicalSort (onyx/ir/topo_sort.h) as a pass. A model already in
// order is left exactly as it was; a cycle is an error and changes nothing.
#include <vector>

#include "onyx/ir/topo_sort.h"
#include "onyx/passes/standard_passes.h"

namespace onyx {

namespace {

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
    size_t moved = 0;
    if (Status sorted = topologicalSort(model, nullptr, &moved); !sorted) return sorted;
    PassResult result;
    result.nodes_rewritten = moved;
    return result;
  }
};

}  // namespace

std::unique_ptr<Pass> makeTopologicalSortPass() { return std::make_unique<TopologicalSortPass>(); }

}  // namespace onyx
