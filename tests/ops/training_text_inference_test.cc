// Shape rules of the training optimizers, FlexAttention and the string operators.
#include <gtest/gtest.h>

#include "support/infer_testing.h"

namespace onyx {
namespace {

using testing::inferText;

TEST(TrainingInference, OptimizersUpdateTheirTensors) {
  auto m = inferText(R"(
    <ir_version: 10, opset_import: ["" : 21, "ai.onnx.preview.training" : 1]>
    g (float r, int64 t, float[N, 3] x, float[N, 3] gx, float[N, 3] hx, float[2] w, float[2] gw,
       float[2] hw, float[2] vw) => (x1, hx1, x2, v2, h2, x3, v3) {
      x1, hx1 = ai.onnx.preview.training.Adagrad (r, t, x, gx, hx)
      x2, v2, h2 = ai.onnx.preview.training.Adam (r, t, w, gw, vw, hw)
      x3, v3 = ai.onnx.preview.training.Momentum <alpha = 0.9, beta = 0.1, mode = "standard",
                                                  norm_coefficient = 0.0> (r, t, w, gw, vw)
    })");
  EXPECT_EQ(m.typeOf("x1"), "float[N,3]");
  EXPECT_EQ(m.typeOf("hx1"), "float[N,3]");
  EXPECT_EQ(m.typeOf("x2"), "float[2]");
  EXPECT_EQ(m.typeOf("v2"), "float[2]");
  EXPECT_EQ(m.typeOf("h2"), "float[2]");
  EXPECT_EQ(m.typeOf("x3"), "float[2]");
  EXPECT_EQ(m.typeOf("v3"), "float[2]");
}

TEST(TrainingInference, OptimizerWithIncompleteGroupsFails) {
  auto m = inferText(R"(
    <ir_version: 10, opset_import: ["" : 21, "ai.onnx.preview.training" : 1]>
    g (float r, int64 t, float[2] w, float[2] gw) => (x1) {
      x1 = ai.onnx.preview.training.Adagrad (r, t, w, gw)
    })");
  EXPECT_TRUE(m.has("X5")) << m.diagnostics();
}

TEST(TrainingInference, GradientHasTheTypesOfXs) {
  auto m = inferText(R"(
    <ir_version: 10, opset_import: ["" : 21, "ai.onnx.preview.training" : 1]>
    g (float[N, 3] a, float[3] b) => (ga, gb) {
      y = Add(a, b)
      ga, gb = ai.onnx.preview.training.Gradient <xs = ["a", "b"], y = "y"> (a, b)
    })");
  EXPECT_EQ(m.typeOf("ga"), "float[N,3]");
  EXPECT_EQ(m.typeOf("gb"), "float[3]");
}

TEST(PreviewInference, FlexAttention) {
  auto m = inferText(R"(
    <ir_version: 10, opset_import: ["" : 21, "ai.onnx.preview" : 1]>
    g (float[B, 8, L, 16] q, float[B, 2, S, 16] k, float[B, 2, S, 32] v) => (y) {
      y = ai.onnx.preview.FlexAttention (q, k, v)
    })");
  EXPECT_EQ(m.typeOf("y"), "float[B,8,L,32]");
  EXPECT_FALSE(m.result.diagnostics.hasErrors()) << m.diagnostics();
}

TEST(PreviewInference, FlexAttentionWithHeadsNotAMultipleFails) {
  auto m = inferText(R"(
    <ir_version: 10, opset_import: ["" : 21, "ai.onnx.preview" : 1]>
    g (float[1, 6, 4, 16] q, float[1, 4, 5, 16] k, float[1, 4, 5, 16] v) => (y) {
      y = ai.onnx.preview.FlexAttention (q, k, v)
    })");
  EXPECT_TRUE(m.has("X5")) << m.diagnostics();
}

TEST(TextInference, StringOperators) {
  auto m = inferText(R"(
    <ir_version: 10, opset_import: ["" : 21]>
    g (string[N, 3] s, string[3] t, string[1, C] u) => (match, joined, parts, counts, same, fewer) {
      match = RegexFullMatch <pattern = "a.*"> (s)
      joined = StringConcat (s, t)
      parts, counts = StringSplit <delimiter = ","> (s)
      same = StringNormalizer <case_change_action = "LOWER"> (u)
      fewer = StringNormalizer <stopwords = ["the"]> (u)
    })");
  EXPECT_EQ(m.typeOf("match"), "bool[N,3]");
  EXPECT_EQ(m.typeOf("joined"), "string[N,3]");
  EXPECT_EQ(m.typeOf("parts"), "string[N,3,?]");
  EXPECT_EQ(m.typeOf("counts"), "int64[N,3]");
  EXPECT_EQ(m.typeOf("same"), "string[1,C]");
  EXPECT_EQ(m.typeOf("fewer"), "string[1,?]");
}

TEST(TextInference, StringNormalizerOfAnotherShapeFails) {
  auto m = inferText(R"(
    <ir_version: 10, opset_import: ["" : 21]>
    g (string[2, 3] s) => (y) { y = StringNormalizer (s) })");
  EXPECT_TRUE(m.has("X5")) << m.diagnostics();
}

}  // namespace
}  // namespace onyx
