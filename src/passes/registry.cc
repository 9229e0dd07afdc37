// The passes onyx has, one line each: the default list first, in the order it runs.
#include <string>

#include "onyx/core/quote.h"
#include "onyx/passes/pass_manager.h"
#include "onyx/passes/standard_passes.h"

namespace onyx {

namespace {

// The default list sorts first (the others assume file order is topological), moves
// constants out of the node list, turns what inference knows of shapes into constants, then
// computes what only constants feed (which includes what shape folding made constant),
// bypasses no-ops (which exposes duplicates), folds the standard fusions, merges duplicates,
// and last removes what all that left unused: the Shape chains folding bypassed and the
// weights a fusion replaced among it.
const PassInfo kPasses[] = {
    {makeTopologicalSortPass, true},
    {makeConstantToInitializerPass, true},
    {makeShapeFoldingPass, true},
    {makeConstantFoldingPass, true},
    {makeNoopPass, true},
    {makeStandardFusionsPass, true},
    {makeCommonSubexpressionPass, true},
    {makeDeadCodePass, true},
    {makeInitializerToConstantPass, false},
    {makeInitializersNotInputsPass, false},
    {makeInlinePass, false},
};

}  // namespace

std::span<const PassInfo> registeredPasses() { return kPasses; }

Result<std::unique_ptr<Pass>> makePass(std::string_view name) {
  std::string known;
  for (const PassInfo& info : kPasses) {
    std::unique_ptr<Pass> pass = info.make();
    if (pass->name() == name) return pass;
    known += (known.empty() ? "" : ", ") + std::string(pass->name());
  }
  return Status(ErrorCode::kInvalidArgument,
                "no pass named " + quoted(name) + " (passes: " + known + ")");
}

}  // namespace onyx
