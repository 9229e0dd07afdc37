// standard-fusions: each fusion folds what it should (node counts), computes what the model
// computed (within 1e-5 relative, through the evaluator), and leaves alone what it must.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <string>

#include "onyx/ir/tensor_array.h"
#include "onyx/ir/tensor_data.h"
#include "ops/lib/real_kernels.h"

#include "support/check_testing.h"
#include "support/eval_testing.h"
#include "support/graph_testing.h"
#include "support/pass_testing.h"

namespace onyx {
namespace {

using testing::optimizeChecked;
using testing::opTypes;
using testing::tensorOf;

constexpr Tolerance kFused{1e-5, 1e-6};

// `count` numbers for a tensor literal, varied and deterministic; `positive` keeps them above
// zero (variances).
std::string numbers(size_t count, double offset = 0, bool positive = false) {
  std::string text;
  for (size_t i = 0; i < count; ++i) {
    double value = std::sin(static_cast<double>(i) * 1.7 + offset) * 0.9;
    if (positive) value = std::fabs(value) + 0.1;
    text += (i == 0 ? "" : ", ") + std::to_string(value);
  }
  return text;
}

std::vector<float> floats(size_t count, double offset) {
  std::vector<float> values(count);
  for (size_t i = 0; i < count; ++i)
    values[i] = static_cast<float>(std::cos(static_cast<double>(i) * 0.37 + offset));
  return values;
}

// BatchNormalization parameters named g, b, m, v of `channels` elements.
std::string batchNormParameters(int channels) {
  std::string c = std::to_string(channels);
  return "float[" + c + "] g = {" + numbers(channels, 1) + "}, float[" + c + "] b = {" +
         numbers(channels, 2) + "}, float[" + c + "] m = {" + numbers(channels, 3) + "}, float[" +
         c + "] v = {" + numbers(channels, 4, true) + "}";
}

std::vector<NamedValue> image(int64_t channels = 2) {
  return {{"x", tensorOf<float>(ElementType::kFloat, {1, channels, 4, 4},
                                floats(static_cast<size_t>(channels) * 16, 0.5))}};
}

std::string fusedOps(const std::string& text, const std::vector<NamedValue>& inputs) {
  auto done = optimizeChecked(text, {"standard-fusions", "dead-code"}, inputs, false, kFused);
  return done.model.graph != nullptr ? opTypes(*done.model.graph) : "";
}

const std::string kHeader = "<ir_version: 10, opset_import: [\"\" : 18]>\n";

TEST(StandardFusions, BatchNormFoldsIntoAConvWithAndWithoutBias) {
  for (bool bias : {true, false}) {
    std::string text =
        kHeader + "g (float[1,2,4,4] x) => (float[1,3,4,4] y) <float[3,2,3,3] w = {" + numbers(54) +
        "}, float[3] c = {" + numbers(3, 5) + "}, " + batchNormParameters(3) + "> {\n" +
        (bias ? "  t = Conv<pads = [1, 1, 1, 1]>(x, w, c)\n"
              : "  t = Conv<pads = [1, 1, 1, 1]>(x, w)\n") +
        "  y = BatchNormalization<epsilon = 0.001>(t, g, b, m, v)\n}";
    auto done = optimizeChecked(text, {"standard-fusions", "dead-code"}, image(), false, kFused);
    const Graph& graph = *done.model.graph;
    EXPECT_EQ(opTypes(graph), "Conv");
    // The output keeps its name; the fused weights and bias replace the old ones.
    EXPECT_EQ(graph.outputs[0]->bound()->name(), "y");
    EXPECT_EQ(graph.initializers.size(), 2u);
    EXPECT_EQ(graph.lookup("w"), nullptr);
  }
}

TEST(StandardFusions, BatchNormFoldsIntoAGroupedConvTranspose) {
  // Weights (C=4, M/group=3, 2, 2) with group 2: output channels 6, per group dim 1.
  std::string text = kHeader + "g (float[1,4,4,4] x) => (float[1,6,5,5] y) <float[4,3,2,2] w = {" +
                     numbers(48) + "}, " + batchNormParameters(6) + "> {\n" +
                     "  t = ConvTranspose<group = 2>(x, w)\n" +
                     "  y = BatchNormalization(t, g, b, m, v)\n}";
  EXPECT_EQ(fusedOps(text, image(4)), "ConvTranspose");
}

TEST(StandardFusions, BatchNormFoldsIntoAGemmWithItsBetaAndTransposedWeights) {
  std::string text = kHeader + "g (float[2,4] x) => (float[2,3] y) <float[3,4] w = {" +
                     numbers(12) + "}, float[2,3] c = {" + numbers(6, 7) + "}, " +
                     batchNormParameters(3) +
                     "> {\n  t = Gemm<transB = 1, alpha = 0.5, beta = 2.0>(x, w, c)\n" +
                     "  y = BatchNormalization(t, g, b, m, v)\n}";
  EXPECT_EQ(fusedOps(text, {{"x", tensorOf<float>(ElementType::kFloat, {2, 4}, floats(8, 1))}}),
            "Gemm");
}

TEST(StandardFusions, AMatMulAndItsBatchNormBecomeOneGemm) {
  std::string text = kHeader + "g (float[2,4] x) => (float[2,3] y) <float[4,3] w = {" +
                     numbers(12) + "}, " + batchNormParameters(3) + "> {\n" +
                     "  t = MatMul(x, w)\n  y = BatchNormalization(t, g, b, m, v)\n}";
  EXPECT_EQ(fusedOps(text, {{"x", tensorOf<float>(ElementType::kFloat, {2, 4}, floats(8, 1))}}),
            "Gemm");
}

TEST(StandardFusions, AConvBatchNormMulAddChainBecomesOneConv) {
  std::string text = kHeader + "g (float[1,2,4,4] x) => (float[1,3,4,4] y) <float[3,2,1,1] w = {" +
                     numbers(6) + "}, " + batchNormParameters(3) + ", float[3,1,1] s = {" +
                     numbers(3, 8) + "}, float[1,3,1,1] a = {" + numbers(3, 9) +
                     "}, float[1] d = {0.25}> {\n" +
                     "  t = Conv(x, w)\n  n = BatchNormalization(t, g, b, m, v)\n" +
                     "  p = Mul(s, n)\n  q = Add(p, a)\n  y = Sub(q, d)\n}";
  EXPECT_EQ(fusedOps(text, image()), "Conv");
}

TEST(StandardFusions, WhatIsNotPerChannelOrNotConstantStays) {
  // An Add that varies along H, a BatchNormalization in training mode, a Mul whose weights
  // are an input: all stay.
  std::string text =
      kHeader +
      "g (float[1,2,4,4] x, float[3,2,1,1] wi) => (float[1,3,4,4] y, float[1,3,4,4] z) "
      "<float[3,2,1,1] w = {" +
      numbers(6) + "}, float[3,4,1] e = {" + numbers(12, 3) + "}, " + batchNormParameters(3) +
      ", float[3,1,1] s = {" + numbers(3, 8) + "}> {\n" +
      "  t = Conv(x, w)\n  u = Add(t, e)\n  y = BatchNormalization<training_mode = 1>(u, g, b, "
      "m, v)\n  k = Conv(x, wi)\n  z = Mul(k, s)\n}";
  std::vector<NamedValue> inputs = image();
  inputs.push_back({"wi", tensorOf<float>(ElementType::kFloat, {3, 2, 1, 1}, floats(6, 2))});
  EXPECT_EQ(fusedOps(text, inputs), "Conv Add BatchNormalization Conv Mul");
}

TEST(StandardFusions, AnAddFoldsIntoTheBiasOfAConvWhoseWeightsAreAnInput) {
  std::string text = kHeader +
                     "g (float[1,2,4,4] x, float[3,2,1,1] wi) => (float[1,3,4,4] y) "
                     "<float[3,1,1] a = {" +
                     numbers(3, 9) + "}> {\n  t = Conv(x, wi)\n  y = Add(a, t)\n}";
  std::vector<NamedValue> inputs = image();
  inputs.push_back({"wi", tensorOf<float>(ElementType::kFloat, {3, 2, 1, 1}, floats(6, 2))});
  EXPECT_EQ(fusedOps(text, inputs), "Conv");
}

TEST(StandardFusions, SharedWeightsStayForTheConvThatDoesNotFold) {
  std::string text = kHeader +
                     "g (float[1,2,4,4] x) => (float[1,3,4,4] y, float[1,3,4,4] z) "
                     "<float[3,2,1,1] w = {" +
                     numbers(6) + "}, " + batchNormParameters(3) + "> {\n" +
                     "  t = Conv(x, w)\n  y = BatchNormalization(t, g, b, m, v)\n" +
                     "  z = Conv(x, w)\n}";
  auto done = optimizeChecked(text, {"standard-fusions", "dead-code"}, image(), false, kFused);
  const Graph& graph = *done.model.graph;
  EXPECT_EQ(opTypes(graph), "Conv Conv");
  ASSERT_NE(graph.lookup("w"), nullptr);
  EXPECT_EQ(graph.lookup("w")->useCount(), 1u);
}

TEST(StandardFusions, MatMulAddBecomesGemmOnlyWhereExact) {
  std::string text = kHeader +
                     "g (float[2,4] x, float[5,2,4] x3) => (float[2,3] y, float[5,2,3] z) "
                     "<float[4,3] w = {" +
                     numbers(12) + "}, float[3] c = {" + numbers(3, 2) + "}> {\n" +
                     "  t = MatMul(x, w)\n  y = Add(c, t)\n" +
                     "  u = MatMul(x3, w)\n  z = Add(u, c)\n}";
  std::vector<NamedValue> inputs = {
      {"x", tensorOf<float>(ElementType::kFloat, {2, 4}, floats(8, 1))},
      {"x3", tensorOf<float>(ElementType::kFloat, {5, 2, 4}, floats(40, 2))}};
  EXPECT_EQ(fusedOps(text, inputs), "Gemm MatMul Add");
}

TEST(StandardFusions, ABiasThatWouldGrowTheResultStays) {
  // A (4, 2, 3) bias makes the (2, 3) product 3-D, which a Gemm cannot.
  std::string text = kHeader + "g (float[2,4] x) => (float[4,2,3] y) <float[4,3] w = {" +
                     numbers(12) + "}, float[4,2,3] c = {" + numbers(24, 2) + "}> {\n" +
                     "  t = MatMul(x, w)\n  y = Add(t, c)\n}";
  EXPECT_EQ(fusedOps(text, {{"x", tensorOf<float>(ElementType::kFloat, {2, 4}, floats(8, 1))}}),
            "MatMul Add");
}

TEST(StandardFusions, InASubgraphTheFoldedWeightsAreConstantNodes) {
  std::string text = kHeader +
                     "g (float[1,2,4,4] x, bool c) => (float[1,3,4,4] y) <float[3,2,1,1] w = {" +
                     numbers(6) + "}, " + batchNormParameters(3) + "> {\n" +
                     "  y = If(c) <then_branch = t () => (float[1,3,4,4] o) {\n" +
                     "      k = Conv(x, w)\n      o = BatchNormalization(k, g, b, m, v)\n    },\n" +
                     "    else_branch = e () => (float[1,3,4,4] p) { p = Conv(x, w) }>\n}";
  std::vector<NamedValue> inputs = image();
  inputs.push_back({"c", tensorOf<bool>(ElementType::kBool, {}, {true})});
  auto done = optimizeChecked(text, {"standard-fusions", "dead-code"}, inputs, false, kFused);
  const Graph& branch = *(*done.model.graph->nodes().begin())->graphAttr("then_branch");
  EXPECT_EQ(opTypes(branch), "Constant Constant Conv");  // the weights, then the bias
  EXPECT_EQ(branch.outputs[0]->bound()->name(), "o");
}

TEST(StandardFusions, FailingHalfWayLeavesTheModelAsItWas) {
  // A fold in the branch (recorded first: graphs go innermost first), then one in the main
  // graph: a failure after the first leaves both undone.
  testing::expectAllOrNothing(
      kHeader + "g (float[1,2,4,4] x, bool c) => (float[1,3,4,4] y, float[1,3,4,4] z) " +
          "<float[3,2,1,1] w = {" + numbers(6) + "}, " + batchNormParameters(3) + "> {\n" +
          "  y = If(c) <then_branch = t () => (float[1,3,4,4] o) {\n" +
          "      k = Conv(x, w)\n      o = BatchNormalization(k, g, b, m, v)\n    },\n" +
          "    else_branch = e () => (float[1,3,4,4] p) { p = Conv(x, w) }>\n" +
          "  u = Conv(x, w)\n  z = BatchNormalization(u, g, b, m, v)\n}",
      "standard-fusions");
}

TEST(StandardFusions, OneWalkRecordsMatchesThatDoNotOverlapAndLeavesTheRestToTheNext) {
  // Two chains: Conv, Mul, Add folds in two walks (the Add's match reads the Mul's output,
  // which the first walk's rewrite replaces); the two Convs fold in the same walk.
  std::string text = kHeader + "g (float[1,2,4,4] x) => (float[1,3,4,4] y, float[1,3,4,4] z) " +
                     "<float[3,2,1,1] w = {" + numbers(6) + "}, float[1,3,1,1] s = {" +
                     numbers(3, 1) + "}, float[1,3,1,1] a = {" + numbers(3, 2) + "}> {\n" +
                     "  t = Conv(x, w)\n  m = Mul(t, s)\n  y = Add(m, a)\n" +
                     "  u = Conv(x, w)\n  z = Mul(u, s)\n}";
  auto done = optimizeChecked(text, {"standard-fusions", "dead-code"}, image(), false, kFused);
  EXPECT_EQ(opTypes(*done.model.graph), "Conv Conv");
  EXPECT_EQ(done.model.graph->outputs[0]->bound()->name(), "y");
  EXPECT_EQ(done.model.graph->outputs[1]->bound()->name(), "z");
}

TEST(StandardFusions, LargeWeightsAreComputedWhenReadOrWrittenNotHeld) {
  // 512 x 512 floats: 1 MiB, the size from which folded weights are computed on demand. The
  // MatMul and its BatchNormalization become a Gemm, and the Mul after it scales the same
  // weights again: computed from computed. optimizeChecked runs, checks, writes and reads it.
  constexpr int kWidth = 512;
  std::string n = std::to_string(kWidth);
  std::string text = kHeader + "g (float[2," + n + "] x) => (float[2," + n + "] y) <float[" + n +
                     "," + n + "] w = {" + numbers(kWidth * kWidth) + "}, " +
                     batchNormParameters(kWidth) + ", float[" + n + "] s = {" + numbers(kWidth, 8) +
                     "}> {\n" + "  t = MatMul(x, w)\n  u = BatchNormalization(t, g, b, m, v)\n" +
                     "  y = Mul(u, s)\n}";
  auto done = optimizeChecked(
      text, {"standard-fusions", "dead-code"},
      {{"x", tensorOf<float>(ElementType::kFloat, {2, kWidth}, floats(2 * kWidth, 1))}}, false,
      kFused);
  const Graph& graph = *done.model.graph;
  ASSERT_EQ(opTypes(graph), "Gemm");
  const Tensor* folded = graph.firstNode()->input(1)->initializer();
  ASSERT_NE(folded, nullptr);
  EXPECT_EQ(tensorStorage(*folded), TensorStorage::kComputed);
  EXPECT_FALSE(folded->raw_data.has_value());

  // The bytes, against the arithmetic done here: each column scaled by the normalization's
  // gamma / sqrt(var + epsilon), rounded to float, then by s, rounded again.
  Model original = testing::parseOrFail(text);
  auto parameter = [&](std::string_view name) {
    Result<Array> array = arrayFromTensor(*original.graph->lookup(name)->initializer());
    EXPECT_TRUE(array);
    return array ? ops::realsOf(*array) : std::vector<double>();
  };
  std::vector<double> w = parameter("w"), g = parameter("g"), v = parameter("v"),
                      s = parameter("s");
  Result<TensorBytes> bytes = rawBytes(*folded);
  ASSERT_TRUE(bytes);
  ASSERT_EQ(bytes->bytes().size(), w.size() * sizeof(float));
  size_t mismatches = 0;
  for (size_t i = 0; i < w.size(); ++i) {
    size_t column = i % kWidth;
    // As the fold writes it: plus a zero shift, so that -0 comes out +0.
    auto once = static_cast<float>(w[i] * (g[column] / std::sqrt(v[column] + 1e-5f)) + 0.0);
    auto twice = static_cast<float>(static_cast<double>(once) * s[column] + 0.0);
    float got;
    std::memcpy(&got, bytes->bytes().data() + i * sizeof(float), sizeof(float));
    if (std::memcmp(&got, &twice, sizeof(float)) != 0) ++mismatches;
  }
  EXPECT_EQ(mismatches, 0u);
  // A slice read alone is the same bytes as that slice of the whole.
  std::vector<std::byte> slice(4096);
  ASSERT_TRUE(readRawBytes(*folded, 12288, slice).isOk());
  EXPECT_EQ(std::memcmp(slice.data(), bytes->bytes().data() + 12288, slice.size()), 0);
  EXPECT_FALSE(readRawBytes(*folded, bytes->bytes().size() - 16, slice).isOk());
}

TEST(StandardFusions, AreInTheDefaultList) {
  std::vector<std::string> names = defaultPassNames();
  EXPECT_NE(std::find(names.begin(), names.end(), "standard-fusions"), names.end());
}

}  // namespace
}  // namespace onyx
