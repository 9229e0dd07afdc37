// QLinearConv and QLinearMatMul give exactly what the spec's reference computes, over random
// inputs with zero points at their limits, saturating results and rounding ties: the int32
// sum (the bias added), times the float multiplier x_scale * w_scale / y_scale widened to
// double (numpy promotes int32 by float32 so), the output zero point added, clipped, rounded
// half to even.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "onyx/eval/evaluator.h"
#include "support/eval_testing.h"

namespace onyx {
namespace {

using testing::tensorOf;
using testing::valuesOf;

struct Quantized {
  bool is_signed = false;
  int32_t zero = 0;
  float scale = 1;
};

std::string typeOf(bool is_signed) { return is_signed ? "int8" : "uint8"; }

// What the reference makes of one int32 sum with multiplier `m` (a float's product).
int32_t requantized(int64_t sum, float m, const Quantized& y) {
  double r = static_cast<double>(static_cast<float>(sum) * m) + y.zero;
  const double low = y.is_signed ? -128 : 0, high = y.is_signed ? 127 : 255;
  r = std::clamp(r, low, high);
  return static_cast<int32_t>(std::nearbyint(r));
}

// Random bytes; within `radius` of `center` when a radius is given (small sums, which a
// multiplier of 1/2 puts on rounding ties half the time).
std::vector<int32_t> draw(std::mt19937& random, size_t count, bool is_signed, int32_t center = 0,
                          int32_t radius = 0) {
  const int32_t low = is_signed ? -128 : 0, high = is_signed ? 127 : 255;
  std::uniform_int_distribution<int32_t> byte(radius > 0 ? std::max(low, center - radius) : low,
                                              radius > 0 ? std::min(high, center + radius) : high);
  std::vector<int32_t> values(count);
  for (int32_t& v : values) v = byte(random);
  return values;
}

// [2, 4, 7, 6] x (pads 1, stride `stride`) by int8 weights [5, 4, 3, 3] per channel, an
// int32 bias, at 1 and 2 threads.
void expectConvExact(const Quantized& x, const Quantized& y, std::vector<float> w_scales,
                     int64_t stride, uint32_t seed) {
  std::mt19937 random(seed);
  const int64_t n = 2, c = 4, h = 7, w = 6, m = 5, k = 3;
  const int64_t oh = (h + 2 - k) / stride + 1, ow = (w + 2 - k) / stride + 1;
  std::vector<int32_t> xs = draw(random, size_t(n * c * h * w), x.is_signed);
  std::vector<int32_t> ws = draw(random, size_t(m * c * k * k), true);
  std::vector<int32_t> w_zero(static_cast<size_t>(m));
  for (int64_t o = 0; o < m; ++o) w_zero[size_t(o)] = o % 2 == 0 ? -128 : 127;
  std::vector<int32_t> bias(static_cast<size_t>(m));
  for (int32_t& b : bias) b = std::uniform_int_distribution<int32_t>(-5000, 5000)(random);
  std::vector<int32_t> expected;
  for (int64_t b = 0; b < n; ++b) {
    for (int64_t o = 0; o < m; ++o) {
      const float multiplier = x.scale * w_scales[size_t(o)] / y.scale;
      for (int64_t i = 0; i < oh; ++i) {
        for (int64_t j = 0; j < ow; ++j) {
          int64_t sum = bias[size_t(o)];
          for (int64_t ch = 0; ch < c; ++ch) {
            for (int64_t p = 0; p < k; ++p) {
              for (int64_t q = 0; q < k; ++q) {
                int64_t r = i * stride - 1 + p, s = j * stride - 1 + q;
                if (r < 0 || r >= h || s < 0 || s >= w) continue;
                int64_t xv = xs[size_t(((b * c + ch) * h + r) * w + s)] - x.zero;
                int64_t wv = ws[size_t(((o * c + ch) * k + p) * k + q)] - w_zero[size_t(o)];
                sum += xv * wv;
              }
            }
          }
          expected.push_back(requantized(sum, multiplier, y));
        }
      }
    }
  }
  std::ostringstream text;
  text << "<ir_version: 10, opset_import: [\"\" : 21]>\n"
       << "g (" << typeOf(x.is_signed) << "[2,4,7,6] x, float xs, " << typeOf(x.is_signed)
       << " xz, int8[5,4,3,3] w, float[5] ws, int8[5] wz, float ys, " << typeOf(y.is_signed)
       << " yz, int32[5] b) => (" << typeOf(y.is_signed) << "[2,5," << oh << "," << ow
       << "] y) {\n  y = QLinearConv <pads = [1, 1, 1, 1], strides = [" << stride << ", " << stride
       << "]> (x, xs, xz, w, ws, wz, ys, yz, b)\n}\n";
  std::vector<NamedValue> inputs = {{"x", testing::byteTensor(x.is_signed, {n, c, h, w}, xs)},
                                    {"xs", tensorOf<float>(ElementType::kFloat, {}, {x.scale})},
                                    {"xz", testing::byteTensor(x.is_signed, {}, {x.zero})},
                                    {"w", testing::byteTensor(true, {m, c, k, k}, ws)},
                                    {"ws", tensorOf<float>(ElementType::kFloat, {m}, w_scales)},
                                    {"wz", testing::byteTensor(true, {m}, w_zero)},
                                    {"ys", tensorOf<float>(ElementType::kFloat, {}, {y.scale})},
                                    {"yz", testing::byteTensor(y.is_signed, {}, {y.zero})},
                                    {"b", tensorOf<int32_t>(ElementType::kInt32, {m}, bias)}};
  for (int threads : {1, 2}) {
    EvalOptions options;
    options.threads = threads;
    Result<std::vector<EvalValue>> out = testing::runText(text.str(), inputs, options);
    ASSERT_TRUE(out) << out.status().toString();
    EXPECT_EQ(testing::byteValues((*out)[0], y.is_signed), expected)
        << "seed " << seed << ", " << threads << " threads";
  }
}

TEST(QLinearReference, ConvolutionIsTheReferenceExactly) {
  uint32_t seed = 1;
  // Multipliers of 1/2 and 1/4 put many results on a tie; large ones saturate.
  for (Quantized x : {Quantized{false, 0, 0.5f}, Quantized{false, 255, 0.25f},
                      Quantized{true, -128, 0.5f}, Quantized{true, 127, 0.013f}}) {
    for (Quantized y : {Quantized{false, 0, 64.0f}, Quantized{false, 255, 1000.0f},
                        Quantized{true, -128, 200.0f}, Quantized{true, 127, 3.7f}}) {
      expectConvExact(x, y, {1.0f, 0.5f, 0.125f, 0.0078125f, 0.0371f}, 1 + seed % 2, seed);
      ++seed;
    }
  }
}

// a [2, 3, 9] by b [9, 4] (or [2, 9, 4], batched): one zero point each.
void expectMatMulExact(const Quantized& a, const Quantized& b, const Quantized& y, bool batched,
                       uint32_t seed, int32_t radius = 0) {
  std::mt19937 random(seed);
  const int64_t batch = 2, rows = 3, inner = 9, columns = 4;
  std::vector<int32_t> as = draw(random, size_t(batch * rows * inner), a.is_signed, a.zero, radius);
  std::vector<int32_t> bs =
      draw(random, size_t((batched ? batch : 1) * inner * columns), b.is_signed, b.zero, radius);
  const float multiplier = a.scale * b.scale / y.scale;
  std::vector<int32_t> expected;
  for (int64_t t = 0; t < batch; ++t) {
    for (int64_t i = 0; i < rows; ++i) {
      for (int64_t j = 0; j < columns; ++j) {
        int64_t sum = 0;
        for (int64_t q = 0; q < inner; ++q) {
          int64_t av = as[size_t((t * rows + i) * inner + q)] - a.zero;
          int64_t bv = bs[size_t(((batched ? t : 0) * inner + q) * columns + j)] - b.zero;
          sum += av * bv;
        }
        expected.push_back(requantized(sum, multiplier, y));
      }
    }
  }
  const std::string b_shape = batched ? "[2,9,4]" : "[9,4]";
  std::string text = "<ir_version: 10, opset_import: [\"\" : 21]>\ng (" + typeOf(a.is_signed) +
                     "[2,3,9] a, float as, " + typeOf(a.is_signed) + " az, " + typeOf(b.is_signed) +
                     b_shape + " b, float bs, " + typeOf(b.is_signed) + " bz, float ys, " +
                     typeOf(y.is_signed) + " yz) => (" + typeOf(y.is_signed) +
                     "[2,3,4] y) {\n  y = QLinearMatMul (a, as, az, b, bs, bz, ys, yz)\n}\n";
  std::vector<int64_t> b_dims =
      batched ? std::vector<int64_t>{batch, inner, columns} : std::vector<int64_t>{inner, columns};
  std::vector<NamedValue> inputs = {
      {"a", testing::byteTensor(a.is_signed, {batch, rows, inner}, as)},
      {"as", tensorOf<float>(ElementType::kFloat, {}, {a.scale})},
      {"az", testing::byteTensor(a.is_signed, {}, {a.zero})},
      {"b", testing::byteTensor(b.is_signed, b_dims, bs)},
      {"bs", tensorOf<float>(ElementType::kFloat, {}, {b.scale})},
      {"bz", testing::byteTensor(b.is_signed, {}, {b.zero})},
      {"ys", tensorOf<float>(ElementType::kFloat, {}, {y.scale})},
      {"yz", testing::byteTensor(y.is_signed, {}, {y.zero})}};
  for (int threads : {1, 2}) {
    EvalOptions options;
    options.threads = threads;
    Result<std::vector<EvalValue>> out = testing::runText(text, inputs, options);
    ASSERT_TRUE(out) << out.status().toString();
    EXPECT_EQ(testing::byteValues((*out)[0], y.is_signed), expected)
        << "seed " << seed << ", " << threads << " threads";
  }
}

TEST(QLinearReference, MatrixProductIsTheReferenceExactly) {
  uint32_t seed = 50;
  for (Quantized a : {Quantized{false, 0, 0.5f}, Quantized{false, 255, 0.25f},
                      Quantized{true, -128, 0.5f}, Quantized{true, 127, 0.031f}}) {
    for (Quantized b : {Quantized{false, 255, 1.0f}, Quantized{true, -128, 0.5f}}) {
      for (Quantized y : {Quantized{false, 0, 32.0f}, Quantized{true, 127, 500.0f},
                          Quantized{true, -128, 2.3f}}) {
        expectMatMulExact(a, b, y, seed % 2 == 0, seed);
        ++seed;
      }
    }
  }
}

TEST(QLinearReference, MatrixProductRoundsTiesToEven) {
  // Operands within 3 of their zero points, a multiplier of exactly 1/2: every odd sum is a
  // tie, which the reference rounds to even.
  uint32_t seed = 90;
  for (Quantized y : {Quantized{false, 100, 1.0f}, Quantized{true, -3, 1.0f}}) {
    expectMatMulExact(Quantized{false, 200, 0.5f}, Quantized{true, -7, 1.0f}, y, false, seed++, 3);
    expectMatMulExact(Quantized{true, 5, 1.0f}, Quantized{false, 128, 0.5f}, y, true, seed++, 3);
  }
}

}  // namespace
}  // namespace onyx
