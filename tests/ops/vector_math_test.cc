// vector_math's FLOAT exp, erf, tanh and log1p against libm's double ones: the error bound
// they claim over a sample of every binade, and the special values.
#include "ops/math/vector_math.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

namespace onyx::ops::vector_math {
namespace {

constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

// How far `got` is from `exact`, in units in the last place of a float in exact's binade
// (2^-149 below the normal range). A result that should round to infinity must be infinity.
double ulpsOff(float got, double exact) {
  const float rounded = static_cast<float>(exact);
  if (std::isinf(rounded)) return got == rounded ? 0 : std::numeric_limits<double>::infinity();
  if (!std::isfinite(got)) return std::numeric_limits<double>::infinity();
  if (exact == 0) return std::fabs(got) / std::ldexp(1.0, -149);
  int exponent = 0;
  std::frexp(exact, &exponent);
  return std::fabs(static_cast<double>(got) - exact) /
         std::ldexp(1.0, std::max(exponent - 24, -149));
}

// Every 4099th bit pattern (all signs and binades, NaNs included) and values at the edges of
// the approximations' ranges.
std::vector<float> sampleFloats() {
  std::vector<float> values;
  for (uint64_t bits = 0; bits < (uint64_t{1} << 32); bits += 4099) {
    values.push_back(std::bit_cast<float>(static_cast<uint32_t>(bits)));
  }
  const float edges[] = {0.0f,
                         std::numeric_limits<float>::denorm_min(),
                         std::numeric_limits<float>::min(),
                         std::numeric_limits<float>::max(),
                         1.0f,
                         4.0f,
                         88.72283f,
                         88.7228394f,
                         89.0f,
                         -87.33654f,
                         -103.27893f,
                         -103.97208f,
                         -104.0f,
                         -110.0f,
                         0.5f * std::log(2.0f),
                         kTanhSplit,
                         9.1f};
  for (float edge : edges) {
    for (float value : {edge, -edge}) {
      values.push_back(value);
      values.push_back(std::nextafter(value, kInf));
      values.push_back(std::nextafter(value, -kInf));
    }
  }
  return values;
}

TEST(VectorMath, ExpIsWithinItsBoundOfTheExactValue) {
  const std::vector<float> x = sampleFloats();
  std::vector<float> y(x.size());
  expFloats(x.data(), y.data(), x.size());
  double worst = 0;
  for (size_t i = 0; i < x.size(); ++i) {
    EXPECT_EQ(std::bit_cast<uint32_t>(y[i]), std::bit_cast<uint32_t>(expFloat(x[i])));
    if (std::isnan(x[i])) {
      EXPECT_TRUE(std::isnan(y[i])) << x[i];
      continue;
    }
    const double off = ulpsOff(y[i], std::exp(static_cast<double>(x[i])));
    EXPECT_LE(off, kExpMaxUlp) << "exp(" << x[i] << ") = " << y[i];
    worst = std::max(worst, off);
  }
  RecordProperty("worst_ulp", std::to_string(worst));
}

TEST(VectorMath, ExpOfSpecialValues) {
  EXPECT_EQ(expFloat(0.0f), 1.0f);
  EXPECT_EQ(expFloat(-0.0f), 1.0f);
  EXPECT_EQ(expFloat(kInf), kInf);
  EXPECT_EQ(expFloat(-kInf), 0.0f);
  EXPECT_EQ(expFloat(100.0f), kInf);
  EXPECT_EQ(expFloat(-200.0f), 0.0f);
  EXPECT_TRUE(std::isnan(expFloat(kNaN)));
  EXPECT_TRUE(std::isnan(expFloat(-kNaN)));
  // Gradual underflow: e^-100 is subnormal, 3.72e-44, 26.5 times the smallest float.
  EXPECT_EQ(expFloat(-100.0f), static_cast<float>(std::exp(-100.0)));
}

TEST(VectorMath, ErfIsWithinItsBoundOfTheExactValue) {
  const std::vector<float> x = sampleFloats();
  std::vector<float> y(x.size());
  erfFloats(x.data(), y.data(), x.size());
  double worst = 0;
  for (size_t i = 0; i < x.size(); ++i) {
    // The array form skips the large branch for blocks without large values: same bits.
    EXPECT_EQ(std::bit_cast<uint32_t>(y[i]), std::bit_cast<uint32_t>(erfFloat(x[i])));
    if (std::isnan(x[i])) {
      EXPECT_TRUE(std::isnan(y[i])) << x[i];
      continue;
    }
    EXPECT_EQ(std::signbit(y[i]), std::signbit(x[i])) << x[i];
    const double off = ulpsOff(y[i], std::erf(static_cast<double>(x[i])));
    EXPECT_LE(off, kErfMaxUlp) << "erf(" << x[i] << ") = " << y[i];
    worst = std::max(worst, off);
  }
  RecordProperty("worst_ulp", std::to_string(worst));
}

TEST(VectorMath, ErfOfSpecialValues) {
  EXPECT_EQ(std::bit_cast<uint32_t>(erfFloat(0.0f)), std::bit_cast<uint32_t>(0.0f));
  EXPECT_EQ(std::bit_cast<uint32_t>(erfFloat(-0.0f)), std::bit_cast<uint32_t>(-0.0f));
  EXPECT_EQ(erfFloat(kInf), 1.0f);
  EXPECT_EQ(erfFloat(-kInf), -1.0f);
  EXPECT_EQ(erfFloat(10.0f), 1.0f);
  EXPECT_EQ(erfFloat(-10.0f), -1.0f);
  EXPECT_TRUE(std::isnan(erfFloat(kNaN)));
  // Tiny arguments: erf(x) = 2x / sqrt(pi), subnormals included.
  const float tiny = std::numeric_limits<float>::denorm_min() * 1000;
  EXPECT_EQ(erfFloat(tiny), static_cast<float>(std::erf(static_cast<double>(tiny))));
}

TEST(VectorMath, TanhIsWithinItsBoundOfTheExactValue) {
  double worst = 0;
  for (float x : sampleFloats()) {
    const float y = tanhFloat(x);
    if (std::isnan(x)) {
      EXPECT_TRUE(std::isnan(y)) << x;
      continue;
    }
    EXPECT_EQ(std::signbit(y), std::signbit(x)) << x;
    const double off = ulpsOff(y, std::tanh(static_cast<double>(x)));
    EXPECT_LE(off, kTanhMaxUlp) << "tanh(" << x << ") = " << y;
    worst = std::max(worst, off);
  }
  RecordProperty("worst_ulp", std::to_string(worst));
}

TEST(VectorMath, TanhOfSpecialValues) {
  EXPECT_EQ(std::bit_cast<uint32_t>(tanhFloat(-0.0f)), std::bit_cast<uint32_t>(-0.0f));
  EXPECT_EQ(tanhFloat(kInf), 1.0f);
  EXPECT_EQ(tanhFloat(-kInf), -1.0f);
  EXPECT_EQ(tanhFloat(10.0f), 1.0f);
  const float tiny = std::numeric_limits<float>::denorm_min() * 3;
  EXPECT_EQ(tanhFloat(tiny), tiny);
}

TEST(VectorMath, Log1pIsWithinItsBoundOnTheUnitInterval) {
  double worst = 0;
  for (float u : sampleFloats()) {
    if (!(u >= 0.0f && u <= 1.0f)) continue;
    const float y = log1pUnitFloat(u);
    const double off = ulpsOff(y, std::log1p(static_cast<double>(u)));
    EXPECT_LE(off, kLog1pMaxUlp) << "log1p(" << u << ") = " << y;
    worst = std::max(worst, off);
  }
  EXPECT_EQ(log1pUnitFloat(0.0f), 0.0f);
  RecordProperty("worst_ulp", std::to_string(worst));
}

}  // namespace
}  // namespace onyx::ops::vector_math
