// BatchNormalization into the Conv, ConvTranspose or Gemm before it:
//   y = BatchNormalization(Conv(x, W, b), gamma, beta, mean, var)
//   → y = Conv(x, W * s, (b - mean) * s + beta), s = gamma / sqrt(var + epsilon)
// per output channel, when the normalization is in inference mode with constant parameters
// (ops/nn/batch_norm_folding.h decides, as the evaluator's plan-time fusion does) and the
// weights (and bias, if any) are constant float or double tensors. After a MatMul of a 2-D
// input by a constant 2-D matrix, the two become one Gemm with the folded matrix and bias
// (as onnxruntime's MatMul + BatchNormalization fusion does).
#include "onyx/ir/tensor_array.h"
#include "passes/fusions/channel_fold.h"
#include "passes/fusions/fusion_rules.h"

namespace onyx::passes_internal {

namespace {

// The per-channel map `bn` computes: null when it cannot be known.
std::optional<ops::nn::ChannelAffine> affineOf(const Node& bn, const Channels& channels,
                                               const MatchContext& context) {
  std::vector<Array> parameters;
  for (size_t i = 1; i < 5; ++i) {
    Result<Array> array = arrayFromTensor(*context.constantOf(bn.input(i)));
    if (!array) return std::nullopt;
    parameters.push_back(std::move(*array));
  }
  double epsilon = bn.floatAttr("epsilon").value_or(1e-5f);
  return ops::nn::batchNormAffine(parameters[0], parameters[1], parameters[2], parameters[3],
                                  epsilon, channels.count);
}

bool foldable(const Node& bn, const MatchContext& context) {
  return ops::nn::isFoldableBatchNorm(
      bn, [&context](const Value* value) { return context.constantOf(value) != nullptr; });
}

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
    return foldable(*match.node(batch_norm), match.context());
  };
  rule.rewrite = [weighted, batch_norm](const Match& match,
                                        RewriteBuilder& builder) -> std::vector<Value*> {
    Node& node = *match.node(weighted);
    std::optional<Channels> channels = channelsOf(node, node.input(1), match.context());
    if (!channels) return {};
    std::optional<ops::nn::ChannelAffine> affine =
        affineOf(*match.node(batch_norm), *channels, match.context());
    if (!affine || !foldChannels(node, builder, match.context(), affine->scale, affine->shift)) {
      return {};
    }
    return {node.output(0)};
  };
  return rule;
}

RewriteRule batchNormIntoMatMul() {
  Pattern pattern;
  PatternValue a = pattern.var("a").rank(2);
  PatternValue b = pattern.var("b").constant().rank(2);
  PatternNode product = pattern.op("MatMul", {a, b});
  PatternNode batch_norm =
      pattern
          .op("BatchNormalization", {product, pattern.var("gamma"), pattern.var("beta"),
                                     pattern.var("mean"), pattern.var("var")})
          .anyOtherAttributes();
  RewriteRule rule;
  rule.name = "batch-norm-into-MatMul";
  rule.pattern = std::move(pattern);
  rule.check = [batch_norm](const Match& match) {
    return match.context().opset() >= 7 && foldable(*match.node(batch_norm), match.context());
  };
  rule.rewrite = [a, b, product, batch_norm](const Match& match,
                                             RewriteBuilder& builder) -> std::vector<Value*> {
    // The MatMul's B, folded, is a Gemm's weights.
    Node& matmul = *match.node(product);
    std::optional<Channels> channels = channelsOf(matmul, match.value(b), match.context());
    if (!channels) return {};
    std::optional<ops::nn::ChannelAffine> affine =
        affineOf(*match.node(batch_norm), *channels, match.context());
    if (!affine) return {};
    std::optional<WeightedInputs> folded = foldedInputs(
        matmul, {match.value(b), nullptr}, builder, match.context(), affine->scale, affine->shift);
    if (!folded) return {};
    return {builder.add("Gemm", {match.value(a), folded->weights, folded->bias}).output(0)};
  };
  return rule;
}

}  // namespace

std::vector<RewriteRule> batchNormIntoWeightsRules() {
  std::vector<RewriteRule> rules;
  for (std::string_view op : kWeightedOperators) rules.push_back(batchNormInto(op));
  rules.push_back(batchNormIntoMatMul());
  return rules;
}

}  // namespace onyx::passes_internal
