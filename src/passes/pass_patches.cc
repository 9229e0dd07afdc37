#include "passes/pass_patches.h"

#include <string>

#include "onyx/ir/walk.h"

namespace onyx::passes_internal {

Patch& PassPatches::of(Graph& graph) {
  auto [found, fresh] = patch_of_.try_emplace(&graph, nullptr);
  if (fresh) {
    patches_.push_back(std::make_unique<Patch>(model_, graph));
    found->second = patches_.back().get();
  }
  return *found->second;
}

Status PassPatches::graphRecorded() {
  ++graphs_recorded_;
  if (context_.fail_after_graphs && graphs_recorded_ >= *context_.fail_after_graphs) {
    return Status(ErrorCode::kInternal, "the pass was made to fail after recording the edits of " +
                                            std::to_string(graphs_recorded_) +
                                            " graphs (PassContext::fail_after_graphs)");
  }
  return Status::ok();
}

Status PassPatches::commit() {
  std::vector<Patch*> all;
  all.reserve(patches_.size());
  for (const std::unique_ptr<Patch>& patch : patches_) all.push_back(patch.get());
  return applyAll(all);
}

Result<PassResult> RecordingGraphPass::run(Model& model, PassContext& context) {
  std::vector<Graph*> graphs;
  forEachGraph(model, [&graphs](Graph& graph) { graphs.push_back(&graph); });
  PassPatches patches(model, context);
  PassResult total;
  started();
  // Innermost first, as GraphPass: forEachGraph lists a graph before those its nodes hold.
  for (auto graph = graphs.rbegin(); graph != graphs.rend(); ++graph) {
    Result<PassResult> done =
        recordGraph(model, **graph, scopeOf(model, **graph), context, patches);
    if (!done) return done.status();
    total += *done;
    ONYX_RETURN_IF_ERROR(patches.graphRecorded());
  }
  ONYX_RETURN_IF_ERROR(patches.commit());
  ONYX_RETURN_IF_ERROR(committed(model, context, total));
  return total;
}

}  // namespace onyx::passes_internal
