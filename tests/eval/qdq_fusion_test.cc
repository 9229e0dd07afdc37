// The QDQ fusions (src/eval/fusions/qdq_convolution.cc, qdq_matmul.cc):
// DequantizeLinear -> Conv / MatMul [-> Relu] -> QuantizeLinear run as one int8 operation
// stay within one quantization step of the literal float path (fusions off), give the same
// bits on one and two threads, and leave to the nodes what the int8 kernel cannot take.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "eval/kernels/onednn_support.h"
#include "onyx/eval/evaluator.h"
#include "onyx/text/parser.h"
#include "support/eval_testing.h"

namespace onyx {
namespace {

using testing::valuesOf;

// Float inputs named `names`, of `shape`, uniform in [-3, 3): past the quantized range at both
// ends, so that quantizing them saturates.
std::vector<NamedValue> wideInputs(const std::vector<std::string>& names,
                                   const std::vector<int64_t>& shape, uint32_t seed) {
  std::vector<NamedValue> inputs;
  for (const std::string& name : names) {
    std::vector<float> values = testing::randomFloats(testing::elementCount(shape), seed++);
    for (float& v : values) v *= 3;
    inputs.push_back({name, testing::tensorOf<float>(ElementType::kFloat, shape, values)});
  }
  return inputs;
}

// One run with fusions off and one with them on (at `threads`), its steps recorded.
struct LiteralAndFused {
  std::vector<EvalValue> literal, fused;
  testing::StepRecorder recorder;
};
std::optional<LiteralAndFused> runBoth(const Model& model, const std::vector<NamedValue>& inputs,
                                       int threads = 1,
                                       std::optional<CpuTier> tier = std::nullopt) {
  auto both = std::make_optional<LiteralAndFused>();
  EvalOptions options;
  options.threads = threads;
  options.max_isa = tier;
  options.fusions = false;
  Result<std::vector<EvalValue>> literal = evaluate(model, inputs, options);
  options.fusions = true;
  options.observer = &both->recorder;
  Result<std::vector<EvalValue>> fused = evaluate(model, inputs, options);
  EXPECT_TRUE(literal) << literal.status().toString();
  EXPECT_TRUE(fused) << fused.status().toString();
  if (!literal || !fused) return std::nullopt;
  both->literal = std::move(*literal);
  both->fused = std::move(*fused);
  return both;
}

// expectWithinOneStep at one CPU tier.
template <class Widen>
void expectWithinOneStepAt(const Model& model, const std::string& text,
                           const std::vector<NamedValue>& inputs,
                           const std::vector<std::string>& steps, const Widen& widened,
                           CpuTier tier) {
  std::vector<int32_t> expected, first;
  for (int threads : {1, 2}) {
    std::optional<LiteralAndFused> both = runBoth(model, inputs, threads, tier);
    ASSERT_TRUE(both);
    const testing::StepRecorder& recorder = both->recorder;
    if (threads == 1) expected = widened(both->literal[0]);
    std::vector<int32_t> got = widened(both->fused[0]);
    ASSERT_EQ(got.size(), expected.size());
    size_t differing = 0;
    for (size_t i = 0; i < got.size(); ++i) {
      ASSERT_LE(std::abs(got[i] - expected[i]), 1)
          << "at " << i << ": fused " << got[i] << ", literal " << expected[i] << "\n"
          << text;
      differing += got[i] != expected[i];
    }
    // Most elements land far from a rounding tie.
    EXPECT_LE(differing, got.size() / 20 + 1);
    if (threads == 1) first = got;
    EXPECT_EQ(got, first) << "1 and 2 threads differ";
    // The groups run as one at every tier: through oneDNN's int8 primitives from VNNI on,
    // below through onyx's own exact products and the same requantization.
    EXPECT_EQ(recorder.steps, steps);
    EXPECT_EQ(recorder.declined, 0u);
  }
}

// Runs `text` on `x` with fusions on (at 1 and 2 threads, at each CPU tier) and off, and
// expects the quantized outputs within one step of each other and the fused steps to be
// `steps`.
void expectWithinOneStep(const std::string& text, const std::vector<NamedValue>& inputs,
                         const std::vector<std::string>& steps, bool is_signed) {
  Result<Model> model = parseText(text);
  ASSERT_TRUE(model) << model.status().toString() << "\n" << text;
  auto widened = [is_signed](const EvalValue& value) {
    return testing::byteValues(value, is_signed);
  };
  for (CpuTier tier : testing::cpuTiersToTest()) {
    SCOPED_TRACE(std::string("at the CPU tier ") + std::string(cpuTierName(tier)));
    expectWithinOneStepAt(*model, text, inputs, steps, widened, tier);
  }
}

struct ConvCase {
  int64_t n = 1, c = 8, h = 9, w = 7, m = 6, k = 3, group = 1, stride = 1, pad = 1;
  bool is_signed = false;  // int8 activations (else uint8)
  int32_t x_zero = 128, y_zero = 100;
  float y_scale = 0.05f;
  bool bias = true;
  bool bias_at_product_scale = true;  // the bias's scales x_scale * w_scale (else a float bias)
  bool relu = true;
  bool input_read_elsewhere = false;  // DequantizeLinear(x) a graph output too
};

// x -> QuantizeLinear -> DequantizeLinear -> Conv (int8 weights per output channel, an int32
// bias) [-> Relu] -> QuantizeLinear, as quantize_static writes it.
std::string convModel(const ConvCase& k, uint32_t seed) {
  const int64_t oh = (k.h + 2 * k.pad - k.k) / k.stride + 1;
  const int64_t ow = (k.w + 2 * k.pad - k.k) / k.stride + 1;
  const float x_scale = 6.0f / 255;
  std::vector<float> w_scales = testing::randomFloats(size_t(k.m), seed + 1);
  for (float& s : w_scales) s = 0.002f + std::fabs(s) * 0.01f;
  std::vector<int32_t> weights;
  for (float v : testing::randomFloats(size_t(k.m * (k.c / k.group) * k.k * k.k), seed + 2)) {
    weights.push_back(static_cast<int32_t>(std::lround(v * 127)));
  }
  std::vector<float> bias_floats = testing::randomFloats(size_t(k.m), seed + 3);
  std::vector<int32_t> bias;
  std::vector<float> bias_scales;
  for (int64_t i = 0; i < k.m; ++i) {
    bias_scales.push_back(x_scale * w_scales[size_t(i)]);
    bias.push_back(static_cast<int32_t>(std::lround(bias_floats[size_t(i)] / bias_scales.back())));
  }
  const std::string q = k.is_signed ? "int8" : "uint8";
  const std::string m = std::to_string(k.m);
  std::ostringstream text;
  text << "<ir_version: 10, opset_import: [\"\" : 21]>\n"
       << "g (float[" << k.n << "," << k.c << "," << k.h << "," << k.w << "] x) => (" << q << "["
       << k.n << "," << k.m << "," << oh << "," << ow << "] y"
       << (k.input_read_elsewhere
               ? ", float[" + std::to_string(k.n) + "," + std::to_string(k.c) + "," +
                     std::to_string(k.h) + "," + std::to_string(k.w) + "] xd"
               : "")
       << ")\n<int8[" << m << "," << k.c / k.group << "," << k.k << "," << k.k << "] wq = {"
       << testing::elementsText(weights) << "}, float[" << m << "] ws = {"
       << testing::floatsText(w_scales) << "}, int8[" << m << "] wz = {"
       << testing::elementsText(std::vector<int32_t>(size_t(k.m))) << "}, float xs = {"
       << testing::floatsText({x_scale}) << "}, " << q << " xz = {" << k.x_zero << "}, float ys = {"
       << testing::floatsText({k.y_scale}) << "}, " << q << " yz = {" << k.y_zero << "}";
  if (k.bias && k.bias_at_product_scale) {
    text << ", int32[" << m << "] bq = {" << testing::elementsText(bias) << "}, float[" << m
         << "] bs = {" << testing::floatsText(bias_scales) << "}";
  } else if (k.bias) {
    text << ", float[" << m << "] b = {" << testing::floatsText(bias_floats) << "}";
  }
  text << "> {\n"
       << "  xq = QuantizeLinear (x, xs, xz)\n"
       << "  xd = DequantizeLinear (xq, xs, xz)\n"
       << "  wd = DequantizeLinear <axis = 0> (wq, ws, wz)\n";
  if (k.bias && k.bias_at_product_scale) text << "  b = DequantizeLinear <axis = 0> (bq, bs)\n";
  text << "  c = Conv <pads = [" << k.pad << ", " << k.pad << ", " << k.pad << ", " << k.pad
       << "], strides = [" << k.stride << ", " << k.stride << "], group = " << k.group
       << "> (xd, wd" << (k.bias ? ", b" : "") << ")\n";
  if (k.relu) text << "  r = Relu (c)\n";
  text << "  y = QuantizeLinear (" << (k.relu ? "r" : "c") << ", ys, yz)\n}\n";
  return text.str();
}

void expectConv(const ConvCase& k, uint32_t seed) {
  std::string group = "DequantizeLinear+DequantizeLinear+";
  if (k.bias && k.bias_at_product_scale) group += "DequantizeLinear+";
  if (k.input_read_elsewhere) group = "DequantizeLinear+";
  if (k.input_read_elsewhere && k.bias && k.bias_at_product_scale) group += "DequantizeLinear+";
  group += k.relu ? "Conv+Relu+QuantizeLinear" : "Conv+QuantizeLinear";
  std::vector<std::string> steps = {"QuantizeLinear"};
  if (k.input_read_elsewhere) steps.push_back("DequantizeLinear");
  steps.push_back(group);
  expectWithinOneStep(convModel(k, seed), wideInputs({"x"}, {k.n, k.c, k.h, k.w}, seed), steps,
                      k.is_signed);
}

TEST(QdqConvolution, WithinOneStepOfTheLiteralPathWithZeroPointsAtTheirLimits) {
  uint32_t seed = 10;
  for (int32_t x_zero : {0, 128, 255}) {
    for (int32_t y_zero : {0, 100, 255}) {
      ConvCase k;
      k.x_zero = x_zero;
      k.y_zero = y_zero;
      expectConv(k, seed++);
    }
  }
  for (int32_t x_zero : {-128, 0, 127}) {
    ConvCase k;
    k.is_signed = true;
    k.x_zero = x_zero;
    k.y_zero = -x_zero;
    expectConv(k, seed++);
  }
}

TEST(QdqConvolution, StridesGroupsOneByOneWithoutReluOrBias) {
  uint32_t seed = 40;
  ConvCase strided;
  strided.stride = 2;
  strided.relu = false;
  expectConv(strided, seed++);
  ConvCase grouped;
  grouped.group = 2;
  grouped.c = 8;
  grouped.m = 4;
  expectConv(grouped, seed++);
  ConvCase pointwise;
  pointwise.k = 1;
  pointwise.pad = 0;
  pointwise.bias = false;
  pointwise.n = 2;
  expectConv(pointwise, seed++);
}

TEST(QdqConvolution, AFloatBiasIsRoundedToTheAccumulatorsUnits) {
  ConvCase k;
  k.bias_at_product_scale = false;
  expectConv(k, 50);
}

TEST(QdqConvolution, AnInputOtherNodesReadStaysOutAndTheStepReadsItsQuantizedOperand) {
  ConvCase k;
  k.input_read_elsewhere = true;
  expectConv(k, 60);
}

TEST(QdqConvolution, WeightsWithAZeroPointRunAsTheirNodes) {
  // uint8 weights with a zero point of 128: outside the int8 kernel, left to the nodes.
  std::string text = convModel(ConvCase{}, 70);
  for (auto [from, to] :
       {std::pair<std::string, std::string>{"int8[6,8,3,3] wq", "uint8[6,8,3,3] wq"},
        {"int8[6] wz = {0, 0, 0, 0, 0, 0}", "uint8[6] wz = {128, 128, 128, 128, 128, 128}"}}) {
    size_t at = text.find(from);
    ASSERT_NE(at, std::string::npos) << from;
    text.replace(at, from.size(), to);
  }
  // The int8 weights' negative values are not uint8: take their magnitudes.
  size_t open = text.find("wq = {") + 6, close = text.find('}', open);
  std::string values = text.substr(open, close - open);
  values.erase(std::remove(values.begin(), values.end(), '-'), values.end());
  text.replace(open, close - open, values);
  Result<Model> model = parseText(text);
  ASSERT_TRUE(model) << model.status().toString();
  std::vector<NamedValue> inputs = {
      {"x", testing::tensorOf<float>(ElementType::kFloat, {1, 8, 9, 7},
                                     testing::randomFloats(8 * 9 * 7, 71))}};
  std::optional<LiteralAndFused> both = runBoth(*model, inputs);
  ASSERT_TRUE(both);
  EXPECT_EQ(valuesOf<uint8_t>(both->fused[0]), valuesOf<uint8_t>(both->literal[0]));
  EXPECT_EQ(both->recorder.declined, 6u) << "the group declined, its six nodes ran";
}

// a [2, 5, 16] -> QuantizeLinear -> DequantizeLinear -> MatMul by int8 weights [16, 12] with a
// scale per column -> QuantizeLinear.
std::string matMulByWeightsModel(bool is_signed, int32_t a_zero, int32_t y_zero, uint32_t seed) {
  std::vector<float> scales = testing::randomFloats(12, seed);
  for (float& s : scales) s = 0.002f + std::fabs(s) * 0.01f;
  std::vector<int32_t> weights;
  for (float v : testing::randomFloats(16 * 12, seed + 1)) {
    weights.push_back(static_cast<int32_t>(std::lround(v * 127)));
  }
  const std::string q = is_signed ? "int8" : "uint8";
  std::ostringstream text;
  text << "<ir_version: 10, opset_import: [\"\" : 21]>\n"
       << "g (float[2,5,16] x) => (" << q << "[2,5,12] y)\n<int8[16,12] wq = {"
       << testing::elementsText(weights) << "}, float[12] ws = {" << testing::floatsText(scales)
       << "}, float xs = {0.0235}, " << q << " xz = {" << a_zero << "}, float ys = {0.011}, " << q
       << " yz = {" << y_zero << "}> {\n"
       << "  xq = QuantizeLinear (x, xs, xz)\n"
       << "  xd = DequantizeLinear (xq, xs, xz)\n"
       << "  wd = DequantizeLinear <axis = 1> (wq, ws)\n"
       << "  p = MatMul (xd, wd)\n"
       << "  y = QuantizeLinear (p, ys, yz)\n}\n";
  return text.str();
}

TEST(QdqMatMul, ByWeightsWithinOneStepOfTheLiteralPathWithZeroPointsAtTheirLimits) {
  uint32_t seed = 100;
  const std::vector<std::string> steps = {
      "QuantizeLinear", "DequantizeLinear+DequantizeLinear+MatMul+QuantizeLinear"};
  for (int32_t a_zero : {0, 128, 255}) {
    for (int32_t y_zero : {0, 255}) {
      expectWithinOneStep(matMulByWeightsModel(false, a_zero, y_zero, seed),
                          wideInputs({"x"}, {2, 5, 16}, seed), steps, false);
      ++seed;
    }
  }
  for (int32_t a_zero : {-128, 127}) {
    expectWithinOneStep(matMulByWeightsModel(true, a_zero, -a_zero, seed),
                        wideInputs({"x"}, {2, 5, 16}, seed), steps, true);
    ++seed;
  }
}

TEST(QdqMatMul, OfTwoQuantizedActivationsAsAttentionComputesIt) {
  // [2, 3, 5, 8] x [2, 3, 8, 6], both quantized as a whole, uint8 and int8.
  for (bool is_signed : {false, true}) {
    const std::string q = is_signed ? "int8" : "uint8";
    const int32_t zero = is_signed ? -20 : 140;
    std::string text =
        "<ir_version: 10, opset_import: [\"\" : 21]>\n"
        "g (float[2,3,5,8] x, float[2,3,8,6] z) => (" +
        q + "[2,3,5,6] y)\n<float s = {0.0235}, " + q + " zp = {" + std::to_string(zero) +
        "}, float ys = {0.09}, " + q + " yz = {" + std::to_string(is_signed ? 10 : 70) + R"(}> {
  xq = QuantizeLinear (x, s, zp)
  xd = DequantizeLinear (xq, s, zp)
  zq = QuantizeLinear (z, s, zp)
  zd = DequantizeLinear (zq, s, zp)
  p = MatMul (xd, zd)
  y = QuantizeLinear (p, ys, yz)
}
)";
    std::vector<NamedValue> inputs = wideInputs({"x"}, {2, 3, 5, 8}, 120);
    inputs.push_back(wideInputs({"z"}, {2, 3, 8, 6}, 121).front());
    expectWithinOneStep(text, inputs,
                        {"QuantizeLinear", "QuantizeLinear",
                         "DequantizeLinear+DequantizeLinear+MatMul+QuantizeLinear"},
                        is_signed);
  }
}

// x and z [2, 6, 5, 4] quantized, added, [Relu,] quantized again.
std::string addModel(const std::string& type, int32_t zero, bool relu) {
  const std::string z = std::to_string(zero);
  return "<ir_version: 10, opset_import: [\"\" : 21]>\n"
         "g (float[2,6,5,4] x, float[2,6,5,4] z) => (" +
         type + "[2,6,5,4] y)\n<float xs = {0.0235}, float zs = {0.0172}, float ys = {0.031}, " +
         type + " xz = {" + z + "}, " + type + " zz = {" + std::to_string(zero / 2) + "}, " + type +
         " yz = {" + std::to_string(zero / 3) + R"(}> {
  xq = QuantizeLinear (x, xs, xz)
  xd = DequantizeLinear (xq, xs, xz)
  zq = QuantizeLinear (z, zs, zz)
  zd = DequantizeLinear (zq, zs, zz)
  s = Add (xd, zd)
)" +
         (relu ? "  r = Relu (s)\n  y = QuantizeLinear (r, ys, yz)\n}\n"
               : "  y = QuantizeLinear (s, ys, yz)\n}\n");
}

TEST(QdqAdd, GivesTheBitsOfItsNodes) {
  for (bool relu : {true, false}) {
    for (auto [type, zero] : {std::pair<std::string, int32_t>{"uint8", 200}, {"int8", -90}}) {
      Result<Model> model = parseText(addModel(type, zero, relu));
      ASSERT_TRUE(model) << model.status().toString();
      std::vector<NamedValue> inputs = wideInputs({"x", "z"}, {2, 6, 5, 4}, 200);
      std::optional<LiteralAndFused> both = runBoth(*model, inputs);
      ASSERT_TRUE(both);
      const testing::StepRecorder& recorder = both->recorder;
      EXPECT_EQ(valuesOf<uint8_t>(both->fused[0]), valuesOf<uint8_t>(both->literal[0]))
          << type << (relu ? " with" : " without") << " Relu";
      EXPECT_EQ(recorder.steps.back(),
                relu ? "DequantizeLinear+DequantizeLinear+Add+Relu+QuantizeLinear"
                     : "DequantizeLinear+DequantizeLinear+Add+QuantizeLinear");
      EXPECT_EQ(recorder.declined, 0u);
    }
  }
}

// A residual block as quantize_static leaves it: x's DequantizeLinear read by a QDQ
// convolution and by a QDQ Add, both of which read its quantized operand instead. With
// `output_type` other than uint8, the Add's group cannot run as one (its operands and output
// of two types) and runs its nodes, which need the DequantizeLinear after all.
std::string residualModel(const std::string& output_type) {
  std::vector<int32_t> weights;
  for (float v : testing::randomFloats(4 * 4 * 3 * 3, 300)) {
    weights.push_back(static_cast<int32_t>(std::lround(v * 127)));
  }
  return R"(<ir_version: 10, opset_import: ["" : 21]>
g (float[1,4,5,5] x) => ()" +
         output_type + R"([1,4,5,5] y)
<int8[4,4,3,3] wq = {)" +
         testing::elementsText(weights) + R"(}, float[4] ws = {0.004, 0.006, 0.005, 0.007},
 float xs = {0.0235}, uint8 xz = {128}, float cs = {0.05}, uint8 cz = {120},
 float ys = {0.06}, )" +
         output_type + R"( yz = {10}> {
  xq = QuantizeLinear (x, xs, xz)
  xd = DequantizeLinear (xq, xs, xz)
  wd = DequantizeLinear <axis = 0> (wq, ws)
  c = Conv <pads = [1, 1, 1, 1]> (xd, wd)
  cq = QuantizeLinear (c, cs, cz)
  cd = DequantizeLinear (cq, cs, cz)
  s = Add (cd, xd)
  r = Relu (s)
  y = QuantizeLinear (r, ys, yz)
}
)";
}

TEST(QdqAdd, ADequantizeLinearEveryReaderReadsAroundRunsOnlyWhenAGroupDeclines) {
  const std::vector<std::string> conv = {"DequantizeLinear+Conv+QuantizeLinear"};
  // The Add's group runs: x's DequantizeLinear never does.
  expectWithinOneStep(residualModel("uint8"), wideInputs({"x"}, {1, 4, 5, 5}, 301),
                      {"QuantizeLinear", "DequantizeLinear+Conv+QuantizeLinear",
                       "DequantizeLinear+Add+Relu+QuantizeLinear"},
                      false);
  // The Add's group declines (an int8 output of uint8 operands): its nodes run, and x's
  // DequantizeLinear with them.
  Result<Model> model = parseText(residualModel("int8"));
  ASSERT_TRUE(model) << model.status().toString();
  std::vector<NamedValue> inputs = wideInputs({"x"}, {1, 4, 5, 5}, 302);
  for (CpuTier tier : testing::cpuTiersToTest()) {
    SCOPED_TRACE(std::string("at the CPU tier ") + std::string(cpuTierName(tier)));
    std::optional<LiteralAndFused> both = runBoth(*model, inputs, 1, tier);
    ASSERT_TRUE(both);
    const testing::StepRecorder& recorder = both->recorder;
    std::vector<int8_t> got = valuesOf<int8_t>(both->fused[0]);
    std::vector<int8_t> expected = valuesOf<int8_t>(both->literal[0]);
    ASSERT_EQ(got.size(), expected.size());
    for (size_t i = 0; i < got.size(); ++i) ASSERT_LE(std::abs(got[i] - expected[i]), 1) << i;
    EXPECT_EQ(recorder.declined, 4u) << "the Add's group: DequantizeLinear, Add, Relu, Quantize";
    EXPECT_EQ(recorder.steps.size(), 3u);
  }
}

}  // namespace
}  // namespace onyx
