// oneDNN's kernel for ConvInteger: its int8 convolution primitive (integer_convolution.h),
// exact where the CPU multiplies bytes without saturating (VNNI, AMX); elsewhere onyx's own
// kernel with the constant weights packed once. For 1-D and 3-D convolutions it declines.
#include "eval/kernels/integer_convolution.h"
#include "eval/providers/provider.h"
#include "onyx/ir/constant_value.h"
#include "onyx/ir/node.h"
#include "ops/nn/conv_kernels.h"

namespace onyx::eval_internal {

namespace {

class OnednnConvInteger final : public ProvidedKernel {
 public:
  explicit OnednnConvInteger(bool weights_constant) : weights_constant_(weights_constant) {}

  Result<bool> run(KernelContext& ctx) override {
    const Array* x = ctx.inputArray(0);
    const Array* w = ctx.inputArray(1);
    if (x == nullptr || w == nullptr || x->rank() != 4 || w->rank() != 4 ||
        (ctx.hasInput(2) && ctx.inputArray(2) == nullptr) ||
        (ctx.hasInput(3) && ctx.inputArray(3) == nullptr)) {
      return false;
    }
    Result<ops::nn::ConvShape> shape = ops::nn::convShape(ctx, x->shape(), w->shape());
    if (!shape) return false;
    IntegerConvolutionCall call{.shape = &*shape,
                                .x = x,
                                .x_zero = ctx.inputArray(2),
                                .weights = w,
                                .weights_fixed = weights_constant_,
                                .w_zero = ctx.inputArray(3),
                                .threads = ctx.threads(),
                                .tier = ctx.cpuTier(),
                                .ctx = &ctx};
    return tookResult(ctx, convolution_.run(call));
  }

  std::unique_ptr<ProvidedKernel> fresh() const override {
    return std::make_unique<OnednnConvInteger>(weights_constant_);
  }

 private:
  bool weights_constant_;
  IntegerConvolution convolution_;
};

}  // namespace

std::unique_ptr<ProvidedKernel> onednnConvInteger(const Node& node, InitializerInputs inputs) {
  if (node.inputCount() < 2 || node.input(1) == nullptr) return nullptr;
  // Weights an input cannot override (an initializer, a Constant node's) are prepared for
  // oneDNN once.
  return std::make_unique<OnednnConvInteger>(constantTensor(node.input(1), inputs) != nullptr);
}

}  // namespace onyx::eval_internal
