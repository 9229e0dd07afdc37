// Builders that no backend conformance model exercises (Attention 25 and its windows, the
// older versions of the losses, ...), each on a model written for it: the body builds,
// inlines, and leaves a model that passes verifyModel and the checker.
#include <gtest/gtest.h>

#include <string>

#include "onyx/check/checker.h"
#include "onyx/ops/function_body.h"
#include "onyx/ops/registry.h"
#include "onyx/passes/inline_functions.h"
#include "support/check_testing.h"
#include "support/graph_testing.h"

namespace onyx {
namespace {

struct Case {
  const char* name;
  const char* text;                      // a model whose first node is the function-operator
  const char* op_types_after = nullptr;  // when given, the graph's op types after inlining
};

class BuilderCase : public ::testing::TestWithParam<Case> {};

TEST_P(BuilderCase, InlinesIntoAValidModel) {
  Model model = testing::parseOrFail(GetParam().text);
  ASSERT_NE(model.graph, nullptr);
  Node* node = model.graph->firstNode();
  std::optional<int64_t> opset = model.opsetVersion(node->domainOrDefault());
  const OpSchema* schema = findSchema(node->domainOrDefault(), node->opType(), opset.value_or(0));
  ASSERT_NE(schema, nullptr);
  ASSERT_NE(schema->build_function_body, nullptr) << "the case is meant for a builder";
  Status inlined = inlineNode(model, *node);
  ASSERT_TRUE(inlined) << inlined.toString();
  EXPECT_TRUE(testing::verified(model));
  CheckOptions options;
  options.external_data = false;
  Diagnostics found = checkModel(model, options);
  EXPECT_FALSE(found.hasErrors()) << testing::listed(found);
  if (GetParam().op_types_after != nullptr) {
    EXPECT_EQ(testing::opTypes(*model.graph), GetParam().op_types_after);
  }
}

const Case kCases[] = {
    {"Attention25WindowsAndBoolMask", R"(
      <ir_version: 11, opset_import: ["" : 25]>
      g (float[2,4,6,8] Q, float[2,4,6,8] K, float[2,4,6,8] V, bool[6,6] attn_mask)
          => (float[2,4,6,8] Y) {
        Y = Attention <is_causal = 1, left_window_size = 2, right_window_size = 1>
            (Q, K, V, attn_mask)
      }
    )"},
    {"Attention25LeftWindowWithNonpadAnd3dInputs", R"(
      <ir_version: 11, opset_import: ["" : 25]>
      g (float16[2,6,32] Q, float16[2,6,16] K, float16[2,6,16] V, int64[2] nonpad_kv_seqlen)
          => (float16[2,6,32] Y) {
        Y = Attention <is_causal = 1, left_window_size = 3, q_num_heads = 4, kv_num_heads = 2,
                       softmax_precision = 1> (Q, K, V, , , , nonpad_kv_seqlen)
      }
    )"},
    {"Attention25RightWindowCacheSoftcapAndScores", R"(
      <ir_version: 11, opset_import: ["" : 25]>
      g (float[1,2,3,4] Q, float[1,2,3,4] K, float[1,2,3,4] V, float[1,2,3,5] attn_mask,
         float[1,2,2,4] past_key, float[1,2,2,4] past_value)
          => (float[1,2,3,4] Y, float[1,2,5,4] present_key, float[1,2,5,4] present_value,
              float[1,2,3,5] qk) {
        Y, present_key, present_value, qk = Attention <right_window_size = 0, softcap = 2.0,
            scale = 0.5, qk_matmul_output_mode = 3> (Q, K, V, attn_mask, past_key, past_value)
      }
    )"},
    {"Bernoulli15", R"(
      <ir_version: 8, opset_import: ["" : 15]>
      g (double[10] x) => (float[10] y) {
        y = Bernoulli <dtype = 1, seed = 3.0> (x)
      }
    )",
     "RandomUniformLike Greater Cast"},
    {"CastLike21", R"(
      <ir_version: 10, opset_import: ["" : 21]>
      g (float[3] x, float16[1] like) => (float16[3] y) {
        y = CastLike <saturate = 0> (x, like)
      }
    )",
     "Cast"},
    {"CastLike23", R"(
      <ir_version: 11, opset_import: ["" : 23]>
      g (float[3] x, int4[1] like) => (int4[3] y) {
        y = CastLike (x, like)
      }
    )",
     "Cast"},
    {"Celu12", R"(
      <ir_version: 7, opset_import: ["" : 12]>
      g (float[3] x) => (float[3] y) {
        y = Celu <alpha = 2.0> (x)
      }
    )",
     "Constant Div Elu Mul"},
    {"GroupNormalization18", R"(
      <ir_version: 8, opset_import: ["" : 18]>
      g (float[2,4,3,3] X, float[2] scale, float[2] bias) => (float[2,4,3,3] Y) {
        Y = GroupNormalization <num_groups = 2, epsilon = 0.001> (X, scale, bias)
      }
    )"},
    {"NegativeLogLikelihoodLoss12IgnoreIndexWeighted", R"(
      <ir_version: 7, opset_import: ["" : 12]>
      g (float16[3,5,2] input, int64[3,2] target, float16[5] weight) => (float16 loss) {
        loss = NegativeLogLikelihoodLoss <ignore_index = 1> (input, target, weight)
      }
    )"},
    {"NegativeLogLikelihoodLoss12Sum", R"(
      <ir_version: 7, opset_import: ["" : 12]>
      g (float[3,5] input, int64[3] target) => (float loss) {
        loss = NegativeLogLikelihoodLoss <reduction = "sum"> (input, target)
      }
    )"},
    {"NegativeLogLikelihoodLoss13IgnoreIndexNone", R"(
      <ir_version: 7, opset_import: ["" : 13]>
      g (double[3,5] input, int32[3] target) => (double[3] loss) {
        loss = NegativeLogLikelihoodLoss <reduction = "none", ignore_index = -1> (input, target)
      }
    )"},
    {"SoftmaxCrossEntropyLoss12WithLogProb", R"(
      <ir_version: 7, opset_import: ["" : 12]>
      g (float[3,5] scores, int64[3] labels, float[5] weights)
          => (float loss, float[3,5] log_prob) {
        loss, log_prob = SoftmaxCrossEntropyLoss <ignore_index = 0> (scores, labels, weights)
      }
    )"},
    {"Softmax13AtOpset13", R"(
      <ir_version: 7, opset_import: ["" : 13]>
      g (float[3,5] x) => (float[3,5] y) {
        y = Softmax <axis = 0> (x)
      }
    )",
     "Constant ReduceMax Sub Exp ReduceSum Div"},
    {"LayerNormalization17AtOpset17WithStatistics", R"(
      <ir_version: 8, opset_import: ["" : 17]>
      g (float16[2,3,4] X, float16[4] Scale, float16[4] B)
          => (float16[2,3,4] Y, float[2,3,1] Mean, float[2,3,1] InvStdDev) {
        Y, Mean, InvStdDev = LayerNormalization <axis = 2> (X, Scale, B)
      }
    )"},
    {"Range27InFloat16", R"(
      <ir_version: 11, opset_import: ["" : 27]>
      g (float16 start, float16 limit, float16 delta) => (float16[N] y) {
        y = Range <stash_type = 11> (start, limit, delta)
      }
    )"},
};

INSTANTIATE_TEST_SUITE_P(FunctionOperatorBuilders, BuilderCase, ::testing::ValuesIn(kCases),
                         [](const ::testing::TestParamInfo<Case>& param) {
                           return std::string(param.param.name);
                         });

TEST(FunctionOperatorBuilders, Attention25RefusesAHalfCacheAndTheModelStays) {
  Model model = testing::parseOrFail(R"(
    <ir_version: 11, opset_import: ["" : 25]>
    g (float[1,2,3,4] Q, float[1,2,3,4] K, float[1,2,3,4] V, float[1,2,2,4] past_key)
        => (float[1,2,3,4] Y) {
      Y = Attention (Q, K, V, , past_key)
    }
  )");
  std::string before = testing::bytesOf(model);
  Status status = inlineNode(model, *model.graph->firstNode());
  EXPECT_EQ(status.code(), ErrorCode::kUnsupported);
  EXPECT_NE(status.message().find("come in pairs"), std::string::npos) << status.message();
  EXPECT_EQ(testing::bytesOf(model), before);
}

}  // namespace
}  // namespace onyx
