// Kernels of the normalization, attention, resampling and detection operators: edge cases and
// bad inputs the conformance suite does not cover.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "onyx/text/parser.h"
#include "support/eval_testing.h"

namespace onyx {
namespace {

using testing::dimsText;
using testing::elementCount;
using testing::floatUlp;
using testing::randomFloats;
using testing::runText;
using testing::tensorOf;
using testing::valuesOf;

EvalValue floats(std::vector<int64_t> shape, const std::vector<float>& values) {
  return tensorOf<float>(ElementType::kFloat, std::move(shape), values);
}

// The same values as DOUBLE.
EvalValue doubles(std::vector<int64_t> shape, const std::vector<float>& values) {
  return tensorOf<double>(ElementType::kDouble, std::move(shape),
                          std::vector<double>(values.begin(), values.end()));
}

// `text` with every "$T" replaced by `type`.
std::string withType(std::string text, const std::string& type) {
  for (size_t at = text.find("$T"); at != std::string::npos; at = text.find("$T", at)) {
    text.replace(at, 2, type);
  }
  return text;
}

bool mentions(const Status& status, const std::string& text) {
  return status.message().find(text) != std::string::npos;
}

// ---- normalization --------------------------------------------------------------------------

TEST(NormKernels, LayerNormalizationNegativeAxisGivesStatistics) {
  Result<std::vector<EvalValue>> out =
      runText(R"(
    <ir_version: 10, opset_import: ["" : 17]>
    g (float[2,2] x, float[2] s) => (float[2,2] y, float[2,1] m, float[2,1] r) {
      y, m, r = LayerNormalization <axis = -1, epsilon = 0.0> (x, s)
    })",
              {{"x", floats({2, 2}, {1, 3, 2, 2})}, {"s", floats({2}, {1, 2})}});
  ASSERT_TRUE(out) << out.status().toString();
  std::vector<float> y = valuesOf<float>((*out)[0]);
  ASSERT_EQ(y.size(), 4u);
  EXPECT_FLOAT_EQ(y[0], -1.0f);
  EXPECT_FLOAT_EQ(y[1], 2.0f);
  // The second row has no variance: (x - mean) * 1 / sqrt(0) is 0 * inf.
  EXPECT_TRUE(std::isnan(y[2]));
  EXPECT_EQ(valuesOf<float>((*out)[1]), (std::vector<float>{2, 2}));
  EXPECT_FLOAT_EQ(valuesOf<float>((*out)[2])[0], 1.0f);
}

// Y over rows of x [2, 3] normalized along axis 1, scale and bias given per element of x.
std::vector<double> layerNormReference(const std::vector<float>& x, const std::vector<float>& scale,
                                       const std::vector<float>& bias) {
  std::vector<double> y(x.size());
  for (size_t r = 0; r < 2; ++r) {
    double mean = 0;
    for (size_t c = 0; c < 3; ++c) mean += x[r * 3 + c] / 3.0;
    double variance = 0;
    for (size_t c = 0; c < 3; ++c) variance += (x[r * 3 + c] - mean) * (x[r * 3 + c] - mean) / 3.0;
    for (size_t c = 0; c < 3; ++c) {
      size_t i = r * 3 + c;
      y[i] = (x[i] - mean) / std::sqrt(variance + 1e-5) * scale[i] + bias[i];
    }
  }
  return y;
}

// Scale and B that repeat along the rows take the FLOAT row path; a B that differs from row
// to row takes the general one. Both give the same values.
TEST(NormKernels, LayerNormalizationBroadcastsScaleAndBiasAlongAndAcrossRows) {
  const std::vector<float> x = {1, -2, 4, 0.5f, 0.25f, -3};
  Result<std::vector<EvalValue>> out = runText(
      R"(
    <ir_version: 10, opset_import: ["" : 17]>
    g (float[2,3] x, float[1,3] s, float[1] b, float[2,1] b2) => (float[2,3] y, float[2,3] z) {
      y = LayerNormalization <axis = 1> (x, s, b)
      z = LayerNormalization <axis = -1> (x, s, b2)
    })",
      {{"x", floats({2, 3}, x)},
       {"s", floats({1, 3}, {2, 0.5f, -1})},
       {"b", floats({1}, {0.75f})},
       {"b2", floats({2, 1}, {1, -1})}});
  ASSERT_TRUE(out) << out.status().toString();
  std::vector<float> scale = {2, 0.5f, -1, 2, 0.5f, -1};
  std::vector<double> y = layerNormReference(x, scale, std::vector<float>(6, 0.75f));
  std::vector<double> z = layerNormReference(x, scale, {1, 1, 1, -1, -1, -1});
  std::vector<float> y_got = valuesOf<float>((*out)[0]);
  std::vector<float> z_got = valuesOf<float>((*out)[1]);
  ASSERT_EQ(y_got.size(), 6u);
  ASSERT_EQ(z_got.size(), 6u);
  for (size_t i = 0; i < 6; ++i) {
    EXPECT_FLOAT_EQ(y_got[i], static_cast<float>(y[i])) << i;
    EXPECT_FLOAT_EQ(z_got[i], static_cast<float>(z[i])) << i;
  }
}

TEST(NormKernels, LayerNormalizationRefusesAnAxisOutOfRange) {
  Result<std::vector<EvalValue>> out =
      runText(R"(
    <ir_version: 10, opset_import: ["" : 17]>
    g (float[2,2] x, float[2] s) => (float[2,2] y) { y = LayerNormalization <axis = 2> (x, s) })",
              {{"x", floats({2, 2}, {1, 3, 2, 2})}, {"s", floats({2}, {1, 2})}});
  ASSERT_FALSE(out);
  EXPECT_TRUE(mentions(out.status(), "axis")) << out.status().toString();
}

TEST(NormKernels, RmsNormalizationOfFloat16) {
  // float16 2.0 is 0x4000; rms of (2, 2) is 2, so y = x / 2 = 1 (0x3C00).
  Result<std::vector<EvalValue>> out =
      runText(R"(
    <ir_version: 10, opset_import: ["" : 23]>
    g (float16[1,2] x, float16[2] s) => (float16[1,2] y) {
      y = RMSNormalization <epsilon = 0.0> (x, s)
    })",
              {{"x", tensorOf<uint16_t>(ElementType::kFloat16, {1, 2}, {0x4000, 0x4000})},
               {"s", tensorOf<uint16_t>(ElementType::kFloat16, {2}, {0x3C00, 0x3C00})}});
  ASSERT_TRUE(out) << out.status().toString();
  EXPECT_EQ(valuesOf<uint16_t>((*out)[0]), (std::vector<uint16_t>{0x3C00, 0x3C00}));
}

TEST(NormKernels, BatchNormalizationTrainingUpdatesTheRunningStatistics) {
  Result<std::vector<EvalValue>> out = runText(R"(
    <ir_version: 10, opset_import: ["" : 15]>
    g (float[2,1] x, float[1] s, float[1] b, float[1] m, float[1] v)
        => (float[2,1] y, float[1] rm, float[1] rv) {
      y, rm, rv = BatchNormalization <training_mode = 1, momentum = 0.5, epsilon = 0.0>
          (x, s, b, m, v)
    })",
                                               {{"x", floats({2, 1}, {1, 3})},
                                                {"s", floats({1}, {1})},
                                                {"b", floats({1}, {0})},
                                                {"m", floats({1}, {0})},
                                                {"v", floats({1}, {1})}});
  ASSERT_TRUE(out) << out.status().toString();
  EXPECT_EQ(valuesOf<float>((*out)[0]), (std::vector<float>{-1, 1}));
  EXPECT_EQ(valuesOf<float>((*out)[1]), (std::vector<float>{1}));  // 0 * .5 + 2 * .5
  EXPECT_EQ(valuesOf<float>((*out)[2]), (std::vector<float>{1}));  // 1 * .5 + 1 * .5
}

// Inference on FLOAT takes one pass with each channel's factor and shift, in float in
// onnxruntime's order; DOUBLE the general path: the same values within a few units in the
// last place of the terms, for ranks 2 to 5, odd sizes, an empty batch, a channel of zero
// variance, and version 7's per-position statistics.
TEST(NormKernels, BatchNormalizationOfFloatFollowsTheGeneralPath) {
  struct Case {
    std::vector<int64_t> shape;
    int opset;
    const char* attributes;
    std::vector<int64_t> parameters;
  };
  const Case cases[] = {
      {{3, 5}, 15, "", {5}},
      {{2, 4, 7}, 15, "epsilon = 0.001", {4}},
      {{2, 3, 5, 7}, 15, "", {3}},
      {{1, 2, 3, 4, 5}, 9, "", {2}},
      {{2, 3, 4}, 7, "spatial = 0", {3, 4}},
      {{0, 3, 4, 4}, 15, "", {3}},
  };
  for (const Case& c : cases) {
    const size_t count = elementCount(c.parameters);
    std::vector<float> x = randomFloats(elementCount(c.shape), 1);
    for (float& v : x) v *= 10;
    std::vector<float> scale = randomFloats(count, 2);
    std::vector<float> bias = randomFloats(count, 3);
    std::vector<float> mean = randomFloats(count, 4);
    std::vector<float> var = randomFloats(count, 5);
    for (float& v : var) v = std::fabs(v);
    var[0] = 0;
    const std::string attributes = *c.attributes ? std::string("<") + c.attributes + "> " : "";
    const std::string p = "$T" + dimsText(c.parameters);
    const std::string text = "<ir_version: 10, opset_import: [\"\" : " + std::to_string(c.opset) +
                             "]>\ng ($T" + dimsText(c.shape) + " x, " + p + " s, " + p + " b, " +
                             p + " m, " + p + " v) => ($T" + dimsText(c.shape) +
                             " y) { y = BatchNormalization " + attributes + "(x, s, b, m, v) }";
    const std::string where = dimsText(c.shape) + " opset " + std::to_string(c.opset);
    Result<std::vector<EvalValue>> f =
        runText(withType(text, "float"), {{"x", floats(c.shape, x)},
                                          {"s", floats(c.parameters, scale)},
                                          {"b", floats(c.parameters, bias)},
                                          {"m", floats(c.parameters, mean)},
                                          {"v", floats(c.parameters, var)}});
    Result<std::vector<EvalValue>> d =
        runText(withType(text, "double"), {{"x", doubles(c.shape, x)},
                                           {"s", doubles(c.parameters, scale)},
                                           {"b", doubles(c.parameters, bias)},
                                           {"m", doubles(c.parameters, mean)},
                                           {"v", doubles(c.parameters, var)}});
    ASSERT_TRUE(f && d) << where << ": " << (f ? d.status() : f.status()).toString();
    std::vector<float> got = valuesOf<float>((*f)[0]);
    std::vector<double> exact = valuesOf<double>((*d)[0]);
    ASSERT_EQ(got.size(), x.size()) << where;
    ASSERT_EQ(exact.size(), x.size()) << where;
    // FLOAT is computed in float in onnxruntime's order: exactly that formula, and within a
    // few units in the last place of the larger of its two terms of the exact value.
    const float epsilon = std::string(c.attributes) == "epsilon = 0.001" ? 0.001f : 1e-5f;
    const size_t batch = c.shape[0] == 0 ? 1 : size_t(c.shape[0]);
    const size_t inner = x.empty() ? 1 : x.size() / (batch * count);
    for (size_t i = 0; i < got.size(); ++i) {
      const size_t k = (i / inner) % count;
      const float factor = (1.0f / std::sqrt(var[k] + epsilon)) * scale[k];
      const float shift = bias[k] - mean[k] * factor;
      EXPECT_EQ(got[i], x[i] * factor + shift) << where << " at " << i;
      const double terms = std::fabs(double(x[i]) * factor) + std::fabs(double(shift));
      EXPECT_NEAR(got[i], exact[i], 4 * floatUlp(terms) + floatUlp(exact[i]))
          << where << " at " << i;
    }
  }
}

TEST(NormKernels, BatchNormalizationGivesTheSameBitsOnAnyThreadCount) {
  Result<Model> model = parseText(R"(
    <ir_version: 10, opset_import: ["" : 15]>
    g (float[2,16,65,67] x, float[16] s, float[16] b, float[16] m, float[16] v)
        => (float[2,16,65,67] y) {
      y = BatchNormalization (x, s, b, m, v)
    })");
  ASSERT_TRUE(model) << model.status().toString();
  std::vector<float> var = randomFloats(16, 5);
  for (float& v : var) v = std::fabs(v);
  std::vector<NamedValue> inputs = {
      {"x", floats({2, 16, 65, 67}, randomFloats(2 * 16 * 65 * 67, 1))},
      {"s", floats({16}, randomFloats(16, 2))},
      {"b", floats({16}, randomFloats(16, 3))},
      {"m", floats({16}, randomFloats(16, 4))},
      {"v", floats({16}, var)}};
  EXPECT_EQ(testing::threadCountDifference(*model, inputs, 3), "");
}

TEST(NormKernels, GroupNormalizationRefusesChannelsThatDoNotSplit) {
  Result<std::vector<EvalValue>> out = runText(R"(
    <ir_version: 10, opset_import: ["" : 21]>
    g (float[1,3,1] x, float[3] s, float[3] b) => (float[1,3,1] y) {
      y = GroupNormalization <num_groups = 2> (x, s, b)
    })",
                                               {{"x", floats({1, 3, 1}, {1, 2, 3})},
                                                {"s", floats({3}, {1, 1, 1})},
                                                {"b", floats({3}, {0, 0, 0})}});
  ASSERT_FALSE(out);
  EXPECT_TRUE(mentions(out.status(), "groups")) << out.status().toString();
}

TEST(NormKernels, InstanceNormalizationOfAnEmptyBatch) {
  Result<std::vector<EvalValue>> out = runText(
      R"(
    <ir_version: 10, opset_import: ["" : 6]>
    g (float[0,2,3] x, float[2] s, float[2] b) => (float[0,2,3] y) {
      y = InstanceNormalization (x, s, b)
    })",
      {{"x", floats({0, 2, 3}, {})}, {"s", floats({2}, {1, 1})}, {"b", floats({2}, {0, 0})}});
  ASSERT_TRUE(out) << out.status().toString();
  EXPECT_EQ((*out)[0].tensor.shape(), (std::vector<int64_t>{0, 2, 3}));
}

// ---- attention ------------------------------------------------------------------------------

TEST(NormKernels, AttentionZeroesAFullyMaskedRow) {
  // Two queries, two keys; the mask lets the first query see the second key and the second
  // query see nothing.
  Result<std::vector<EvalValue>> out =
      runText(R"(
    <ir_version: 10, opset_import: ["" : 23]>
    g (float[1,1,2,1] q, float[1,1,2,1] k, float[1,1,2,1] v, bool[2,2] m) => (float[1,1,2,1] y) {
      y = Attention (q, k, v, m)
    })",
              {{"q", floats({1, 1, 2, 1}, {1, 1})},
               {"k", floats({1, 1, 2, 1}, {1, 2})},
               {"v", floats({1, 1, 2, 1}, {10, 20})},
               {"m", tensorOf<bool>(ElementType::kBool, {2, 2}, {false, true, false, false})}});
  ASSERT_TRUE(out) << out.status().toString();
  EXPECT_EQ(valuesOf<float>((*out)[0]), (std::vector<float>{20, 0}));
}

TEST(NormKernels, AttentionRefusesHeadsThatDoNotGroup) {
  Result<std::vector<EvalValue>> out = runText(R"(
    <ir_version: 10, opset_import: ["" : 23]>
    g (float[1,3,1,2] q, float[1,2,1,2] k, float[1,2,1,2] v) => (float[1,3,1,2] y) {
      y = Attention (q, k, v)
    })",
                                               {{"q", floats({1, 3, 1, 2}, {1, 2, 3, 4, 5, 6})},
                                                {"k", floats({1, 2, 1, 2}, {1, 2, 3, 4})},
                                                {"v", floats({1, 2, 1, 2}, {1, 2, 3, 4})}});
  ASSERT_FALSE(out);
  EXPECT_TRUE(mentions(out.status(), "heads")) << out.status().toString();
}

TEST(NormKernels, LinearAttentionNeedsDecayForAGatedRule) {
  Result<std::vector<EvalValue>> out = runText(R"(
    <ir_version: 10, opset_import: ["" : 27]>
    g (float[1,1,2] q, float[1,1,2] k, float[1,1,2] v) => (float[1,1,2] y) {
      y, s = LinearAttention <q_num_heads = 1, kv_num_heads = 1, update_rule = "gated"> (q, k, v)
    })",
                                               {{"q", floats({1, 1, 2}, {1, 0})},
                                                {"k", floats({1, 1, 2}, {1, 0})},
                                                {"v", floats({1, 1, 2}, {3, 4})}});
  ASSERT_FALSE(out);
  EXPECT_TRUE(mentions(out.status(), "decay")) << out.status().toString();
}

TEST(NormKernels, LinearAttentionReadsTheGrownState) {
  // One step, linear rule: S = k v^T = [[3, 4], [0, 0]]; y = scale * q^T S with scale 1.
  Result<std::vector<EvalValue>> out = runText(R"(
    <ir_version: 10, opset_import: ["" : 27]>
    g (float[1,1,2] q, float[1,1,2] k, float[1,1,2] v) => (float[1,1,2] y, float[1,1,2,2] s) {
      y, s = LinearAttention <q_num_heads = 1, kv_num_heads = 1, update_rule = "linear",
                              scale = 1.0> (q, k, v)
    })",
                                               {{"q", floats({1, 1, 2}, {2, 0})},
                                                {"k", floats({1, 1, 2}, {1, 0})},
                                                {"v", floats({1, 1, 2}, {3, 4})}});
  ASSERT_TRUE(out) << out.status().toString();
  EXPECT_EQ(valuesOf<float>((*out)[0]), (std::vector<float>{6, 8}));
  EXPECT_EQ(valuesOf<float>((*out)[1]), (std::vector<float>{3, 4, 0, 0}));
}

TEST(NormKernels, RotaryEmbeddingRefusesAPositionOutOfRange) {
  Result<std::vector<EvalValue>> out =
      runText(R"(
    <ir_version: 10, opset_import: ["" : 23]>
    g (float[1,1,1,2] x, float[2,1] c, float[2,1] s, int64[1,1] p) => (float[1,1,1,2] y) {
      y = RotaryEmbedding (x, c, s, p)
    })",
              {{"x", floats({1, 1, 1, 2}, {1, 2})},
               {"c", floats({2, 1}, {1, 0})},
               {"s", floats({2, 1}, {0, 1})},
               {"p", tensorOf<int64_t>(ElementType::kInt64, {1, 1}, {2})}});
  ASSERT_FALSE(out);
  EXPECT_TRUE(mentions(out.status(), "position")) << out.status().toString();
}

TEST(NormKernels, RotaryEmbeddingRotatesByTheCachedAngle) {
  // Position 1: cos 0, sin 1 rotates (1, 2) to (-2, 1).
  Result<std::vector<EvalValue>> out =
      runText(R"(
    <ir_version: 10, opset_import: ["" : 23]>
    g (float[1,1,1,2] x, float[2,1] c, float[2,1] s, int64[1,1] p) => (float[1,1,1,2] y) {
      y = RotaryEmbedding (x, c, s, p)
    })",
              {{"x", floats({1, 1, 1, 2}, {1, 2})},
               {"c", floats({2, 1}, {1, 0})},
               {"s", floats({2, 1}, {0, 1})},
               {"p", tensorOf<int64_t>(ElementType::kInt64, {1, 1}, {1})}});
  ASSERT_TRUE(out) << out.status().toString();
  EXPECT_EQ(valuesOf<float>((*out)[0]), (std::vector<float>{-2, 1}));
}

// ---- resampling -----------------------------------------------------------------------------

TEST(NormKernels, ResizeLinearRoundsIntegersToNearestEven) {
  // Asymmetric linear upsampling of (0, 1) by 4: 0, .25, .5, .75, 1, 1, 1, 1, rounded half to
  // even: 0, 0, 0, 1, 1, 1, 1, 1.
  Result<std::vector<EvalValue>> out = runText(
      R"(
    <ir_version: 10, opset_import: ["" : 19]>
    g (int32[2] x, float[1] scales) => (int32[8] y) {
      y = Resize <mode = "linear", coordinate_transformation_mode = "asymmetric"> (x, , scales)
    })",
      {{"x", tensorOf<int32_t>(ElementType::kInt32, {2}, {0, 1})}, {"scales", floats({1}, {4})}});
  ASSERT_TRUE(out) << out.status().toString();
  EXPECT_EQ(valuesOf<int32_t>((*out)[0]), (std::vector<int32_t>{0, 0, 0, 1, 1, 1, 1, 1}));
}

// Bilinear Resize of float is computed in float in onnxruntime's order (resample_kernels.h):
// each output the sum, left to right, of four products of a row weight, a column weight and
// a pixel. Here x2 with half_pixel on [1, 2, 5, 7], against that formula in the test, and not
// what the separable double path gives (which differs by an ulp on some elements).
TEST(NormKernels, ResizeBilinearFloatIsComputedInOnnxruntimesOrder) {
  const int64_t height = 5, width = 7;
  std::vector<float> x = randomFloats(size_t(2 * height * width), 61);
  Result<std::vector<EvalValue>> out = runText(R"(
    <ir_version: 10, opset_import: ["" : 19]>
    g (float[1, 2, 5, 7] x) => (float[1, 2, 10, 14] y) <float[4] scales = {1, 1, 2, 2}> {
      y = Resize <mode = "linear"> (x, , scales)
    })",
                                               {{"x", floats({1, 2, height, width}, x)}});
  ASSERT_TRUE(out) << out.status().toString();
  std::vector<float> y = valuesOf<float>((*out)[0]);
  ASSERT_EQ(y.size(), 2u * 10 * 14);
  // Per axis: the two taps and the weight of each (the distance to the other).
  auto taps = [](int64_t o, int64_t size, int64_t& i1, int64_t& i2, float& w1, float& w2) {
    float c = ((static_cast<float>(o) + 0.5f) / 2.0f) - 0.5f;
    c = std::max(0.0f, std::min(c, static_cast<float>(size - 1)));
    i1 = std::min(static_cast<int64_t>(c), size - 1);
    i2 = std::min(i1 + 1, size - 1);
    w1 = std::fabs(c - static_cast<float>(i2));
    w2 = std::fabs(c - static_cast<float>(i1));
    if (i1 == i2) w1 = w2 = 0.5f;
  };
  size_t separable_differs = 0;
  for (int64_t plane = 0; plane < 2; ++plane) {
    const float* image = x.data() + plane * height * width;
    for (int64_t oy = 0; oy < 10; ++oy) {
      int64_t y1, y2;
      float wy1, wy2;
      taps(oy, height, y1, y2, wy1, wy2);
      for (int64_t ox = 0; ox < 14; ++ox) {
        int64_t x1, x2;
        float wx1, wx2;
        taps(ox, width, x1, x2, wx1, wx2);
        float a = image[y1 * width + x1], b = image[y1 * width + x2];
        float c = image[y2 * width + x1], d = image[y2 * width + x2];
        float expected = wx1 * wy1 * a + wx2 * wy1 * b + wx1 * wy2 * c + wx2 * wy2 * d;
        float got = y[size_t((plane * 10 + oy) * 14 + ox)];
        EXPECT_EQ(got, expected) << "plane " << plane << " at " << oy << ", " << ox;
        double rows_first = (double(wy1) * a + double(wy2) * c) * double(wx1) +
                            (double(wy1) * b + double(wy2) * d) * double(wx2);
        separable_differs += static_cast<float>(rows_first) != expected;
      }
    }
  }
  EXPECT_GT(separable_differs, 0u) << "the case does not tell the two orders apart";
}

TEST(NormKernels, ResizeWithANegativeAxis) {
  Result<std::vector<EvalValue>> out =
      runText(R"(
    <ir_version: 10, opset_import: ["" : 19]>
    g (float[2,2] x, int64[1] sizes) => (float[2,4] y) {
      y = Resize <axes = [-1], coordinate_transformation_mode = "asymmetric"> (x, , , sizes)
    })",
              {{"x", floats({2, 2}, {1, 2, 3, 4})},
               {"sizes", tensorOf<int64_t>(ElementType::kInt64, {1}, {4})}});
  ASSERT_TRUE(out) << out.status().toString();
  EXPECT_EQ(valuesOf<float>((*out)[0]), (std::vector<float>{1, 1, 2, 2, 3, 3, 4, 4}));
}

TEST(NormKernels, ResizeRefusesScalesAndSizesTogether) {
  Result<std::vector<EvalValue>> out =
      runText(R"(
    <ir_version: 10, opset_import: ["" : 19]>
    g (float[2] x, float[1] scales, int64[1] sizes) => (float[4] y) {
      y = Resize (x, , scales, sizes)
    })",
              {{"x", floats({2}, {1, 2})},
               {"scales", floats({1}, {2})},
               {"sizes", tensorOf<int64_t>(ElementType::kInt64, {1}, {4})}});
  ASSERT_FALSE(out);
  EXPECT_TRUE(mentions(out.status(), "scales")) << out.status().toString();
}

TEST(NormKernels, UpsampleRepeatsNearest) {
  Result<std::vector<EvalValue>> out =
      runText(R"(
    <ir_version: 10, opset_import: ["" : 9]>
    g (int64[1,2] x, float[2] scales) => (int64[2,4] y) { y = Upsample (x, scales) })",
              {{"x", tensorOf<int64_t>(ElementType::kInt64, {1, 2}, {5, 7})},
               {"scales", floats({2}, {2, 2})}});
  ASSERT_TRUE(out) << out.status().toString();
  EXPECT_EQ(valuesOf<int64_t>((*out)[0]), (std::vector<int64_t>{5, 5, 7, 7, 5, 5, 7, 7}));
}

// FLOAT images resized along their last two axes take a plane-by-plane path (nearest copies
// the chosen element, the other modes compute in double in the general path's order, but
// bilinear in float as onnxruntime does); DOUBLE the general path: the same values for every
// coordinate transformation, nearest rounding and interpolation (bilinear within a few ulp),
// up and down, cropped, along one axis or both.
TEST(NormKernels, ResizeOfFloatImagesFollowsTheGeneralPath) {
  const std::vector<int64_t> shape = {2, 3, 5, 7};
  const std::vector<float> x = randomFloats(elementCount(shape), 11);
  const std::vector<float> roi = {0, 0, 0.1f, 0.2f, 1, 1, 0.8f, 1.3f};
  const std::vector<std::vector<int64_t>> all_sizes = {{2, 3, 10, 14}, {2, 3, 3, 4}, {2, 3, 11, 6},
                                                       {2, 3, 5, 13},  {2, 3, 9, 7}, {2, 3, 1, 1}};
  std::vector<std::string> modes;
  for (const char* coordinates : {"half_pixel", "half_pixel_symmetric", "pytorch_half_pixel",
                                  "align_corners", "asymmetric", "tf_crop_and_resize"}) {
    const std::string base = std::string("coordinate_transformation_mode = \"") + coordinates +
                             "\", extrapolation_value = -5.0, mode = ";
    for (const char* nearest : {"round_prefer_floor", "round_prefer_ceil", "floor", "ceil"}) {
      modes.push_back(base + "\"nearest\", nearest_mode = \"" + nearest + "\"");
    }
    modes.push_back(base + "\"linear\"");
    modes.push_back(base + "\"cubic\"");
  }
  modes.push_back("mode = \"linear\", antialias = 1");
  modes.push_back("mode = \"cubic\", antialias = 1, exclude_outside = 1");
  modes.push_back("mode = \"nearest\", exclude_outside = 1");
  for (const std::string& attributes : modes) {
    for (const std::vector<int64_t>& sizes : all_sizes) {
      const std::string text = "<ir_version: 10, opset_import: [\"\" : 19]>\ng ($T" +
                               dimsText(shape) + " x, float[8] roi, int64[4] sizes) => ($T" +
                               dimsText(sizes) + " y) {\n  y = Resize <" + attributes +
                               "> (x, roi, , sizes)\n}";
      const EvalValue size_values = tensorOf<int64_t>(ElementType::kInt64, {4}, sizes);
      Result<std::vector<EvalValue>> f =
          runText(withType(text, "float"),
                  {{"x", floats(shape, x)}, {"roi", floats({8}, roi)}, {"sizes", size_values}});
      Result<std::vector<EvalValue>> d =
          runText(withType(text, "double"),
                  {{"x", doubles(shape, x)}, {"roi", floats({8}, roi)}, {"sizes", size_values}});
      const std::string where = attributes + " to " + dimsText(sizes);
      ASSERT_TRUE(f && d) << where << ": " << (f ? d.status() : f.status()).toString();
      std::vector<float> got = valuesOf<float>((*f)[0]);
      std::vector<double> exact = valuesOf<double>((*d)[0]);
      ASSERT_EQ(got.size(), elementCount(sizes)) << where;
      ASSERT_EQ(exact.size(), got.size()) << where;
      // Bilinear float is computed in float in onnxruntime's order: within a few ulp.
      const bool in_float = attributes.find("\"linear\"") != std::string::npos &&
                            attributes.find("antialias") == std::string::npos &&
                            attributes.find("half_pixel_symmetric") == std::string::npos &&
                            attributes.find("tf_crop_and_resize") == std::string::npos;
      for (size_t i = 0; i < got.size(); ++i) {
        if (in_float) {
          ASSERT_NEAR(got[i], exact[i], 1e-6 * (1 + std::fabs(exact[i]))) << where << " at " << i;
        } else {
          ASSERT_EQ(got[i], static_cast<float>(exact[i])) << where << " at " << i;
        }
      }
    }
  }
}

TEST(NormKernels, ResizeOfFloatImagesGivesTheSameBitsOnAnyThreadCount) {
  Result<Model> model = parseText(R"(
    <ir_version: 10, opset_import: ["" : 19]>
    g (float[1,4,100,90] x, float[4] scales) => (float[1,4,200,180] n, float[1,4,200,180] l) {
      n = Resize <mode = "nearest", coordinate_transformation_mode = "asymmetric",
                  nearest_mode = "floor"> (x, , scales)
      l = Resize <mode = "linear"> (x, , scales)
    })");
  ASSERT_TRUE(model) << model.status().toString();
  std::vector<NamedValue> inputs = {{"x", floats({1, 4, 100, 90}, randomFloats(36000, 1))},
                                    {"scales", floats({4}, {1, 1, 2, 2})}};
  EXPECT_EQ(testing::threadCountDifference(*model, inputs, 3), "");
}

TEST(NormKernels, GridSampleCornersWithAlignCorners) {
  // The grid points at the four corners in (x, y) order read the corner pixels.
  Result<std::vector<EvalValue>> out =
      runText(R"(
    <ir_version: 10, opset_import: ["" : 20]>
    g (float[1,1,2,2] x, float[1,1,4,2] grid) => (float[1,1,1,4] y) {
      y = GridSample <align_corners = 1> (x, grid)
    })",
              {{"x", floats({1, 1, 2, 2}, {1, 2, 3, 4})},
               {"grid", floats({1, 1, 4, 2}, {-1, -1, 1, -1, -1, 1, 1, 1})}});
  ASSERT_TRUE(out) << out.status().toString();
  EXPECT_EQ(valuesOf<float>((*out)[0]), (std::vector<float>{1, 2, 3, 4}));
}

TEST(NormKernels, GridSampleRefusesAGridOfTheWrongWidth) {
  Result<std::vector<EvalValue>> out = runText(
      R"(
    <ir_version: 10, opset_import: ["" : 20]>
    g (float[1,1,2,2] x, float[1,1,1,3] grid) => (float[1,1,1,1] y) { y = GridSample (x, grid) })",
      {{"x", floats({1, 1, 2, 2}, {1, 2, 3, 4})}, {"grid", floats({1, 1, 1, 3}, {0, 0, 0})}});
  ASSERT_FALSE(out);
}

// ---- detection ------------------------------------------------------------------------------

TEST(NormKernels, NonMaxSuppressionSelectsNothingWithoutAMaximum) {
  Result<std::vector<EvalValue>> out =
      runText(R"(
    <ir_version: 10, opset_import: ["" : 11]>
    g (float[1,1,4] boxes, float[1,1,1] scores) => (int64[N,3] y) {
      y = NonMaxSuppression (boxes, scores)
    })",
              {{"boxes", floats({1, 1, 4}, {0, 0, 1, 1})}, {"scores", floats({1, 1, 1}, {0.9f})}});
  ASSERT_TRUE(out) << out.status().toString();
  EXPECT_EQ((*out)[0].tensor.shape(), (std::vector<int64_t>{0, 3}));
}

TEST(NormKernels, NonMaxSuppressionRefusesMismatchedScores) {
  Result<std::vector<EvalValue>> out = runText(
      R"(
    <ir_version: 10, opset_import: ["" : 11]>
    g (float[1,1,4] boxes, float[1,1,2] scores) => (int64[N,3] y) {
      y = NonMaxSuppression (boxes, scores)
    })",
      {{"boxes", floats({1, 1, 4}, {0, 0, 1, 1})}, {"scores", floats({1, 1, 2}, {0.9f, 0.8f})}});
  ASSERT_FALSE(out);
}

TEST(NormKernels, RoiAlignRefusesABatchIndexOutOfRange) {
  Result<std::vector<EvalValue>> out =
      runText(R"(
    <ir_version: 10, opset_import: ["" : 16]>
    g (float[1,1,2,2] x, float[1,4] rois, int64[1] b) => (float[1,1,1,1] y) {
      y = RoiAlign (x, rois, b)
    })",
              {{"x", floats({1, 1, 2, 2}, {1, 2, 3, 4})},
               {"rois", floats({1, 4}, {0, 0, 1, 1})},
               {"b", tensorOf<int64_t>(ElementType::kInt64, {1}, {1})}});
  ASSERT_FALSE(out);
  EXPECT_TRUE(mentions(out.status(), "batch index")) << out.status().toString();
}

// ---- extreme inputs: errors or values, never a crash ------------------------------------

TEST(NormKernels, ResizeCropFarOutsideGivesTheExtrapolationValue) {
  Result<std::vector<EvalValue>> out =
      runText(R"(
    <ir_version: 10, opset_import: ["" : 19]>
    g (float[2] x, float[2] roi, int64[1] sizes) => (float[3] y) {
      y = Resize <mode = "cubic", coordinate_transformation_mode = "tf_crop_and_resize",
                  extrapolation_value = 7.0> (x, roi, , sizes)
    })",
              {{"x", floats({2}, {1, 2})},
               {"roi", floats({2}, {1e30f, 3e30f})},
               {"sizes", tensorOf<int64_t>(ElementType::kInt64, {1}, {3})}});
  ASSERT_TRUE(out) << out.status().toString();
  EXPECT_EQ(valuesOf<float>((*out)[0]), (std::vector<float>{7, 7, 7}));
}

TEST(NormKernels, ResizeAntialiasDownsamplingAverages) {
  // Linear antialias halving (1, 3, 5, 7): each output the triangle weights (1, 3, 3, 1) / 8
  // over four inputs, the edge repeated: (1 + 3 + 9 + 5) / 8 and (3 + 15 + 21 + 7) / 8.
  Result<std::vector<EvalValue>> out =
      runText(R"(
    <ir_version: 10, opset_import: ["" : 19]>
    g (float[4] x, float[1] scales) => (float[2] y) {
      y = Resize <mode = "linear", antialias = 1> (x, , scales)
    })",
              {{"x", floats({4}, {1, 3, 5, 7})}, {"scales", floats({1}, {0.5f})}});
  ASSERT_TRUE(out) << out.status().toString();
  std::vector<float> y = valuesOf<float>((*out)[0]);
  ASSERT_EQ(y.size(), 2u);
  EXPECT_NEAR(y[0], 2.25f, 1e-5f);
  EXPECT_NEAR(y[1], 5.75f, 1e-5f);
}

TEST(NormKernels, GridSampleOfNaNCoordinatesIsPadding) {
  Result<std::vector<EvalValue>> out = runText(
      R"(
    <ir_version: 10, opset_import: ["" : 20]>
    g (float[1,1,2,2] x, float[1,1,1,2] grid) => (float[1,1,1,1] y) {
      y = GridSample <mode = "nearest", padding_mode = "reflection"> (x, grid)
    })",
      {{"x", floats({1, 1, 2, 2}, {1, 2, 3, 4})}, {"grid", floats({1, 1, 1, 2}, {NAN, 1e38f})}});
  ASSERT_TRUE(out) << out.status().toString();
  EXPECT_EQ(valuesOf<float>((*out)[0]).size(), 1u);
}

TEST(NormKernels, RoiAlignOfANaNRegionIsZero) {
  Result<std::vector<EvalValue>> out =
      runText(R"(
    <ir_version: 10, opset_import: ["" : 16]>
    g (float[1,1,2,2] x, float[1,4] rois, int64[1] b) => (float[1,1,1,1] y) {
      y = RoiAlign <sampling_ratio = 2> (x, rois, b)
    })",
              {{"x", floats({1, 1, 2, 2}, {1, 2, 3, 4})},
               {"rois", floats({1, 4}, {NAN, 0, 1, 1})},
               {"b", tensorOf<int64_t>(ElementType::kInt64, {1}, {0})}});
  ASSERT_TRUE(out) << out.status().toString();
  EXPECT_EQ(valuesOf<float>((*out)[0]), (std::vector<float>{0}));
}

TEST(NormKernels, AttentionRefusesANegativeNonpadLength) {
  Result<std::vector<EvalValue>> out =
      runText(R"(
    <ir_version: 10, opset_import: ["" : 24]>
    g (float[1,1,1,1] q, float[1,1,2,1] k, float[1,1,2,1] v, int64[1] n) => (float[1,1,1,1] y) {
      y = Attention <is_causal = 1> (q, k, v, , , , n)
    })",
              {{"q", floats({1, 1, 1, 1}, {1})},
               {"k", floats({1, 1, 2, 1}, {1, 2})},
               {"v", floats({1, 1, 2, 1}, {1, 2})},
               {"n", tensorOf<int64_t>(ElementType::kInt64, {1}, {INT64_MIN})}});
  ASSERT_FALSE(out);
  EXPECT_TRUE(mentions(out.status(), "nonpad_kv_seqlen")) << out.status().toString();
}

}  // namespace
}  // namespace onyx
