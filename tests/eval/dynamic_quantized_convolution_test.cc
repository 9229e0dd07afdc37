// The dynamically quantized convolution (src/eval/fusions/dynamic_quantized_convolution.cc):
// ConvInteger -> Cast -> Mul [-> Add] [-> Relu], as quantize_dynamic writes it, run as one
// step gives the nodes' result bit for bit, at every CPU tier and at one and two threads,
// through onyx's own kernel (small weights, or below VNNI) and oneDNN's (larger weights with
// VNNI); with scales and biases per tensor or per channel; and a scale it does not take
// leaves the nodes to run one by one; weights as an initializer also listed as an input, or
// as a Constant node, as exporters write them.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "onyx/core/cpu_tier.h"
#include "onyx/eval/evaluator.h"
#include "onyx/text/parser.h"
#include "support/eval_testing.h"

namespace onyx {
namespace {

using testing::valuesOf;

struct Case {
  int64_t c = 8, m = 16, h = 9, w = 7, k = 3;
  bool bias = true;
  bool relu = true;
  bool scale_per_channel = false;
  std::string scale_dims = "";  // the weights' scale's shape when per tensor: "" or "[1]"
};

std::string modelText(const Case& k, uint32_t seed) {
  std::mt19937 random(seed);
  std::uniform_int_distribution<int32_t> byte(0, 255);
  std::vector<int32_t> weights(static_cast<size_t>(k.m * k.c * k.k * k.k));
  for (int32_t& w : weights) w = byte(random);
  std::vector<float> biases = testing::randomFloats(static_cast<size_t>(k.m), seed + 1);
  std::vector<float> scales = testing::randomFloats(static_cast<size_t>(k.m), seed + 2);
  for (float& s : scales) s = 0.001f + 0.01f * (s + 1.0f);
  const std::string m = std::to_string(k.m);
  const std::string w_dims = "[" + m + "," + std::to_string(k.c) + "," + std::to_string(k.k) + "," +
                             std::to_string(k.k) + "]";
  const std::string pad = std::to_string(k.k / 2);
  std::string text =
      "<ir_version: 8, opset_import: [\"\" : 13]>\n"
      "g (float[1," +
      std::to_string(k.c) + "," + std::to_string(k.h) + "," + std::to_string(k.w) +
      "] x) => (float[1," + m + "," + std::to_string(k.h) + "," + std::to_string(k.w) +
      "] y)\n  <uint8" + w_dims + " w = {" + testing::elementsText(weights) + "}, uint8 wz = {131}";
  if (k.scale_per_channel) {
    text += ", float[1," + m + ",1,1] ws = {" + testing::floatsText(scales) + "}";
  } else {
    text += ", float" + k.scale_dims + " ws = {" + testing::floatsText({scales[0]}) + "}";
  }
  if (k.bias) text += ", float[" + m + ",1,1] b = {" + testing::floatsText(biases) + "}";
  text +=
      ">\n{\n  xq, xs, xz = DynamicQuantizeLinear(x)\n"
      "  s = ConvInteger <pads = [" +
      pad + ", " + pad + ", " + pad + ", " + pad +
      "]> (xq, w, xz, wz)\n"
      "  f = Cast <to = 1> (s)\n"
      "  scale = Mul(xs, ws)\n";
  std::string last = "scaled";
  text += "  scaled = Mul(f, scale)\n";
  if (k.bias) {
    text += "  biased = Add(b, " + last + ")\n";
    last = "biased";
  }
  if (k.relu) {
    text += "  rectified = Relu(" + last + ")\n";
    last = "rectified";
  }
  text += "  y = Identity(" + last + ")\n}\n";
  return text;
}

// The step the fusion runs, or "" when the nodes run one by one.
// `text`'s model on `inputs`, fused and node by node, at every tier and thread count.
void expectTextAsTheNodes(const std::string& text, const std::vector<NamedValue>& inputs,
                          const std::string& fused_step) {
  Result<Model> model = parseText(text);
  ASSERT_TRUE(model) << model.status().toString() << "\n" << text;
  for (CpuTier tier : testing::cpuTiersToTest()) {
    for (int threads : {1, 2}) {
      SCOPED_TRACE("tier " + std::string(cpuTierName(tier)) + ", " + std::to_string(threads) +
                   " threads\n" + text);
      EvalOptions options;
      options.threads = threads;
      options.max_isa = tier;
      options.fusions = false;
      Result<std::vector<EvalValue>> nodes = evaluate(*model, inputs, options);
      ASSERT_TRUE(nodes) << nodes.status().toString();
      testing::StepRecorder recorder;
      options.fusions = true;
      options.observer = &recorder;
      Result<std::vector<EvalValue>> fused = evaluate(*model, inputs, options);
      ASSERT_TRUE(fused) << fused.status().toString();
      EXPECT_EQ(valuesOf<float>((*fused)[0]), valuesOf<float>((*nodes)[0]));
      bool stepped = false;
      for (const std::string& step : recorder.steps) stepped = stepped || step == fused_step;
      if (!fused_step.empty()) {
        EXPECT_TRUE(stepped) << "no step " << fused_step;
        EXPECT_EQ(recorder.declined, 0u);
      } else {
        EXPECT_GT(recorder.declined, 0u);
      }
    }
  }
}

void expectAsTheNodes(const Case& k, uint32_t seed, const std::string& fused_step) {
  std::vector<float> x = testing::randomFloats(static_cast<size_t>(k.c * k.h * k.w), seed + 3);
  for (float& v : x) v *= 3.0f;
  expectTextAsTheNodes(
      modelText(k, seed),
      {{"x", testing::tensorOf<float>(ElementType::kFloat, {1, k.c, k.h, k.w}, x)}}, fused_step);
}

TEST(DynamicQuantizedConvolution, AsTheNodesWithBiasAndRelu) {
  expectAsTheNodes(Case{}, 1, "ConvInteger+Cast+Mul+Add+Relu");
}

TEST(DynamicQuantizedConvolution, AsTheNodesWithScalesPerChannelAndNoRelu) {
  Case k;
  k.scale_per_channel = true;
  k.relu = false;
  expectAsTheNodes(k, 2, "ConvInteger+Cast+Mul+Add");
}

TEST(DynamicQuantizedConvolution, AsTheNodesWithoutBias) {
  Case k;
  k.bias = false;
  k.scale_dims = "[1]";
  expectAsTheNodes(k, 3, "ConvInteger+Cast+Mul+Relu");
}

// 128 channels into 64 by 3x3: weights past the own kernel's share with VNNI, so oneDNN's
// primitive gives the sums there (IntegerConvolution::runInto), row by row.
TEST(DynamicQuantizedConvolution, AsTheNodesWithLargerWeights) {
  Case k;
  k.c = 128, k.m = 64, k.h = 6, k.w = 5;
  expectAsTheNodes(k, 4, "ConvInteger+Cast+Mul+Add+Relu");
}

// A weights' scale of rank 5 broadcasts the nodes' result to rank 5: the step declines.
TEST(DynamicQuantizedConvolution, AScaleOfHigherRankLeavesTheNodes) {
  Case k;
  k.scale_dims = "[1,1,1,1,1]";
  k.bias = false;
  k.relu = false;
  expectAsTheNodes(k, 5, "");
}

// As older exporters and converters write the weights: an initializer also listed as a graph
// input (IR 3; a caller may give other weights, so nothing is kept between runs), and a
// Constant node's output. Both run as one step, as the nodes compute.
TEST(DynamicQuantizedConvolution, WeightsAsAnOverridableInitializerOrAConstantNode) {
  const std::string body = R"(
  xq, xs, xz = DynamicQuantizeLinear(x)
  s = ConvInteger <pads = [1, 0, 1, 0]> (xq, w, xz)
  f = Cast <to = 1> (s)
  y = Mul(f, xs)
}
)";
  const std::string weights = "{1, 200, 3, 44, 5, 6, 255, 0, 9, 10, 11, 12}";
  std::vector<NamedValue> inputs = {
      {"x",
       testing::tensorOf<float>(ElementType::kFloat, {1, 2, 4, 4}, testing::randomFloats(32, 90))}};
  expectTextAsTheNodes(R"(<ir_version: 3, opset_import: ["" : 11]>
g (float[1,2,4,4] x, uint8[3,2,2,1] w) => (float[1,3,5,4] y) <uint8[3,2,2,1] w = )" +
                           weights + "> {" + body,
                       inputs, "ConvInteger+Cast+Mul");
  expectTextAsTheNodes(R"(<ir_version: 8, opset_import: ["" : 13]>
g (float[1,2,4,4] x) => (float[1,3,5,4] y) {
  w = Constant <value = uint8[3,2,2,1] )" +
                           weights + "> ()" + body,
                       inputs, "ConvInteger+Cast+Mul");
}

}  // namespace
}  // namespace onyx
