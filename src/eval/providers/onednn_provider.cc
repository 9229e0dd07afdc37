// oneDNN as a provider: a float Conv alone through its convolution primitive
// (fused_convolution.h), which keeps the reordered weights between runs, and the convolution
// chain (fusions/convolution_chain.h), a Conv with what follows it as one primitive. What it
// declines (other ranks and types) the built-in kernel runs.
#include "eval/engine/plan.h"
#include "eval/fusions/fusion_pattern.h"
#include "eval/kernels/fused_convolution.h"
#include "eval/providers/provider.h"
#include "onyx/ir/node.h"
#include "onyx/ir/opset_imports.h"
#include "ops/nn/conv_kernels.h"

namespace onyx::eval_internal {

extern const FusionPattern& convolutionChainPattern();

namespace {

class OnednnConvolution final : public ProvidedKernel {
 public:
  explicit OnednnConvolution(bool weights_constant) : weights_constant_(weights_constant) {}

  Result<bool> run(KernelContext& ctx) override {
    const Array* x = ctx.inputArray(0);
    const Array* w = ctx.inputArray(1);
    const Array* b = ctx.inputArray(2);
    if (x == nullptr || w == nullptr || (ctx.hasInput(2) && b == nullptr) ||
        x->type() != ElementType::kFloat || x->rank() != 4 || w->rank() != 4) {
      return false;
    }
    Result<ops::nn::ConvShape> shape = ops::nn::convShape(ctx, x->shape(), w->shape());
    if (!shape) return false;
    FusedConvolutionCall call{.shape = &*shape,
                              .x = x,
                              .weights = w,
                              .weights_fixed = weights_constant_,
                              .bias = b,
                              .threads = ctx.threads()};
    Result<std::optional<Array>> result = convolution_.run(call);
    if (!result) return result.status();
    if (!*result) return false;
    ctx.setOutput(0, std::move(**result));
    return true;
  }

 private:
  bool weights_constant_;
  FusedConvolution convolution_;
};

class OnednnProvider final : public Provider {
 public:
  std::string_view name() const override { return "oneDNN"; }
  std::unique_ptr<ProvidedKernel> kernel(const Node& node, const OpSchema& schema,
                                         int64_t opset) const override {
    (void)schema;
    (void)opset;
    if (node.opType() != "Conv" || !canonicalDomain(node.domainOrDefault()).empty() ||
        node.inputCount() < 2 || node.input(1) == nullptr) {
      return nullptr;
    }
    // Weights an input cannot override are reordered for oneDNN once.
    return std::make_unique<OnednnConvolution>(fixedInitializer(node.input(1)) != nullptr);
  }

  std::span<const FusionPattern* const> fusions() const override {
    static const FusionPattern* const kFusions[] = {&convolutionChainPattern()};
    return kFusions;
  }
};

}  // namespace

const Provider& onednnProvider() { return soleInstance<OnednnProvider>(); }

}  // namespace onyx::eval_internal
