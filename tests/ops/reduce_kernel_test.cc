// Kernels of the reductions, softmax family, scans, linear algebra, signal processing and
// losses: the edge cases and errors the conformance cases do not reach.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <numbers>
#include <string>
#include <vector>

#include "onyx/text/parser.h"
#include "support/eval_testing.h"

namespace onyx {
namespace {

using testing::runText;
using testing::tensorOf;
using testing::valuesOf;

EvalValue floats(std::vector<int64_t> shape, const std::vector<float>& values) {
  return tensorOf<float>(ElementType::kFloat, std::move(shape), values);
}
EvalValue int64s(std::vector<int64_t> shape, const std::vector<int64_t>& values) {
  return tensorOf<int64_t>(ElementType::kInt64, std::move(shape), values);
}

bool mentions(const Result<std::vector<EvalValue>>& out, const std::string& text) {
  return !out && out.status().message().find(text) != std::string::npos;
}

// ---- reductions -------------------------------------------------------------------------

TEST(ReduceKernels, SumOverANegativeAxisInputWithoutKeepdims) {
  auto out = runText(R"(<ir_version: 10, opset_import: ["" : 18]>
    g (float[2, 3] x, int64[1] axes) => (float[2] y) { y = ReduceSum <keepdims = 0> (x, axes) })",
                     {{"x", floats({2, 3}, {1, 2, 3, 4, 5, 6})}, {"axes", int64s({1}, {-1})}});
  ASSERT_TRUE(out) << out.status().toString();
  EXPECT_EQ((*out)[0].tensor.shape(), (std::vector<int64_t>{2}));
  EXPECT_EQ(valuesOf<float>((*out)[0]), (std::vector<float>{6, 15}));
}

TEST(ReduceKernels, MaxAndMinOfNothingAreTheInfinities) {
  auto out = runText(R"(<ir_version: 10, opset_import: ["" : 18]>
    g (float[0, 2] x, int64[1] axes) => (float[1, 2] hi, float[1, 2] lo) {
      hi = ReduceMax (x, axes)
      lo = ReduceMin (x, axes)
    })",
                     {{"x", floats({0, 2}, {})}, {"axes", int64s({1}, {0})}});
  ASSERT_TRUE(out) << out.status().toString();
  float inf = std::numeric_limits<float>::infinity();
  EXPECT_EQ(valuesOf<float>((*out)[0]), (std::vector<float>{-inf, -inf}));
  EXPECT_EQ(valuesOf<float>((*out)[1]), (std::vector<float>{inf, inf}));
}

TEST(ReduceKernels, NoopWithEmptyAxesReturnsTheInput) {
  auto out = runText(R"(<ir_version: 10, opset_import: ["" : 18]>
    g (float[2, 2] x, int64[0] axes) => (float[2, 2] y) {
      y = ReduceSum <noop_with_empty_axes = 1> (x, axes)
    })",
                     {{"x", floats({2, 2}, {1, 2, 3, 4})}, {"axes", int64s({0}, {})}});
  ASSERT_TRUE(out) << out.status().toString();
  EXPECT_EQ(valuesOf<float>((*out)[0]), (std::vector<float>{1, 2, 3, 4}));
}

TEST(ReduceKernels, NoopWithEmptyAxesStillAppliesTheElementwiseSteps) {
  // The spec: reducing over no axes, ReduceSumSquare squares and ReduceL1 takes |x|.
  auto out = runText(R"(<ir_version: 10, opset_import: ["" : 18]>
    g (float[3] x, int64[0] axes) => (float[3] sq, float[3] l1) {
      sq = ReduceSumSquare <noop_with_empty_axes = 1> (x, axes)
      l1 = ReduceL1 <noop_with_empty_axes = 1> (x, axes)
    })",
                     {{"x", floats({3}, {-2, 0, 3})}, {"axes", int64s({0}, {})}});
  ASSERT_TRUE(out) << out.status().toString();
  EXPECT_EQ(valuesOf<float>((*out)[0]), (std::vector<float>{4, 0, 9}));
  EXPECT_EQ(valuesOf<float>((*out)[1]), (std::vector<float>{2, 0, 3}));
}

TEST(ReduceKernels, AnAxisOutOfRangeOrRepeatedIsAnError) {
  const char* model = R"(<ir_version: 10, opset_import: ["" : 18]>
    g (float[2, 2] x, int64[2] axes) => (float[1, 1] y) { y = ReduceMean (x, axes) })";
  auto out = runText(model, {{"x", floats({2, 2}, {1, 2, 3, 4})}, {"axes", int64s({2}, {0, 2})}});
  EXPECT_TRUE(mentions(out, "out of range")) << out.status().toString();
  out = runText(model, {{"x", floats({2, 2}, {1, 2, 3, 4})}, {"axes", int64s({2}, {1, -1})}});
  EXPECT_TRUE(mentions(out, "repeated")) << out.status().toString();
}

TEST(ReduceKernels, IntegerSumsWrapAsNumpyDoes) {
  auto out = runText(R"(<ir_version: 10, opset_import: ["" : 13]>
    g (int32[2] x) => (int32[1] y) { y = ReduceSum (x) })",
                     {{"x", tensorOf<int32_t>(ElementType::kInt32, {2},
                                              {std::numeric_limits<int32_t>::max(), 1})}});
  ASSERT_TRUE(out) << out.status().toString();
  EXPECT_EQ(valuesOf<int32_t>((*out)[0]),
            (std::vector<int32_t>{std::numeric_limits<int32_t>::min()}));
}

TEST(ReduceKernels, Float16MeanIsComputedInFloat) {
  // 1, 2, 3, 6 as FLOAT16 bit patterns; the mean is 3.
  auto out = runText(
      R"(<ir_version: 10, opset_import: ["" : 13]>
    g (float16[4] x) => (float16[1] y) { y = ReduceMean (x) })",
      {{"x", tensorOf<uint16_t>(ElementType::kFloat16, {4}, {0x3C00, 0x4000, 0x4200, 0x4600})}});
  ASSERT_TRUE(out) << out.status().toString();
  EXPECT_EQ(valuesOf<uint16_t>((*out)[0]), (std::vector<uint16_t>{0x4200}));
}

TEST(ReduceKernels, MaxPropagatesNaNAndLogSumExpHandlesInfinities) {
  float nan = std::numeric_limits<float>::quiet_NaN();
  float inf = std::numeric_limits<float>::infinity();
  auto out = runText(R"(<ir_version: 10, opset_import: ["" : 13]>
    g (float[2, 2] x) => (float[2, 1] hi, float[2, 1] lse) {
      hi = ReduceMax <axes = [1]> (x)
      lse = ReduceLogSumExp <axes = [1]> (x)
    })",
                     {{"x", floats({2, 2}, {nan, 1, -inf, -inf})}});
  ASSERT_TRUE(out) << out.status().toString();
  std::vector<float> hi = valuesOf<float>((*out)[0]);
  EXPECT_TRUE(std::isnan(hi[0]));
  EXPECT_EQ(hi[1], -inf);
  EXPECT_EQ(valuesOf<float>((*out)[1])[1], -inf);
}

TEST(ReduceKernels, ResultsDoNotDependOnTheThreadCount) {
  std::vector<float> values(64 * 1000);
  for (size_t i = 0; i < values.size(); ++i) values[i] = 1.0f / static_cast<float>(i + 3);
  const char* model = R"(<ir_version: 10, opset_import: ["" : 13]>
    g (float[64, 1000] x) => (float[64] y, float[1000] z) {
      y = ReduceSum <axes = [1], keepdims = 0> (x)
      z = ReduceL2 <axes = [0], keepdims = 0> (x)
    })";
  EvalOptions one, many;
  one.threads = 1;
  many.threads = 4;
  auto a = runText(model, {{"x", floats({64, 1000}, values)}}, one);
  auto b = runText(model, {{"x", floats({64, 1000}, values)}}, many);
  ASSERT_TRUE(a && b);
  EXPECT_EQ(valuesOf<float>((*a)[0]), valuesOf<float>((*b)[0]));
  EXPECT_EQ(valuesOf<float>((*a)[1]), valuesOf<float>((*b)[1]));
}

TEST(ReduceKernels, ArgMaxTiesAndSelectLastIndex) {
  const char* model = R"(<ir_version: 10, opset_import: ["" : 13]>
    g (float[1, 4] x) => (int64[1] first, int64[1] last, int64[1] low) {
      first = ArgMax <axis = -1, keepdims = 0> (x)
      last = ArgMax <axis = -1, keepdims = 0, select_last_index = 1> (x)
      low = ArgMin <axis = 1, keepdims = 0> (x)
    })";
  auto out = runText(model, {{"x", floats({1, 4}, {1, 5, 0, 5})}});
  ASSERT_TRUE(out) << out.status().toString();
  EXPECT_EQ(valuesOf<int64_t>((*out)[0]), (std::vector<int64_t>{1}));
  EXPECT_EQ(valuesOf<int64_t>((*out)[1]), (std::vector<int64_t>{3}));
  EXPECT_EQ(valuesOf<int64_t>((*out)[2]), (std::vector<int64_t>{2}));
}

TEST(ReduceKernels, ArgMaxOfAnEmptyAxisIsAnError) {
  auto out = runText(R"(<ir_version: 10, opset_import: ["" : 13]>
    g (float[2, 0] x) => (int64[2, 1] y) { y = ArgMax <axis = 1> (x) })",
                     {{"x", floats({2, 0}, {})}});
  EXPECT_TRUE(mentions(out, "empty axis")) << out.status().toString();
}

// ---- softmax family ---------------------------------------------------------------------

TEST(SoftmaxKernels, BeforeOpset13TheInputIsCoercedTo2D) {
  // axis = 1 on [2, 2, 2]: each of the two rows of four sums to 1.
  auto out = runText(R"(<ir_version: 10, opset_import: ["" : 11]>
    g (float[2, 2, 2] x) => (float[2, 2, 2] y) { y = Softmax (x) })",
                     {{"x", floats({2, 2, 2}, {0, 0, 0, 0, 1, 1, 1, 1})}});
  ASSERT_TRUE(out) << out.status().toString();
  for (float v : valuesOf<float>((*out)[0])) EXPECT_FLOAT_EQ(v, 0.25f);
}

TEST(SoftmaxKernels, HardmaxMarksTheFirstLargestAndLogSoftmaxIsStable) {
  auto out = runText(R"(<ir_version: 10, opset_import: ["" : 13]>
    g (float[1, 3] x) => (float[1, 3] h, float[1, 3] l) {
      h = Hardmax (x)
      l = LogSoftmax (x)
    })",
                     {{"x", floats({1, 3}, {1000, 3000, 3000})}});
  ASSERT_TRUE(out) << out.status().toString();
  EXPECT_EQ(valuesOf<float>((*out)[0]), (std::vector<float>{0, 1, 0}));
  std::vector<float> l = valuesOf<float>((*out)[1]);
  EXPECT_FLOAT_EQ(l[1], -std::log(2.0f));
  EXPECT_FLOAT_EQ(l[0], -2000.0f - std::log(2.0f));
}

TEST(SoftmaxKernels, ALongRowMatchesDoubleAndANaNSpoilsOnlyItsRow) {
  // Row 0: 21 values, the largest last (past the interleaved part of the maximum); row 1 holds
  // a NaN; row 2 holds -inf, whose probability is 0.
  std::vector<float> x(63);
  for (size_t i = 0; i < 21; ++i) x[i] = 0.37f * static_cast<float>(i) - 3.0f;
  for (size_t i = 21; i < 63; ++i) x[i] = 0.5f;
  x[30] = std::numeric_limits<float>::quiet_NaN();
  x[42] = -std::numeric_limits<float>::infinity();
  auto out = runText(R"(<ir_version: 10, opset_import: ["" : 13]>
    g (float[3, 21] x) => (float[3, 21] y, float[3, 21] l) {
      y = Softmax (x)
      l = LogSoftmax (x)
    })",
                     {{"x", floats({3, 21}, x)}});
  ASSERT_TRUE(out) << out.status().toString();
  std::vector<float> y = valuesOf<float>((*out)[0]);
  std::vector<float> l = valuesOf<float>((*out)[1]);
  double sum = 0;
  for (size_t i = 0; i < 21; ++i) sum += std::exp(static_cast<double>(x[i]) - x[20]);
  for (size_t i = 0; i < 21; ++i) {
    double expected = std::exp(static_cast<double>(x[i]) - x[20]) / sum;
    EXPECT_NEAR(y[i], expected, 1e-6 * expected) << i;
    EXPECT_NEAR(l[i], std::log(expected), 1e-6) << i;
  }
  for (size_t i = 21; i < 42; ++i) {
    EXPECT_TRUE(std::isnan(y[i])) << i;
    EXPECT_TRUE(std::isnan(l[i])) << i;
  }
  EXPECT_EQ(y[42], 0.0f);
  EXPECT_EQ(l[42], -std::numeric_limits<float>::infinity());
  for (size_t i = 43; i < 63; ++i) EXPECT_FLOAT_EQ(y[i], 1.0f / 20.0f) << i;
}

// ---- losses ------------------------------------------------------------------------------

TEST(LossKernels, IgnoredTargetsWeighNothingInTheMean) {
  auto out = runText(R"(<ir_version: 10, opset_import: ["" : 13]>
    g (float[2, 2] x, int64[2] t) => (float y) {
      y = NegativeLogLikelihoodLoss <ignore_index = 1> (x, t)
    })",
                     {{"x", floats({2, 2}, {-1, -2, -3, -4})}, {"t", int64s({2}, {0, 1})}});
  ASSERT_TRUE(out) << out.status().toString();
  EXPECT_EQ(valuesOf<float>((*out)[0]), (std::vector<float>{1}));
}

TEST(LossKernels, ATargetOutOfRangeIsAnError) {
  auto out = runText(R"(<ir_version: 10, opset_import: ["" : 13]>
    g (float[2, 2] x, int64[2] t) => (float y) { y = SoftmaxCrossEntropyLoss (x, t) })",
                     {{"x", floats({2, 2}, {1, 2, 3, 4})}, {"t", int64s({2}, {0, 2})}});
  EXPECT_TRUE(mentions(out, "out of range")) << out.status().toString();
}

// ---- scans and TopK -----------------------------------------------------------------------

TEST(ScanKernels, CumSumExclusiveReverseOnIntegers) {
  auto out = runText(R"(<ir_version: 10, opset_import: ["" : 14]>
    g (int64[4] x, int64 axis) => (int64[4] y) { y = CumSum <exclusive = 1, reverse = 1> (x, axis) })",
                     {{"x", int64s({4}, {1, 2, 3, 4})}, {"axis", int64s({}, {0})}});
  ASSERT_TRUE(out) << out.status().toString();
  EXPECT_EQ(valuesOf<int64_t>((*out)[0]), (std::vector<int64_t>{9, 7, 4, 0}));
}

TEST(ScanKernels, TopKKeepsTheLowerIndexOfEqualValuesAndChecksK) {
  const char* model = R"(<ir_version: 10, opset_import: ["" : 11]>
    g (float[5] x, int64[1] k) => (float[?] v, int64[?] i) { v, i = TopK (x, k) })";
  auto out = runText(model, {{"x", floats({5}, {2, 7, 2, 7, 1})}, {"k", int64s({1}, {3})}});
  ASSERT_TRUE(out) << out.status().toString();
  EXPECT_EQ(valuesOf<float>((*out)[0]), (std::vector<float>{7, 7, 2}));
  EXPECT_EQ(valuesOf<int64_t>((*out)[1]), (std::vector<int64_t>{1, 3, 0}));
  out = runText(model, {{"x", floats({5}, {2, 7, 2, 7, 1})}, {"k", int64s({1}, {6})}});
  EXPECT_TRUE(mentions(out, "k = 6")) << out.status().toString();
}

// ---- linear algebra -----------------------------------------------------------------------

TEST(LinalgKernels, MatMulBroadcastsBatchesAndWrapsIntegers) {
  auto out = runText(R"(<ir_version: 10, opset_import: ["" : 13]>
    g (int32[2, 1, 2] a, int32[2, 1] b) => (int32[2, 1, 1] y) { y = MatMul (a, b) })",
                     {{"a", tensorOf<int32_t>(ElementType::kInt32, {2, 1, 2},
                                              {1, 2, std::numeric_limits<int32_t>::max(), 1})},
                      {"b", tensorOf<int32_t>(ElementType::kInt32, {2, 1}, {3, 1})}});
  ASSERT_TRUE(out) << out.status().toString();
  EXPECT_EQ(valuesOf<int32_t>((*out)[0]), (std::vector<int32_t>{5, 2147483646}));
}

// A row times a wide matrix (a decoder's one-token products) sweeps the matrix's rows four
// at a time over blocks of columns: each column's sum as the double one within rounding, an
// infinity in the last rows (past the groups of four) kept, the same bits on two threads.
TEST(LinalgKernels, ARowTimesAWideMatrixSumsEachColumn) {
  constexpr int64_t kDepth = 6, kColumns = 4100;  // a group of four rows and two; 8 blocks + 4
  const std::string model_text = R"(<ir_version: 10, opset_import: ["" : 13]>
    g (float[1, 6] a, float[6, 4100] b) => (float[1, 4100] y) { y = MatMul (a, b) })";
  std::vector<float> a = testing::randomFloats(kDepth, 1);
  std::vector<float> b = testing::randomFloats(kDepth * kColumns, 2);
  b[5 * kColumns + 4099] = std::numeric_limits<float>::infinity();
  a[5] = 0.5f;
  std::vector<NamedValue> inputs = {
      {"a", tensorOf<float>(ElementType::kFloat, {1, kDepth}, a)},
      {"b", tensorOf<float>(ElementType::kFloat, {kDepth, kColumns}, b)}};
  auto out = runText(model_text, inputs);
  ASSERT_TRUE(out) << out.status().toString();
  const std::vector<float> y = valuesOf<float>((*out)[0]);
  ASSERT_EQ(y.size(), static_cast<size_t>(kColumns));
  for (int64_t j = 0; j + 1 < kColumns; ++j) {
    double expected = 0;
    for (int64_t p = 0; p < kDepth; ++p) {
      expected +=
          static_cast<double>(a[static_cast<size_t>(p)]) * b[static_cast<size_t>(p * kColumns + j)];
    }
    ASSERT_NEAR(y[static_cast<size_t>(j)], expected, 1e-5) << "column " << j;
  }
  EXPECT_EQ(y.back(), std::numeric_limits<float>::infinity());
  Result<Model> model = parseText(model_text);
  ASSERT_TRUE(model) << model.status().toString();
  EXPECT_EQ(testing::threadCountDifference(*model, inputs, 2), "");
}

TEST(LinalgKernels, MatMulWithMismatchedInnerDimensionsIsAnError) {
  auto out = runText(
      R"(<ir_version: 10, opset_import: ["" : 13]>
    g (float[2, 3] a, float[2, 3] b) => (float[?, ?] y) { y = MatMul (a, b) })",
      {{"a", floats({2, 3}, {1, 2, 3, 4, 5, 6})}, {"b", floats({2, 3}, {1, 2, 3, 4, 5, 6})}});
  EXPECT_TRUE(mentions(out, "inner dimensions")) << out.status().toString();
}

TEST(LinalgKernels, GemmTransposesScalesAndBroadcastsC) {
  auto out = runText(
      R"(<ir_version: 10, opset_import: ["" : 13]>
    g (float[2, 1] a, float[2, 1] b, float[2] c) => (float[1, 2] y) {
      y = Gemm <transA = 1, transB = 1, alpha = 2.0, beta = 0.5> (a, b, c)
    })",
      {{"a", floats({2, 1}, {1, 2})}, {"b", floats({2, 1}, {3, 4})}, {"c", floats({2}, {10, 20})}});
  // A' = [1 2] (1x2), B' = [3 4] (1x2): the inner dims differ, so this shape is refused.
  EXPECT_FALSE(out);
  out = runText(R"(<ir_version: 10, opset_import: ["" : 13]>
    g (float[2, 1] a, float[2, 2] b, float[2] c) => (float[1, 2] y) {
      y = Gemm <transA = 1, transB = 1, alpha = 2.0, beta = 0.5> (a, b, c)
    })",
                {{"a", floats({2, 1}, {1, 2})},
                 {"b", floats({2, 2}, {1, 0, 0, 1})},
                 {"c", floats({2}, {10, 20})}});
  ASSERT_TRUE(out) << out.status().toString();
  EXPECT_EQ(valuesOf<float>((*out)[0]), (std::vector<float>{7, 14}));
}

TEST(LinalgKernels, GemmOnIntegersScalesInDoubleAndTruncates) {
  auto out = runText(R"(<ir_version: 10, opset_import: ["" : 13]>
    g (int32[1, 2] a, int32[2, 1] b, int32[1, 1] c) => (int32[1, 1] y) {
      y = Gemm <alpha = 0.5, beta = 1.0> (a, b, c)
    })",
                     {{"a", tensorOf<int32_t>(ElementType::kInt32, {1, 2}, {1, 2})},
                      {"b", tensorOf<int32_t>(ElementType::kInt32, {2, 1}, {3, 1})},
                      {"c", tensorOf<int32_t>(ElementType::kInt32, {1, 1}, {-10})}});
  ASSERT_TRUE(out) << out.status().toString();
  // 0.5 * 5 - 10 = -7.5, truncated toward zero.
  EXPECT_EQ(valuesOf<int32_t>((*out)[0]), (std::vector<int32_t>{-7}));
}

TEST(LinalgKernels, EinsumImplicitTraceAndABadEquation) {
  auto out = runText(R"(<ir_version: 10, opset_import: ["" : 12]>
    g (float[2, 2] x) => (float y) { y = Einsum <equation = "ii"> (x) })",
                     {{"x", floats({2, 2}, {1, 2, 3, 4})}});
  ASSERT_TRUE(out) << out.status().toString();
  EXPECT_EQ(valuesOf<float>((*out)[0]), (std::vector<float>{5}));
  out = runText(R"(<ir_version: 10, opset_import: ["" : 12]>
    g (float[2, 2] x) => (float[?] y) { y = Einsum <equation = "i1->i"> (x) })",
                {{"x", floats({2, 2}, {1, 2, 3, 4})}});
  EXPECT_FALSE(out);
}

TEST(LinalgKernels, DetOfASingularMatrixIsZeroAndPivotingKeepsTheSign) {
  auto out = runText(R"(<ir_version: 10, opset_import: ["" : 11]>
    g (float[2, 2, 2] x) => (float[2] y) { y = Det (x) })",
                     {{"x", floats({2, 2, 2}, {1, 2, 2, 4, 0, 1, 1, 0})}});
  ASSERT_TRUE(out) << out.status().toString();
  EXPECT_EQ(valuesOf<float>((*out)[0]), (std::vector<float>{0, -1}));
}

TEST(LinalgKernels, LpNormalizationOfZerosIsZero) {
  auto out = runText(R"(<ir_version: 10, opset_import: ["" : 1]>
    g (float[2, 2] x) => (float[2, 2] y) { y = LpNormalization <p = 1> (x) })",
                     {{"x", floats({2, 2}, {0, 0, -1, 3})}});
  ASSERT_TRUE(out) << out.status().toString();
  EXPECT_EQ(valuesOf<float>((*out)[0]), (std::vector<float>{0, 0, -0.25f, 0.75f}));
}

// ---- signal processing ---------------------------------------------------------------------

TEST(SignalKernels, DftOfAnImpulseIsFlatAndTheInverseRestoresIt) {
  // Real signals transform in double: radix 2 (8), mixed radix (6, 12, 40, 45), the direct
  // sum (7, 14).
  for (int64_t n : {8, 6, 12, 40, 45, 7, 14}) {
    std::vector<float> impulse(static_cast<size_t>(n), 0.0f);
    impulse[1] = 1.0f;
    std::string model = R"(<ir_version: 10, opset_import: ["" : 20]>
      g (float[1, )" + std::to_string(n) +
                        R"(, 1] x) => (float[?, ?, ?] y, float[?, ?, ?] z) {
        y = DFT (x)
        z = DFT <inverse = 1> (y)
      })";
    auto out = runText(model, {{"x", floats({1, n, 1}, impulse)}});
    ASSERT_TRUE(out) << out.status().toString();
    std::vector<float> y = valuesOf<float>((*out)[0]);
    ASSERT_EQ(y.size(), static_cast<size_t>(2 * n));
    for (int64_t k = 0; k < n; ++k) {
      double angle = -2 * std::numbers::pi * static_cast<double>(k) / static_cast<double>(n);
      EXPECT_NEAR(y[2 * k], std::cos(angle), 1e-6) << n << " " << k;
      EXPECT_NEAR(y[2 * k + 1], std::sin(angle), 1e-6) << n << " " << k;
    }
    std::vector<float> z = valuesOf<float>((*out)[1]);
    for (int64_t t = 0; t < n; ++t) EXPECT_NEAR(z[2 * t], impulse[t], 1e-6);
  }
}

TEST(SignalKernels, ComplexFloatSignalsOfMixedRadixLengthsTransformCorrectly) {
  // Complex FLOAT signals take the single-precision passes (radix 2, 3, 4, 5, in every
  // combination below); each must agree with the direct sum, forward and inverse.
  for (int64_t n : {1, 2, 3, 5, 6, 9, 10, 12, 15, 20, 25, 36, 60}) {
    std::vector<float> signal(static_cast<size_t>(2 * n));
    for (int64_t t = 0; t < n; ++t) {
      signal[2 * t] = static_cast<float>(std::cos(0.7 * static_cast<double>(t)));
      signal[2 * t + 1] = static_cast<float>(std::sin(1.3 * static_cast<double>(t)) + 0.25);
    }
    std::string model = R"(<ir_version: 10, opset_import: ["" : 20]>
      g (float[1, )" + std::to_string(n) +
                        R"(, 2] x) => (float[?, ?, ?] y, float[?, ?, ?] z) {
        y = DFT (x)
        z = DFT <inverse = 1> (x)
      })";
    auto out = runText(model, {{"x", floats({1, n, 2}, signal)}});
    ASSERT_TRUE(out) << out.status().toString();
    std::vector<float> y = valuesOf<float>((*out)[0]);
    std::vector<float> z = valuesOf<float>((*out)[1]);
    ASSERT_EQ(y.size(), signal.size());
    ASSERT_EQ(z.size(), signal.size());
    for (int64_t k = 0; k < n; ++k) {
      double fr = 0, fi = 0, br = 0, bi = 0;
      for (int64_t t = 0; t < n; ++t) {
        double angle = 2 * std::numbers::pi * static_cast<double>(k * t) / static_cast<double>(n);
        double xr = signal[2 * t], xi = signal[2 * t + 1];
        fr += xr * std::cos(angle) + xi * std::sin(angle);
        fi += xi * std::cos(angle) - xr * std::sin(angle);
        br += xr * std::cos(angle) - xi * std::sin(angle);
        bi += xi * std::cos(angle) + xr * std::sin(angle);
      }
      EXPECT_NEAR(y[2 * k], fr, 1e-4) << "n=" << n << " k=" << k;
      EXPECT_NEAR(y[2 * k + 1], fi, 1e-4) << "n=" << n << " k=" << k;
      EXPECT_NEAR(z[2 * k], br / static_cast<double>(n), 1e-5) << "n=" << n << " k=" << k;
      EXPECT_NEAR(z[2 * k + 1], bi / static_cast<double>(n), 1e-5) << "n=" << n << " k=" << k;
    }
  }
}

TEST(SignalKernels, HannWindowPeriodicAndAnotherOutputType) {
  auto out = runText(R"(<ir_version: 10, opset_import: ["" : 17]>
    g (int64 n) => (float[?] y, double[?] z) {
      y = HannWindow (n)
      z = HannWindow <output_datatype = 11, periodic = 0> (n)
    })",
                     {{"n", int64s({}, {4})}});
  ASSERT_TRUE(out) << out.status().toString();
  std::vector<float> y = valuesOf<float>((*out)[0]);
  EXPECT_NEAR(y[0], 0, 1e-7);
  EXPECT_NEAR(y[1], 0.5, 1e-7);
  EXPECT_NEAR(y[2], 1, 1e-7);
  std::vector<double> z = valuesOf<double>((*out)[1]);
  EXPECT_NEAR(z[1], 0.75, 1e-12);
  EXPECT_NEAR(z[3], 0, 1e-12);
}

}  // namespace
}  // namespace onyx
