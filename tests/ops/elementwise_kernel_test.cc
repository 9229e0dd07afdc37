// Elementwise kernels (math, logical, Where, IsInf/IsNaN, Shrink): what the conformance
// suite leaves out — errors on bad inputs, wrap-around and division by zero, NaN, empty
// tensors, the narrow types, legacy broadcasting, thread-count independence.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "onyx/core/float_formats.h"
#include "onyx/text/parser.h"
#include "support/eval_testing.h"

namespace onyx {
namespace {

using testing::dimsText;
using testing::elementCount;
using testing::floatUlp;
using testing::randomFloats;
using testing::runText;
using testing::tensorOf;
using testing::valuesOf;

// The single output of a run, the test failing when the run does.
EvalValue runOne(std::string_view text, std::vector<NamedValue> inputs,
                 const EvalOptions& options = {}) {
  Result<std::vector<EvalValue>> out = runText(text, std::move(inputs), options);
  EXPECT_TRUE(out) << out.status().toString();
  if (!out || out->empty()) return {};
  return (*out)[0];
}

// The error message of a run that must fail.
std::string failure(std::string_view text, std::vector<NamedValue> inputs) {
  Result<std::vector<EvalValue>> out = runText(text, std::move(inputs));
  EXPECT_FALSE(out);
  return out ? std::string() : out.status().toString();
}

// Pow by one constant exponent takes a faster path for 2, 3, 1, -1 and 0.5 (multiplies, a
// division, a sqrt): what pow gives, bit for bit where one rounding gives both, within an
// ulp for the cube, and pow's special values for the square root.
TEST(ElementwiseKernels, PowByTheExponentsExportersWriteIsPows) {
  std::vector<float> x = randomFloats(257, 11);
  for (float& v : x) v *= 8;
  x.insert(x.end(), {0.0f, -0.0f, std::numeric_limits<float>::infinity(),
                     -std::numeric_limits<float>::infinity(), 1e-30f, 3e30f});
  for (float exponent : {2.0f, 3.0f, 1.0f, -1.0f, 0.5f, 1.5f}) {
    EvalValue y =
        runOne(R"(
      <ir_version: 10, opset_import: ["" : 21]>
      g (float[N] x, float[1] e) => (float[N] y) { y = Pow(x, e) })",
               {{"x", tensorOf<float>(ElementType::kFloat, {static_cast<int64_t>(x.size())}, x)},
                {"e", tensorOf<float>(ElementType::kFloat, {1}, {exponent})}});
    std::vector<float> got = valuesOf<float>(y);
    ASSERT_EQ(got.size(), x.size());
    for (size_t i = 0; i < x.size(); ++i) {
      float want = std::pow(x[i], exponent);
      if (std::isnan(want)) {
        EXPECT_TRUE(std::isnan(got[i])) << exponent << " at " << x[i];
      } else if (exponent == 3.0f && std::isfinite(want) && want != 0.0f) {
        EXPECT_LE(std::fabs(got[i] - want), floatUlp(want)) << "cube of " << x[i];
      } else if (exponent == 0.5f) {
        if (want == 0.0f || std::isinf(want)) {
          EXPECT_EQ(got[i], want) << "square root of " << x[i];
        } else {
          EXPECT_LE(std::fabs(got[i] - want), floatUlp(want)) << "square root of " << x[i];
        }
        EXPECT_EQ(std::signbit(got[i]), std::signbit(want)) << "square root of " << x[i];
      } else {
        EXPECT_EQ(std::bit_cast<uint32_t>(got[i]), std::bit_cast<uint32_t>(want))
            << x[i] << " ^ " << exponent;
      }
    }
  }
}

TEST(ElementwiseKernels, AddBroadcastsAcrossCollapsedAxes) {
  std::vector<float> a(24), b(3);
  for (size_t i = 0; i < a.size(); ++i) a[i] = static_cast<float>(i);
  for (size_t i = 0; i < b.size(); ++i) b[i] = static_cast<float>(100 * (i + 1));
  EvalValue y = runOne(R"(
    <ir_version: 10, opset_import: ["" : 21]>
    g (float[2,3,4] a, float[3,1] b) => (float[2,3,4] y) { y = Add(a, b) })",
                       {{"a", tensorOf<float>(ElementType::kFloat, {2, 3, 4}, a)},
                        {"b", tensorOf<float>(ElementType::kFloat, {3, 1}, b)}});
  ASSERT_EQ(y.tensor.shape(), (std::vector<int64_t>{2, 3, 4}));
  std::vector<float> got = valuesOf<float>(y);
  for (size_t i = 0; i < 24; ++i) {
    size_t row = (i / 4) % 3;
    EXPECT_EQ(got[i], a[i] + b[row]) << i;
  }
}

TEST(ElementwiseKernels, ResultsDoNotDependOnTheThreadCount) {
  const int64_t rows = 700, cols = 300;
  std::vector<double> a(static_cast<size_t>(rows * cols)), b(static_cast<size_t>(cols));
  for (size_t i = 0; i < a.size(); ++i) a[i] = std::sin(static_cast<double>(i));
  for (size_t i = 0; i < b.size(); ++i) b[i] = 1.0 + static_cast<double>(i) / 7.0;
  const char* text = R"(
    <ir_version: 10, opset_import: ["" : 21]>
    g (double[700,300] a, double[300] b) => (double[700,300] y) { y = Div(a, b) })";
  auto inputs = [&] {
    return std::vector<NamedValue>{{"a", tensorOf<double>(ElementType::kDouble, {rows, cols}, a)},
                                   {"b", tensorOf<double>(ElementType::kDouble, {cols}, b)}};
  };
  EvalOptions one;
  one.threads = 1;
  EvalOptions four;
  four.threads = 4;
  std::vector<double> serial = valuesOf<double>(runOne(text, inputs(), one));
  std::vector<double> parallel = valuesOf<double>(runOne(text, inputs(), four));
  ASSERT_EQ(serial.size(), a.size());
  EXPECT_EQ(serial, parallel);
  EXPECT_EQ(serial[static_cast<size_t>(5 * cols + 7)], a[static_cast<size_t>(5 * cols + 7)] / b[7]);
}

TEST(ElementwiseKernels, ShapesThatDoNotBroadcastAreAnError) {
  std::string message = failure(R"(
    <ir_version: 10, opset_import: ["" : 21]>
    g (float[N] a, float[M] b) => (float[K] y) { y = Mul(a, b) })",
                                {{"a", tensorOf<float>(ElementType::kFloat, {2}, {1, 2})},
                                 {"b", tensorOf<float>(ElementType::kFloat, {3}, {1, 2, 3})}});
  EXPECT_NE(message.find("broadcast"), std::string::npos) << message;
}

TEST(ElementwiseKernels, EmptyTensorsBroadcastToEmptyResults) {
  EvalValue y = runOne(R"(
    <ir_version: 10, opset_import: ["" : 21]>
    g (float[0,3] a, float[3] b) => (float[0,3] y) { y = Sub(a, b) })",
                       {{"a", tensorOf<float>(ElementType::kFloat, {0, 3}, {})},
                        {"b", tensorOf<float>(ElementType::kFloat, {3}, {1, 2, 3})}});
  EXPECT_EQ(y.tensor.shape(), (std::vector<int64_t>{0, 3}));
  EXPECT_EQ(y.tensor.size(), 0u);
}

TEST(ElementwiseKernels, IntegerArithmeticWrapsAround) {
  constexpr int32_t kMax = std::numeric_limits<int32_t>::max();
  constexpr int32_t kMin = std::numeric_limits<int32_t>::min();
  EvalValue sum = runOne(R"(
    <ir_version: 10, opset_import: ["" : 21]>
    g (int32[2] a, int32[2] b) => (int32[2] y) { y = Add(a, b) })",
                         {{"a", tensorOf<int32_t>(ElementType::kInt32, {2}, {kMax, kMin})},
                          {"b", tensorOf<int32_t>(ElementType::kInt32, {2}, {1, -1})}});
  EXPECT_EQ(valuesOf<int32_t>(sum), (std::vector<int32_t>{kMin, kMax}));
  EvalValue product = runOne(R"(
    <ir_version: 10, opset_import: ["" : 21]>
    g (uint16[1] a, uint16[1] b) => (uint16[1] y) { y = Mul(a, b) })",
                             {{"a", tensorOf<uint16_t>(ElementType::kUint16, {1}, {65535})},
                              {"b", tensorOf<uint16_t>(ElementType::kUint16, {1}, {65535})}});
  EXPECT_EQ(valuesOf<uint16_t>(product), (std::vector<uint16_t>{1}));
  EvalValue negated = runOne(R"(
    <ir_version: 10, opset_import: ["" : 21]>
    g (int32[2] a) => (int32[2] y) { y = Neg(a) })",
                             {{"a", tensorOf<int32_t>(ElementType::kInt32, {2}, {kMin, 5})}});
  EXPECT_EQ(valuesOf<int32_t>(negated), (std::vector<int32_t>{kMin, -5}));
  EvalValue absolute = runOne(R"(
    <ir_version: 10, opset_import: ["" : 21]>
    g (int8[3] a) => (int8[3] y) { y = Abs(a) })",
                              {{"a", tensorOf<int8_t>(ElementType::kInt8, {3}, {-128, -3, 4})}});
  EXPECT_EQ(valuesOf<int8_t>(absolute), (std::vector<int8_t>{-128, 3, 4}));
}

TEST(ElementwiseKernels, IntegerDivisionTruncatesAndDivisionByZeroGivesZero) {
  constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
  EvalValue y = runOne(R"(
    <ir_version: 10, opset_import: ["" : 21]>
    g (int64[4] a, int64[4] b) => (int64[4] y) { y = Div(a, b) })",
                       {{"a", tensorOf<int64_t>(ElementType::kInt64, {4}, {-7, 7, 5, kMin})},
                        {"b", tensorOf<int64_t>(ElementType::kInt64, {4}, {2, -2, 0, -1})}});
  EXPECT_EQ(valuesOf<int64_t>(y), (std::vector<int64_t>{-3, -3, 0, kMin}));
}

TEST(ElementwiseKernels, ModFollowsTheDivisorOrWithFmodTheDividend) {
  auto inputs = [] {
    return std::vector<NamedValue>{
        {"a", tensorOf<int32_t>(ElementType::kInt32, {5},
                                {-7, 7, -7, 5, std::numeric_limits<int32_t>::min()})},
        {"b", tensorOf<int32_t>(ElementType::kInt32, {5}, {3, -3, -3, 0, -1})}};
  };
  EvalValue python = runOne(R"(
    <ir_version: 10, opset_import: ["" : 21]>
    g (int32[5] a, int32[5] b) => (int32[5] y) { y = Mod(a, b) })",
                            inputs());
  EXPECT_EQ(valuesOf<int32_t>(python), (std::vector<int32_t>{2, -2, -1, 0, 0}));
  EvalValue c = runOne(R"(
    <ir_version: 10, opset_import: ["" : 21]>
    g (int32[5] a, int32[5] b) => (int32[5] y) { y = Mod <fmod = 1> (a, b) })",
                       inputs());
  EXPECT_EQ(valuesOf<int32_t>(c), (std::vector<int32_t>{-1, 1, -1, 0, 0}));
}

TEST(ElementwiseKernels, Float16IsComputedInFloatAndRoundedBack) {
  uint16_t one = floatToFloat16(1.0f), two = floatToFloat16(2.0f), third = floatToFloat16(1 / 3.0f);
  EvalValue y =
      runOne(R"(
    <ir_version: 10, opset_import: ["" : 21]>
    g (float16[2] a, float16[2] b) => (float16[2] y) { y = Div(a, b) })",
             {{"a", tensorOf<uint16_t>(ElementType::kFloat16, {2}, {two, one})},
              {"b", tensorOf<uint16_t>(ElementType::kFloat16, {2}, {one, floatToFloat16(3.0f)})}});
  EXPECT_EQ(y.tensor.type(), ElementType::kFloat16);
  EXPECT_EQ(valuesOf<uint16_t>(y), (std::vector<uint16_t>{two, third}));
  EvalValue relu =
      runOne(R"(
    <ir_version: 10, opset_import: ["" : 21]>
    g (bfloat16[2] a) => (bfloat16[2] y) { y = Relu(a) })",
             {{"a", tensorOf<uint16_t>(ElementType::kBfloat16, {2},
                                       {floatToBfloat16(-2.0f), floatToBfloat16(3.0f)})}});
  EXPECT_EQ(valuesOf<uint16_t>(relu),
            (std::vector<uint16_t>{floatToBfloat16(0.0f), floatToBfloat16(3.0f)}));
}

TEST(ElementwiseKernels, RoundHalvesToEven) {
  EvalValue y = runOne(
      R"(
    <ir_version: 10, opset_import: ["" : 22]>
    g (float[6] x) => (float[6] y) { y = Round(x) })",
      {{"x", tensorOf<float>(ElementType::kFloat, {6}, {0.5f, 1.5f, 2.5f, -2.5f, 2.6f, -0.4f})}});
  std::vector<float> got = valuesOf<float>(y);
  EXPECT_EQ(got, (std::vector<float>{0.0f, 2.0f, 2.0f, -2.0f, 3.0f, -0.0f}));
}

TEST(ElementwiseKernels, ClipKeepsNaNAndClipsIntegersWithOneBound) {
  float nan = std::numeric_limits<float>::quiet_NaN();
  EvalValue y = runOne(R"(
    <ir_version: 10, opset_import: ["" : 13]>
    g (float[3] x, float lo, float hi) => (float[3] y) { y = Clip(x, lo, hi) })",
                       {{"x", tensorOf<float>(ElementType::kFloat, {3}, {nan, -5.0f, 5.0f})},
                        {"lo", tensorOf<float>(ElementType::kFloat, {}, {-1.0f})},
                        {"hi", tensorOf<float>(ElementType::kFloat, {}, {1.0f})}});
  std::vector<float> got = valuesOf<float>(y);
  ASSERT_EQ(got.size(), 3u);
  EXPECT_TRUE(std::isnan(got[0]));
  EXPECT_EQ(got[1], -1.0f);
  EXPECT_EQ(got[2], 1.0f);
  EvalValue ints = runOne(R"(
    <ir_version: 10, opset_import: ["" : 13]>
    g (int8[3] x, int8 hi) => (int8[3] y) { y = Clip(x, , hi) })",
                          {{"x", tensorOf<int8_t>(ElementType::kInt8, {3}, {-128, 3, 127})},
                           {"hi", tensorOf<int8_t>(ElementType::kInt8, {}, {2})}});
  EXPECT_EQ(valuesOf<int8_t>(ints), (std::vector<int8_t>{-128, 2, 2}));
  EvalValue legacy =
      runOne(R"(
    <ir_version: 10, opset_import: ["" : 6]>
    g (float[3] x) => (float[3] y) { y = Clip <min = 0.0> (x) })",
             {{"x", tensorOf<float>(ElementType::kFloat, {3}, {-1.0f, 0.5f, 1e30f})}});
  EXPECT_EQ(valuesOf<float>(legacy), (std::vector<float>{0.0f, 0.5f, 1e30f}));
}

TEST(ElementwiseKernels, PowMixesTypes) {
  EvalValue ints = runOne(R"(
    <ir_version: 10, opset_import: ["" : 15]>
    g (int64[4] x, int32[4] e) => (int64[4] y) { y = Pow(x, e) })",
                          {{"x", tensorOf<int64_t>(ElementType::kInt64, {4}, {3, 2, -1, 1})},
                           {"e", tensorOf<int32_t>(ElementType::kInt32, {4}, {39, -1, -3, -5})}});
  EXPECT_EQ(valuesOf<int64_t>(ints), (std::vector<int64_t>{4052555153018976267, 0, -1, 1}));
  EvalValue truncated = runOne(R"(
    <ir_version: 10, opset_import: ["" : 15]>
    g (int32[2] x, float[2] e) => (int32[2] y) { y = Pow(x, e) })",
                               {{"x", tensorOf<int32_t>(ElementType::kInt32, {2}, {2, 10})},
                                {"e", tensorOf<float>(ElementType::kFloat, {2}, {0.5f, 20.0f})}});
  EXPECT_EQ(valuesOf<int32_t>(truncated),
            (std::vector<int32_t>{1, std::numeric_limits<int32_t>::max()}));
}

TEST(ElementwiseKernels, BitShiftByTheWidthOrMoreGivesZero) {
  EvalValue y = runOne(R"(
    <ir_version: 10, opset_import: ["" : 18]>
    g (uint8[3] x, uint8[3] s) => (uint8[3] y) { y = BitShift <direction = "LEFT"> (x, s) })",
                       {{"x", tensorOf<uint8_t>(ElementType::kUint8, {3}, {1, 255, 1})},
                        {"s", tensorOf<uint8_t>(ElementType::kUint8, {3}, {7, 1, 8})}});
  EXPECT_EQ(valuesOf<uint8_t>(y), (std::vector<uint8_t>{128, 254, 0}));
  std::string message = failure(R"(
    <ir_version: 10, opset_import: ["" : 18]>
    g (uint8[1] x, uint8[1] s) => (uint8[1] y) { y = BitShift <direction = "UP"> (x, s) })",
                                {{"x", tensorOf<uint8_t>(ElementType::kUint8, {1}, {1})},
                                 {"s", tensorOf<uint8_t>(ElementType::kUint8, {1}, {1})}});
  EXPECT_NE(message.find("direction"), std::string::npos) << message;
}

TEST(ElementwiseKernels, WhereBroadcastsStringsAndNarrowTypes) {
  Array condition(ElementType::kBool, {2, 1});
  condition.data<bool>()[0] = true;
  condition.data<bool>()[1] = false;
  Array x(ElementType::kString, {2});
  x.strings() = {"a", "b"};
  Array y(ElementType::kString, {});
  y.strings() = {"z"};
  EvalValue out =
      runOne(R"(
    <ir_version: 10, opset_import: ["" : 21]>
    g (bool[2,1] c, string[2] x, string y) => (string[2,2] out) { out = Where(c, x, y) })",
             {{"c", EvalValue::of(condition)}, {"x", EvalValue::of(x)}, {"y", EvalValue::of(y)}});
  ASSERT_EQ(out.tensor.shape(), (std::vector<int64_t>{2, 2}));
  EXPECT_EQ(out.tensor.strings(), (std::vector<std::string>{"a", "b", "z", "z"}));
  EvalValue halves = runOne(R"(
    <ir_version: 10, opset_import: ["" : 21]>
    g (bool[2,1] c, float16[2] x, float16 y) => (float16[2,2] out) { out = Where(c, x, y) })",
                            {{"c", EvalValue::of(condition)},
                             {"x", tensorOf<uint16_t>(ElementType::kFloat16, {2}, {1, 2})},
                             {"y", tensorOf<uint16_t>(ElementType::kFloat16, {}, {9})}});
  EXPECT_EQ(valuesOf<uint16_t>(halves), (std::vector<uint16_t>{1, 2, 9, 9}));
}

TEST(ElementwiseKernels, ExpandBroadcastsBothWaysAndRefusesNegativeDims) {
  EvalValue y = runOne(R"(
    <ir_version: 10, opset_import: ["" : 13]>
    g (int32[3,1] x, int64[3] shape) => (int32[2,3,2] y) { y = Expand(x, shape) })",
                       {{"x", tensorOf<int32_t>(ElementType::kInt32, {3, 1}, {1, 2, 3})},
                        {"shape", tensorOf<int64_t>(ElementType::kInt64, {3}, {2, 1, 2})}});
  ASSERT_EQ(y.tensor.shape(), (std::vector<int64_t>{2, 3, 2}));
  EXPECT_EQ(valuesOf<int32_t>(y), (std::vector<int32_t>{1, 1, 2, 2, 3, 3, 1, 1, 2, 2, 3, 3}));
  std::string message = failure(R"(
    <ir_version: 10, opset_import: ["" : 13]>
    g (int32[3] x, int64[2] shape) => (int32[A,B] y) { y = Expand(x, shape) })",
                                {{"x", tensorOf<int32_t>(ElementType::kInt32, {3}, {1, 2, 3})},
                                 {"shape", tensorOf<int64_t>(ElementType::kInt64, {2}, {-2, 3})}});
  EXPECT_NE(message.find("negative"), std::string::npos) << message;
}

TEST(ElementwiseKernels, VariadicMaxBroadcastsAndPropagatesNaN) {
  float nan = std::numeric_limits<float>::quiet_NaN();
  EvalValue y = runOne(R"(
    <ir_version: 10, opset_import: ["" : 13]>
    g (float[2,1] a, float[3] b, float c) => (float[2,3] y) { y = Max(a, b, c) })",
                       {{"a", tensorOf<float>(ElementType::kFloat, {2, 1}, {0.0f, nan})},
                        {"b", tensorOf<float>(ElementType::kFloat, {3}, {-1.0f, 5.0f, 2.0f})},
                        {"c", tensorOf<float>(ElementType::kFloat, {}, {1.0f})}});
  std::vector<float> got = valuesOf<float>(y);
  ASSERT_EQ(got.size(), 6u);
  EXPECT_EQ(got[0], 1.0f);
  EXPECT_EQ(got[1], 5.0f);
  EXPECT_EQ(got[2], 2.0f);
  EXPECT_TRUE(std::isnan(got[3]) && std::isnan(got[4]) && std::isnan(got[5]));
  EvalValue mean = runOne(R"(
    <ir_version: 10, opset_import: ["" : 13]>
    g (double[2] a, double b, double[2] c) => (double[2] y) { y = Mean(a, b, c) })",
                          {{"a", tensorOf<double>(ElementType::kDouble, {2}, {1.0, 2.0})},
                           {"b", tensorOf<double>(ElementType::kDouble, {}, {3.0})},
                           {"c", tensorOf<double>(ElementType::kDouble, {2}, {5.0, 7.0})}});
  EXPECT_EQ(valuesOf<double>(mean), (std::vector<double>{3.0, 4.0}));
}

TEST(ElementwiseKernels, LegacyBroadcastAttributeAlignsBAtAxis) {
  EvalValue y = runOne(R"(
    <ir_version: 10, opset_import: ["" : 6]>
    g (float[2,3] a, float[2] b) => (float[2,3] y) { y = Add <broadcast = 1, axis = 0> (a, b) })",
                       {{"a", tensorOf<float>(ElementType::kFloat, {2, 3}, {0, 1, 2, 3, 4, 5})},
                        {"b", tensorOf<float>(ElementType::kFloat, {2}, {10, 20})}});
  EXPECT_EQ(valuesOf<float>(y), (std::vector<float>{10, 11, 12, 23, 24, 25}));
  std::string message =
      failure(R"(
    <ir_version: 10, opset_import: ["" : 6]>
    g (float[2,3] a, float[3] b) => (float[2,3] y) { y = Add(a, b) })",
              {{"a", tensorOf<float>(ElementType::kFloat, {2, 3}, {0, 1, 2, 3, 4, 5})},
               {"b", tensorOf<float>(ElementType::kFloat, {3}, {1, 2, 3})}});
  EXPECT_NE(message.find("broadcast"), std::string::npos) << message;
}

TEST(ElementwiseKernels, PReluSlopeFollowsTheAxisOfItsLength) {
  EvalValue y = runOne(R"(
    <ir_version: 10, opset_import: ["" : 16]>
    g (float[2,3,2] x, float[3] slope) => (float[2,3,2] y) { y = PRelu(x, slope) })",
                       {{"x", tensorOf<float>(ElementType::kFloat, {2, 3, 2},
                                              {-1, 1, -1, 1, -1, 1, -2, 2, -2, 2, -2, 2})},
                        {"slope", tensorOf<float>(ElementType::kFloat, {3}, {1, 2, 3})}});
  EXPECT_EQ(valuesOf<float>(y), (std::vector<float>{-1, 1, -2, 1, -3, 1, -2, 2, -4, 2, -6, 2}));
}

TEST(ElementwiseKernels, ComparisonsAndLogicalOperators) {
  Array a(ElementType::kString, {3});
  a.strings() = {"x", "", "yz"};
  Array b(ElementType::kString, {});
  b.strings() = {"yz"};
  EvalValue equal = runOne(R"(
    <ir_version: 10, opset_import: ["" : 19]>
    g (string[3] a, string b) => (bool[3] y) { y = Equal(a, b) })",
                           {{"a", EvalValue::of(a)}, {"b", EvalValue::of(b)}});
  EXPECT_EQ(valuesOf<bool>(equal), (std::vector<bool>{false, false, true}));
  float nan = std::numeric_limits<float>::quiet_NaN();
  EvalValue less = runOne(R"(
    <ir_version: 10, opset_import: ["" : 16]>
    g (float[3] a, float[3] b) => (bool[3] y) { y = LessOrEqual(a, b) })",
                          {{"a", tensorOf<float>(ElementType::kFloat, {3}, {1, nan, 2})},
                           {"b", tensorOf<float>(ElementType::kFloat, {3}, {1, 0, 1})}});
  EXPECT_EQ(valuesOf<bool>(less), (std::vector<bool>{true, false, false}));
  EvalValue xor_ =
      runOne(R"(
    <ir_version: 10, opset_import: ["" : 7]>
    g (bool[2,2] a, bool[2] b) => (bool[2,2] y) { y = Xor(a, b) })",
             {{"a", tensorOf<bool>(ElementType::kBool, {2, 2}, {true, false, true, true})},
              {"b", tensorOf<bool>(ElementType::kBool, {2}, {true, false})}});
  EXPECT_EQ(valuesOf<bool>(xor_), (std::vector<bool>{false, false, false, true}));
  EvalValue inverted = runOne(R"(
    <ir_version: 10, opset_import: ["" : 18]>
    g (int16[2] a) => (int16[2] y) { y = BitwiseNot(a) })",
                              {{"a", tensorOf<int16_t>(ElementType::kInt16, {2}, {0, -1})}});
  EXPECT_EQ(valuesOf<int16_t>(inverted), (std::vector<int16_t>{-1, 0}));
}

TEST(ElementwiseKernels, IsInfHonoursTheSignAttributesOnNarrowTypes) {
  uint16_t plus = floatToFloat16(std::numeric_limits<float>::infinity());
  uint16_t minus = floatToFloat16(-std::numeric_limits<float>::infinity());
  EvalValue y = runOne(R"(
    <ir_version: 10, opset_import: ["" : 20]>
    g (float16[3] x) => (bool[3] y) { y = IsInf <detect_negative = 0> (x) })",
                       {{"x", tensorOf<uint16_t>(ElementType::kFloat16, {3}, {plus, minus, 0})}});
  EXPECT_EQ(valuesOf<bool>(y), (std::vector<bool>{true, false, false}));
}

TEST(ElementwiseKernels, ActivationEdgeCases) {
  float nan = std::numeric_limits<float>::quiet_NaN();
  EvalValue sign = runOne(R"(
    <ir_version: 10, opset_import: ["" : 13]>
    g (float[3] x) => (float[3] y) { y = Sign(x) })",
                          {{"x", tensorOf<float>(ElementType::kFloat, {3}, {nan, -3, 0})}});
  std::vector<float> s = valuesOf<float>(sign);
  ASSERT_EQ(s.size(), 3u);
  EXPECT_TRUE(std::isnan(s[0]));
  EXPECT_EQ(s[1], -1.0f);
  EXPECT_EQ(s[2], 0.0f);
  EvalValue softplus =
      runOne(R"(
    <ir_version: 10, opset_import: ["" : 22]>
    g (double[2] x) => (double[2] y) { y = Softplus(x) })",
             {{"x", tensorOf<double>(ElementType::kDouble, {2}, {1000.0, -1000.0})}});
  std::vector<double> sp = valuesOf<double>(softplus);
  ASSERT_EQ(sp.size(), 2u);
  EXPECT_EQ(sp[0], 1000.0);
  EXPECT_GE(sp[1], 0.0);
  EXPECT_LT(sp[1], 1e-300);
  EvalValue shrink = runOne(R"(
    <ir_version: 10, opset_import: ["" : 9]>
    g (int32[3] x) => (int32[3] y) { y = Shrink <lambd = 1.5, bias = 1.5> (x) })",
                            {{"x", tensorOf<int32_t>(ElementType::kInt32, {3}, {-3, 1, 4})}});
  EXPECT_EQ(valuesOf<int32_t>(shrink), (std::vector<int32_t>{-1, 0, 2}));
  std::string message = failure(R"(
    <ir_version: 10, opset_import: ["" : 20]>
    g (float[1] x) => (float[1] y) { y = Gelu <approximate = "exact"> (x) })",
                                {{"x", tensorOf<float>(ElementType::kFloat, {1}, {1})}});
  EXPECT_NE(message.find("approximate"), std::string::npos) << message;
}

// Sigmoid and Gelu compute FLOAT with vector_math's exp and erf: within a few units in the
// last place of double, and the tails and special values as the plain formulas give them.
TEST(ElementwiseKernels, FloatSigmoidAndGeluFollowDouble) {
  const float inf = std::numeric_limits<float>::infinity();
  std::vector<float> x = {-inf, -200, -100, -20, -3, -1e-30f, -0.0f, 0, 0.7f, 5, 30, 200, inf};
  for (int i = -60; i <= 60; ++i) x.push_back(static_cast<float>(i) / 7.0f);
  x.push_back(std::numeric_limits<float>::quiet_NaN());
  const int64_t n = static_cast<int64_t>(x.size());
  Result<std::vector<EvalValue>> out =
      runText(R"(
    <ir_version: 10, opset_import: ["" : 20]>
    g (float[N] x) => (float[N] s, float[N] g, float[N] t) {
      s = Sigmoid (x)
      g = Gelu (x)
      t = Gelu <approximate = "tanh"> (x)
    })",
              {{"x", tensorOf<float>(ElementType::kFloat, {n}, x)}});
  ASSERT_TRUE(out) << out.status().toString();
  std::vector<float> s = valuesOf<float>((*out)[0]);
  std::vector<float> g = valuesOf<float>((*out)[1]);
  std::vector<float> t = valuesOf<float>((*out)[2]);
  ASSERT_EQ(s.size(), x.size());
  for (size_t i = 0; i + 1 < x.size(); ++i) {
    const double v = x[i];
    const double sigmoid = v >= 0 ? 1 / (1 + std::exp(-v)) : std::exp(v) / (1 + std::exp(v));
    const double gelu = 0.5 * v * (1 + std::erf(v / std::sqrt(2.0)));
    const double u = std::sqrt(2 / std::acos(-1.0)) * (v + 0.044715 * v * v * v);
    const double gelu_tanh = 0.5 * v * (1 + std::tanh(u));
    // A few units in the last place; x (1 + erf) loses to cancellation what 1 + erf does.
    const double denorm = std::numeric_limits<float>::denorm_min();
    EXPECT_NEAR(s[i], sigmoid, 1e-6 * sigmoid + 2 * denorm) << x[i];
    if (std::isinf(v)) {
      // -inf * (1 + erf(-inf)) is -inf * 0.
      EXPECT_EQ(std::isnan(g[i]), v < 0) << x[i];
      EXPECT_EQ(std::isnan(t[i]), v < 0) << x[i];
      if (v > 0) {
        EXPECT_EQ(g[i], inf);
        EXPECT_EQ(t[i], inf);
      }
    } else {
      EXPECT_NEAR(g[i], gelu, 1e-6 * (std::fabs(gelu) + std::fabs(v)) + 2 * denorm) << x[i];
      EXPECT_NEAR(t[i], gelu_tanh, 1e-6 * (std::fabs(gelu_tanh) + std::fabs(v)) + 2 * denorm)
          << x[i];
    }
  }
  EXPECT_TRUE(std::isnan(s.back()));
  EXPECT_TRUE(std::isnan(g.back()));
  EXPECT_TRUE(std::isnan(t.back()));
}

// ---- FLOAT fast paths ---------------------------------------------------------------------

// For each element of a broadcast result of `out`, the index of the element of an operand of
// shape `in` it reads: written out here, apart from the kernels' own plan.
std::vector<size_t> sourcesOf(const std::vector<int64_t>& in, const std::vector<int64_t>& out) {
  std::vector<size_t> sources(elementCount(out));
  for (size_t flat = 0; flat < sources.size(); ++flat) {
    size_t rest = flat, source = 0, stride = 1;
    for (size_t axis = out.size(); axis-- > 0;) {
      size_t position = rest % static_cast<size_t>(out[axis]);
      rest /= static_cast<size_t>(out[axis]);
      size_t offset = out.size() - in.size();
      if (axis < offset) continue;
      size_t dim = static_cast<size_t>(in[axis - offset]);
      if (dim != 1) source += position * stride;
      stride *= dim;
    }
    sources[flat] = source;
  }
  return sources;
}

// Random values with NaN, both infinities, both zeros and a subnormal among them.
std::vector<float> valuesWithSpecials(size_t count, uint32_t seed, float scale) {
  std::vector<float> values = randomFloats(count, seed);
  const float specials[] = {std::numeric_limits<float>::quiet_NaN(),
                            std::numeric_limits<float>::infinity(),
                            -std::numeric_limits<float>::infinity(),
                            0.0f,
                            -0.0f,
                            std::numeric_limits<float>::denorm_min()};
  for (size_t i = 0; i < count; ++i) {
    values[i] = i % 11 == 5 ? specials[(i / 11) % 6] : values[i] * scale;
  }
  return values;
}

// The same float, NaN for NaN.
void expectSameFloat(float actual, float expected, const std::string& where) {
  if (std::isnan(expected)) {
    EXPECT_TRUE(std::isnan(actual)) << where;
  } else {
    EXPECT_EQ(std::bit_cast<uint32_t>(actual), std::bit_cast<uint32_t>(expected))
        << where << ": " << actual << " for " << expected;
  }
}

// Add, Sub, Mul and Div run FLOAT through vectorized loops, one call per run of the broadcast:
// every element must be what the operator gives it alone, however the runs fall.
TEST(ElementwiseKernels, FloatArithmeticGivesEachElementItsOwnResult) {
  struct Case {
    std::vector<int64_t> a, b, y;
  };
  const Case cases[] = {
      {{2, 3, 5, 7}, {2, 3, 5, 7}, {2, 3, 5, 7}},  // same shapes
      {{2, 3, 5, 7}, {}, {2, 3, 5, 7}},            // a scalar
      {{}, {3, 37}, {3, 37}},                      // a scalar first
      {{2, 3, 5, 7}, {1, 3, 1, 1}, {2, 3, 5, 7}},  // per channel (squeeze-excitation)
      {{2, 3, 5, 7}, {3, 1, 1}, {2, 3, 5, 7}},     // per channel, lower rank
      {{1, 3, 1, 1}, {2, 3, 5, 7}, {2, 3, 5, 7}},  // per channel first
      {{2, 5, 7, 3}, {3}, {2, 5, 7, 3}},           // a bias [C] on channels-last values
      {{4, 1, 37}, {1, 3, 1}, {4, 3, 37}},         // both repeated
      {{1, 1}, {1}, {1, 1}},                       // one element
      {{37}, {1}, {37}},                           // an odd length
      {{0, 3}, {3}, {0, 3}},                       // empty
  };
  const char* ops[] = {"Add", "Sub", "Mul", "Div"};
  for (const char* op : ops) {
    for (const Case& c : cases) {
      std::string where = std::string(op) + " " + dimsText(c.a) + " " + dimsText(c.b);
      std::vector<float> a = valuesWithSpecials(elementCount(c.a), 3, 100.0f);
      std::vector<float> b = valuesWithSpecials(elementCount(c.b), 4, 3.0f);
      std::string text = "<ir_version: 10, opset_import: [\"\" : 14]>\ng (float" + dimsText(c.a) +
                         " a, float" + dimsText(c.b) + " b) => (float" + dimsText(c.y) +
                         " y) { y = " + op + "(a, b) }";
      EvalValue y = runOne(text, {{"a", tensorOf<float>(ElementType::kFloat, c.a, a)},
                                  {"b", tensorOf<float>(ElementType::kFloat, c.b, b)}});
      ASSERT_EQ(y.tensor.shape(), c.y) << where;
      std::vector<float> got = valuesOf<float>(y);
      std::vector<size_t> from_a = sourcesOf(c.a, c.y);
      std::vector<size_t> from_b = sourcesOf(c.b, c.y);
      for (size_t i = 0; i < got.size(); ++i) {
        float u = a[from_a[i]], v = b[from_b[i]];
        float expected = op[0] == 'A' ? u + v : op[0] == 'S' ? u - v : op[0] == 'M' ? u * v : u / v;
        expectSameFloat(got[i], expected, where + " at " + std::to_string(i));
      }
    }
  }
}

// The FLOAT activations (vectorized, with vector_math's functions where libm's would be
// called) against the general path, which DOUBLE takes: comparisons, clamps and products
// exactly; the others within a few units in the last place of the result and of the input
// (x * gate loses to cancellation what the gate does); NaN and infinities as the formulas
// give them; lengths that are no multiple of a vector width.
TEST(ElementwiseKernels, FloatActivationsFollowTheirDoubleResults) {
  struct Case {
    const char* node;
    double ulps;  // 0: exactly the double result, rounded
  };
  const Case cases[] = {
      {"Relu (x)", 0},
      {"LeakyRelu <alpha = 0.1> (x)", 0},
      {"Clip (x, low, high)", 0},
      {"HardSigmoid <alpha = 0.16666667, beta = 0.5> (x)", 1},
      {"HardSwish (x)", 2},
      {"Tanh (x)", 3},
      {"Softplus (x)", 4},
      {"Mish (x)", 6},
      {"Swish <alpha = 1.5> (x)", 4},
      {"Sigmoid (x)", 4},
  };
  // Values at the edges of the approximations (tanh's split and saturation, Mish's cut-off
  // and overflow, the exponential's range).
  const float edges[] = {0.54f, 0.56f, -0.3f, 9.2f, 20.5f, 44.5f, 100.0f, -100.0f};
  for (size_t n : {size_t{0}, size_t{1}, size_t{37}, size_t{1001}}) {
    std::vector<float> x = valuesWithSpecials(n, 9, 12.0f);
    for (size_t k = 0; k < std::size(edges) && k < n / 2; ++k) x[n - 1 - k] = edges[k];
    std::vector<double> xd(x.begin(), x.end());
    const int64_t length = static_cast<int64_t>(n);
    for (const Case& c : cases) {
      auto text = [&](const std::string& type) {
        return "<ir_version: 10, opset_import: [\"\" : 24]>\ng (" + type + "[N] x, " + type +
               " low, " + type + " high) => (" + type + "[N] y) { y = " + c.node + " }";
      };
      EvalValue f =
          runOne(text("float"), {{"x", tensorOf<float>(ElementType::kFloat, {length}, x)},
                                 {"low", tensorOf<float>(ElementType::kFloat, {}, {0})},
                                 {"high", tensorOf<float>(ElementType::kFloat, {}, {6})}});
      EvalValue d =
          runOne(text("double"), {{"x", tensorOf<double>(ElementType::kDouble, {length}, xd)},
                                  {"low", tensorOf<double>(ElementType::kDouble, {}, {0})},
                                  {"high", tensorOf<double>(ElementType::kDouble, {}, {6})}});
      std::vector<float> got = valuesOf<float>(f);
      std::vector<double> exact = valuesOf<double>(d);
      ASSERT_EQ(got.size(), n) << c.node;
      ASSERT_EQ(exact.size(), n) << c.node;
      for (size_t i = 0; i < n; ++i) {
        std::string where = std::string(c.node) + " of " + std::to_string(x[i]);
        const float rounded = static_cast<float>(exact[i]);
        if (c.ulps == 0 || !std::isfinite(rounded) || !std::isfinite(x[i])) {
          expectSameFloat(got[i], rounded, where);
        } else {
          EXPECT_NEAR(got[i], exact[i], c.ulps * (floatUlp(exact[i]) + floatUlp(x[i]))) << where;
        }
      }
    }
  }
}

// The fast paths split large tensors over threads by element: the same bits on any count.
TEST(ElementwiseKernels, FloatFastPathsGiveTheSameBitsOnAnyThreadCount) {
  Result<Model> model = parseText(R"(
    <ir_version: 10, opset_import: ["" : 22]>
    g (float[3,1,70001] x, float[1,5,1] c) => (float[3,5,70001] y, float[3,1,70001] t,
                                                float[3,1,70001] m) {
      y = Mul (x, c)
      t = Tanh (x)
      m = Mish (x)
    })");
  ASSERT_TRUE(model) << model.status().toString();
  std::vector<NamedValue> inputs = {
      {"x", tensorOf<float>(ElementType::kFloat, {3, 1, 70001}, valuesWithSpecials(210003, 1, 9))},
      {"c", tensorOf<float>(ElementType::kFloat, {1, 5, 1}, randomFloats(5, 2))}};
  EXPECT_EQ(testing::threadCountDifference(*model, inputs, 3), "");
}

// A kernel writes its result into an input's storage when the evaluator says no one reads
// that input afterwards: the chain computes the same bits as when every value is kept (each
// one a graph output, so none is given away), and the caller's input is left as it was.
TEST(ElementwiseKernels, ResultsWrittenInPlaceAreTheResultsWrittenApart) {
  const char* chain = R"(
      a = Sigmoid (x)
      b = Mul (a, k)
      c = Add (b, a)
      d = BatchNormalization <epsilon = 0.01> (c, s, bias, m, v)
      e = Clip (d, low, high)
      f = HardSwish (e)
      y = Tanh (f)
    })";
  const std::string header =
      "<ir_version: 10, opset_import: [\"\" : 22]>\n"
      "g (float[2,3,4,37] x, float[1,3,1,1] k, float[3] s, float[3] bias, float[3] m, float[3] v, "
      "float low, float high) => (float[2,3,4,37] y";
  const std::string all_kept =
      ", float[2,3,4,37] a, float[2,3,4,37] b, float[2,3,4,37] c, "
      "float[2,3,4,37] d, float[2,3,4,37] e, float[2,3,4,37] f";
  const std::vector<float> x = valuesWithSpecials(2 * 3 * 4 * 37, 7, 4.0f);
  auto inputs = [&] {
    return std::vector<NamedValue>{
        {"x", tensorOf<float>(ElementType::kFloat, {2, 3, 4, 37}, x)},
        {"k", tensorOf<float>(ElementType::kFloat, {1, 3, 1, 1}, {0.5f, -2.0f, 3.0f})},
        {"s", tensorOf<float>(ElementType::kFloat, {3}, {1.0f, 0.5f, 2.0f})},
        {"bias", tensorOf<float>(ElementType::kFloat, {3}, {0.0f, 0.1f, -0.2f})},
        {"m", tensorOf<float>(ElementType::kFloat, {3}, {0.3f, 0.0f, -0.1f})},
        {"v", tensorOf<float>(ElementType::kFloat, {3}, {1.0f, 2.0f, 0.5f})},
        {"low", tensorOf<float>(ElementType::kFloat, {}, {-1.0f})},
        {"high", tensorOf<float>(ElementType::kFloat, {}, {6.0f})}};
  };
  std::vector<NamedValue> given = inputs();
  Result<std::vector<EvalValue>> in_place = runText(header + ") {" + chain, given);
  Result<std::vector<EvalValue>> apart = runText(header + all_kept + ") {" + chain, inputs());
  ASSERT_TRUE(in_place && apart);
  std::vector<float> got = valuesOf<float>((*in_place)[0]);
  std::vector<float> expected = valuesOf<float>((*apart)[0]);
  ASSERT_EQ(got.size(), x.size());
  ASSERT_EQ(expected.size(), x.size());
  for (size_t i = 0; i < x.size(); ++i) expectSameFloat(got[i], expected[i], std::to_string(i));
  std::vector<float> after = valuesOf<float>(given[0].value);
  for (size_t i = 0; i < x.size(); ++i)
    expectSameFloat(after[i], x[i], "input " + std::to_string(i));
}

}  // namespace
}  // namespace onyx
