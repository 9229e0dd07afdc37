// A BatchNormalization right after a Conv, in inference mode with constant statistics,
// folded into the convolution's weights and bias (as onnxruntime folds it when it makes a
// session).
#include "eval/fusions/convolution_chain.h"
#include "onyx/ir/node.h"
#include "ops/nn/batch_norm_folding.h"

namespace onyx::eval_internal {

namespace {

class ConvBatchNormEpilogue final : public ConvolutionEpilogue {
 public:
  bool absorb(const Node& next, ConvolutionChain& chain, const FusionGraph& graph) const override {
    auto constant = [&graph](const Value* value) { return graph.constant(value); };
    if (!chain.bare() || next.input(0) != chain.end || !chain.weights_constant ||
        !ops::nn::isFoldableBatchNorm(next, constant)) {
      return false;
    }
    const Node& conv = *chain.conv;
    if (conv.inputCount() > 2 && conv.input(2) != nullptr && !graph.constant(conv.input(2))) {
      return false;
    }
    chain.batch_norm = &next;
    return true;
  }
};

}  // namespace

const ConvolutionEpilogue& convBatchNormEpilogue() { return soleInstance<ConvBatchNormEpilogue>(); }

}  // namespace onyx::eval_internal
