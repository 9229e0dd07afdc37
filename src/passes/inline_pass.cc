// `inline`: inlineAllFunctions (onyx/passes/inline_functions.h) as a pass: calls of
// model-local functions replaced by their bodies, and the functions no longer called
// removed. Function-operators (Softmax, LayerNormalization, ...) stay: runtimes have kernels
// for them, and their bodies are larger.
#include "onyx/passes/inline_functions.h"
#include "onyx/passes/standard_passes.h"

namespace onyx {

namespace {

class InlinePass final : public Pass {
 public:
  std::string_view name() const override { return "inline"; }
  std::string_view summary() const override {
    return "replace calls of model-local functions by their bodies";
  }
  // The calls and the functions inlined go, new nodes come (with no inferred types), and
  // imports are added.
  Preserves preserves() const override { return Preserves::kNothing; }

  Result<PassResult> run(Model& model, PassContext&) override {
    PassResult result;
    if (model.functions.empty()) return result;
    Result<InlineReport> report = inlineAllFunctions(model);
    if (!report) return report.status();
    result.nodes_rewritten = report->function_calls;
    result.entries_changed = report->functions_removed;
    return result;
  }
};

}  // namespace

std::unique_ptr<Pass> makeInlinePass() { return std::make_unique<InlinePass>(); }

}  // namespace onyx
