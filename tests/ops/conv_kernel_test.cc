// The convolution and pooling kernels (src/ops/nn): what the conformance cases leave out —
// bad inputs, padding corner cases, narrow types, thread-count independence, and Conv /
// ConvTranspose against a direct loop.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "onyx/core/float_formats.h"
#include "onyx/text/parser.h"
#include "support/eval_testing.h"

namespace onyx {
namespace {

using testing::randomFloats;
using testing::runText;
using testing::tensorOf;
using testing::valuesOf;

EvalValue floats(std::vector<int64_t> shape, const std::vector<float>& values) {
  return tensorOf<float>(ElementType::kFloat, std::move(shape), values);
}

void expectNear(const std::vector<float>& actual, const std::vector<float>& expected,
                float tolerance = 1e-4f) {
  ASSERT_EQ(actual.size(), expected.size());
  for (size_t i = 0; i < actual.size(); ++i) {
    EXPECT_NEAR(actual[i], expected[i], tolerance) << "at " << i;
  }
}

// ---- Conv ---------------------------------------------------------------------------------

// A direct 2-D grouped convolution: x (N, C, H, W), w (M, C / group, KH, KW).
std::vector<float> directConv2d(const std::vector<float>& x, const std::vector<float>& w,
                                const std::vector<float>& bias, int64_t n_, int64_t c_, int64_t h_,
                                int64_t w_, int64_t m_, int64_t kh, int64_t kw, int64_t group,
                                int64_t sh, int64_t sw, int64_t dh, int64_t dw, int64_t ph,
                                int64_t pw, int64_t oh, int64_t ow) {
  std::vector<float> y(static_cast<size_t>(n_ * m_ * oh * ow));
  int64_t cg = c_ / group, mg = m_ / group;
  for (int64_t n = 0; n < n_; ++n) {
    for (int64_t m = 0; m < m_; ++m) {
      int64_t g = m / mg;
      for (int64_t i = 0; i < oh; ++i) {
        for (int64_t j = 0; j < ow; ++j) {
          double sum = bias.empty() ? 0.0 : bias[static_cast<size_t>(m)];
          for (int64_t c = 0; c < cg; ++c) {
            for (int64_t a = 0; a < kh; ++a) {
              for (int64_t b = 0; b < kw; ++b) {
                int64_t r = i * sh - ph + a * dh, s = j * sw - pw + b * dw;
                if (r < 0 || r >= h_ || s < 0 || s >= w_) continue;
                sum += x[static_cast<size_t>(((n * c_ + g * cg + c) * h_ + r) * w_ + s)] *
                       w[static_cast<size_t>(((m * cg + c) * kh + a) * kw + b)];
              }
            }
          }
          y[static_cast<size_t>(((n * m_ + m) * oh + i) * ow + j)] = static_cast<float>(sum);
        }
      }
    }
  }
  return y;
}

TEST(ConvKernel, MatchesADirectLoopWithGroupsStridesDilationsAndPads) {
  // x (2, 4, 9, 8), w (6, 2, 3, 2), group 2, strides (2, 1), dilations (1, 2), pads (1, 2, 0, 1).
  std::vector<float> x = randomFloats(2 * 4 * 9 * 8, 1);
  std::vector<float> w = randomFloats(6 * 2 * 3 * 2, 2);
  std::vector<float> b = randomFloats(6, 3);
  // H: (9 + 1 + 0 - 3) / 2 + 1 = 4; W: (8 + 2 + 1 - 3) / 1 + 1 = 9.
  std::vector<float> expected =
      directConv2d(x, w, b, 2, 4, 9, 8, 6, 3, 2, 2, 2, 1, 1, 2, 1, 2, 4, 9);
  Result<std::vector<EvalValue>> out = runText(
      R"(
    <ir_version: 10, opset_import: ["" : 22]>
    g (float[2,4,9,8] x, float[6,2,3,2] w, float[6] b) => (float[2,6,4,9] y) {
      y = Conv <group = 2, strides = [2, 1], dilations = [1, 2], pads = [1, 2, 0, 1]> (x, w, b)
    })",
      {{"x", floats({2, 4, 9, 8}, x)}, {"w", floats({6, 2, 3, 2}, w)}, {"b", floats({6}, b)}});
  ASSERT_TRUE(out) << out.status().toString();
  EXPECT_EQ((*out)[0].tensor.shape(), (std::vector<int64_t>{2, 6, 4, 9}));
  expectNear(valuesOf<float>((*out)[0]), expected);
}

// A 1-D float convolution runs through its own path (windows copied as runs; double takes
// the general one, the same values): x (2, 4, 40), w (6, 2, 7), group 2, stride 3, pads
// (8, 9), so that the first and last columns read only padding; at 1 and 4 threads alike.
TEST(ConvKernel, OneDimensionalMatchesADirectLoopWhollyInThePaddingToo) {
  std::vector<float> x = randomFloats(2 * 4 * 40, 11);
  std::vector<float> w = randomFloats(6 * 2 * 7, 12);
  std::vector<float> b = randomFloats(6, 13);
  // (40 + 8 + 9 - 7) / 3 + 1 = 17 columns; as a 2-D convolution of height 1.
  std::vector<float> expected =
      directConv2d(x, w, b, 2, 4, 1, 40, 6, 1, 7, 2, 1, 3, 1, 1, 0, 8, 1, 17);
  ASSERT_EQ(expected.size(), 2u * 6 * 17);
  EXPECT_EQ(expected[0], b[0]);  // only padding under the first column
  for (const char* type : {"float", "double"}) {
    std::string model = std::string(R"(
      <ir_version: 10, opset_import: ["" : 22]>
      g (T[2,4,40] x, T[6,2,7] w, T[6] b) => (T[2,6,17] y) {
        y = Conv <group = 2, strides = [3], pads = [8, 9]> (x, w, b)
      })");
    for (size_t at = model.find('T'); at != std::string::npos; at = model.find("T[", at)) {
      model.replace(at, 1, type);
    }
    auto tensor = [&](std::vector<int64_t> shape, const std::vector<float>& values) {
      if (std::string(type) == "float") return floats(std::move(shape), values);
      return tensorOf<double>(ElementType::kDouble, std::move(shape),
                              std::vector<double>(values.begin(), values.end()));
    };
    std::vector<NamedValue> inputs = {
        {"x", tensor({2, 4, 40}, x)}, {"w", tensor({6, 2, 7}, w)}, {"b", tensor({6}, b)}};
    std::vector<float> first;
    for (int threads : {1, 4}) {
      EvalOptions options;
      options.threads = threads;
      Result<std::vector<EvalValue>> out = runText(model, inputs, options);
      ASSERT_TRUE(out) << type << ": " << out.status().toString();
      EXPECT_EQ((*out)[0].tensor.shape(), (std::vector<int64_t>{2, 6, 17}));
      std::vector<float> y;
      if (std::string(type) == "float") {
        y = valuesOf<float>((*out)[0]);
      } else {
        std::vector<double> wide = valuesOf<double>((*out)[0]);
        y.assign(wide.begin(), wide.end());
      }
      expectNear(y, expected);
      if (threads == 1) first = y;
      EXPECT_EQ(y, first) << type << " at " << threads << " threads";
    }
  }
}

TEST(ConvKernel, SameLowerAndSameUpperPutTheOddPadAtOppositeEnds) {
  // Length 4, kernel 2: one pad in total; SAME_UPPER pads at the end, SAME_LOWER at the start.
  const char* model = R"(
    <ir_version: 10, opset_import: ["" : 22]>
    g (float[1,1,4] x, float[1,1,2] w) => (float[1,1,4] y) {
      y = Conv <auto_pad = "%s"> (x, w)
    })";
  std::vector<NamedValue> inputs = {{"x", floats({1, 1, 4}, {1, 2, 3, 4})},
                                    {"w", floats({1, 1, 2}, {1, 10})}};
  char text[512];
  std::snprintf(text, sizeof text, model, "SAME_UPPER");
  Result<std::vector<EvalValue>> upper = runText(text, inputs);
  ASSERT_TRUE(upper) << upper.status().toString();
  EXPECT_EQ(valuesOf<float>((*upper)[0]), (std::vector<float>{21, 32, 43, 4}));
  std::snprintf(text, sizeof text, model, "SAME_LOWER");
  Result<std::vector<EvalValue>> lower = runText(text, inputs);
  ASSERT_TRUE(lower) << lower.status().toString();
  EXPECT_EQ(valuesOf<float>((*lower)[0]), (std::vector<float>{10, 21, 32, 43}));
}

TEST(ConvKernel, ResultsDoNotDependOnTheThreadCount) {
  std::vector<float> x = randomFloats(2 * 3 * 20 * 20, 4);
  std::vector<float> w = randomFloats(5 * 3 * 3 * 3, 5);
  const char* model = R"(
    <ir_version: 10, opset_import: ["" : 22]>
    g (float[2,3,20,20] x, float[5,3,3,3] w) => (float[2,5,20,20] y) {
      y = Conv <pads = [1, 1, 1, 1]> (x, w)
    })";
  std::vector<NamedValue> inputs = {{"x", floats({2, 3, 20, 20}, x)},
                                    {"w", floats({5, 3, 3, 3}, w)}};
  EvalOptions one;
  one.threads = 1;
  EvalOptions four;
  four.threads = 4;
  Result<std::vector<EvalValue>> a = runText(model, inputs, one);
  Result<std::vector<EvalValue>> b = runText(model, inputs, four);
  ASSERT_TRUE(a) << a.status().toString();
  ASSERT_TRUE(b) << b.status().toString();
  EXPECT_EQ(valuesOf<float>((*a)[0]), valuesOf<float>((*b)[0]));
}

TEST(ConvKernel, Float16IsComputedInFloatAndRounded) {
  std::vector<uint16_t> x = {floatToFloat16(1.0f), floatToFloat16(2.0f), floatToFloat16(3.0f)};
  std::vector<uint16_t> w = {floatToFloat16(0.5f), floatToFloat16(0.25f)};
  Result<std::vector<EvalValue>> out =
      runText(R"(
    <ir_version: 10, opset_import: ["" : 22]>
    g (float16[1,1,3] x, float16[1,1,2] w) => (float16[1,1,2] y) { y = Conv (x, w) })",
              {{"x", tensorOf(ElementType::kFloat16, {1, 1, 3}, x)},
               {"w", tensorOf(ElementType::kFloat16, {1, 1, 2}, w)}});
  ASSERT_TRUE(out) << out.status().toString();
  ASSERT_EQ((*out)[0].tensor.type(), ElementType::kFloat16);
  std::vector<uint16_t> y = valuesOf<uint16_t>((*out)[0]);
  ASSERT_EQ(y.size(), 2u);
  EXPECT_EQ(float16ToFloat(y[0]), 1.0f);
  EXPECT_EQ(float16ToFloat(y[1]), 1.75f);
}

TEST(ConvKernel, ChannelsThatDoNotMatchTheWeightAreAnError) {
  Result<std::vector<EvalValue>> out = runText(
      R"(
    <ir_version: 10, opset_import: ["" : 22]>
    g (float[1,3,4] x, float[1,2,2] w) => (float[1,1,3] y) { y = Conv (x, w) })",
      {{"x", floats({1, 3, 4}, randomFloats(12, 6))}, {"w", floats({1, 2, 2}, {1, 1, 1, 1})}});
  ASSERT_FALSE(out);
  EXPECT_NE(out.status().message().find("channels"), std::string::npos) << out.status().toString();
}

TEST(ConvKernel, AnEmptyBatchGivesAnEmptyOutput) {
  Result<std::vector<EvalValue>> out =
      runText(R"(
    <ir_version: 10, opset_import: ["" : 22]>
    g (float[0,1,4] x, float[2,1,3] w) => (float[0,2,2] y) { y = Conv (x, w) })",
              {{"x", floats({0, 1, 4}, {})}, {"w", floats({2, 1, 3}, {1, 2, 3, 4, 5, 6})}});
  ASSERT_TRUE(out) << out.status().toString();
  EXPECT_EQ((*out)[0].tensor.shape(), (std::vector<int64_t>{0, 2, 2}));
}

// ---- ConvTranspose ------------------------------------------------------------------------

TEST(ConvTransposeKernel, IsTheAdjointOfConv) {
  // <Conv(x), y> == <x, ConvTranspose(y)> for the same weight, strides, pads and dilations.
  std::vector<float> x = randomFloats(1 * 4 * 7 * 6, 7);
  std::vector<float> w = randomFloats(6 * 2 * 3 * 2, 8);  // Conv: (M=6, C/g=2); group 2
  std::vector<float> y = randomFloats(1 * 6 * 3 * 6, 9);
  // Conv with pads (1, 0, 0, 1): H (7 + 1 - 3) / 2 + 1 = 3; W, extent 3 with dilation 2:
  // (6 + 1 - 3) + 1 = 5. ConvTranspose back: H 2 * 2 + 1 + 3 - 1 = 7, W 4 + 3 - 1 = 6.
  std::vector<float> conv = directConv2d(x, w, {}, 1, 4, 7, 6, 6, 3, 2, 2, 2, 1, 1, 2, 1, 0, 3, 5);
  std::vector<float> yy = randomFloats(conv.size(), 10);
  double left = 0;
  for (size_t i = 0; i < conv.size(); ++i) left += static_cast<double>(conv[i]) * yy[i];
  // ConvTranspose weight is (C=6, M/g=2, ...): the same array read as (in=6, out/g=2).
  Result<std::vector<EvalValue>> out =
      runText(R"(
    <ir_version: 10, opset_import: ["" : 22]>
    g (float[1,6,3,5] y, float[6,2,3,2] w) => (float[1,4,7,6] x) {
      x = ConvTranspose <group = 2, strides = [2, 1], dilations = [1, 2], pads = [1, 0, 0, 1],
                         output_padding = [1, 0]> (y, w)
    })",
              {{"y", floats({1, 6, 3, 5}, yy)}, {"w", floats({6, 2, 3, 2}, w)}});
  ASSERT_TRUE(out) << out.status().toString();
  ASSERT_EQ((*out)[0].tensor.shape(), (std::vector<int64_t>{1, 4, 7, 6}));
  std::vector<float> back = valuesOf<float>((*out)[0]);
  double right = 0;
  for (size_t i = 0; i < back.size(); ++i) right += static_cast<double>(back[i]) * x[i];
  EXPECT_NEAR(left, right, 1e-3);
}

TEST(ConvTransposeKernel, AWeightWithTheWrongChannelCountIsAnError) {
  Result<std::vector<EvalValue>> out = runText(R"(
    <ir_version: 10, opset_import: ["" : 22]>
    g (float[1,2,3] x, float[3,1,2] w) => (float[1,1,4] y) { y = ConvTranspose (x, w) })",
                                               {{"x", floats({1, 2, 3}, randomFloats(6, 11))},
                                                {"w", floats({3, 1, 2}, randomFloats(6, 12))}});
  ASSERT_FALSE(out);
  EXPECT_NE(out.status().message().find("channels"), std::string::npos) << out.status().toString();
}

TEST(ConvTransposeKernel, SameUpperOutputIsInputTimesStrideEvenWhenThatNeedsNegativePads) {
  // Full output 3 * (2 - 1) + 1 = 4, SAME asks for 6: a total padding of -2, -1 at each end,
  // so the inputs land at 1 and 4.
  Result<std::vector<EvalValue>> out =
      runText(R"(
    <ir_version: 10, opset_import: ["" : 22]>
    g (float[1,1,2] x, float[1,1,1] w) => (float[1,1,6] y) {
      y = ConvTranspose <auto_pad = "SAME_UPPER", strides = [3]> (x, w)
    })",
              {{"x", floats({1, 1, 2}, {1, 2})}, {"w", floats({1, 1, 1}, {10})}});
  ASSERT_TRUE(out) << out.status().toString();
  EXPECT_EQ(valuesOf<float>((*out)[0]), (std::vector<float>{0, 10, 0, 0, 20, 0}));
}

// A direct 2-D transposed convolution: x (N, C, H, W), w (C, M / group, KH, KW); output
// position o = i * stride - pad_begin + k * dilation along each axis.
struct TransposedConv2d {
  int64_t n, c, h, w, m, kh, kw, group, sh, sw, dh, dw, ph, pw, oh, ow;

  std::vector<double> operator()(const std::vector<float>& x, const std::vector<float>& weight,
                                 const std::vector<float>& bias) const {
    std::vector<double> y(static_cast<size_t>(n * m * oh * ow));
    const int64_t cg = c / group, mg = m / group;
    for (int64_t b = 0; b < n; ++b) {
      for (int64_t o = 0; o < m; ++o) {
        for (size_t i = 0; i < static_cast<size_t>(oh * ow); ++i) {
          y[static_cast<size_t>((b * m + o) * oh * ow) + i] =
              bias.empty() ? 0.0 : bias[static_cast<size_t>(o)];
        }
      }
      for (int64_t ch = 0; ch < c; ++ch) {
        const int64_t g = ch / cg;
        for (int64_t i = 0; i < h; ++i) {
          for (int64_t j = 0; j < w; ++j) {
            const double v = x[static_cast<size_t>(((b * c + ch) * h + i) * w + j)];
            for (int64_t mo = 0; mo < mg; ++mo) {
              for (int64_t a = 0; a < kh; ++a) {
                for (int64_t e = 0; e < kw; ++e) {
                  const int64_t r = i * sh - ph + a * dh, s = j * sw - pw + e * dw;
                  if (r < 0 || r >= oh || s < 0 || s >= ow) continue;
                  y[static_cast<size_t>(((b * m + g * mg + mo) * oh + r) * ow + s)] +=
                      v * weight[static_cast<size_t>(((ch * mg + mo) * kh + a) * kw + e)];
                }
              }
            }
          }
        }
      }
    }
    return y;
  }
};

// The sgemm + col2im kernel against the direct loop: upsampling whose windows do not overlap
// (split by column tiles too, some outputs reached by no tap), overlapping windows, groups,
// dilations, more output channels than one block, and DOUBLE (the portable product).
TEST(ConvTransposeKernel, MatchesADirectLoop) {
  struct Case {
    TransposedConv2d shape;
    const char* attributes;
  };
  const Case cases[] = {
      {{1, 8, 5, 6, 4, 2, 2, 1, 2, 2, 1, 1, 0, 0, 10, 12}, "strides = [2, 2]"},
      {{1, 3, 40, 50, 64, 2, 2, 1, 2, 2, 1, 1, 0, 0, 80, 100}, "strides = [2, 2]"},
      {{1, 3, 4, 5, 2, 3, 3, 1, 3, 3, 1, 1, 0, 0, 14, 17},
       "strides = [3, 3], output_padding = [2, 2]"},
      {{1, 6, 5, 4, 6, 4, 4, 1, 2, 2, 1, 1, 1, 1, 10, 8}, "strides = [2, 2], pads = [1, 1, 1, 1]"},
      {{2, 4, 3, 5, 6, 3, 2, 2, 2, 1, 1, 2, 1, 0, 6, 7},
       "group = 2, strides = [2, 1], dilations = [1, 2], pads = [1, 0, 0, 0]"},
      {{1, 2, 3, 3, 140, 2, 2, 1, 2, 2, 1, 1, 0, 0, 6, 6}, "strides = [2, 2]"},
  };
  for (const char* type : {"float", "double"}) {
    for (const Case& c : cases) {
      const TransposedConv2d& t = c.shape;
      const std::vector<int64_t> x_shape = {t.n, t.c, t.h, t.w};
      const std::vector<int64_t> w_shape = {t.c, t.m / t.group, t.kh, t.kw};
      const std::vector<int64_t> y_shape = {t.n, t.m, t.oh, t.ow};
      std::vector<float> x = randomFloats(static_cast<size_t>(t.n * t.c * t.h * t.w), 1);
      std::vector<float> w =
          randomFloats(static_cast<size_t>(t.c * t.m / t.group * t.kh * t.kw), 2);
      std::vector<float> b = randomFloats(static_cast<size_t>(t.m), 3);
      const std::string text =
          std::string("<ir_version: 10, opset_import: [\"\" : 22]>\ng (") + type +
          testing::dimsText(x_shape) + " x, " + type + testing::dimsText(w_shape) + " w, " + type +
          "[" + std::to_string(t.m) + "] b) => (" + type + testing::dimsText(y_shape) +
          " y) { y = ConvTranspose <" + c.attributes + "> (x, w, b) }";
      auto value = [&](const std::vector<int64_t>& shape, const std::vector<float>& values) {
        return type[0] == 'f' ? floats(shape, values)
                              : tensorOf<double>(ElementType::kDouble, shape,
                                                 std::vector<double>(values.begin(), values.end()));
      };
      Result<std::vector<EvalValue>> out = runText(
          text, {{"x", value(x_shape, x)}, {"w", value(w_shape, w)}, {"b", value({t.m}, b)}});
      ASSERT_TRUE(out) << c.attributes << ": " << out.status().toString();
      ASSERT_EQ((*out)[0].tensor.shape(), y_shape) << c.attributes;
      std::vector<double> expected = t(x, w, b);
      const Array& y = (*out)[0].tensor;
      for (size_t i = 0; i < expected.size(); ++i) {
        double got = type[0] == 'f' ? y.data<float>()[i] : y.data<double>()[i];
        ASSERT_NEAR(got, expected[i], 1e-5 * (1 + std::fabs(expected[i])))
            << type << " " << c.attributes << " at " << i;
      }
    }
  }
}

TEST(ConvTransposeKernel, ResultsDoNotDependOnTheThreadCount) {
  Result<Model> model = parseText(R"(
    <ir_version: 10, opset_import: ["" : 22]>
    g (float[1,4,100,100] x, float[4,70,2,2] w, float[70] b, float[4,6,3,3] v)
        => (float[1,70,200,200] y, float[1,6,201,201] z) {
      y = ConvTranspose <strides = [2, 2]> (x, w, b)
      z = ConvTranspose <strides = [2, 2]> (x, v)
    })");
  ASSERT_TRUE(model) << model.status().toString();
  std::vector<NamedValue> inputs = {{"x", floats({1, 4, 100, 100}, randomFloats(40000, 1))},
                                    {"w", floats({4, 70, 2, 2}, randomFloats(1120, 2))},
                                    {"b", floats({70}, randomFloats(70, 3))},
                                    {"v", floats({4, 6, 3, 3}, randomFloats(216, 4))}};
  EXPECT_EQ(testing::threadCountDifference(*model, inputs, 3), "");
}

// ---- poolings -----------------------------------------------------------------------------

TEST(MaxPoolKernel, IndicesInColumnMajorOrderWithStorageOrderOne) {
  // x (1, 1, 2, 3); both 2x2 windows hold the max 9 at (1, 1): row-major index 4,
  // column-major 1 + 1 * 2 = 3.
  Result<std::vector<EvalValue>> out = runText(R"(
    <ir_version: 10, opset_import: ["" : 22]>
    g (float[1,1,2,3] x) => (float[1,1,1,2] y, int64[1,1,1,2] i) {
      y, i = MaxPool <kernel_shape = [2, 2], storage_order = 1> (x)
    })",
                                               {{"x", floats({1, 1, 2, 3}, {1, 2, 0, 3, 9, 4})}});
  ASSERT_TRUE(out) << out.status().toString();
  EXPECT_EQ(valuesOf<float>((*out)[0]), (std::vector<float>{9, 9}));
  EXPECT_EQ(valuesOf<int64_t>((*out)[1]), (std::vector<int64_t>{3, 3}));
}

TEST(MaxPoolKernel, NaNPropagatesAndNegativeValuesBeatThePadding) {
  float nan = std::numeric_limits<float>::quiet_NaN();
  Result<std::vector<EvalValue>> out = runText(R"(
    <ir_version: 10, opset_import: ["" : 22]>
    g (float[1,1,4] x) => (float[1,1,3] y) {
      y = MaxPool <kernel_shape = [2], strides = [2], pads = [1, 1]> (x)
    })",
                                               {{"x", floats({1, 1, 4}, {-5, nan, -3, -4})}});
  ASSERT_TRUE(out) << out.status().toString();
  std::vector<float> y = valuesOf<float>((*out)[0]);
  ASSERT_EQ(y.size(), 3u);
  EXPECT_EQ(y[0], -5.0f);
  EXPECT_TRUE(std::isnan(y[1]));
  EXPECT_EQ(y[2], -4.0f);
}

TEST(MaxPoolKernel, The2DPathWithoutIndicesChoosesWhatTheGeneralWalkChooses) {
  // Asking for Indices takes the general N-d walk; Y alone the 2-D two-pass path. Random
  // values with NaNs, -0 and +0, pads wider than the dilated kernel's reach (windows wholly
  // in the padding), dilation, strides and ceil_mode.
  std::mt19937 generator(5);
  std::uniform_int_distribution<int> pick(-3, 3);
  std::vector<float> values(2 * 3 * 9 * 11);
  for (float& v : values) {
    int k = pick(generator);
    v = k == -3 ? std::numeric_limits<float>::quiet_NaN() : k == 3 ? -0.0f : float(k);
  }
  const char* attributes[] = {
      "kernel_shape = [3, 3], strides = [2, 2], pads = [1, 1, 1, 1]",
      "kernel_shape = [2, 3], strides = [3, 1], pads = [3, 0, 2, 4], ceil_mode = 1",
      "kernel_shape = [3, 2], dilations = [2, 3], pads = [2, 3, 2, 3]",
      "kernel_shape = [1, 1], strides = [2, 3]",
      "kernel_shape = [2, 3], dilations = [1, 6], pads = [0, 2, 0, 2]",  // no window inside
  };
  for (const char* attribute : attributes) {
    std::string body = std::string(
                           "<ir_version: 10, opset_import: [\"\" : 22]>\n"
                           "g (float[2,3,9,11] x) => (float y, int64 i) {\n"
                           "  y, i = MaxPool <") +
                       attribute + "> (x)\n}";
    std::string alone = std::string(
                            "<ir_version: 10, opset_import: [\"\" : 22]>\n"
                            "g (float[2,3,9,11] x) => (float y) {\n"
                            "  y = MaxPool <") +
                        attribute + "> (x)\n}";
    Result<std::vector<EvalValue>> general =
        runText(body, {{"x", tensorOf<float>(ElementType::kFloat, {2, 3, 9, 11}, values)}});
    Result<std::vector<EvalValue>> fast =
        runText(alone, {{"x", tensorOf<float>(ElementType::kFloat, {2, 3, 9, 11}, values)}});
    ASSERT_TRUE(general && fast) << attribute;
    const Array& a = (*general)[0].tensor;
    const Array& b = (*fast)[0].tensor;
    ASSERT_EQ(a.shape(), b.shape()) << attribute;
    for (size_t k = 0; k < a.size(); ++k) {
      float x = a.data<float>()[k], y = b.data<float>()[k];
      ASSERT_EQ(std::isnan(x), std::isnan(y)) << attribute << " at " << k;
      if (!std::isnan(x)) {
        ASSERT_EQ(x, y) << attribute << " at " << k;
        ASSERT_EQ(std::signbit(x), std::signbit(y)) << attribute << " at " << k;
      }
    }
  }
}

TEST(MaxPoolKernel, Int8) {
  Result<std::vector<EvalValue>> out =
      runText(R"(
    <ir_version: 10, opset_import: ["" : 22]>
    g (int8[1,1,5] x) => (int8[1,1,2] y) { y = MaxPool <kernel_shape = [3], strides = [2]> (x) })",
              {{"x", tensorOf<int8_t>(ElementType::kInt8, {1, 1, 5}, {-7, -9, -8, 100, -128})}});
  ASSERT_TRUE(out) << out.status().toString();
  EXPECT_EQ(valuesOf<int8_t>((*out)[0]), (std::vector<int8_t>{-7, 100}));
}

TEST(MaxPoolKernel, AKernelShapeOfTheWrongLengthIsAnError) {
  Result<std::vector<EvalValue>> out = runText(R"(
    <ir_version: 10, opset_import: ["" : 22]>
    g (float[1,1,4,4] x) => (float[1,1,3,3] y) { y = MaxPool <kernel_shape = [2]> (x) })",
                                               {{"x", floats({1, 1, 4, 4}, randomFloats(16, 13))}});
  ASSERT_FALSE(out);
  EXPECT_NE(out.status().message().find("kernel_shape"), std::string::npos)
      << out.status().toString();
}

TEST(AveragePoolKernel, CountIncludePadCountsPadsButNotTheCeilOverhang) {
  // Length 4, kernel 2, stride 2, pads (1, 0), ceil_mode: windows at -1, 1, 3 (the last reads
  // 3 and one position past the end, which is not padding).
  const char* model = R"(
    <ir_version: 10, opset_import: ["" : 22]>
    g (float[1,1,4] x) => (float[1,1,3] y) {
      y = AveragePool <kernel_shape = [2], strides = [2], pads = [1, 0], ceil_mode = 1,
                       count_include_pad = %d> (x)
    })";
  std::vector<NamedValue> inputs = {{"x", floats({1, 1, 4}, {2, 4, 6, 8})}};
  char text[512];
  std::snprintf(text, sizeof text, model, 1);
  Result<std::vector<EvalValue>> with = runText(text, inputs);
  ASSERT_TRUE(with) << with.status().toString();
  expectNear(valuesOf<float>((*with)[0]), {1.0f, 5.0f, 8.0f});
  std::snprintf(text, sizeof text, model, 0);
  Result<std::vector<EvalValue>> without = runText(text, inputs);
  ASSERT_TRUE(without) << without.status().toString();
  expectNear(valuesOf<float>((*without)[0]), {2.0f, 5.0f, 8.0f});
}

TEST(AveragePoolKernel, The2DPathGivesWhatTheGeneralWalkGives) {
  // A 2-D pool takes the two-pass path; the same pool over a third axis of size 1 the general
  // N-d walk. Pads wider than the kernel's reach (windows wholly in the padding: 0 / 0),
  // dilations, strides, ceil_mode and count_include_pad.
  const std::vector<float> values = randomFloats(2 * 3 * 9 * 11, 5);
  const std::pair<const char*, const char*> attributes[] = {
      {"kernel_shape = [3, 3], strides = [2, 2], pads = [1, 1, 1, 1]",
       "kernel_shape = [3, 3, 1], strides = [2, 2, 1], pads = [1, 1, 0, 1, 1, 0]"},
      {"kernel_shape = [3, 3], strides = [2, 2], pads = [1, 1, 1, 1], count_include_pad = 1",
       "kernel_shape = [3, 3, 1], strides = [2, 2, 1], pads = [1, 1, 0, 1, 1, 0], "
       "count_include_pad = 1"},
      {"kernel_shape = [2, 3], strides = [3, 1], pads = [3, 0, 2, 4], ceil_mode = 1",
       "kernel_shape = [2, 3, 1], strides = [3, 1, 1], pads = [3, 0, 0, 2, 4, 0], ceil_mode = 1"},
      {"kernel_shape = [3, 2], dilations = [2, 3], pads = [2, 3, 2, 3], count_include_pad = 1",
       "kernel_shape = [3, 2, 1], dilations = [2, 3, 1], pads = [2, 3, 0, 2, 3, 0], "
       "count_include_pad = 1"},
      {"kernel_shape = [2, 2], strides = [2, 2]", "kernel_shape = [2, 2, 1], strides = [2, 2, 1]"},
      {"kernel_shape = [1, 1], strides = [2, 3]", "kernel_shape = [1, 1, 1], strides = [2, 3, 1]"},
      {"kernel_shape = [2, 3], dilations = [1, 6], pads = [0, 2, 0, 2]",
       "kernel_shape = [2, 3, 1], dilations = [1, 6, 1], pads = [0, 2, 0, 0, 2, 0]"},
  };
  for (const auto& [flat, deep] : attributes) {
    auto run = [&](const char* attribute, std::vector<int64_t> shape, const char* dims) {
      std::string text = std::string("<ir_version: 10, opset_import: [\"\" : 22]>\ng (float") +
                         dims + " x) => (float y) {\n  y = AveragePool <" + attribute + "> (x)\n}";
      return runText(text, {{"x", floats(std::move(shape), values)}});
    };
    Result<std::vector<EvalValue>> fast = run(flat, {2, 3, 9, 11}, "[2,3,9,11]");
    Result<std::vector<EvalValue>> general = run(deep, {2, 3, 9, 11, 1}, "[2,3,9,11,1]");
    ASSERT_TRUE(fast && general) << flat;
    const Array& a = (*fast)[0].tensor;
    const Array& b = (*general)[0].tensor;
    ASSERT_EQ(a.size(), b.size()) << flat;
    for (size_t k = 0; k < a.size(); ++k) {
      float x = a.data<float>()[k], y = b.data<float>()[k];
      ASSERT_EQ(std::isnan(x), std::isnan(y)) << flat << " at " << k;
      if (!std::isnan(y)) {
        ASSERT_EQ(x, y) << flat << " at " << k;
      }
    }
  }
}

TEST(AveragePoolKernel, AWindowLargerThanThePaddedInputIsAnError) {
  Result<std::vector<EvalValue>> out = runText(R"(
    <ir_version: 10, opset_import: ["" : 22]>
    g (float[1,1,2] x) => (float[1,1,1] y) { y = AveragePool <kernel_shape = [4]> (x) })",
                                               {{"x", floats({1, 1, 2}, {1, 2})}});
  ASSERT_FALSE(out);
  EXPECT_NE(out.status().message().find("negative size"), std::string::npos)
      << out.status().toString();
}

TEST(LpPoolKernel, PaddingAddsNothing) {
  Result<std::vector<EvalValue>> out = runText(R"(
    <ir_version: 10, opset_import: ["" : 22]>
    g (float[1,1,3] x) => (float[1,1,2] y) {
      y = LpPool <kernel_shape = [2], strides = [2], pads = [1, 0], p = 1> (x)
    })",
                                               {{"x", floats({1, 1, 3}, {-3, 4, -5})}});
  ASSERT_TRUE(out) << out.status().toString();
  expectNear(valuesOf<float>((*out)[0]), {3.0f, 9.0f});
}

TEST(GlobalPoolKernels, LpPoolWithP3) {
  Result<std::vector<EvalValue>> out = runText(R"(
    <ir_version: 10, opset_import: ["" : 22]>
    g (float[1,1,2,1] x) => (float[1,1,1,1] y) { y = GlobalLpPool <p = 3> (x) })",
                                               {{"x", floats({1, 1, 2, 1}, {-1, 2})}});
  ASSERT_TRUE(out) << out.status().toString();
  expectNear(valuesOf<float>((*out)[0]), {std::cbrt(9.0f)});
}

TEST(GlobalPoolKernels, MaxPropagatesNaNAndAverageWorksInBfloat16) {
  float nan = std::numeric_limits<float>::quiet_NaN();
  Result<std::vector<EvalValue>> out =
      runText(R"(
    <ir_version: 10, opset_import: ["" : 22]>
    g (float[1,2,3] x, bfloat16[1,1,2,2] z) => (float[1,2,1] y, bfloat16[1,1,1,1] a) {
      y = GlobalMaxPool (x)
      a = GlobalAveragePool (z)
    })",
              {{"x", floats({1, 2, 3}, {1, nan, 0, -1, -2, -3})},
               {"z", tensorOf(ElementType::kBfloat16, {1, 1, 2, 2},
                              std::vector<uint16_t>{floatToBfloat16(1), floatToBfloat16(2),
                                                    floatToBfloat16(3), floatToBfloat16(6)})}});
  ASSERT_TRUE(out) << out.status().toString();
  std::vector<float> y = valuesOf<float>((*out)[0]);
  ASSERT_EQ(y.size(), 2u);
  EXPECT_TRUE(std::isnan(y[0]));
  EXPECT_EQ(y[1], -1.0f);
  std::vector<uint16_t> a = valuesOf<uint16_t>((*out)[1]);
  ASSERT_EQ(a.size(), 1u);
  EXPECT_EQ(bfloat16ToFloat(a[0]), 3.0f);
}

// ---- the rest -----------------------------------------------------------------------------

TEST(Col2ImKernel, ABlockCountThatDoesNotMatchTheImageIsAnError) {
  Result<std::vector<EvalValue>> out =
      runText(R"(
    <ir_version: 10, opset_import: ["" : 22]>
    g (float[1,4,5] x, int64[2] image, int64[2] block) => (float[1,1,3,3] y) {
      y = Col2Im (x, image, block)
    })",
              {{"x", floats({1, 4, 5}, randomFloats(20, 14))},
               {"image", tensorOf<int64_t>(ElementType::kInt64, {2}, {3, 3})},
               {"block", tensorOf<int64_t>(ElementType::kInt64, {2}, {2, 2})}});
  ASSERT_FALSE(out);
  EXPECT_NE(out.status().message().find("blocks"), std::string::npos) << out.status().toString();
}

TEST(Col2ImKernel, OverlappingBlocksAdd) {
  // Image 3, block 2, stride 1: positions 0 and 1; the middle pixel gets both.
  Result<std::vector<EvalValue>> out =
      runText(R"(
    <ir_version: 10, opset_import: ["" : 22]>
    g (float[1,2,2] x, int64[1] image, int64[1] block) => (float[1,1,3] y) {
      y = Col2Im (x, image, block)
    })",
              {{"x", floats({1, 2, 2}, {1, 2, 10, 20})},
               {"image", tensorOf<int64_t>(ElementType::kInt64, {1}, {3})},
               {"block", tensorOf<int64_t>(ElementType::kInt64, {1}, {2})}});
  ASSERT_TRUE(out) << out.status().toString();
  EXPECT_EQ(valuesOf<float>((*out)[0]), (std::vector<float>{1, 12, 20}));
}

TEST(MaxUnpoolKernel, AnIndexOutsideTheOutputIsAnError) {
  Result<std::vector<EvalValue>> out =
      runText(R"(
    <ir_version: 10, opset_import: ["" : 22]>
    g (float[1,1,2] x, int64[1,1,2] i) => (float[1,1,4] y) {
      y = MaxUnpool <kernel_shape = [2], strides = [2]> (x, i)
    })",
              {{"x", floats({1, 1, 2}, {1, 2})},
               {"i", tensorOf<int64_t>(ElementType::kInt64, {1, 1, 2}, {1, 4})}});
  ASSERT_FALSE(out);
  EXPECT_NE(out.status().message().find("index 4"), std::string::npos) << out.status().toString();
}

TEST(QLinearConvKernel, PerChannelScalesRoundHalfToEvenAndSaturate) {
  // x - 1 = (1, 2), w = (1) per channel; scales: channel 0 x 0.25 -> 0.25, 0.5 -> 0, 0 (+ 0);
  // channel 1 x 100 -> 100, 200 -> saturates at 127.
  Result<std::vector<EvalValue>> out =
      runText(R"(
    <ir_version: 10, opset_import: ["" : 22]>
    g (uint8[1,1,2] x, float xs, uint8 xz, int8[2,1,1] w, float[2] ws, int8[2] wz, float ys,
       int8 yz) => (int8[1,2,2] y) {
      y = QLinearConv (x, xs, xz, w, ws, wz, ys, yz)
    })",
              {{"x", tensorOf<uint8_t>(ElementType::kUint8, {1, 1, 2}, {2, 3})},
               {"xs", floats({}, {1})},
               {"xz", tensorOf<uint8_t>(ElementType::kUint8, {}, {1})},
               {"w", tensorOf<int8_t>(ElementType::kInt8, {2, 1, 1}, {1, 1})},
               {"ws", floats({2}, {0.25f, 100})},
               {"wz", tensorOf<int8_t>(ElementType::kInt8, {2}, {0, 0})},
               {"ys", floats({}, {1})},
               {"yz", tensorOf<int8_t>(ElementType::kInt8, {}, {0})}});
  ASSERT_TRUE(out) << out.status().toString();
  EXPECT_EQ(valuesOf<int8_t>((*out)[0]), (std::vector<int8_t>{0, 0, 100, 127}));
}

TEST(ConvIntegerKernel, PaddingReadsTheZeroPoint) {
  // x - 5 = (1, 2), padded by one on both sides with zeros; w - 1 = (1, 1).
  Result<std::vector<EvalValue>> out =
      runText(R"(
    <ir_version: 10, opset_import: ["" : 22]>
    g (uint8[1,1,2] x, uint8[1,1,2] w, uint8 xz, uint8 wz) => (int32[1,1,3] y) {
      y = ConvInteger <pads = [1, 1]> (x, w, xz, wz)
    })",
              {{"x", tensorOf<uint8_t>(ElementType::kUint8, {1, 1, 2}, {6, 7})},
               {"w", tensorOf<uint8_t>(ElementType::kUint8, {1, 1, 2}, {2, 2})},
               {"xz", tensorOf<uint8_t>(ElementType::kUint8, {}, {5})},
               {"wz", tensorOf<uint8_t>(ElementType::kUint8, {}, {1})}});
  ASSERT_TRUE(out) << out.status().toString();
  EXPECT_EQ(valuesOf<int32_t>((*out)[0]), (std::vector<int32_t>{1, 3, 2}));
}

TEST(ConvIntegerKernel, GroupsStridesAndPerChannelWeightZeroPoints) {
  // Two groups of one channel, stride 2, one pad each side (read as x_zero_point 10).
  // x - 10: (1, 2, 3, 4) and (0, 10, 20, 30); w - (1, 2) per output channel: (1, 0, 0) and
  // (0, 1, 0). Padding read as 0 instead would make the first sum -10.
  Result<std::vector<EvalValue>> out = runText(
      R"(
    <ir_version: 10, opset_import: ["" : 22]>
    g (uint8[1,2,4] x, uint8[2,1,3] w, uint8 xz, uint8[2] wz) => (int32[1,2,2] y) {
      y = ConvInteger <group = 2, pads = [1, 1], strides = [2]> (x, w, xz, wz)
    })",
      {{"x", tensorOf<uint8_t>(ElementType::kUint8, {1, 2, 4}, {11, 12, 13, 14, 10, 20, 30, 40})},
       {"w", tensorOf<uint8_t>(ElementType::kUint8, {2, 1, 3}, {2, 1, 1, 2, 3, 2})},
       {"xz", tensorOf<uint8_t>(ElementType::kUint8, {}, {10})},
       {"wz", tensorOf<uint8_t>(ElementType::kUint8, {2}, {1, 2})}});
  ASSERT_TRUE(out) << out.status().toString();
  EXPECT_EQ(valuesOf<int32_t>((*out)[0]), (std::vector<int32_t>{0, 2, 0, 20}));
}

TEST(ConvIntegerKernel, Int8WeightsAndTheInt32Wrap) {
  // uint8 x by int8 w, as quantize_dynamic writes signed weights: 255 * -128 * 65800 =
  // -2147712000 is past INT32_MIN; the spec's 32-bit accumulation wraps it to that + 2^32.
  std::vector<uint8_t> x(65800, 255);
  std::vector<int8_t> w(65800, -128);
  Result<std::vector<EvalValue>> out =
      runText(R"(
    <ir_version: 10, opset_import: ["" : 22]>
    g (uint8[1,65800,1] x, int8[1,65800,1] w) => (int32[1,1,1] y) { y = ConvInteger (x, w) })",
              {{"x", tensorOf<uint8_t>(ElementType::kUint8, {1, 65800, 1}, x)},
               {"w", tensorOf<int8_t>(ElementType::kInt8, {1, 65800, 1}, w)}});
  ASSERT_TRUE(out) << out.status().toString();
  EXPECT_EQ(valuesOf<int32_t>((*out)[0]), (std::vector<int32_t>{2147255296}));
}

TEST(CausalConvWithStateKernel, CarriesTheStateAndChecksItsShape) {
  const char* model = R"(
    <ir_version: 10, opset_import: ["" : 27]>
    g (float[1,1,2] x, float[1,1,3] w, float[1,1,%d] s) => (float[1,1,2] y, float[1,1,2] t) {
      y, t = CausalConvWithState (x, w, , s)
    })";
  char text[512];
  std::snprintf(text, sizeof text, model, 2);
  Result<std::vector<EvalValue>> out = runText(text, {{"x", floats({1, 1, 2}, {3, 4})},
                                                      {"w", floats({1, 1, 3}, {1, 10, 100})},
                                                      {"s", floats({1, 1, 2}, {1, 2})}});
  ASSERT_TRUE(out) << out.status().toString();
  // padded (1, 2, 3, 4): y = (1 + 20 + 300, 2 + 30 + 400); state (3, 4).
  EXPECT_EQ(valuesOf<float>((*out)[0]), (std::vector<float>{321, 432}));
  EXPECT_EQ(valuesOf<float>((*out)[1]), (std::vector<float>{3, 4}));
  std::snprintf(text, sizeof text, model, 1);
  Result<std::vector<EvalValue>> bad = runText(text, {{"x", floats({1, 1, 2}, {3, 4})},
                                                      {"w", floats({1, 1, 3}, {1, 10, 100})},
                                                      {"s", floats({1, 1, 1}, {1})}});
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.status().message().find("past_state"), std::string::npos)
      << bad.status().toString();
}

TEST(DeformConvKernel, ZeroOffsetsGiveConvAndHalfOffsetsInterpolate) {
  // x (1, 1, 1, 3), w (1, 1, 1, 2); offsets move the second tap half a pixel left / right.
  Result<std::vector<EvalValue>> out =
      runText(R"(
    <ir_version: 10, opset_import: ["" : 22]>
    g (float[1,1,1,3] x, float[1,1,1,2] w, float[1,4,1,2] o) => (float[1,1,1,2] y) {
      y = DeformConv (x, w, o)
    })",
              {{"x", floats({1, 1, 1, 3}, {2, 4, 8})},
               {"w", floats({1, 1, 1, 2}, {1, 1})},
               // (tap, axis) channels: tap 0 (h, w), tap 1 (h, w).
               {"o", floats({1, 4, 1, 2}, {0, 0, 0, 0, 0, 0, -0.5f, 0.5f})}});
  ASSERT_TRUE(out) << out.status().toString();
  // Position 0: 2 + x(0.5) = 2 + 3; position 1: 4 + x(2.5) = 4 + 8 * 0.5 (pixel 3 is outside).
  expectNear(valuesOf<float>((*out)[0]), {5.0f, 8.0f});
}

}  // namespace
}  // namespace onyx
