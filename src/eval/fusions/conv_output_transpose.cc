// A Transpose of the convolution's result to channels-last (perm 0,2,3,1), as tf2onnx writes
// after each convolution of an NHWC model: oneDNN writes that layout directly.
#include "eval/fusions/convolution_chain.h"
#include "onyx/ir/node.h"

namespace onyx::eval_internal {

namespace {

class ConvOutputTransposeEpilogue final : public ConvolutionEpilogue {
 public:
  bool absorb(const Node& next, ConvolutionChain& chain, const FusionGraph& graph) const override {
    (void)graph;
    // A residual added before would be in the other layout than the result.
    if (chain.output_transposed || chain.residual != nullptr || next.input(0) != chain.end ||
        !isTranspose(next, {0, 2, 3, 1})) {
      return false;
    }
    chain.output_transposed = true;
    return true;
  }
};

}  // namespace

const ConvolutionEpilogue& convOutputTransposeEpilogue() {
  return soleInstance<ConvOutputTransposeEpilogue>();
}

}  // namespace onyx::eval_internal
