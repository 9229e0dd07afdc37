// `standard-fusions`: the fusions whose result is still standard ONNX, as rules of the
// pattern rewriter (fusion_rules.h): BatchNormalization, and Add, Sub or Mul by a constant per
// channel, into the weights and bias of a Conv, ConvTranspose or Gemm; MatMul + Add → Gemm.
// One pass, so that one walk folds a whole Conv → BatchNormalization → Mul → Add chain.
#include "onyx/passes/pattern.h"
#include "onyx/passes/standard_passes.h"
#include "passes/fusions/fusion_rules.h"

namespace onyx {

std::unique_ptr<Pass> makeStandardFusionsPass() {
  RuleSet rules;
  for (auto* make :
       {passes_internal::batchNormIntoWeightsRules, passes_internal::constantIntoWeightsRules,
        passes_internal::matmulAddToGemmRules}) {
    for (RewriteRule& rule : make()) {
      // The rules are the code's own: a malformed one is a bug the tests catch.
      Status added = rules.add(std::move(rule));
      (void)added;
    }
  }
  return makeRewritePass("standard-fusions",
                         "fold BatchNormalization and per-channel Add, Sub and Mul by constants "
                         "into Conv, ConvTranspose and Gemm weights; MatMul + Add into Gemm",
                         std::move(rules));
}

}  // namespace onyx
