#include "initializer_inputs_note.h"

#include <fmt/format.h>

#include "onyx/infer/infer.h"
#include "onyx/ir/constant_value.h"

namespace onyx::tool {

std::string initializerInputsNote(const Model& model) {
  if (model.graph == nullptr || initializerInputsOf(model) == InitializerInputs::kConstant) {
    return {};
  }
  size_t listed = 0;
  for (const ValueInfo* input : model.graph->inputs) {
    if (input != nullptr && input->value != nullptr && input->value->isInitializer()) ++listed;
  }
  if (listed == 0) return {};
  InferResult inferred = inferModel(model, InferOptions{});  // a const model: nothing written
  size_t blocked = 0;
  for (const auto& [output, source] : inferred.value_dependent) {
    if (source != nullptr && source->isInitializer()) ++blocked;
  }
  bool one = listed == 1;
  std::string what =
      blocked == 0
          ? std::string(one ? "inference does not need it" : "inference needs none of them")
          : fmt::format("{} node output{} without a full shape that {} would give", blocked,
                        blocked == 1 ? " goes" : "s go", one ? "its value" : "their values");
  return fmt::format(
      "note: {} initializer{} also {}, which a caller may override (IR 4 on), so inference, "
      "constant folding and fusions do not read {}: {}; `--constant-initializers` (infer, "
      "optimize, run) takes {} as {}, `onyx optimize --passes initializers-not-inputs` takes {} "
      "out of the inputs",
      listed, one ? " is" : "s are", one ? "a graph input" : "graph inputs",
      one ? "its value" : "their values", what, one ? "it" : "them",
      one ? "a constant" : "constants", one ? "it" : "them");
}

}  // namespace onyx::tool
