// Values between convolutions stay channels-last through the nodes a convolution network
// puts between them (src/eval/layout/channels_last_kernels.h): the plan keeps them so only where
// every reader takes that layout, and the results are those of the literal evaluation
// (fusions off).
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "eval/engine/plan_store.h"
#include "eval/fusions/fusion_pattern.h"
#include "onyx/eval/evaluator.h"
#include "onyx/ir/node.h"
#include "onyx/text/parser.h"
#include "support/eval_testing.h"

namespace onyx {
namespace {

using testing::tensorOf;
using testing::valuesOf;

// Small integers as floats: every sum a convolution makes of them is exact in any order, so
// oneDNN's channels-last path and the literal one must agree to the bit.
std::vector<float> smallIntegers(size_t count, uint32_t seed, int low = -2, int high = 2) {
  std::mt19937 engine(seed);
  std::uniform_int_distribution<int> pick(low, high);
  std::vector<float> values(count);
  for (float& v : values) v = static_cast<float>(pick(engine));
  return values;
}

std::string initializer(const std::string& name, const std::vector<int64_t>& dims,
                        const std::vector<float>& values) {
  std::ostringstream text;
  text.precision(9);
  text << "float" << testing::dimsText(dims) << " " << name << " = {";
  for (size_t i = 0; i < values.size(); ++i) text << (i ? ", " : "") << values[i];
  text << "}";
  return text.str();
}

// `body` over x [1, 4, 12, 12] giving y, with integer weights: w1 [8, 4, 3, 3], b1 [8],
// w2 and w3 [8, 8, 1, 1], w4 [6, 16, 3, 3], and half = 0.5.
std::string detectorLikeModel(const std::string& output, const std::string& body,
                              bool integers = true, const std::string& extra = "") {
  auto values = [&](size_t count, uint32_t seed) {
    return integers ? smallIntegers(count, seed) : testing::randomFloats(count, seed);
  };
  return R"(<ir_version: 10, opset_import: ["" : 19]>
    g (float[1, 4, 12, 12] x) => ()" +
         output + ") <" + initializer("w1", {8, 4, 3, 3}, values(8 * 4 * 9, 1)) + ", " +
         initializer("b1", {8}, values(8, 2)) + ", " +
         initializer("w2", {8, 8, 1, 1}, values(64, 3)) + ", " +
         initializer("w3", {8, 8, 1, 1}, values(64, 4)) + ", " +
         initializer("w4", {6, 16, 3, 3}, values(6 * 16 * 9, 5)) + ", float half = {0.5}" + extra +
         "> {" + body + "\n    }";
}

// A small DB-detector neck: a pooled branch upsampled back (Resize) and added to a lateral
// convolution, the two concatenated on the channels for the last convolution. A Mul by a
// constant runs alone between the pooling and a convolution.
constexpr const char* kNeck = R"(
      c1 = Conv <pads = [1, 1, 1, 1]> (x, w1, b1)
      r1 = Relu (c1)
      p = MaxPool <kernel_shape = [3, 3], strides = [2, 2], pads = [1, 1, 1, 1]> (r1)
      q = Mul (p, half)
      c2 = Conv (q, w2)
      scales = Constant <value = float[4] {1, 1, 2, 2}> ()
      u = Resize <mode = "nearest", coordinate_transformation_mode = "asymmetric",
                  nearest_mode = "floor"> (c2, , scales)
      c3 = Conv (r1, w3)
      s = Add (c3, u)
      cat = Concat <axis = 1> (s, u)
      y = Conv <pads = [1, 1, 1, 1]> (cat, w4))";

std::vector<NamedValue> inputOf(std::vector<float> values) {
  return {{"x", tensorOf<float>(ElementType::kFloat, {1, 4, 12, 12}, values)}};
}

std::vector<float> run(const Model& model, const std::vector<NamedValue>& inputs, bool fusions,
                       int threads = 1) {
  EvalOptions options;
  options.fusions = fusions;
  options.threads = threads;
  Result<std::vector<EvalValue>> out = evaluate(model, inputs, options);
  EXPECT_TRUE(out) << out.status().toString();
  return out ? valuesOf<float>((*out)[0]) : std::vector<float>{};
}

// Random values: oneDNN's sums round in another order than the literal convolution's.
void expectLiteralWithinRounding(const Model& model, const std::vector<NamedValue>& inputs) {
  std::vector<float> fused = run(model, inputs, true);
  std::vector<float> literal = run(model, inputs, false);
  ASSERT_EQ(fused.size(), literal.size());
  ASSERT_FALSE(fused.empty());
  for (size_t i = 0; i < fused.size(); ++i) {
    ASSERT_NEAR(fused[i], literal[i], 1e-4f * (1.0f + std::fabs(literal[i]))) << "at " << i;
  }
}

// What the plan decided: per node name, whether it runs channels-last (alone) or its step
// writes its output channels-last (fused).
std::map<std::string, bool> layouts(const Model& model) {
  EvalOptions options;
  eval_internal::PlanStore plans(model, options);
  Result<const eval_internal::GraphPlan*> plan = plans.mainPlan();
  EXPECT_TRUE(plan) << plan.status().toString();
  std::map<std::string, bool> decided;
  if (!plan) return decided;
  for (const eval_internal::PlanStep& step : (*plan)->steps) {
    const eval_internal::BoundNode& last = (*plan)->nodes[step.members.back()];
    std::string name(last.node->output(0)->name());
    decided[name] = step.fused != nullptr ? step.fused->writesChannelsLast() : last.channels_last;
  }
  return decided;
}

TEST(ChannelsLast, ValuesBetweenConvolutionsStayChannelsLastThroughPoolResizeConcat) {
  Result<Model> model = parseText(detectorLikeModel("float[1, 6, 12, 12] y", kNeck));
  ASSERT_TRUE(model) << model.status().toString();
  std::map<std::string, bool> decided = layouts(*model);
  // Every value but the graph's output. The Constant of the scales is no step: the plan reads
  // its tensor as it reads an initializer.
  std::map<std::string, bool> expected = {{"r1", true}, {"p", true}, {"q", true},   {"c2", true},
                                          {"u", true},  {"s", true}, {"cat", true}, {"y", false}};
  EXPECT_EQ(decided, expected);
}

TEST(ChannelsLast, TheChannelsLastNeckGivesTheLiteralBits) {
  Result<Model> model = parseText(detectorLikeModel("float[1, 6, 12, 12] y", kNeck));
  ASSERT_TRUE(model) << model.status().toString();
  std::vector<NamedValue> inputs = inputOf(smallIntegers(4 * 144, 9, -3, 3));
  std::vector<float> fused = run(*model, inputs, true);
  std::vector<float> literal = run(*model, inputs, false);
  ASSERT_EQ(fused.size(), 6u * 144);
  EXPECT_EQ(fused, literal);
  EXPECT_EQ(run(*model, inputs, true, 2), fused);
  EXPECT_EQ(testing::threadCountDifference(*model, inputs), "");
}

TEST(ChannelsLast, TheChannelsLastNeckOnRandomValuesIsTheLiteralResultWithinRounding) {
  Result<Model> model = parseText(detectorLikeModel("float[1, 6, 12, 12] y", kNeck, false));
  ASSERT_TRUE(model) << model.status().toString();
  std::vector<NamedValue> inputs = inputOf(testing::randomFloats(4 * 144, 10));
  expectLiteralWithinRounding(*model, inputs);
}

// The neck with a bilinear upsampling, as U²-Net and feature pyramids write it: it stays
// channels-last, and on values whose sums are exact its result has the literal bits.
TEST(ChannelsLast, ABilinearResizeRunsChannelsLastWithTheLiteralBits) {
  std::string neck = kNeck;
  const std::string nearest =
      R"(u = Resize <mode = "nearest", coordinate_transformation_mode = "asymmetric",
                  nearest_mode = "floor"> (c2, , scales))";
  size_t at = neck.find(nearest);
  ASSERT_NE(at, std::string::npos);
  for (std::string coordinates : {"half_pixel", "align_corners", "asymmetric"}) {
    std::string linear = neck;
    linear.replace(at, nearest.size(),
                   "u = Resize <mode = \"linear\", coordinate_transformation_mode = \"" +
                       coordinates + "\"> (c2, , scales)");
    Result<Model> model = parseText(detectorLikeModel("float[1, 6, 12, 12] y", linear));
    ASSERT_TRUE(model) << model.status().toString();
    EXPECT_TRUE(layouts(*model).at("u")) << coordinates;
    std::vector<NamedValue> inputs = inputOf(smallIntegers(4 * 144, 11, -3, 3));
    std::vector<float> fused = run(*model, inputs, true);
    ASSERT_EQ(fused.size(), 6u * 144);
    EXPECT_EQ(fused, run(*model, inputs, false)) << coordinates;
    EXPECT_EQ(run(*model, inputs, true, 2), fused) << coordinates;
  }
}

// Pooling windows at the edges: ceil_mode's overhang, dilations, uneven pads, one wholly in
// the padding; and a NaN, which wins its windows.
TEST(ChannelsLast, MaxPoolWindowsAtTheEdgesAndNaNAreTheLiteralOnes) {
  std::string body = R"(
      c1 = Conv <pads = [1, 1, 1, 1]> (x, w1, b1)
      p = MaxPool <kernel_shape = [3, 2], strides = [3, 2], dilations = [2, 1],
                   pads = [0, 2, 3, 1], ceil_mode = 1> (c1)
      y = Conv (p, w2))";
  Result<Model> model = parseText(detectorLikeModel("float[n, c, h, w] y", body));
  ASSERT_TRUE(model) << model.status().toString();
  EXPECT_TRUE(layouts(*model).at("p"));
  std::vector<float> x = smallIntegers(4 * 144, 11, -3, 3);
  std::vector<float> literal = run(*model, inputOf(x), false);
  EXPECT_EQ(run(*model, inputOf(x), true), literal);
  x[5 * 12 + 7] = std::nanf("");
  std::vector<float> fused = run(*model, inputOf(x), true);
  literal = run(*model, inputOf(x), false);
  ASSERT_EQ(fused.size(), literal.size());
  size_t nans = 0;
  for (size_t i = 0; i < fused.size(); ++i) {
    if (std::isnan(literal[i])) {
      EXPECT_TRUE(std::isnan(fused[i])) << "at " << i;
      ++nans;
    } else {
      EXPECT_EQ(fused[i], literal[i]) << "at " << i;
    }
  }
  EXPECT_GT(nans, 0u);
}

// A value read by something without a channels-last kernel (LRN here), or given back as a
// graph output, is written channels-first by the convolution that makes it.
TEST(ChannelsLast, AReaderThatCannotTakeChannelsLastKeepsItsValueChannelsFirst) {
  std::string body = R"(
      c1 = Conv <pads = [1, 1, 1, 1]> (x, w1, b1)
      r1 = Relu (c1)
      n = LRN <size = 3> (r1)
      c2 = Conv (n, w2)
      scales = Constant <value = float[4] {1, 1, 2, 2}> ()
      y = Resize <mode = "nearest"> (c2, , scales))";
  Result<Model> model = parseText(detectorLikeModel("float[1, 8, 24, 24] y", body, false));
  ASSERT_TRUE(model) << model.status().toString();
  std::map<std::string, bool> decided = layouts(*model);
  EXPECT_FALSE(decided.at("r1"));
  EXPECT_FALSE(decided.at("c2"));
  EXPECT_FALSE(decided.at("y"));
  std::vector<NamedValue> inputs = inputOf(testing::randomFloats(4 * 144, 12));
  expectLiteralWithinRounding(*model, inputs);
}

// A Resize the channels-last kernel declines when it runs (it scales the channels too): the
// node runs channels-first on its input made so, and the convolution after reads that.
TEST(ChannelsLast, AResizeThatScalesTheChannelsRunsChannelsFirst) {
  std::string body = R"(
      c1 = Conv <pads = [1, 1, 1, 1]> (x, w1, b1)
      scales = Constant <value = float[4] {1, 2, 2, 2}> ()
      u = Resize <mode = "nearest"> (c1, , scales)
      y = Conv (u, w4))";
  Result<Model> model = parseText(detectorLikeModel("float[n, c, h, w] y", body));
  ASSERT_TRUE(model) << model.status().toString();
  EXPECT_TRUE(layouts(*model).at("u"));
  std::vector<NamedValue> inputs = inputOf(smallIntegers(4 * 144, 13, -3, 3));
  EXPECT_EQ(run(*model, inputs, true), run(*model, inputs, false));
}

// A QuantizeLinear -> DequantizeLinear pair per tensor between two convolutions (the QDQ form)
// keeps their values channels-last, uint8 in between; a DequantizeLinear whose scale is per
// channel declines when it runs and runs channels-first. Integer values: every result is
// exact, so both give the literal bits.
TEST(ChannelsLast, AQuantizePairPerTensorKeepsItsValuesChannelsLast) {
  for (const char* dequantize_scale : {"half", "per_channel"}) {
    std::string body = std::string(R"(
      c1 = Conv <pads = [1, 1, 1, 1]> (x, w1, b1)
      r1 = Relu (c1)
      zero = Constant <value = uint8 {128}> ()
      per_channel = Constant <value = float[8] {0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5}> ()
      zeros = Constant <value = uint8[8] {128, 128, 128, 128, 128, 128, 128, 128}> ()
      q = QuantizeLinear (r1, half, zero)
      d = DequantizeLinear <axis = 1> (q, )") +
                       dequantize_scale +
                       (std::string(dequantize_scale) == "half" ? ", zero)" : ", zeros)") + R"(
      y = Conv (d, w2))";
    Result<Model> model = parseText(detectorLikeModel("float[1, 8, 12, 12] y", body));
    ASSERT_TRUE(model) << model.status().toString();
    std::map<std::string, bool> decided = layouts(*model);
    EXPECT_TRUE(decided.at("r1")) << dequantize_scale;
    EXPECT_TRUE(decided.at("q")) << dequantize_scale;
    EXPECT_TRUE(decided.at("d")) << dequantize_scale;
    EXPECT_FALSE(decided.at("y"));
    std::vector<NamedValue> inputs = inputOf(smallIntegers(4 * 144, 14, -2, 2));
    EXPECT_EQ(run(*model, inputs, true), run(*model, inputs, false)) << dequantize_scale;
    EXPECT_EQ(run(*model, inputs, true, 2), run(*model, inputs, false)) << dequantize_scale;
  }
}

// A value a subgraph reads from the enclosing graph is read as it is: it stays channels-first,
// though the convolution beside the If could read it channels-last.
TEST(ChannelsLast, AValueASubgraphReadsStaysChannelsFirst) {
  std::string body = R"(
      c1 = Conv <pads = [1, 1, 1, 1]> (x, w1, b1)
      p = MaxPool <kernel_shape = [2, 2], strides = [2, 2]> (c1)
      q = If (flag) <then_branch = t () => (float[1, 8, 6, 6] r) {
          r = Relu (p)
        }, else_branch = e () => (float[1, 8, 6, 6] r) {
          r = Neg (p)
        }>
      z = Conv (p, w2)
      y = Add (z, q))";
  Result<Model> model =
      parseText(detectorLikeModel("float[1, 8, 6, 6] y", body, true, ", bool flag = {1}"));
  ASSERT_TRUE(model) << model.status().toString();
  std::map<std::string, bool> decided = layouts(*model);
  EXPECT_FALSE(decided.at("c1"));
  EXPECT_FALSE(decided.at("p"));
  std::vector<NamedValue> inputs = inputOf(smallIntegers(4 * 144, 14, -3, 3));
  EXPECT_EQ(run(*model, inputs, true), run(*model, inputs, false));
}

}  // namespace
}  // namespace onyx
