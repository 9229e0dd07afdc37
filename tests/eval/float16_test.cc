// float16 nodes run on the float kernels (src/eval/providers/onyx/float16_on_floats.cc) and
// float16 convolutions through the float convolution (src/eval/kernels/fused_convolution.h),
// their values kept float between them (src/eval/engine/frame.h): a chain of them gives
// exactly the float model's result on the same values, rounded to float16 where a value
// leaves the chain (a graph output, a node of another operator).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "onyx/core/float_formats.h"
#include "onyx/eval/evaluator.h"
#include "onyx/text/parser.h"
#include "support/eval_testing.h"

namespace onyx {
namespace {

using testing::tensorOf;
using testing::valuesOf;

// `count` random values that float16 holds exactly, as float16 codes and as floats.
struct Values {
  std::vector<uint16_t> halves;
  std::vector<float> floats;
};

Values halfValues(size_t count, uint32_t seed, float scale = 1.0f) {
  Values values;
  for (float v : testing::randomFloats(count, seed)) {
    uint16_t code = floatToFloat16(v * scale);
    values.halves.push_back(code);
    values.floats.push_back(float16ToFloat(code));
  }
  return values;
}

// Runs `text` with `type` put for TYPE, the inputs given as float16 or float.
std::vector<uint16_t> runAs(std::string text, bool half,
                            const std::vector<std::pair<std::string, Values>>& inputs,
                            const std::vector<std::vector<int64_t>>& shapes, int threads = 1) {
  for (size_t at = text.find("TYPE"); at != std::string::npos; at = text.find("TYPE")) {
    text.replace(at, 4, half ? "float16" : "float");
  }
  std::vector<NamedValue> named;
  for (size_t i = 0; i < inputs.size(); ++i) {
    named.push_back(
        {inputs[i].first,
         half ? tensorOf<uint16_t>(ElementType::kFloat16, shapes[i], inputs[i].second.halves)
              : tensorOf<float>(ElementType::kFloat, shapes[i], inputs[i].second.floats)});
  }
  EvalOptions options;
  options.threads = threads;
  Result<std::vector<EvalValue>> out = testing::runText(text, named, options);
  EXPECT_TRUE(out) << out.status().toString();
  if (!out) return {};
  if (half) return valuesOf<uint16_t>((*out)[0]);
  std::vector<uint16_t> rounded;
  for (float v : valuesOf<float>((*out)[0])) rounded.push_back(floatToFloat16(v));
  return rounded;
}

TEST(Float16Evaluation, AConvolutionChainIsTheFloatChainRoundedOnce) {
  const char* text = R"(
    <ir_version: 9, opset_import: ["" : 17]>
    g (TYPE[1,8,9,9] x, TYPE[16,8,3,3] w, TYPE[16] b, TYPE[1,16,9,9] r) => (TYPE[1,16,9,9] y) {
      c = Conv <pads = [1, 1, 1, 1]> (x, w, b)
      s = Add (c, r)
      y = Relu (s)
    })";
  std::vector<std::pair<std::string, Values>> inputs = {{"x", halfValues(8 * 81, 1)},
                                                        {"w", halfValues(16 * 8 * 9, 2, 0.2f)},
                                                        {"b", halfValues(16, 3)},
                                                        {"r", halfValues(16 * 81, 4)}};
  std::vector<std::vector<int64_t>> shapes = {{1, 8, 9, 9}, {16, 8, 3, 3}, {16}, {1, 16, 9, 9}};
  std::vector<uint16_t> expected = runAs(text, false, inputs, shapes);
  ASSERT_EQ(expected.size(), 16u * 81u);
  EXPECT_EQ(runAs(text, true, inputs, shapes), expected);
  EXPECT_EQ(runAs(text, true, inputs, shapes, 2), expected);
}

TEST(Float16Evaluation, PoolingMatrixProductsAndSoftmaxStayFloatBetweenThemAsOnnxruntimeKeepsThem) {
  const char* text = R"(
    <ir_version: 9, opset_import: ["" : 17]>
    g (TYPE[1,4,6,6] x, TYPE[3,3] m) => (TYPE[1,4,3,3] y) {
      p = MaxPool <kernel_shape = [2, 2], strides = [2, 2]> (x)
      q = MatMul (p, m)
      y = Softmax <axis = -1> (q)
    })";
  std::vector<std::pair<std::string, Values>> inputs = {{"x", halfValues(4 * 36, 5)},
                                                        {"m", halfValues(9, 6)}};
  std::vector<std::vector<int64_t>> shapes = {{1, 4, 6, 6}, {3, 3}};
  std::vector<uint16_t> expected = runAs(text, false, inputs, shapes);
  ASSERT_EQ(expected.size(), 36u);
  EXPECT_EQ(runAs(text, true, inputs, shapes), expected);
  EXPECT_EQ(runAs(text, true, inputs, shapes, 2), expected);
}

TEST(Float16Evaluation, AValueLeavingTheChainIsRoundedWhereItLeaves) {
  // A Transpose (no float path) reads the convolution's result: it gets it rounded; a graph
  // output in the middle of the chain is float16 too.
  const char* text = R"(
    <ir_version: 9, opset_import: ["" : 17]>
    g (TYPE[1,4,6,6] x, TYPE[4,4,3,3] w, TYPE[6,6] m) => (TYPE[1,4,6,6] y, TYPE[1,4,6,6] c) {
      c = Conv <pads = [1, 1, 1, 1]> (x, w)
      r = Relu (c)
      t = Transpose <perm = [0, 1, 3, 2]> (r)
      y = MatMul (t, m)
    })";
  const char* rounded = R"(
    <ir_version: 9, opset_import: ["" : 17]>
    g (TYPE[1,4,6,6] x, TYPE[4,4,3,3] w, TYPE[6,6] m) => (TYPE[1,4,6,6] y, TYPE[1,4,6,6] c) {
      c = Conv <pads = [1, 1, 1, 1]> (x, w)
      r = Relu (c)
      r16 = Cast <to = 10> (r)
      rf = Cast <to = 1> (r16)
      t = Transpose <perm = [0, 1, 3, 2]> (rf)
      y = MatMul (t, m)
    })";
  std::vector<std::pair<std::string, Values>> inputs = {{"x", halfValues(4 * 36, 7)},
                                                        {"w", halfValues(4 * 4 * 9, 8, 0.3f)},
                                                        {"m", halfValues(36, 9)}};
  std::vector<std::vector<int64_t>> shapes = {{1, 4, 6, 6}, {4, 4, 3, 3}, {6, 6}};
  std::vector<uint16_t> expected = runAs(rounded, false, inputs, shapes);
  ASSERT_EQ(expected.size(), 144u);
  EXPECT_EQ(runAs(text, true, inputs, shapes), expected);
  EXPECT_EQ(runAs(text, true, inputs, shapes, 2), expected);
  // The second output: a value of the chain given back, float16 (runAs reads output 0).
  std::string two = text;
  two.replace(two.find("(TYPE[1,4,6,6] y, TYPE[1,4,6,6] c)"), 34,
              "(TYPE[1,4,6,6] c, TYPE[1,4,6,6] y)");
  std::string two_rounded = rounded;
  two_rounded.replace(two_rounded.find("(TYPE[1,4,6,6] y, TYPE[1,4,6,6] c)"), 34,
                      "(TYPE[1,4,6,6] c, TYPE[1,4,6,6] y)");
  EXPECT_EQ(runAs(two, true, inputs, shapes), runAs(two_rounded, false, inputs, shapes));
}

TEST(Float16Evaluation, LinearLayersAndGemmWidenTheirWeightsOnceAndGiveTheFloatResults) {
  // Weights as initializers, widened at the first run and kept: a second run of the same
  // Evaluator on other inputs gives the float model's result on those.
  // The text syntax writes float16 elements as their codes.
  auto elements = [](const std::vector<float>& values, bool half) {
    std::vector<float> floats;
    std::vector<int32_t> codes;
    for (float v : values) {
      floats.push_back(v);
      codes.push_back(floatToFloat16(v));
    }
    return half ? testing::elementsText(codes) : testing::floatsText(floats);
  };
  auto text_of = [&](bool half) {
    return R"(
    <ir_version: 9, opset_import: ["" : 17]>
    g (TYPE[6,4] x) => (TYPE[6,2] y)
      <TYPE[4,3] w = {)" +
           elements({0.5, -0.25, 1.5, 0.75, -1, 0.125, 2, -0.5, 0.25, -1.5, 1, 0.375}, half) +
           "}, TYPE[3] b = {" + elements({0.25, -0.5, 1}, half) + "}, TYPE[2,3] g = {" +
           elements({1, -0.5, 0.25, 0.5, 2, -1}, half) + R"(}> {
      m = MatMul (x, w)
      a = Add (m, b)
      r = Relu (a)
      y = Gemm <transB = 1> (r, g)
    })";
  };
  std::vector<std::vector<int64_t>> shapes = {{6, 4}};
  auto model_of = [](std::string source, bool half) {
    for (size_t at = source.find("TYPE"); at != std::string::npos; at = source.find("TYPE")) {
      source.replace(at, 4, half ? "float16" : "float");
    }
    return parseText(source);
  };
  Result<Model> half_model = model_of(text_of(true), true);
  ASSERT_TRUE(half_model) << half_model.status().toString();
  Evaluator evaluator(*half_model);
  for (uint32_t seed : {11u, 12u}) {
    Values x = halfValues(24, seed);
    std::vector<uint16_t> expected = runAs(text_of(false), false, {{"x", x}}, shapes);
    ASSERT_EQ(expected.size(), 12u);
    std::vector<NamedValue> inputs = {
        {"x", tensorOf<uint16_t>(ElementType::kFloat16, {6, 4}, x.halves)}};
    Result<std::vector<EvalValue>> out = evaluator.run(inputs);
    ASSERT_TRUE(out) << out.status().toString();
    EXPECT_EQ(valuesOf<uint16_t>((*out)[0]), expected) << "seed " << seed;
  }
}

}  // namespace
}  // namespace onyx
