// BatchNormalization into the Conv, ConvTranspose or Gemm before it:
//   y = BatchNormalization(Conv(x, W, b), gamma, beta, mean, var)
//   → y = Conv(x, W * s, (b - mean) * s + beta), s = gamma / sqrt(var + epsilon)
// per output channel, when the normalization is in inference mode with constant parameters
// (ops/nn/batch_norm_folding.h decides, as the evaluator's plan-time fusion does) and the
// weights (and bias, if any) are constant float or double tensors.
#include "onyx/ir/tensor_array.h"
#include "passes/fusions/channel_fold.h"
#include "passes/fusions/fusion_rules.h"

namespace onyx::passes_internal {

namespace {

RewriteRule batchNormInto(std::string_view op_type) {
  Pattern pattern;
  PatternNode weighted = weightedNode(pattern, op_type);
  PatternNode batch_norm =
      pattern
          .op("BatchNormalization", {weighted, pattern.var("gamma"), pattern.var("beta"),
                                     pattern.var("mean"), pattern.var("var")})
          .anyOtherAttributes();
  RewriteRule rule;
  rule.name = "batch-norm-into-" + std::string(op_type);
  rule.pattern = std::move(pattern);
  rule.check = [batch_norm](const Match& match) {
    return ops::nn::isFoldableBatchNorm(*match.node(batch_norm), [](const Value* value) {
      return MatchContext::constantOf(value) != nullptr;
    });
  };
  rule.rewrite = [weighted, batch_norm](const Match& match,
                                        RewriteBuilder& builder) -> std::vector<Value*> {
    Node& node = *match.node(weighted);
    const Node& bn = *match.node(batch_norm);
    std::optional<Channels> channels = channelsOf(node, match.context());
    if (!channels) return {};
    std::vector<Array> parameters;
    for (size_t i = 1; i < 5; ++i) {
      Result<Array> array = arrayFromTensor(*MatchContext::constantOf(bn.input(i)));
      if (!array) return {};
      parameters.push_back(std::move(*array));
    }
    double epsilon = bn.floatAttr("epsilon").value_or(1e-5f);
    std::optional<ops::nn::ChannelAffine> affine = ops::nn::batchNormAffine(
        parameters[0], parameters[1], parameters[2], parameters[3], epsilon, channels->count);
    if (!affine || !foldChannels(node, builder, match.context(), affine->scale, affine->shift)) {
      return {};
    }
    return {node.output(0)};
  };
  return rule;
}

}  // namespace

std::vector<RewriteRule> batchNormIntoWeightsRules() {
  std::vector<RewriteRule> rules;
  for (std::string_view op : kWeightedOperators) rules.push_back(batchNormInto(op));
  return rules;
}

}  // namespace onyx::passes_internal
