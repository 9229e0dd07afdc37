// Conv → Add → Relu groups run as one oneDNN convolution, with channels-last values between
// them (src/eval/kernels/fused_convolution.h): they compute what the nodes compute one by one.
#include <gtest/gtest.h>

#include <cmath>
#include <sstream>
#include <string>

#include "onyx/core/cpu_tier.h"
#include "onyx/eval/evaluator.h"
#include "onyx/text/parser.h"
#include "support/eval_testing.h"

namespace onyx {
namespace {

using testing::tensorOf;
using testing::valuesOf;

struct Tensor4 {
  std::vector<int64_t> dims;  // N, C, H, W (or M, C / group, KH, KW)
  std::vector<float> values;
  float at(int64_t a, int64_t b, int64_t c, int64_t d) const {
    return values[static_cast<size_t>(((a * dims[1] + b) * dims[2] + c) * dims[3] + d)];
  }
};

Tensor4 randomTensor(std::vector<int64_t> dims, uint32_t seed) {
  size_t count = 1;
  for (int64_t d : dims) count *= static_cast<size_t>(d);
  return Tensor4{std::move(dims), testing::randomFloats(count, seed)};
}

struct ConvAttributes {
  int64_t group = 1;
  std::array<int64_t, 2> strides = {1, 1};
  std::array<int64_t, 2> dilations = {1, 1};
  std::array<int64_t, 4> pads = {0, 0, 0, 0};  // top, left, bottom, right
};

// The convolution in double, straight from its definition.
Tensor4 referenceConv(const Tensor4& x, const Tensor4& w, const std::vector<float>& bias,
                      const ConvAttributes& a) {
  int64_t n = x.dims[0], h = x.dims[2], wd = x.dims[3];
  int64_t m = w.dims[0], cg = w.dims[1], kh = w.dims[2], kw = w.dims[3];
  int64_t oh = (h + a.pads[0] + a.pads[2] - ((kh - 1) * a.dilations[0] + 1)) / a.strides[0] + 1;
  int64_t ow = (wd + a.pads[1] + a.pads[3] - ((kw - 1) * a.dilations[1] + 1)) / a.strides[1] + 1;
  Tensor4 y{{n, m, oh, ow}, std::vector<float>(static_cast<size_t>(n * m * oh * ow))};
  int64_t mg = m / a.group;
  for (int64_t b = 0; b < n; ++b) {
    for (int64_t o = 0; o < m; ++o) {
      int64_t g = o / mg;
      for (int64_t i = 0; i < oh; ++i) {
        for (int64_t j = 0; j < ow; ++j) {
          double sum = bias.empty() ? 0.0 : bias[static_cast<size_t>(o)];
          for (int64_t k = 0; k < cg; ++k) {
            for (int64_t p = 0; p < kh; ++p) {
              for (int64_t q = 0; q < kw; ++q) {
                int64_t r = i * a.strides[0] - a.pads[0] + p * a.dilations[0];
                int64_t s = j * a.strides[1] - a.pads[1] + q * a.dilations[1];
                if (r < 0 || r >= h || s < 0 || s >= wd) continue;
                sum += double(x.at(b, g * cg + k, r, s)) * double(w.at(o, k, p, q));
              }
            }
          }
          y.values[static_cast<size_t>(((b * m + o) * oh + i) * ow + j)] = float(sum);
        }
      }
    }
  }
  return y;
}

Tensor4 relu(Tensor4 t) {
  for (float& v : t.values) v = std::max(v, 0.0f);
  return t;
}

Tensor4 add(Tensor4 t, const Tensor4& other) {
  for (size_t i = 0; i < t.values.size(); ++i) t.values[i] += other.values[i];
  return t;
}

EvalValue valueOf(const Tensor4& t) {
  return tensorOf<float>(ElementType::kFloat, t.dims, t.values);
}

std::string dimsText(const std::vector<int64_t>& dims) {
  std::string text;
  for (int64_t d : dims) text += (text.empty() ? "" : ", ") + std::to_string(d);
  return text;
}

// `name` as an initializer in the text syntax.
std::string initializerText(const std::string& name, const Tensor4& t) {
  std::ostringstream text;
  text.precision(9);
  text << "float[" << dimsText(t.dims) << "] " << name << " = {";
  for (size_t i = 0; i < t.values.size(); ++i) text << (i ? ", " : "") << t.values[i];
  text << "}";
  return text.str();
}

void expectNear(const Tensor4& expected, const EvalValue& actual) {
  ASSERT_TRUE(actual.isTensor());
  ASSERT_EQ(actual.tensor.shape(), expected.dims);
  std::vector<float> got = valuesOf<float>(actual);
  for (size_t i = 0; i < got.size(); ++i) {
    ASSERT_NEAR(got[i], expected.values[i], 1e-4 + 1e-4 * std::fabs(expected.values[i]))
        << "element " << i;
  }
}

// A residual block: r1 = Relu(Conv 3x3), its output read by two Convs (channels-last), the
// shortcut Conv's output the residual of the last group, whose result is the graph output.
struct ResidualBlock {
  Tensor4 x = randomTensor({1, 8, 13, 13}, 1);
  Tensor4 w1 = randomTensor({16, 8, 3, 3}, 2);
  Tensor4 b1 = randomTensor({1, 1, 1, 16}, 3);
  Tensor4 w2 = randomTensor({24, 16, 3, 3}, 4);
  Tensor4 b2 = randomTensor({1, 1, 1, 24}, 5);
  Tensor4 w3 = randomTensor({24, 16, 1, 1}, 6);
  ConvAttributes first{.pads = {1, 1, 1, 1}};
  ConvAttributes second{.strides = {2, 2}, .pads = {1, 0, 1, 2}};
  ConvAttributes shortcut{.strides = {2, 2}};

  const char* body = R"(
      c1 = Conv <pads = [1, 1, 1, 1]> (x, w1, b1)
      r1 = Relu(c1)
      c2 = Conv <strides = [2, 2], pads = [1, 0, 1, 2]> (r1, w2, b2)
      c3 = Conv <strides = [2, 2]> (r1, w3)
      a = Add(c2, c3)
      y = Relu(a)
    })";

  Tensor4 expected(const Tensor4& input) const {
    Tensor4 r1 = relu(referenceConv(input, w1, b1.values, first));
    Tensor4 c2 = referenceConv(r1, w2, b2.values, second);
    Tensor4 c3 = referenceConv(r1, w3, {}, shortcut);
    return relu(add(c2, c3));
  }

  std::string withInputs() const {
    return std::string(R"(<ir_version: 10, opset_import: ["" : 21]>
    g (float[1, 8, 13, 13] x, float[16, 8, 3, 3] w1, float[16] b1, float[24, 16, 3, 3] w2,
       float[24] b2, float[24, 16, 1, 1] w3) => (float[1, 24, 7, 7] y) {)") +
           body;
  }

  std::string withInitializers() const {
    Tensor4 b1_vector{{16}, b1.values};
    Tensor4 b2_vector{{24}, b2.values};
    auto vector_initializer = [](const std::string& name, const std::vector<float>& values) {
      std::ostringstream text;
      text.precision(9);
      text << "float[" << values.size() << "] " << name << " = {";
      for (size_t i = 0; i < values.size(); ++i) text << (i ? ", " : "") << values[i];
      text << "}";
      return text.str();
    };
    return std::string(R"(<ir_version: 10, opset_import: ["" : 21]>
    g (float[1, 8, 13, 13] x) => (float[1, 24, 7, 7] y) <)") +
           initializerText("w1", w1) + ", " + vector_initializer("b1", b1.values) + ", " +
           initializerText("w2", w2) + ", " + vector_initializer("b2", b2.values) + ", " +
           initializerText("w3", w3) + "> {" + body;
  }
};

TEST(FusedConvolution, AResidualBlockWithWeightsAsInputsComputesWhatItsNodesDo) {
  ResidualBlock block;
  Result<std::vector<EvalValue>> out = testing::runText(
      block.withInputs(), {{"x", valueOf(block.x)},
                           {"w1", valueOf(block.w1)},
                           {"b1", tensorOf<float>(ElementType::kFloat, {16}, block.b1.values)},
                           {"w2", valueOf(block.w2)},
                           {"b2", tensorOf<float>(ElementType::kFloat, {24}, block.b2.values)},
                           {"w3", valueOf(block.w3)}});
  ASSERT_TRUE(out) << out.status().toString();
  ASSERT_EQ(out->size(), 1u);
  expectNear(block.expected(block.x), (*out)[0]);
}

TEST(FusedConvolution, AResidualBlockWithInitializersGivesFreshResultsOnEveryRun) {
  ResidualBlock block;
  Result<Model> model = parseText(block.withInitializers());
  ASSERT_TRUE(model) << model.status().toString();
  Evaluator evaluator(*model);
  for (uint32_t seed : {11u, 12u, 13u}) {
    Tensor4 x = randomTensor({1, 8, 13, 13}, seed);
    std::vector<NamedValue> inputs = {{"x", valueOf(x)}};
    Result<std::vector<EvalValue>> out = evaluator.run(inputs);
    ASSERT_TRUE(out) << out.status().toString();
    expectNear(block.expected(x), (*out)[0]);
  }
}

TEST(FusedConvolution, TheBlockGivesTheSameBitsOnOneAndTwoThreads) {
  ResidualBlock block;
  Result<Model> model = parseText(block.withInitializers());
  ASSERT_TRUE(model) << model.status().toString();
  std::vector<NamedValue> inputs = {{"x", valueOf(block.x)}};
  EXPECT_EQ(testing::threadCountDifference(*model, inputs), "");
}

TEST(FusedConvolution, GroupedDilatedSameUpperConvWithRelu) {
  Tensor4 x = randomTensor({2, 6, 10, 11}, 21);
  Tensor4 w = randomTensor({4, 3, 3, 2}, 22);
  Result<std::vector<EvalValue>> out = testing::runText(
      R"(<ir_version: 10, opset_import: ["" : 21]>
      g (float[2, 6, 10, 11] x, float[4, 3, 3, 2] w) => (float[2, 4, 5, 6] y) {
        c = Conv <group = 2, dilations = [2, 2], strides = [2, 2], auto_pad = "SAME_UPPER"> (x, w)
        y = Relu(c)
      })",
      {{"x", valueOf(x)}, {"w", valueOf(w)}});
  ASSERT_TRUE(out) << out.status().toString();
  // SAME_UPPER: total padding (out - 1) * stride + extent - in, an odd one at the end.
  ConvAttributes attributes{
      .group = 2, .strides = {2, 2}, .dilations = {2, 2}, .pads = {1, 1, 2, 1}};
  expectNear(relu(referenceConv(x, w, {}, attributes)), (*out)[0]);
}

TEST(FusedConvolution, ABroadcastResidualRunsNodeByNode) {
  Tensor4 x = randomTensor({1, 3, 5, 5}, 31);
  Tensor4 w = randomTensor({4, 3, 1, 1}, 32);
  Tensor4 r = randomTensor({1, 4, 1, 1}, 33);
  Result<std::vector<EvalValue>> out = testing::runText(
      R"(<ir_version: 10, opset_import: ["" : 21]>
      g (float[1, 3, 5, 5] x, float[4, 3, 1, 1] w, float[1, 4, 1, 1] r) => (float[1, 4, 5, 5] y) {
        c = Conv(x, w)
        a = Add(r, c)
        y = Relu(a)
      })",
      {{"x", valueOf(x)}, {"w", valueOf(w)}, {"r", valueOf(r)}});
  ASSERT_TRUE(out) << out.status().toString();
  Tensor4 expected = referenceConv(x, w, {}, {});
  for (size_t i = 0; i < expected.values.size(); ++i) {
    expected.values[i] = std::max(0.0f, expected.values[i] + r.values[i / 25]);
  }
  expectNear(expected, (*out)[0]);
}

TEST(FusedConvolution, ABadConvInAGroupIsReportedAtItsOwnNode) {
  Result<std::vector<EvalValue>> out = testing::runText(
      R"(<ir_version: 10, opset_import: ["" : 21]>
      g (float[1, 3, 5, 5] x, float[4, 2, 1, 1] w) => (float[1, 4, 5, 5] y) {
        c = Conv(x, w)
        y = Relu(c)
      })",
      {{"x", valueOf(randomTensor({1, 3, 5, 5}, 41))},
       {"w", valueOf(randomTensor({4, 2, 1, 1}, 42))}});
  ASSERT_FALSE(out);
  EXPECT_NE(out.status().toString().find("node[0]"), std::string::npos) << out.status().toString();
}

// A convolution into one channel after a chain (a side output): onyx's own kernel on the
// channels-last input (src/eval/kernels/single_output_convolution.h), at every CPU tier, with
// channels in and past whole lane groups, padding, strides and dilations that leave border
// pixels with some taps outside, and rows narrower than its block of pixels.
TEST(FusedConvolution, AConvolutionIntoOneChannelAfterAChain) {
  struct Case {
    int64_t c, h, w;
    ConvAttributes second;
  };
  const Case cases[] = {
      {16, 11, 13, {.pads = {1, 1, 1, 1}}},
      {12, 9, 3, {.pads = {1, 1, 1, 1}}},
      {8, 12, 10, {.strides = {2, 1}, .dilations = {2, 3}, .pads = {2, 0, 1, 3}}},
      {19, 7, 9, {.strides = {1, 2}, .pads = {0, 2, 0, 2}}},
  };
  uint32_t seed = 60;
  for (const Case& k : cases) {
    Tensor4 x = randomTensor({2, 4, k.h, k.w}, seed++);
    Tensor4 w1 = randomTensor({k.c, 4, 3, 3}, seed++);
    Tensor4 w2 = randomTensor({1, k.c, 3, 3}, seed++);
    std::vector<float> b2 = {0.25f};
    Tensor4 expected =
        referenceConv(relu(referenceConv(x, w1, {}, {.pads = {1, 1, 1, 1}})), w2, b2, k.second);
    const ConvAttributes& a = k.second;
    std::ostringstream text;
    text << "<ir_version: 10, opset_import: [\"\" : 21]>\n"
         << "g (float[" << dimsText(x.dims) << "] x) => (float[" << dimsText(expected.dims)
         << "] y) <" << initializerText("w1", w1) << ", " << initializerText("w2", w2)
         << ", float[1] b2 = {0.25}> {\n"
         << "  c1 = Conv <pads = [1, 1, 1, 1]> (x, w1)\n  r1 = Relu(c1)\n"
         << "  y = Conv <strides = [" << a.strides[0] << ", " << a.strides[1] << "], dilations = ["
         << a.dilations[0] << ", " << a.dilations[1] << "], pads = [" << a.pads[0] << ", "
         << a.pads[1] << ", " << a.pads[2] << ", " << a.pads[3] << "]> (r1, w2, b2)\n}\n";
    Result<Model> model = parseText(text.str());
    ASSERT_TRUE(model) << model.status().toString() << "\n" << text.str();
    std::vector<NamedValue> inputs = {{"x", valueOf(x)}};
    for (CpuTier tier : testing::cpuTiersToTest()) {
      SCOPED_TRACE("tier " + std::string(cpuTierName(tier)) + "\n" + text.str());
      EvalOptions options;
      options.max_isa = tier;
      Result<std::vector<EvalValue>> out = evaluate(*model, inputs, options);
      ASSERT_TRUE(out) << out.status().toString();
      expectNear(expected, (*out)[0]);
    }
    EXPECT_EQ(testing::threadCountDifference(*model, inputs), "");
  }
}

// A bias of another length than the outputs (here 3 for one output channel, and 2 for 8): the
// fused path leaves it to the node's kernel, which names it, where it read past the bias.
TEST(FusedConvolution, ABiasOfAnotherLengthIsReportedAtItsNode) {
  Tensor4 x = randomTensor({1, 4, 5, 5}, 71);
  for (const char* convs : {
           "c1 = Conv <pads = [1, 1, 1, 1]> (x, w1)\n r = Relu(c1)\n"
           "y = Conv <pads = [1, 1, 1, 1]> (r, w2, b3)",
           "c1 = Conv <pads = [1, 1, 1, 1]> (x, w1, b2)\n r = Relu(c1)\n"
           "y = Conv <pads = [1, 1, 1, 1]> (r, w2)",
       }) {
    std::string text = R"(<ir_version: 10, opset_import: ["" : 21]>
      g (float[1, 4, 5, 5] x) => (float[1, 1, 5, 5] y) <)" +
                       initializerText("w1", randomTensor({8, 4, 3, 3}, 72)) + ", " +
                       initializerText("w2", randomTensor({1, 8, 3, 3}, 73)) +
                       ", float[3] b3 = {1, 2, 3}, float[2] b2 = {1, 2}> {\n" + convs + "\n}\n";
    Result<std::vector<EvalValue>> out = testing::runText(text, {{"x", valueOf(x)}});
    ASSERT_FALSE(out) << text;
    EXPECT_NE(out.status().toString().find("B must have shape"), std::string::npos)
        << out.status().toString();
  }
}

}  // namespace
}  // namespace onyx
