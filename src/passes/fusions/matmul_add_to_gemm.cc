// MatMul then Add of a bias, as one Gemm:
//   Add(MatMul(a, B), c) → Gemm(a, B, c)
// where exact: a is 2-D (a MatMul of higher rank batches, a 1-D one promotes, neither of
// which Gemm does), B a constant 2-D matrix, c broadcasts to the (M, N) result without
// growing it (shape (N), (1, N), (M, N), (M, 1), (1) or a scalar), float, double or float16,
// and the default domain imported at 7 or later (Gemm's C broadcasts from 7). The Add
// matches either order.
#include "onyx/ir/tensor_array.h"
#include "passes/fusions/fusion_rules.h"

namespace onyx::passes_internal {

namespace {

// Whether a dim of c fits a dim of the (M, N) result: 1, or the same dim.
bool fits(const Dimension& bias, const Dimension& result) {
  return (bias.isKnown() && *bias.dim_value == 1) || MatchContext::sameDim(bias, result);
}

}  // namespace

std::vector<RewriteRule> matmulAddToGemmRules() {
  Pattern pattern;
  PatternValue a = pattern.var("a").rank(2);
  PatternValue b = pattern.var("b").constant().rank(2);
  PatternValue c = pattern.var("c");
  PatternNode matmul = pattern.op("MatMul", {a, b});
  pattern.op("Add", {matmul, c});
  RewriteRule rule;
  rule.name = "matmul-add-to-gemm";
  rule.pattern = std::move(pattern);
  rule.check = [a, c, matmul](const Match& match) {
    const MatchContext& context = match.context();
    if (context.opset() < 7) return false;
    std::optional<int32_t> type = context.elemTypeOf(*match.value(a));
    if (type != static_cast<int32_t>(ElementType::kFloat) &&
        type != static_cast<int32_t>(ElementType::kDouble) &&
        type != static_cast<int32_t>(ElementType::kFloat16)) {
      return false;
    }
    std::optional<std::vector<Dimension>> result = context.dimsOf(*match.node(matmul)->output(0));
    std::optional<std::vector<Dimension>> bias = context.dimsOf(*match.value(c));
    if (!result || !bias || result->size() != 2 || bias->size() > 2) return false;
    size_t offset = 2 - bias->size();
    for (size_t d = 0; d < bias->size(); ++d) {
      if (!fits((*bias)[d], (*result)[d + offset])) return false;
    }
    return true;
  };
  rule.rewrite = [a, b, c, matmul](const Match& match,
                                   RewriteBuilder& builder) -> std::vector<Value*> {
    Node& gemm = builder.add("Gemm", {match.value(a), match.value(b), match.value(c)});
    if (match.node(matmul)->name)
      gemm.name = builder.editor().arena().copy(match.node(matmul)->nameOrEmpty());
    return {gemm.output(0)};
  };
  std::vector<RewriteRule> rules;
  rules.push_back(std::move(rule));
  return rules;
}

}  // namespace onyx::passes_internal
