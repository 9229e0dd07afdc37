// What each node costs (onyx/infer/cost.h): the operation counts of the matrix operators
// against hand-computed figures, parameters counted once, unknown shapes said so.
#include "onyx/infer/cost.h"

#include <gtest/gtest.h>

#include <string>

#include "onyx/infer/infer.h"
#include "onyx/text/parser.h"

namespace onyx {
namespace {

ModelCost costOf(const std::string& text) {
  Result<Model> model = parseText(text);
  EXPECT_TRUE(model) << model.status().toString();
  if (!model) return {};
  (void)inferModel(*model);
  return modelCost(*model);
}

TEST(Cost, MatrixOperatorsCountTwoOperationsAMultiplyAdd) {
  const ModelCost cost = costOf(R"(<ir_version: 10, opset_import: ["" : 23]>
    g (float[1, 3, 8, 8] x, float[4, 3, 3, 3] w, float[4] bias, float[2, 3] a, float[4, 3] b,
       float[2, 4] c, float[2, 3, 3] t, float[3, 3] m, float[1, 2, 5, 4] q,
       float[1, 1, 5, 4] k, float[1, 1, 5, 6] v, float[1, 5, 8] q3, float[1, 5, 4] k3,
       float[1, 5, 6] v3, float[1, 1, 3, 4] past_k, float[1, 1, 3, 6] past_v)
        => (float[1, 4, 6, 6] conv, float[2, 4] gemm, float[2, 3, 3] mm, float[1, 2, 5, 6] att,
            float[1, 5, 12] att3, float[1, 1, 8, 4] present_k, float[1, 1, 8, 6] present_v) {
      conv = Conv (x, w, bias)
      gemm = Gemm <transB = 1> (a, b, c)
      mm = MatMul (t, m)
      att = Attention (q, k, v)
      att3, present_k, present_v = Attention <q_num_heads = 2, kv_num_heads = 1, is_causal = 1>
          (q3, k3, v3, , past_k, past_v)
    })");
  ASSERT_EQ(cost.nodes.size(), 5u);
  // Conv: 144 results x 27 multiply-adds x 2, and the bias once a result.
  EXPECT_EQ(cost.nodes[0].flops, 2u * 144 * 27 + 144);
  // Gemm: 2 M N K with M 2, N 4, K 3, and C added once a result.
  EXPECT_EQ(cost.nodes[1].flops, 2u * 2 * 4 * 3 + 8);
  // MatMul: 18 results, K 3.
  EXPECT_EQ(cost.nodes[2].flops, 2u * 18 * 3);
  // Attention: batch 1, 2 query heads, 5 queries, 5 keys, head sizes 4 (K) and 6 (V).
  EXPECT_EQ(cost.nodes[3].flops, 2u * 1 * 2 * 5 * 5 * (4 + 6));
  // 3-D with a past of 3: 8 keys, 2 query heads of 8 / 2 = 4, V heads of 6.
  EXPECT_EQ(cost.nodes[4].flops, 2u * 1 * 2 * 5 * 8 * (4 + 6));
  EXPECT_EQ(cost.uncounted, 0u);
  EXPECT_EQ(cost.nodes[0].activation_bytes, 144u * 4);
  EXPECT_EQ(cost.nodes[4].activation_bytes, (60u + 32 + 48) * 4);
  EXPECT_EQ(cost.flops, 2u * 144 * 27 + 144 + 2 * 2 * 4 * 3 + 8 + 2 * 18 * 3 + 2 * 2 * 5 * 5 * 10 +
                            2 * 2 * 5 * 8 * 10);
}

TEST(Cost, ParametersCountOnceAndUnknownShapesAreSaid) {
  const ModelCost cost = costOf(R"(<ir_version: 10, opset_import: ["" : 23]>
    g (float[N, 2] x) => (float[N, 2] y, float[N, 2] z) <float[2] s = {1, 2}> {
      y = Mul (x, s)
      z = Add (y, s)
    })");
  ASSERT_EQ(cost.nodes.size(), 2u);
  EXPECT_EQ(cost.nodes[0].parameter_bytes, 8u);
  EXPECT_EQ(cost.nodes[1].parameter_bytes, 8u);
  EXPECT_EQ(cost.parameter_bytes, 8u);  // s once
  // N unknown: no count, said so.
  EXPECT_FALSE(cost.nodes[0].flops.has_value());
  EXPECT_FALSE(cost.nodes[0].activation_bytes.has_value());
  EXPECT_EQ(cost.uncounted, 2u);
}

}  // namespace
}  // namespace onyx
