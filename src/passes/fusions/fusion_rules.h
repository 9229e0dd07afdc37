// Internal: the rules of `standard-fusions`, one file each (the pass is standard_fusions.cc).
// Every fusion gives a model that stays standard ONNX and computes the same up to float
// rounding; docs/passes.md says where each applies.
#pragma once

#include <vector>

#include "onyx/passes/pattern.h"

namespace onyx::passes_internal {

/// BatchNormalization in inference mode after a Conv, ConvTranspose or Gemm with constant
/// weights: folded into the weights and bias.
std::vector<RewriteRule> batchNormIntoWeightsRules();
/// Add, Sub or Mul of a constant per output channel after a Conv, ConvTranspose or Gemm:
/// into the bias (Add, Sub) or the weights and bias (Mul).
std::vector<RewriteRule> constantIntoWeightsRules();
/// MatMul of a 2-D input by a constant 2-D matrix, then Add of a bias broadcast to its
/// result: one Gemm.
std::vector<RewriteRule> matmulAddToGemmRules();

}  // namespace onyx::passes_internal
