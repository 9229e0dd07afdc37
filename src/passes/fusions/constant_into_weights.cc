// A constant per output channel added to, subtracted from or multiplied with the output of a
// Conv, ConvTranspose or Gemm, folded into its bias (and weights, for Mul):
//   Add(Conv(x, W, b), c) → Conv(x, W, b + c)
//   Sub(Conv(x, W, b), c) → Conv(x, W, b - c)
//   Mul(Conv(x, W, b), s) → Conv(x, W * s, b * s)
// where c and s broadcast along the output channel axis only (shape (M, 1, 1), (1, M, 1, 1),
// (1), ...). Add and Mul match either order. The weights need to be constant for Mul only;
// the bias, when there is one, always.
#include "onyx/ir/tensor_array.h"
#include "passes/fusions/channel_fold.h"
#include "passes/fusions/fusion_rules.h"

namespace onyx::passes_internal {

namespace {

enum class Fold { kAdd, kSub, kMul };

// The operator that applies `fold`.
std::string_view operatorOf(Fold fold) {
  switch (fold) {
    case Fold::kAdd: return "Add";
    case Fold::kSub: return "Sub";
    case Fold::kMul: return "Mul";
  }
  return {};
}

RewriteRule constantInto(std::string_view op_type, Fold fold) {
  std::string_view anchor_op = operatorOf(fold);
  Pattern pattern;
  PatternNode weighted = weightedNode(pattern, op_type);
  PatternValue constant = pattern.var("constant").constant();
  pattern.op(anchor_op, {weighted, constant});
  RewriteRule rule;
  rule.name = std::string(anchor_op) + "-into-" + std::string(op_type);
  rule.pattern = std::move(pattern);
  rule.rewrite = [weighted, constant, fold](const Match& match,
                                            RewriteBuilder& builder) -> std::vector<Value*> {
    Node& node = *match.node(weighted);
    std::optional<Channels> channels = channelsOf(node, node.input(1), match.context());
    const Tensor* tensor = match.context().constantOf(match.value(constant));
    std::vector<int64_t> dims(tensor->dims.begin(), tensor->dims.end());
    if (!channels || !broadcastsPerChannel(dims, *channels)) return {};
    Result<Array> array = arrayFromTensor(*tensor);
    if (!array) return {};
    std::optional<std::vector<double>> values = ops::nn::perChannel(*array, channels->count);
    if (!values) return {};
    bool folded = false;
    if (fold == Fold::kMul) {
      folded = foldChannels(node, builder, match.context(), *values, {});
    } else {
      if (fold == Fold::kSub) {
        for (double& value : *values) value = -value;
      }
      folded = foldChannels(node, builder, match.context(), {}, *values);
    }
    if (!folded) return {};
    return {node.output(0)};
  };
  return rule;
}

}  // namespace

std::vector<RewriteRule> constantIntoWeightsRules() {
  std::vector<RewriteRule> rules;
  for (Fold fold : {Fold::kAdd, Fold::kSub, Fold::kMul}) {
    for (std::string_view op : kWeightedOperators) rules.push_back(constantInto(op, fold));
  }
  return rules;
}

}  // namespace onyx::passes_internal
