// `initializers-not-inputs`: what onnxruntime's remove_initializer_from_input.py does, as a
// pass. An initializer that is also a graph input is a default the caller may override (from
// IR 4 on), so inference, folding and the evaluator's plan must not read its values; an
// exporter that lists every initializer as an input (PyTorch's keep_initializers_as_inputs,
// every model before IR 4) thereby hides all its weights and shape operands. This pass takes
// each such input out of its graph's inputs, leaving the initializer: the main graph's, and
// the ones a nested body lists after the inputs its operator passes (Graph::passedInputCount).
//
// It changes the model's interface on purpose, so it is not in the default list. A model
// before IR 4 must list every initializer as an input; it is raised to IR 4, which is the
// same model without that rule, so that the result stays valid.
#include <vector>

#include "onyx/passes/standard_passes.h"
#include "passes/pass_patches.h"

namespace onyx {

namespace {

// The first IR version whose initializers need not be graph inputs.
constexpr int64_t kInitializersApartIrVersion = 4;

class InitializersNotInputsPass final : public passes_internal::RecordingGraphPass {
 public:
  std::string_view name() const override { return "initializers-not-inputs"; }
  std::string_view summary() const override {
    return "take the initializers out of the graph inputs, so that they are constants (a "
           "model before IR 4 becomes IR 4)";
  }
  Preserves preserves() const override {
    return Preserves::kNodeOrder | Preserves::kFunctionsAndImports;
  }

 protected:
  Status committed(Model& model, PassContext&, PassResult& result) override {
    if (result.changed() &&
        model.ir_version.value_or(kInitializersApartIrVersion) < kInitializersApartIrVersion) {
      model.ir_version = kInitializersApartIrVersion;
      ++result.entries_changed;
    }
    return Status::ok();
  }

  Result<PassResult> recordGraph(Model&, Graph& graph, const GraphScope&, PassContext&,
                                 passes_internal::PassPatches& patches) override {
    PassResult result;
    for (const ValueInfo* input : graph.inputs) {
      if (input != nullptr && input->value != nullptr && input->value->isInitializer()) {
        patches.of(graph).removeGraphInput(input->value);
        ++result.entries_changed;
      }
    }
    return result;
  }
};

}  // namespace

std::unique_ptr<Pass> makeInitializersNotInputsPass() {
  return std::make_unique<InitializersNotInputsPass>();
}

}  // namespace onyx
