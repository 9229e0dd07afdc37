// An Add of the convolution's result and another tensor of its shape (a residual
// connection), before any activation: oneDNN's sum post-operation.
#include "eval/fusions/convolution_chain.h"
#include "onyx/ir/node.h"

namespace onyx::eval_internal {

namespace {

class ConvResidualAddEpilogue final : public ConvolutionEpilogue {
 public:
  bool absorb(const Node& next, ConvolutionChain& chain, const FusionGraph& graph) const override {
    (void)graph;
    // The Adds of opsets before 7 broadcast only by attribute; those are left alone.
    if (!isStandardOperator(next, "Add") || chain.residual != nullptr ||
        !chain.activations.empty() || next.inputCount() != 2 || next.input(0) == nullptr ||
        next.input(1) == nullptr || next.outputCount() != 1 || next.output(0) == nullptr ||
        next.attribute("broadcast") != nullptr || next.attribute("axis") != nullptr) {
      return false;
    }
    const Value* other = next.input(0) == chain.end ? next.input(1) : next.input(0);
    if (other == chain.end) return false;
    chain.residual = other;
    return true;
  }
};

}  // namespace

const ConvolutionEpilogue& convResidualAddEpilogue() {
  return soleInstance<ConvResidualAddEpilogue>();
}

}  // namespace onyx::eval_internal
