// Internal: the edits of one run of a pass, recorded in a Patch per graph (onyx/ir/patch.h)
// and applied together at its end, so that a pass that meets an error half-way, in any graph,
// leaves the whole model as it was.
#pragma once

#include <cstddef>
#include <memory>
#include <unordered_map>
#include <vector>

#include "onyx/core/status.h"
#include "onyx/ir/model.h"
#include "onyx/ir/patch.h"
#include "onyx/passes/pass.h"

namespace onyx::passes_internal {

class PassPatches {
 public:
  PassPatches(Model& model, const PassContext& context) : model_(model), context_(context) {}
  PassPatches(const PassPatches&) = delete;
  PassPatches& operator=(const PassPatches&) = delete;

  /// The patch of `graph` (a graph of the model), made on first use. The patches are applied
  /// in the order they were first asked for.
  Patch& of(Graph& graph);

  /// Says that the edits of one more graph are recorded. The error is the test hook's
  /// (PassContext::fail_after_graphs) once that many graphs are: the caller returns it, and
  /// the patches, never applied, leave the model untouched.
  Status graphRecorded();

  /// Applies every patch, or none: the first refusal's error with every graph untouched.
  Status commit();

 private:
  Model& model_;
  const PassContext& context_;
  std::vector<std::unique_ptr<Patch>> patches_;
  std::unordered_map<const Graph*, Patch*> patch_of_;
  size_t graphs_recorded_ = 0;
};

/// A pass that works on each graph alone, as GraphPass (innermost first, each with its
/// scope), recording its edits in one PassPatches that is applied at its end: all or nothing
/// across the model. A graph's recording sees the graph as it was before the run.
class RecordingGraphPass : public Pass {
 public:
  Result<PassResult> run(Model& model, PassContext& context) final;

 protected:
  /// Called first in each run, for a pass that keeps state across the run's graphs.
  virtual void started() {}
  virtual Result<PassResult> recordGraph(Model& model, Graph& graph, const GraphScope& scope,
                                         PassContext& context, PassPatches& patches) = 0;
  /// Called once every patch is applied, for what the model holds beside its graphs (an IR
  /// version, unused functions) and edits that are one step each: counted into `result`.
  virtual Status committed(Model&, PassContext&, PassResult&) { return Status::ok(); }
};

}  // namespace onyx::passes_internal
