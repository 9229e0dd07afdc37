// ConvInteger through oneDNN's int8 convolution (src/eval/kernels/integer_convolution.h)
// gives exactly the spec's int32 sums: compared with a scalar reference written from the
// definition, over random inputs with zero points at their limits, uint8 and int8 inputs and
// weights, per-channel weight zero points, groups, padding, strides and dilations, weights as
// initializers (prepared once) and as inputs, at one and two threads, at every CPU tier (oneDNN
// with VNNI, onyx's own kernel below it), each session run twice.
#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "onyx/core/cpu_tier.h"
#include "onyx/eval/evaluator.h"
#include "onyx/text/parser.h"
#include "support/eval_testing.h"

namespace onyx {
namespace {

using testing::tensorOf;
using testing::valuesOf;

struct Case {
  bool x_signed = false;
  bool w_signed = false;
  int64_t n = 1, c = 4, h = 7, w = 6, m = 6, kh = 3, kw = 3, group = 1;
  std::array<int64_t, 2> strides{1, 1}, dilations{1, 1};
  std::array<int64_t, 4> pads{0, 0, 0, 0};  // top, left, bottom, right
  int32_t x_zero = 0;
  std::vector<int32_t> w_zero;  // empty: none; one value; or one per output channel
  bool weights_initializer = false;
  // Every element of x (of w) this value instead of a random one.
  std::optional<int32_t> x_fill, w_fill;
};

struct Data {
  std::vector<int32_t> x, w;  // the byte values, widened
};

// The spec's sum, from its definition: (x - x_zero) * (w - w_zero) over the window, the input
// padded with x_zero (adding nothing), accumulated exactly and wrapped to int32 at the end.
std::vector<int32_t> reference(const Case& k, const Data& d, int64_t oh, int64_t ow) {
  std::vector<int32_t> y(static_cast<size_t>(k.n * k.m * oh * ow));
  int64_t mg = k.m / k.group, cg = k.c / k.group;
  for (int64_t b = 0; b < k.n; ++b) {
    for (int64_t o = 0; o < k.m; ++o) {
      int32_t wz = k.w_zero.empty() ? 0 : k.w_zero[k.w_zero.size() == 1 ? 0 : size_t(o)];
      int64_t g = o / mg;
      for (int64_t i = 0; i < oh; ++i) {
        for (int64_t j = 0; j < ow; ++j) {
          int64_t sum = 0;
          for (int64_t ch = 0; ch < cg; ++ch) {
            for (int64_t p = 0; p < k.kh; ++p) {
              for (int64_t q = 0; q < k.kw; ++q) {
                int64_t r = i * k.strides[0] - k.pads[0] + p * k.dilations[0];
                int64_t s = j * k.strides[1] - k.pads[1] + q * k.dilations[1];
                if (r < 0 || r >= k.h || s < 0 || s >= k.w) continue;
                int64_t xv = d.x[size_t(((b * k.c + g * cg + ch) * k.h + r) * k.w + s)];
                int64_t wv = d.w[size_t(((o * cg + ch) * k.kh + p) * k.kw + q)];
                sum += (xv - k.x_zero) * (wv - wz);
              }
            }
          }
          y[size_t(((b * k.m + o) * oh + i) * ow + j)] =
              static_cast<int32_t>(static_cast<uint32_t>(static_cast<uint64_t>(sum)));
        }
      }
    }
  }
  return y;
}

void expectExact(const Case& k, uint32_t seed) {
  std::mt19937 random(seed);
  auto draw = [&](bool is_signed) {
    int32_t low = is_signed ? -128 : 0;
    return std::uniform_int_distribution<int32_t>(low, low + 255)(random);
  };
  Data d;
  for (int64_t i = 0; i < k.n * k.c * k.h * k.w; ++i) {
    d.x.push_back(k.x_fill ? *k.x_fill : draw(k.x_signed));
  }
  for (int64_t i = 0; i < k.m * (k.c / k.group) * k.kh * k.kw; ++i) {
    d.w.push_back(k.w_fill ? *k.w_fill : draw(k.w_signed));
  }
  int64_t oh = (k.h + k.pads[0] + k.pads[2] - ((k.kh - 1) * k.dilations[0] + 1)) / k.strides[0] + 1;
  int64_t ow = (k.w + k.pads[1] + k.pads[3] - ((k.kw - 1) * k.dilations[1] + 1)) / k.strides[1] + 1;
  std::string x_type = k.x_signed ? "int8" : "uint8";
  std::string w_type = k.w_signed ? "int8" : "uint8";
  std::string w_dims = "[" + std::to_string(k.m) + "," + std::to_string(k.c / k.group) + "," +
                       std::to_string(k.kh) + "," + std::to_string(k.kw) + "]";
  std::ostringstream text;
  text << "<ir_version: 10, opset_import: [\"\" : 22]>\n"
       << "g (" << x_type << "[" << k.n << "," << k.c << "," << k.h << "," << k.w << "] x, "
       << x_type << " xz";
  if (!k.weights_initializer) text << ", " << w_type << w_dims << " w";
  text << ") => (int32[" << k.n << "," << k.m << "," << oh << "," << ow << "] y)";
  if (k.weights_initializer)
    text << " <" << w_type << w_dims << " w = {" << testing::elementsText(d.w) << "}>";
  text << " {\n";
  if (!k.w_zero.empty()) {
    text << "  wz = Constant <value = " << w_type << "[" << k.w_zero.size() << "] {"
         << testing::elementsText(k.w_zero) << "}> ()\n";
  }
  text << "  y = ConvInteger <group = " << k.group << ", strides = [" << k.strides[0] << ", "
       << k.strides[1] << "], dilations = [" << k.dilations[0] << ", " << k.dilations[1]
       << "], pads = [" << k.pads[0] << ", " << k.pads[1] << ", " << k.pads[2] << ", " << k.pads[3]
       << "]> (x, w, xz" << (k.w_zero.empty() ? "" : ", wz") << ")\n}\n";
  std::vector<NamedValue> inputs = {
      {"x", testing::byteTensor(k.x_signed, {k.n, k.c, k.h, k.w}, d.x)},
      {"xz", testing::byteTensor(k.x_signed, {}, {k.x_zero})}};
  if (!k.weights_initializer) {
    inputs.push_back({"w", testing::byteTensor(k.w_signed, {k.m, k.c / k.group, k.kh, k.kw}, d.w)});
  }
  std::vector<int32_t> expected = reference(k, d, oh, ow);
  // A second run of the same session, on another x: what a kernel keeps between runs (the
  // packed or reordered weights) serves it too.
  Data again = d;
  for (int32_t& value : again.x) value = draw(k.x_signed);
  std::vector<NamedValue> again_inputs = inputs;
  again_inputs[0].value = testing::byteTensor(k.x_signed, {k.n, k.c, k.h, k.w}, again.x);
  std::vector<int32_t> expected_again = reference(k, again, oh, ow);
  Result<Model> model = parseText(text.str());
  ASSERT_TRUE(model) << model.status().toString();
  for (CpuTier tier : testing::cpuTiersToTest()) {
    for (int threads : {1, 2}) {
      EvalOptions options;
      options.threads = threads;
      options.max_isa = tier;
      Evaluator session(*model, options);
      const std::string where = "seed " + std::to_string(seed) + ", " + std::to_string(threads) +
                                " threads, tier " + std::string(cpuTierName(tier)) + "\n" +
                                text.str();
      Result<std::vector<EvalValue>> out = session.run(inputs);
      ASSERT_TRUE(out) << out.status().toString() << "\n" << where;
      EXPECT_EQ(valuesOf<int32_t>((*out)[0]), expected) << where;
      out = session.run(again_inputs);
      ASSERT_TRUE(out) << out.status().toString() << "\n" << where;
      EXPECT_EQ(valuesOf<int32_t>((*out)[0]), expected_again) << "the second run, " << where;
    }
  }
}

TEST(IntegerConvolution, ExactOverRandomInputsAndZeroPointsAtTheirLimits) {
  uint32_t seed = 1;
  for (bool x_signed : {false, true}) {
    for (bool w_signed : {false, true}) {
      int32_t x_low = x_signed ? -128 : 0, w_low = w_signed ? -128 : 0;
      for (int32_t x_zero : {x_low, x_low + 255, x_low + 128, x_low + 37}) {
        for (std::vector<int32_t> w_zero : std::vector<std::vector<int32_t>>{
                 {},
                 {w_low},
                 {w_low + 255},
                 {w_low + 128},
                 {w_low + 3, w_low + 255, w_low, w_low + 128, w_low + 1, w_low + 200}}) {
          Case k;
          k.x_signed = x_signed;
          k.w_signed = w_signed;
          k.x_zero = x_zero;
          k.w_zero = w_zero;
          k.pads = {1, 1, 1, 1};
          k.weights_initializer = (seed % 2) == 0;
          expectExact(k, seed++);
        }
      }
    }
  }
}

TEST(IntegerConvolution, ExactWithGroupsStridesDilationsAndUnevenPadding) {
  Case grouped;
  grouped.c = 8, grouped.m = 4, grouped.group = 2, grouped.strides = {2, 1},
  grouped.pads = {0, 2, 1, 0}, grouped.x_zero = 200, grouped.w_zero = {7, 250, 128, 0};
  expectExact(grouped, 100);
  Case depthwise;
  depthwise.c = 6, depthwise.m = 6, depthwise.group = 6, depthwise.dilations = {2, 2},
  depthwise.pads = {2, 2, 2, 2}, depthwise.x_zero = 255, depthwise.w_zero = {90};
  depthwise.weights_initializer = true;
  expectExact(depthwise, 101);
  Case pointwise;
  pointwise.n = 2, pointwise.c = 16, pointwise.m = 24, pointwise.kh = 1, pointwise.kw = 1,
  pointwise.h = 5, pointwise.w = 5, pointwise.x_zero = 0, pointwise.w_zero = {255};
  pointwise.w_signed = false;
  expectExact(pointwise, 102);
}

// With VNNI, the weights' size and the pixels decide between onyx's own kernel and oneDNN's
// primitive (integer_convolution.cc): 3x3 weights past it take the primitive, a 1x1
// convolution of large weights over 144 pixels the own kernel. Every tier gives the sums.
TEST(IntegerConvolution, ExactWithWeightsOnEachSideOfTheKernelChoice) {
  Case large;
  large.c = 128, large.m = 64, large.h = 5, large.w = 4, large.pads = {1, 1, 1, 1};
  large.x_zero = 3, large.w_zero = {250};
  large.w_signed = false, large.weights_initializer = true;
  expectExact(large, 200);
  Case pointwise;
  pointwise.c = 300, pointwise.m = 256, pointwise.kh = 1, pointwise.kw = 1, pointwise.h = 12,
  pointwise.w = 12, pointwise.x_signed = true, pointwise.x_zero = -128, pointwise.w_zero = {127};
  pointwise.weights_initializer = true;
  expectExact(pointwise, 201);
}

// 3,680 channels by a 3x3 window of (0 - 255) * (0 - 255): 33,120 products of 65,025 sum
// to 2,153,628,000, past INT32_MAX; the spec's 32-bit accumulator wraps it.
TEST(IntegerConvolution, WrapsPastTheInt32RangeAsTheSpecsAccumulator) {
  Case k;
  k.c = 3680, k.h = 3, k.w = 3, k.m = 2, k.x_zero = 255, k.w_zero = {255};
  k.x_fill = 0, k.w_fill = 0;
  expectExact(k, 300);
}

}  // namespace
}  // namespace onyx
