// float16 nodes run on the float kernels (src/eval/providers/onyx/halves_as_floats.cc) and
// float16 convolutions through the float convolution (src/eval/kernels/fused_convolution.h):
// each gives exactly the float model's result on the same values, rounded to float16 once.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "onyx/core/float_formats.h"
#include "onyx/eval/evaluator.h"
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

TEST(Float16Evaluation, MatrixProductsPoolingAndSoftmaxAreTheFloatOnesRoundedOnce) {
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
  // The float model rounds after each node too: MaxPool and MatMul's results are rounded
  // to float16 before the next reads them, as in the float16 model.
  const char* rounded = R"(
    <ir_version: 9, opset_import: ["" : 17]>
    g (TYPE[1,4,6,6] x, TYPE[3,3] m) => (TYPE[1,4,3,3] y) {
      p = MaxPool <kernel_shape = [2, 2], strides = [2, 2]> (x)
      p16 = Cast <to = 10> (p)
      pf = Cast <to = 1> (p16)
      q = MatMul (pf, m)
      q16 = Cast <to = 10> (q)
      qf = Cast <to = 1> (q16)
      y = Softmax <axis = -1> (qf)
    })";
  std::vector<uint16_t> expected = runAs(rounded, false, inputs, shapes);
  ASSERT_EQ(expected.size(), 36u);
  EXPECT_EQ(runAs(text, true, inputs, shapes), expected);
}

}  // namespace
}  // namespace onyx
