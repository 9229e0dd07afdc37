// onyx's kernel for float16 nodes of operators whose float kernels are fast (pooling, matrix
// products, normalization, resizing, elementwise arithmetic and activations): the float16
// inputs widened to float, the operator's own kernel run on them, each float output rounded
// to float16 once, as onnxruntime runs float16 on CPUs. The operator's float16 path would
// compute the same elements one by one with conversions at every read and write. Declines a
// node with no float16 input (the built-in kernel runs).
#include <array>
#include <string_view>
#include <vector>

#include "eval/providers/provider.h"
#include "onyx/ir/node.h"
#include "onyx/ir/opset_imports.h"
#include "ops/lib/float_casts.h"

namespace onyx::eval_internal {

namespace {

// The operators whose outputs are float16 exactly when their (float16) inputs are, and whose
// float kernels are what a float16 model spends its time in besides convolutions.
constexpr std::array<std::string_view, 29> kOperators = {"Add",
                                                         "Sub",
                                                         "Mul",
                                                         "Div",
                                                         "Relu",
                                                         "Sigmoid",
                                                         "Tanh",
                                                         "Erf",
                                                         "Gelu",
                                                         "Sqrt",
                                                         "Pow",
                                                         "Softmax",
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
                                                         "HardSigmoid",
                                                         "HardSwish",
                                                         "LeakyRelu",
                                                         "Clip",
                                                         "Concat",
                                                         "Where"};

class HalvesAsFloats final : public ProvidedKernel {
 public:
  Result<bool> run(KernelContext& ctx) override {
    // Most calls are a float model's: declined before anything is allocated.
    bool has_half = false;
    for (const EvalValue* input : ctx.inputs_) {
      has_half |= input != nullptr && input->isTensor() &&
                  input->tensor.type() == ElementType::kFloat16;
    }
    if (!has_half) return false;
    std::vector<EvalValue> widened;
    widened.reserve(ctx.inputs_.size());
    std::vector<const EvalValue*> given = ctx.inputs_;
    for (size_t i = 0; i < ctx.inputs_.size(); ++i) {
      const EvalValue* input = ctx.inputs_[i];
      if (input == nullptr || !input->isTensor() || input->tensor.type() != ElementType::kFloat16) {
        continue;
      }
      Array wide(ElementType::kFloat, input->tensor.shape());
      ops::cast::halvesToFloats(input->tensor.data<uint16_t>(), wide.size(), wide.data<float>());
      widened.push_back(EvalValue::of(std::move(wide)));
      ctx.inputs_[i] = &widened.back();
    }
    Status status = ctx.schema().kernel(ctx);
    ctx.inputs_ = std::move(given);
    ONYX_RETURN_IF_ERROR(status);
    for (EvalValue& output : ctx.outputs_) {
      if (!output.isTensor() || output.tensor.type() != ElementType::kFloat) continue;
      Array half(ElementType::kFloat16, output.tensor.shape());
      ops::cast::floatsToHalves(output.tensor.data<float>(), half.size(), half.data<uint16_t>());
      output = EvalValue::of(std::move(half));
    }
    return true;
  }
};

}  // namespace

std::unique_ptr<ProvidedKernel> onyxHalvesAsFloats(const Node& node, const OpSchema& schema) {
  if (schema.kernel == nullptr) return nullptr;
  for (std::string_view op : kOperators) {
    if (isStandardOperator(node, op)) return std::make_unique<HalvesAsFloats>();
  }
  return nullptr;
}

}  // namespace onyx::eval_internal
