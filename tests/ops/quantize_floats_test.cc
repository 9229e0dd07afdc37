// QuantizeLinear and DynamicQuantizeLinear on FLOAT give exactly what the spec computes:
// their vectorized loops (src/ops/quantization/quantize_floats.h) and the kernels compared
// with a scalar reference in double, over random values, rounding ties, values that saturate
// or leave the int32 range, NaN and infinities, and zero points at their limits.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "ops/quantization/quantize_floats.h"
#include "support/eval_testing.h"

namespace onyx {
namespace {

using testing::tensorOf;
using testing::valuesOf;

// The spec's quantization, in double as the reference computes it: the float quotient
// rounded half to even, numpy's astype(int32) (INT32_MIN for NaN and what leaves the range),
// plus the zero point, clamped.
int32_t referenceQuantize(float x, float scale, int32_t zero, int32_t low, int32_t high) {
  double quotient = static_cast<float>(static_cast<double>(x) / static_cast<double>(scale));
  double rounded = std::nearbyint(quotient);
  if (!(rounded >= -2147483648.0 && rounded <= 2147483647.0)) rounded = -2147483648.0;
  double shifted = rounded + zero;
  return static_cast<int32_t>(std::clamp(shifted, double(low), double(high)));
}

// Random values around the scale's grid, exact ties, values past the type's range and past
// int32, zeros of both signs, NaN and the infinities.
std::vector<float> awkwardValues(float scale, uint32_t seed) {
  std::mt19937 random(seed);
  std::uniform_real_distribution<float> spread(-300.0f * scale, 300.0f * scale);
  std::vector<float> values;
  for (int i = 0; i < 3000; ++i) values.push_back(spread(random));
  for (int k = -300; k <= 300; ++k) values.push_back((static_cast<float>(k) + 0.5f) * scale);
  for (float v :
       {0.0f, -0.0f, 1e30f, -1e30f, 3e9f * scale, -3e9f * scale,
        std::numeric_limits<float>::infinity(), -std::numeric_limits<float>::infinity(),
        std::numeric_limits<float>::quiet_NaN(), std::numeric_limits<float>::denorm_min()}) {
    values.push_back(v);
  }
  return values;
}

TEST(QuantizeFloats, MatchTheSpecsArithmeticForUint8AndInt8) {
  for (float scale : {1.0f, 0.5f, 0.0137f, 3.7e-5f, 250.0f}) {
    std::vector<float> values = awkwardValues(scale, 7);
    for (int32_t zero : {0, 1, 128, 254, 255}) {
      std::vector<uint8_t> got(values.size());
      ops::quant::quantizeFloatsToUint8(values.data(), values.size(), scale,
                                        static_cast<float>(zero), got.data());
      for (size_t i = 0; i < values.size(); ++i) {
        ASSERT_EQ(got[i], referenceQuantize(values[i], scale, zero, 0, 255))
            << "x " << values[i] << " scale " << scale << " zero " << zero;
      }
    }
    for (int32_t zero : {-128, -127, 0, 126, 127}) {
      std::vector<int8_t> got(values.size());
      ops::quant::quantizeFloatsToInt8(values.data(), values.size(), scale,
                                       static_cast<float>(zero), got.data());
      for (size_t i = 0; i < values.size(); ++i) {
        ASSERT_EQ(got[i], referenceQuantize(values[i], scale, zero, -128, 127))
            << "x " << values[i] << " scale " << scale << " zero " << zero;
      }
    }
  }
}

TEST(QuantizeFloats, BoundsFindTheRangeAndWhatIsNotFinite) {
  std::vector<float> values = {0.5f, -3.0f, 7.25f, -0.0f};
  ops::quant::FloatBounds bounds = ops::quant::floatBounds(values.data(), values.size(), 0, 0);
  EXPECT_EQ(bounds.low, -3.0f);
  EXPECT_EQ(bounds.high, 7.25f);
  EXPECT_TRUE(bounds.finite);
  std::vector<float> positive = {2.0f, 5.0f};
  bounds = ops::quant::floatBounds(positive.data(), positive.size(), 0, 0);
  EXPECT_EQ(bounds.low, 0.0f);  // the range starts from the values given
  for (float bad :
       {std::numeric_limits<float>::quiet_NaN(), std::numeric_limits<float>::infinity()}) {
    std::vector<float> with = {1.0f, bad, 2.0f};
    EXPECT_FALSE(ops::quant::floatBounds(with.data(), with.size(), 0, 0).finite);
  }
}

TEST(QuantizeFloats, QuantizeLinearPerAxisMatchesTheReference) {
  // x [2, 3, 4] along axis 1: one scale and zero point per run of 4.
  std::vector<float> x = awkwardValues(0.1f, 9);
  x.resize(24);
  x[5] = 0.25f, x[6] = -0.35f, x[13] = 1e12f;  // ties and a value past int32
  std::vector<float> scales = {0.1f, 0.5f, 0.02f};
  std::vector<int8_t> zeros = {-128, 0, 127};
  Result<std::vector<EvalValue>> out = testing::runText(
      R"(
    <ir_version: 10, opset_import: ["" : 21]>
    g (float[2,3,4] x, float[3] s, int8[3] z) => (int8[2,3,4] y) {
      y = QuantizeLinear <axis = 1> (x, s, z)
    })",
      {{"x", tensorOf<float>(ElementType::kFloat, {2, 3, 4}, x)},
       {"s", tensorOf<float>(ElementType::kFloat, {3}, scales)},
       {"z", tensorOf<int8_t>(ElementType::kInt8, {3}, zeros)}});
  ASSERT_TRUE(out) << out.status().toString();
  std::vector<int8_t> got = valuesOf<int8_t>((*out)[0]);
  ASSERT_EQ(got.size(), x.size());
  for (size_t i = 0; i < x.size(); ++i) {
    size_t channel = (i / 4) % 3;
    EXPECT_EQ(got[i], referenceQuantize(x[i], scales[channel], zeros[channel], -128, 127))
        << "element " << i;
  }
}

TEST(QuantizeFloats, DynamicQuantizeLinearMatchesTheReference) {
  for (uint32_t seed : {1u, 2u, 3u}) {
    std::vector<float> x = testing::randomFloats(1000, seed);
    for (float& v : x) v = v * 3.0f + (seed == 2 ? 2.5f : 0.0f);  // seed 2: all positive
    Result<std::vector<EvalValue>> out = testing::runText(
        R"(
      <ir_version: 10, opset_import: ["" : 11]>
      g (float[1000] x) => (uint8[1000] y, float s, uint8 z) {
        y, s, z = DynamicQuantizeLinear (x)
      })",
        {{"x", tensorOf<float>(ElementType::kFloat, {1000}, x)}});
    ASSERT_TRUE(out) << out.status().toString();
    float low = 0, high = 0;
    for (float v : x) low = std::min(low, v), high = std::max(high, v);
    float scale = (high - low) / 255.0f;
    float zero = std::nearbyint(std::clamp(0.0f - low / scale, 0.0f, 255.0f));
    EXPECT_EQ(valuesOf<float>((*out)[1]), std::vector<float>{scale});
    EXPECT_EQ(valuesOf<uint8_t>((*out)[2]), std::vector<uint8_t>{static_cast<uint8_t>(zero)});
    std::vector<uint8_t> got = valuesOf<uint8_t>((*out)[0]);
    for (size_t i = 0; i < x.size(); ++i) {
      EXPECT_EQ(got[i], referenceQuantize(x[i], scale, static_cast<int32_t>(zero), 0, 255))
          << "element " << i;
    }
  }
}

// The spec's dequantization as the reference computes it: (x - zero) * scale in double, then
// rounded to float (exact for the 8-bit types' differences, promoted for int32).
float referenceDequantize(int64_t x, int64_t zero, float scale) {
  return static_cast<float>(static_cast<double>(x - zero) * static_cast<double>(scale));
}

TEST(QuantizeFloats, DequantizeMatchesTheReferenceForEveryIntegerType) {
  std::vector<float> scales = {0.0137f, 3.5f, 1e-6f};
  for (int32_t zero : {0, 1, 128, 255}) {
    std::vector<int32_t> values;
    for (int32_t v = 0; v < 256; ++v) values.push_back(v);
    std::vector<float> got(values.size());
    std::vector<uint8_t> bytes(values.begin(), values.end());
    for (float scale : scales) {
      ops::quant::dequantizeToFloats(bytes.data(), bytes.size(), scale, float(zero), got.data());
      for (size_t i = 0; i < values.size(); ++i) {
        ASSERT_EQ(got[i], referenceDequantize(values[i], zero, scale)) << values[i];
      }
    }
  }
  for (int32_t zero : {-128, -1, 0, 127}) {
    std::vector<int8_t> bytes;
    for (int32_t v = -128; v < 128; ++v) bytes.push_back(static_cast<int8_t>(v));
    std::vector<float> got(bytes.size());
    for (float scale : scales) {
      ops::quant::dequantizeToFloats(bytes.data(), bytes.size(), scale, float(zero), got.data());
      for (size_t i = 0; i < bytes.size(); ++i) {
        ASSERT_EQ(got[i], referenceDequantize(bytes[i], zero, scale)) << int(bytes[i]);
      }
    }
  }
  // int32 past float's 24 bits, with a zero point float cannot hold exactly.
  std::vector<int32_t> wide = {0,        1, -1, 16777217, -16777219, 2147483647, -2147483647 - 1,
                               123456789};
  for (int64_t zero : {int64_t{0}, int64_t{33554433}, int64_t{-2147483647 - 1}}) {
    std::vector<float> got(wide.size());
    ops::quant::dequantizeToFloats(wide.data(), wide.size(), 0.37f, static_cast<double>(zero),
                                   got.data());
    for (size_t i = 0; i < wide.size(); ++i) {
      EXPECT_EQ(got[i], referenceDequantize(wide[i], zero, 0.37f)) << wide[i] << " - " << zero;
    }
  }
}

}  // namespace
}  // namespace onyx
