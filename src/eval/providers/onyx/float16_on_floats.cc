// onyx's kernel for float16 nodes of operators whose float kernels are fast (pooling, matrix
// products, normalization, resizing, elementwise arithmetic and activations): run on floats,
// rounded where the value leaves such nodes (kernels/halves_as_floats.h). The operator's float16
// path would compute the same elements one by one with conversions at every read and write.
// Declines a node with no float16 input (the built-in kernel runs).
#include <array>
#include <string_view>
#include <vector>

#include "eval/kernels/halves_as_floats.h"
#include "eval/layout/channels_last_kernels.h"
#include "eval/providers/provider.h"
#include "onyx/ir/constant_value.h"
#include "onyx/ir/node.h"
#include "onyx/ir/opset_imports.h"

namespace onyx::eval_internal {

namespace {

// Besides the elementwise operators that keep their input's element type (a trait of their
// schemas), the operators whose outputs are float16 exactly when their inputs are and whose
// float kernels are what a float16 model spends its time in. No trait says which those are.
constexpr std::array<std::string_view, 13> kOperators = {"Softmax",
                                                         "MatMul",
                                                         "Gemm",
                                                         "MaxPool",
                                                         "AveragePool",
                                                         "GlobalAveragePool",
                                                         "GlobalMaxPool",
                                                         "Resize",
                                                         "LayerNormalization",
                                                         "BatchNormalization",
                                                         "InstanceNormalization",
                                                         "ReduceMean",
                                                         "Concat"};

class HalvesAsFloats final : public ProvidedKernel {
 public:
  explicit HalvesAsFloats(std::vector<bool> constant) : constants_(std::move(constant)) {}

  Result<bool> run(KernelContext& ctx) override {
    // Most calls are a float model's: declined before anything is allocated.
    if (!hasHalfInput(ctx)) return false;
    ONYX_RETURN_IF_ERROR(runOnFloats(ctx, &constants_));
    return true;
  }
  FormSet forms() const override { return kFloatForHalf; }
  std::unique_ptr<ProvidedKernel> fresh() const override {
    return std::make_unique<HalvesAsFloats>(constants_.constant());
  }

 private:
  WidenedConstants constants_;  // weights widened once
};

std::unique_ptr<ProvidedKernel> halvesAsFloats(const Node& node, InitializerInputs inputs) {
  // Inputs an input of the graph cannot override (initializers, Constant nodes' tensors).
  std::vector<bool> constant;
  for (size_t i = 0; i < node.inputCount(); ++i) {
    constant.push_back(node.input(i) != nullptr &&
                       constantTensor(node.input(i), inputs) != nullptr);
  }
  return std::make_unique<HalvesAsFloats>(std::move(constant));
}

}  // namespace

std::unique_ptr<ProvidedKernel> onyxHalvesAsFloats(const Node& node, const OpSchema& schema,
                                                   InitializerInputs inputs) {
  if (schema.kernel == nullptr) return nullptr;
  if (elementwiseKeepingType(schema) && isStandardOperator(node, node.opType())) {
    return halvesAsFloats(node, inputs);
  }
  for (std::string_view op : kOperators) {
    if (isStandardOperator(node, op)) return halvesAsFloats(node, inputs);
  }
  return nullptr;
}

}  // namespace onyx::eval_internal
