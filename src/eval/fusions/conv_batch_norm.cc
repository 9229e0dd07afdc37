// A BatchNormalization right after a Conv, in inference mode with constant statistics,
// folded into the convolution's weights and bias (as onnxruntime folds it when it makes a
// session).
#include "eval/fusions/convolution_chain.h"
#include "onyx/ir/attribute.h"
#include "onyx/ir/node.h"

namespace onyx::eval_internal {

namespace {

class ConvBatchNormEpilogue final : public ConvolutionEpilogue {
 public:
  bool absorb(const Node& next, ConvolutionChain& chain, const FusionGraph& graph) const override {
    if (!isOnnxOperator(next, "BatchNormalization") || !chain.bare() || next.inputCount() != 5 ||
        next.input(0) != chain.end || !chain.weights_constant) {
      return false;
    }
    // Training mode (opset 14's attribute) and the extra outputs of older opsets are left
    // to the kernel.
    const Attribute* training = next.attribute("training_mode");
    if ((training != nullptr && training->i.value_or(0) != 0) || next.outputCount() != 1 ||
        next.output(0) == nullptr) {
      return false;
    }
    const Node& conv = *chain.conv;
    if (conv.inputCount() > 2 && conv.input(2) != nullptr && !graph.constant(conv.input(2))) {
      return false;
    }
    for (size_t i = 1; i < 5; ++i) {
      if (!graph.constant(next.input(i))) return false;
    }
    chain.batch_norm = &next;
    return true;
  }
};

}  // namespace

const ConvolutionEpilogue& convBatchNormEpilogue() {
  static const ConvBatchNormEpilogue kEpilogue;
  return kEpilogue;
}

}  // namespace onyx::eval_internal
