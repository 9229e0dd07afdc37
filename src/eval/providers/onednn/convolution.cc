// oneDNN's kernel for a float Conv alone: its convolution primitive (fused_convolution.h),
// which keeps the reordered weights between runs. Other ranks and types it declines.
#include "eval/kernels/fused_convolution.h"
#include "eval/providers/provider.h"
#include "onyx/ir/constant_value.h"
#include "onyx/ir/node.h"
#include "ops/nn/conv_kernels.h"

namespace onyx::eval_internal {

namespace {

class OnednnConvolution final : public ProvidedKernel {
 public:
  explicit OnednnConvolution(bool weights_constant) : weights_constant_(weights_constant) {}

  Result<bool> run(KernelContext& ctx) override {
    const Array* x = ctx.inputArray(0);
    const Array* w = ctx.inputArray(1);
    const Array* b = ctx.inputArray(2);
    if (x == nullptr || w == nullptr || (ctx.hasInput(2) && b == nullptr) ||
        (x->type() != ElementType::kFloat && x->type() != ElementType::kFloat16) ||
        x->rank() != 4 || w->rank() != 4) {
      return false;
    }
    Result<ops::nn::ConvShape> shape = ops::nn::convShape(ctx, x->shape(), w->shape());
    if (!shape) return false;
    FusedConvolutionCall call{.shape = &*shape,
                              .x = x,
                              .weights = w,
                              .weights_fixed = weights_constant_,
                              .bias = b,
                              .threads = ctx.threads(),
                              .ctx = &ctx};
    return tookResult(ctx, convolution_.run(call));
  }

  std::unique_ptr<ProvidedKernel> fresh() const override {
    return std::make_unique<OnednnConvolution>(weights_constant_);
  }

 private:
  bool weights_constant_;
  FusedConvolution convolution_;
};

}  // namespace

std::unique_ptr<ProvidedKernel> onednnConvolution(const Node& node, InitializerInputs inputs) {
  if (node.inputCount() < 2 || node.input(1) == nullptr) return nullptr;
  // Weights an input cannot override (an initializer, a Constant node's) are reordered for
  // oneDNN once.
  return std::make_unique<OnednnConvolution>(constantTensor(node.input(1), inputs) != nullptr);
}

}  // namespace onyx::eval_internal
