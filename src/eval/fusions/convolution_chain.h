// Internal to the evaluator: a float 1-D or 2-D Conv and what a convolution network puts after it,
// run as one oneDNN convolution (fused_convolution.h).
//
// The chain starts at a Conv; then each node that alone reads the chain's end is offered to
// the epilogues of convolutionEpilogues() in order, and the first that absorbs it extends
// the chain: a BatchNormalization folded into the weights and bias, a residual Add,
// activations. The epilogues are the chain's parts, not fusions of their own: a new one is a
// file in this folder and a line in the chain's list (the end of convolution_chain.cc).
#pragma once

#include <initializer_list>
#include <span>
#include <vector>

#include "eval/fusions/fusion_pattern.h"
#include "eval/kernels/fused_convolution.h"

namespace onyx::eval_internal {

struct ConvolutionChain {
  const Node* conv = nullptr;
  std::vector<const Node*> members;  // in the order they would run alone
  /// A Transpose from channels-last (perm 0,3,1,2) whose result only the Conv reads, as
  /// tf2onnx writes around each convolution: the Conv reads its input (`x`) as it is.
  const Node* input_transpose = nullptr;
  const Value* x = nullptr;
  bool weights_constant = false;  // the same weights on every run
  /// Folded into the Conv's weights and bias (only right after the Conv).
  const Node* batch_norm = nullptr;
  /// Added to the result before the activations (at most one).
  const Value* residual = nullptr;
  std::vector<ConvolutionActivation> activations;
  /// Whether a Transpose to channels-last (perm 0,2,3,1) follows: the chain then ends with
  /// an (N, H, W, C) tensor, which the convolution writes as it is, and a residual or
  /// activation after it is in that layout too.
  bool output_transposed = false;
  /// The value the chain ends with so far.
  const Value* end = nullptr;

  /// Whether nothing has been absorbed after the Conv yet.
  bool bare() const { return end == conv->output(0); }
};

class ConvolutionEpilogue {
 public:
  virtual ~ConvolutionEpilogue() = default;
  /// Extends `chain` with `next` (which alone reads chain.end), or leaves it as it is and
  /// returns false. Whatever `next` needs at run time but the chain cannot say beforehand
  /// (shapes) is checked when it runs, which declines a call it cannot do.
  virtual bool absorb(const Node& next, ConvolutionChain& chain,
                      const FusionGraph& graph) const = 0;
  /// Extends `chain` with several nodes that together read chain.end more than once (an
  /// activation exporters spell out, x * clip(x + 3, 0, 6) / 6), returning them in the order
  /// they would run alone; empty when it leaves the chain as it is. Offered when no node
  /// alone reads chain.end.
  virtual std::vector<const Node*> absorbSpelled(ConvolutionChain& chain,
                                                 const FusionGraph& graph) const {
    (void)chain;
    (void)graph;
    return {};
  }
};

/// The epilogues, in the order they are offered a node (convolution_chain.cc).
std::span<const ConvolutionEpilogue* const> convolutionEpilogues();

/// Whether `node` is a Conv of the default domain with its input, weights and one output.
bool fusibleConv(const Node& node);

/// Whether `node` has a first input and one output.
bool singleInOut(const Node& node);

/// Whether `node` is a Transpose with this `perm` (given, not the default reversal).
bool isTranspose(const Node& node, std::initializer_list<int64_t> perm);

}  // namespace onyx::eval_internal
