// Kernels of the conversion, quantization, generator and random operators: what the
// conformance suite does not cover (error paths, edge cases, rounding details).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "support/eval_testing.h"

namespace onyx {
namespace {

using testing::runText;
using testing::tensorOf;
using testing::valuesOf;

EvalValue stringsOf(std::vector<int64_t> shape, std::vector<std::string> texts) {
  Array array(ElementType::kString, std::move(shape));
  for (size_t i = 0; i < texts.size() && i < array.size(); ++i) array.strings()[i] = texts[i];
  return EvalValue::of(std::move(array));
}

std::vector<std::string> textsOf(const EvalValue& value) {
  return value.isTensor() ? value.tensor.strings() : std::vector<std::string>{};
}

// ---- Cast -------------------------------------------------------------------------------

TEST(CastKernel, IntegersWrapAroundIncludingSubByteTypes) {
  Result<std::vector<EvalValue>> out =
      runText(R"(
    <ir_version: 10, opset_import: ["" : 25]>
    g (int16[3] x, float[4] f) => (int8[3] y, int4[4] z) {
      y = Cast <to = 3> (x)
      z = Cast <to = 22> (f)
    })",
              {{"x", tensorOf<int16_t>(ElementType::kInt16, {3}, {200, -129, 5})},
               {"f", tensorOf<float>(ElementType::kFloat, {4}, {-9.7f, 8.0f, 7.9f, -8.0f})}});
  ASSERT_TRUE(out) << out.status().toString();
  EXPECT_EQ(valuesOf<int8_t>((*out)[0]), (std::vector<int8_t>{-56, 127, 5}));
  EXPECT_EQ(valuesOf<int8_t>((*out)[1]), (std::vector<int8_t>{7, -8, 7, -8}));
}

TEST(CastKernel, NumbersToStringsAsNumpyPrintsThem) {
  Result<std::vector<EvalValue>> out = runText(
      R"(
    <ir_version: 10, opset_import: ["" : 21]>
    g (float[8] x, bool[2] b, int64[2] i) => (string[8] y, string[2] t, string[2] u) {
      y = Cast <to = 8> (x)
      t = Cast <to = 8> (b)
      u = Cast <to = 8> (i)
    })",
      {{"x", tensorOf<float>(ElementType::kFloat, {8},
                             {0.5f, 100.0f, 1e-5f, 1e16f, NAN, -INFINITY, 0.47892547f, -0.0f})},
       {"b", tensorOf<bool>(ElementType::kBool, {2}, {true, false})},
       {"i", tensorOf<int64_t>(ElementType::kInt64, {2}, {-7, INT64_MAX})}});
  ASSERT_TRUE(out) << out.status().toString();
  EXPECT_EQ(textsOf((*out)[0]), (std::vector<std::string>{"0.5", "100.0", "1e-05", "1e+16", "nan",
                                                          "-inf", "0.47892547", "-0.0"}));
  EXPECT_EQ(textsOf((*out)[1]), (std::vector<std::string>{"True", "False"}));
  EXPECT_EQ(textsOf((*out)[2]), (std::vector<std::string>{"-7", "9223372036854775807"}));
}

TEST(CastKernel, Float16ToStringUsesTheShortestDigitsOfTheHalf) {
  // 0x2E66 is float16(0.1) = 0.0999755859375.
  Result<std::vector<EvalValue>> out =
      runText(R"(
    <ir_version: 10, opset_import: ["" : 21]>
    g (float16[2] x) => (string[2] y) { y = Cast <to = 8> (x) })",
              {{"x", tensorOf<uint16_t>(ElementType::kFloat16, {2}, {0x2E66, 0x3C00})}});
  ASSERT_TRUE(out) << out.status().toString();
  EXPECT_EQ(textsOf((*out)[0]), (std::vector<std::string>{"0.1", "1.0"}));
}

TEST(CastKernel, StringsToNumbers) {
  Result<std::vector<EvalValue>> out =
      runText(R"(
    <ir_version: 10, opset_import: ["" : 21]>
    g (string[5] x, string[2] n) => (float[5] y, int64[2] z) {
      y = Cast <to = 1> (x)
      z = Cast <to = 7> (n)
    })",
              {{"x", stringsOf({5}, {"3.5", "1E2", "+INF", "-inf", "NaN"})},
               {"n", stringsOf({2}, {"9007199254740993", "100.5"})}});
  ASSERT_TRUE(out) << out.status().toString();
  std::vector<float> y = valuesOf<float>((*out)[0]);
  ASSERT_EQ(y.size(), 5u);
  EXPECT_EQ(y[0], 3.5f);
  EXPECT_EQ(y[1], 100.0f);
  EXPECT_EQ(y[2], INFINITY);
  EXPECT_EQ(y[3], -INFINITY);
  EXPECT_TRUE(std::isnan(y[4]));
  // Integers read exactly (past 2^53); a decimal string truncates.
  EXPECT_EQ(valuesOf<int64_t>((*out)[1]), (std::vector<int64_t>{9007199254740993, 100}));
}

TEST(CastKernel, ATextThatIsNotANumberIsAnError) {
  Result<std::vector<EvalValue>> out = runText(R"(
    <ir_version: 10, opset_import: ["" : 21]>
    g (string[1] x) => (float[1] y) { y = Cast <to = 1> (x) })",
                                               {{"x", stringsOf({1}, {"Hello"})}});
  ASSERT_FALSE(out);
  EXPECT_NE(out.status().message().find("Hello"), std::string::npos) << out.status().toString();
}

TEST(CastKernel, DoubleToFloat16RoundsOnce) {
  // 1 + 2^-11 + 2^-40 is just above the midpoint of two halves: it rounds up, although the
  // nearest float is the midpoint itself (which would round to even, down).
  double value = 1.0 + std::ldexp(1.0, -11) + std::ldexp(1.0, -40);
  Result<std::vector<EvalValue>> out =
      runText(R"(
    <ir_version: 10, opset_import: ["" : 21]>
    g (double[1] x) => (float16[1] y) { y = Cast <to = 10> (x) })",
              {{"x", tensorOf<double>(ElementType::kDouble, {1}, {value})}});
  ASSERT_TRUE(out) << out.status().toString();
  EXPECT_EQ(valuesOf<uint16_t>((*out)[0]), (std::vector<uint16_t>{0x3C01}));
}

TEST(CastKernel, Float8SaturatesUnlessToldNot) {
  Result<std::vector<EvalValue>> out =
      runText(R"(
    <ir_version: 10, opset_import: ["" : 21]>
    g (float[2] x) => (float8e4m3fn[2] s, float8e4m3fn[2] n, bool[2] b) {
      s = Cast <to = 17> (x)
      n = Cast <to = 17, saturate = 0> (x)
      b = Cast <to = 9> (x)
    })",
              {{"x", tensorOf<float>(ElementType::kFloat, {2}, {1000.0f, NAN})}});
  ASSERT_TRUE(out) << out.status().toString();
  EXPECT_EQ(valuesOf<uint8_t>((*out)[0])[0], 0x7E);                       // 448
  EXPECT_EQ(valuesOf<uint8_t>((*out)[1])[0], 0x7F);                       // NaN
  EXPECT_EQ(valuesOf<bool>((*out)[2]), (std::vector<bool>{true, true}));  // NaN is true
}

TEST(CastKernel, Float8E8M0FollowsRoundMode) {
  Result<std::vector<EvalValue>> out =
      runText(R"(
    <ir_version: 10, opset_import: ["" : 24]>
    g (float[1] x) => (float8e8m0[1] up, float8e8m0[1] down) {
      up = Cast <to = 24> (x)
      down = Cast <to = 24, round_mode = "down"> (x)
    })",
              {{"x", tensorOf<float>(ElementType::kFloat, {1}, {3.0f})}});
  ASSERT_TRUE(out) << out.status().toString();
  EXPECT_EQ(valuesOf<uint8_t>((*out)[0])[0], 129);  // up: 4 = 2^2
  EXPECT_EQ(valuesOf<uint8_t>((*out)[1])[0], 128);  // down: 2 = 2^1
}

TEST(CastKernel, CastLikeTakesTheTargetTypeFromItsSecondInput) {
  Result<std::vector<EvalValue>> out =
      runText(R"(
    <ir_version: 10, opset_import: ["" : 21]>
    g (float[3] x, int32[1] like) => (int32[3] y) { y = CastLike (x, like) })",
              {{"x", tensorOf<float>(ElementType::kFloat, {3}, {-1.9f, 2.5f, 0.0f})},
               {"like", tensorOf<int32_t>(ElementType::kInt32, {1}, {0})}});
  ASSERT_TRUE(out) << out.status().toString();
  EXPECT_EQ(valuesOf<int32_t>((*out)[0]), (std::vector<int32_t>{-1, 2, 0}));
}

TEST(CastKernel, AnEmptyTensorCastsToAnEmptyTensor) {
  Result<std::vector<EvalValue>> out =
      runText(R"(
    <ir_version: 10, opset_import: ["" : 21]>
    g (float[0,3] x) => (string[0,3] y) { y = Cast <to = 8> (x) })",
              {{"x", tensorOf<float>(ElementType::kFloat, {0, 3}, {})}});
  ASSERT_TRUE(out) << out.status().toString();
  EXPECT_EQ((*out)[0].tensor.shape(), (std::vector<int64_t>{0, 3}));
  EXPECT_EQ((*out)[0].tensor.type(), ElementType::kString);
}

// ---- BitCast, Size ------------------------------------------------------------------------

TEST(CastKernel, Int32ToFloatRoundsToNearestEven) {
  // Above 2^24 floats are 2 apart: 2^24 + 1 and 2^24 + 3 are ties (to 2^24 and 2^24 + 4), as a
  // quantized net's int32 sums cast to float round.
  Result<std::vector<EvalValue>> out =
      runText(R"(
    <ir_version: 10, opset_import: ["" : 21]>
    g (int32[5] x) => (float[5] y) { y = Cast <to = 1> (x) })",
              {{"x", tensorOf<int32_t>(ElementType::kInt32, {5},
                                       {16777217, 16777219, -16777219, 2147483647, 123})}});
  ASSERT_TRUE(out) << out.status().toString();
  EXPECT_EQ(valuesOf<float>((*out)[0]),
            (std::vector<float>{16777216.0f, 16777220.0f, -16777220.0f, 2147483648.0f, 123.0f}));
}

TEST(BitCastKernel, ReinterpretsBitsIncludingSubByteCodes) {
  Result<std::vector<EvalValue>> out =
      runText(R"(
    <ir_version: 10, opset_import: ["" : 26]>
    g (float[1] x, int4[2] s) => (int32[1] y, uint4[2] u) {
      y = BitCast <to = 6> (x)
      u = BitCast <to = 21> (s)
    })",
              {{"x", tensorOf<float>(ElementType::kFloat, {1}, {1.0f})},
               {"s", tensorOf<int8_t>(ElementType::kInt4, {2}, {-1, 7})}});
  ASSERT_TRUE(out) << out.status().toString();
  EXPECT_EQ(valuesOf<int32_t>((*out)[0]), (std::vector<int32_t>{0x3F800000}));
  EXPECT_EQ(valuesOf<uint8_t>((*out)[1]), (std::vector<uint8_t>{15, 7}));
}

TEST(SizeKernel, CountsElementsOfAnEmptyTensor) {
  Result<std::vector<EvalValue>> out =
      runText(R"(
    <ir_version: 10, opset_import: ["" : 21]>
    g (float[2,0,3] x) => (int64 n) { n = Size (x) })",
              {{"x", tensorOf<float>(ElementType::kFloat, {2, 0, 3}, {})}});
  ASSERT_TRUE(out) << out.status().toString();
  EXPECT_EQ(valuesOf<int64_t>((*out)[0]), (std::vector<int64_t>{0}));
}

// ---- Constant, ConstantOfShape, EyeLike, Range -------------------------------------------

TEST(ConstantKernel, ListAttributeForms) {
  Result<std::vector<EvalValue>> out = runText(R"(
    <ir_version: 10, opset_import: ["" : 21]>
    g () => (float[2] f, int64[3] i, string[2] s, int64 one) {
      f = Constant <value_floats = [1.5, -2.0]> ()
      i = Constant <value_ints = [4, 5, 6]> ()
      s = Constant <value_strings = ["a", "bc"]> ()
      one = Constant <value_int = 9> ()
    })",
                                               {});
  ASSERT_TRUE(out) << out.status().toString();
  EXPECT_EQ(valuesOf<float>((*out)[0]), (std::vector<float>{1.5f, -2.0f}));
  EXPECT_EQ(valuesOf<int64_t>((*out)[1]), (std::vector<int64_t>{4, 5, 6}));
  EXPECT_EQ(textsOf((*out)[2]), (std::vector<std::string>{"a", "bc"}));
  EXPECT_EQ((*out)[3].tensor.rank(), 0u);
  EXPECT_EQ(valuesOf<int64_t>((*out)[3]), (std::vector<int64_t>{9}));
}

TEST(ConstantOfShapeKernel, FillsAndRefusesANegativeDimension) {
  const char* model = R"(
    <ir_version: 10, opset_import: ["" : 21]>
    g (int64[2] shape) => (int32[?,?] y) { y = ConstantOfShape <value = int32[1] {7}> (shape) })";
  Result<std::vector<EvalValue>> out =
      runText(model, {{"shape", tensorOf<int64_t>(ElementType::kInt64, {2}, {2, 3})}});
  ASSERT_TRUE(out) << out.status().toString();
  EXPECT_EQ(valuesOf<int32_t>((*out)[0]), (std::vector<int32_t>(6, 7)));
  Result<std::vector<EvalValue>> bad =
      runText(model, {{"shape", tensorOf<int64_t>(ElementType::kInt64, {2}, {2, -1})}});
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.status().message().find("negative"), std::string::npos) << bad.status().toString();
}

TEST(EyeLikeKernel, OffsetDiagonalAndOneBeyondTheMatrix) {
  Result<std::vector<EvalValue>> out =
      runText(R"(
    <ir_version: 10, opset_import: ["" : 21]>
    g (float[2,3] x) => (int32[2,3] y, float[2,3] z) {
      y = EyeLike <k = 1, dtype = 6> (x)
      z = EyeLike <k = -100> (x)
    })",
              {{"x", tensorOf<float>(ElementType::kFloat, {2, 3}, {0, 0, 0, 0, 0, 0})}});
  ASSERT_TRUE(out) << out.status().toString();
  EXPECT_EQ(valuesOf<int32_t>((*out)[0]), (std::vector<int32_t>{0, 1, 0, 0, 0, 1}));
  EXPECT_EQ(valuesOf<float>((*out)[1]), (std::vector<float>(6, 0.0f)));
}

TEST(RangeKernel, CountsCeilingAndRefusesAZeroDelta) {
  const char* model = R"(
    <ir_version: 10, opset_import: ["" : 21]>
    g (int64 a, int64 b, int64 d) => (int64[?] y) { y = Range (a, b, d) })";
  auto scalar = [](int64_t v) { return tensorOf<int64_t>(ElementType::kInt64, {}, {v}); };
  Result<std::vector<EvalValue>> out =
      runText(model, {{"a", scalar(10)}, {"b", scalar(3)}, {"d", scalar(-3)}});
  ASSERT_TRUE(out) << out.status().toString();
  EXPECT_EQ(valuesOf<int64_t>((*out)[0]), (std::vector<int64_t>{10, 7, 4}));
  Result<std::vector<EvalValue>> bad =
      runText(model, {{"a", scalar(1)}, {"b", scalar(3)}, {"d", scalar(0)}});
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.status().message().find("delta"), std::string::npos) << bad.status().toString();
}

// ---- Quantization ------------------------------------------------------------------------

TEST(QuantizeLinearKernel, PerAxisRoundsHalfToEvenAndSaturates) {
  Result<std::vector<EvalValue>> out = runText(
      R"(
    <ir_version: 10, opset_import: ["" : 21]>
    g (float[2,3] x, float[2] s, int8[2] z) => (int8[2,3] y) {
      y = QuantizeLinear <axis = 0> (x, s, z)
    })",
      {{"x",
        tensorOf<float>(ElementType::kFloat, {2, 3}, {0.5f, 1.5f, 1000.0f, 2.0f, -2.0f, 5.0f})},
       {"s", tensorOf<float>(ElementType::kFloat, {2}, {1.0f, 2.0f})},
       {"z", tensorOf<int8_t>(ElementType::kInt8, {2}, {0, 10})}});
  ASSERT_TRUE(out) << out.status().toString();
  // Row 1: 2/2 + 10 = 11, -2/2 + 10 = 9, 5/2 = 2.5 -> 2, + 10 = 12.
  EXPECT_EQ(valuesOf<int8_t>((*out)[0]), (std::vector<int8_t>{0, 2, 127, 11, 9, 12}));
}

TEST(QuantizeLinearKernel, BlockedScalesAndInt4Output) {
  Result<std::vector<EvalValue>> out =
      runText(R"(
    <ir_version: 10, opset_import: ["" : 21]>
    g (float[1,5] x, float[1,3] s, int4[1,3] z) => (int4[1,5] y) {
      y = QuantizeLinear <axis = 1, block_size = 2> (x, s, z)
    })",
              {{"x", tensorOf<float>(ElementType::kFloat, {1, 5}, {2, 4, 30, -30, 3})},
               {"s", tensorOf<float>(ElementType::kFloat, {1, 3}, {1, 2, 3})},
               {"z", tensorOf<int8_t>(ElementType::kInt4, {1, 3}, {0, 1, -1})}});
  ASSERT_TRUE(out) << out.status().toString();
  // Blocks {2, 4} / 1, {30, -30} / 2 + 1 (clamped to [-8, 7]), {3} / 3 - 1.
  EXPECT_EQ(valuesOf<int8_t>((*out)[0]), (std::vector<int8_t>{2, 4, 7, -8, 0}));
}

TEST(QuantizeLinearKernel, AScaleThatFitsNoAxisIsAnError) {
  Result<std::vector<EvalValue>> out =
      runText(R"(
    <ir_version: 10, opset_import: ["" : 21]>
    g (float[2,3] x, float[4] s) => (uint8[2,3] y) { y = QuantizeLinear (x, s) })",
              {{"x", tensorOf<float>(ElementType::kFloat, {2, 3}, {1, 2, 3, 4, 5, 6})},
               {"s", tensorOf<float>(ElementType::kFloat, {4}, {1, 1, 1, 1})}});
  ASSERT_FALSE(out);
}

TEST(DequantizeLinearKernel, Int4WithZeroPointPerAxis) {
  Result<std::vector<EvalValue>> out =
      runText(R"(
    <ir_version: 10, opset_import: ["" : 21]>
    g (int4[2,2] x, float[2] s, int4[2] z) => (float[2,2] y) {
      y = DequantizeLinear <axis = 1> (x, s, z)
    })",
              {{"x", tensorOf<int8_t>(ElementType::kInt4, {2, 2}, {-8, 7, 0, 1})},
               {"s", tensorOf<float>(ElementType::kFloat, {2}, {0.5f, 2.0f})},
               {"z", tensorOf<int8_t>(ElementType::kInt4, {2}, {0, -1})}});
  ASSERT_TRUE(out) << out.status().toString();
  EXPECT_EQ(valuesOf<float>((*out)[0]), (std::vector<float>{-4.0f, 16.0f, 0.0f, 4.0f}));
}

TEST(DynamicQuantizeLinearKernel, RangeIncludesZero) {
  Result<std::vector<EvalValue>> out =
      runText(R"(
    <ir_version: 10, opset_import: ["" : 21]>
    g (float[3] x) => (uint8[3] y, float s, uint8 z) { y, s, z = DynamicQuantizeLinear (x) })",
              {{"x", tensorOf<float>(ElementType::kFloat, {3}, {1.0f, 2.0f, 2.55f})}});
  ASSERT_TRUE(out) << out.status().toString();
  // min is clamped to 0: scale 2.55 / 255 = 0.01, zero point 0.
  EXPECT_FLOAT_EQ(valuesOf<float>((*out)[1])[0], 2.55f / 255.0f);
  EXPECT_EQ(valuesOf<uint8_t>((*out)[2]), (std::vector<uint8_t>{0}));
  EXPECT_EQ(valuesOf<uint8_t>((*out)[0]), (std::vector<uint8_t>{100, 200, 255}));
}

// The model a DynamicQuantizeLinear node alone makes; x's length is the only parameter.
std::string dynamicQuantizeModel(size_t length) {
  std::string n = std::to_string(length);
  return R"(
    <ir_version: 10, opset_import: ["" : 21]>
    g (float[)" +
         n + "] x) => (uint8[" + n + R"(] y, float s, uint8 z) {
      y, s, z = DynamicQuantizeLinear (x)
    })";
}

TEST(DynamicQuantizeLinearKernel, TiesRoundToEvenBeforeTheZeroPointIsAdded) {
  // Range [-127, 128]: scale 1, zero point 127. The spec rounds x / scale (half to even), then
  // adds the zero point: 0.5 -> 0 + 127, where rounding x / scale + zero point would give 128
  // and rounding half away from zero 1 + 127.
  std::vector<float> x = {-127, 128, 0.5f, 1.5f, 2.5f, -0.5f, -1.5f, -2.5f};
  Result<std::vector<EvalValue>> out =
      runText(dynamicQuantizeModel(x.size()),
              {{"x", tensorOf<float>(ElementType::kFloat, {int64_t(x.size())}, x)}});
  ASSERT_TRUE(out) << out.status().toString();
  EXPECT_EQ(valuesOf<float>((*out)[1]), (std::vector<float>{1.0f}));
  EXPECT_EQ(valuesOf<uint8_t>((*out)[2]), (std::vector<uint8_t>{127}));
  EXPECT_EQ(valuesOf<uint8_t>((*out)[0]),
            (std::vector<uint8_t>{0, 255, 127, 129, 129, 127, 125, 125}));
}

TEST(DynamicQuantizeLinearKernel, ZeroPointRoundsHalfToEvenAndTheTopSaturates) {
  // Range [-128.5, 126.5]: scale 1, zero point 128.5 -> 128 (away from zero: 129).
  Result<std::vector<EvalValue>> even =
      runText(dynamicQuantizeModel(3),
              {{"x", tensorOf<float>(ElementType::kFloat, {3}, {-128.5f, 126.5f, 0})}});
  ASSERT_TRUE(even) << even.status().toString();
  EXPECT_EQ(valuesOf<uint8_t>((*even)[2]), (std::vector<uint8_t>{128}));
  EXPECT_EQ(valuesOf<uint8_t>((*even)[0]), (std::vector<uint8_t>{0, 254, 128}));
  // Range [-1.5, 253.5]: zero point 1.5 -> 2, so the top, 254 + 2, saturates at 255.
  Result<std::vector<EvalValue>> top =
      runText(dynamicQuantizeModel(3),
              {{"x", tensorOf<float>(ElementType::kFloat, {3}, {-1.5f, 253.5f, 252.5f})}});
  ASSERT_TRUE(top) << top.status().toString();
  EXPECT_EQ(valuesOf<uint8_t>((*top)[2]), (std::vector<uint8_t>{2}));
  EXPECT_EQ(valuesOf<uint8_t>((*top)[0]), (std::vector<uint8_t>{0, 255, 254}));
}

TEST(DynamicQuantizeLinearKernel, NegativeOnlyAndAllZeroRanges) {
  // Only negatives: the range is [min, 0], the zero point 255.
  Result<std::vector<EvalValue>> negative = runText(
      dynamicQuantizeModel(2), {{"x", tensorOf<float>(ElementType::kFloat, {2}, {-25.5f, -10})}});
  ASSERT_TRUE(negative) << negative.status().toString();
  EXPECT_EQ(valuesOf<float>((*negative)[1]), (std::vector<float>{25.5f / 255.0f}));
  EXPECT_EQ(valuesOf<uint8_t>((*negative)[2]), (std::vector<uint8_t>{255}));
  EXPECT_EQ(valuesOf<uint8_t>((*negative)[0]), (std::vector<uint8_t>{0, 155}));
  // All zero: the spec's formula divides 0 by 0; onnx's reference takes the range as 1, so the
  // scale is 1 / 255 (onnxruntime gives 1, docs/eval.md), the zero point and y 0.
  Result<std::vector<EvalValue>> zero =
      runText(dynamicQuantizeModel(2), {{"x", tensorOf<float>(ElementType::kFloat, {2}, {0, 0})}});
  ASSERT_TRUE(zero) << zero.status().toString();
  EXPECT_EQ(valuesOf<float>((*zero)[1]), (std::vector<float>{1.0f / 255.0f}));
  EXPECT_EQ(valuesOf<uint8_t>((*zero)[2]), (std::vector<uint8_t>{0}));
  EXPECT_EQ(valuesOf<uint8_t>((*zero)[0]), (std::vector<uint8_t>{0, 0}));
}

TEST(MatMulIntegerKernel, PerRowZeroPointAndBroadcastBatch) {
  Result<std::vector<EvalValue>> out =
      runText(R"(
    <ir_version: 10, opset_import: ["" : 21]>
    g (uint8[2,2] a, uint8[2,2,1] b, uint8[2] az) => (int32[2,2,1] y) {
      y = MatMulInteger (a, b, az)
    })",
              {{"a", tensorOf<uint8_t>(ElementType::kUint8, {2, 2}, {1, 2, 3, 4})},
               {"b", tensorOf<uint8_t>(ElementType::kUint8, {2, 2, 1}, {1, 1, 2, 0})},
               {"az", tensorOf<uint8_t>(ElementType::kUint8, {2}, {1, 3})}});
  ASSERT_TRUE(out) << out.status().toString();
  // a - az per row = [[0, 1], [0, 1]]; batch 0: b = [1, 1] -> [1, 1]; batch 1: b = [2, 0] -> [0,
  // 0].
  EXPECT_EQ(valuesOf<int32_t>((*out)[0]), (std::vector<int32_t>{1, 1, 0, 0}));
}

TEST(MatMulIntegerKernel, MismatchedInnerDimensionsAreAnError) {
  Result<std::vector<EvalValue>> out =
      runText(R"(
    <ir_version: 10, opset_import: ["" : 21]>
    g (uint8[?,?] a, uint8[?,?] b) => (int32[?,?] y) { y = MatMulInteger (a, b) })",
              {{"a", tensorOf<uint8_t>(ElementType::kUint8, {1, 2}, {1, 2})},
               {"b", tensorOf<uint8_t>(ElementType::kUint8, {3, 1}, {1, 1, 1})}});
  ASSERT_FALSE(out);
  EXPECT_NE(out.status().message().find("inner"), std::string::npos) << out.status().toString();
}

TEST(MatMulIntegerKernel, NdZeroPointsPerRowAndPerColumnOfEachBatch) {
  // The spec's N-D forms: a_zero_point [D, M, 1], b_zero_point [D, 1, N].
  // Batch 0: A - az = [[0, 1], [0, 2]], B - bz = [[0, 0], [2, 2]].
  // Batch 1: A - az = [[0, 1], [0, 1]], B - bz = [[0, 1], [1, 5]].
  const char* model = R"(
    <ir_version: 10, opset_import: ["" : 21]>
    g (uint8[2,2,2] a, uint8[2,2,2] b, uint8[2,2,%d] az, uint8[2,1,2] bz) => (int32[2,2,2] y) {
      y = MatMulInteger (a, b, az, bz)
    })";
  auto run = [&](int a_zero_columns, std::vector<uint8_t> a_zero) {
    char text[512];
    std::snprintf(text, sizeof text, model, a_zero_columns);
    return runText(
        text, {{"a", tensorOf<uint8_t>(ElementType::kUint8, {2, 2, 2}, {1, 2, 3, 5, 5, 6, 7, 8})},
               {"b", tensorOf<uint8_t>(ElementType::kUint8, {2, 2, 2}, {1, 2, 3, 4, 5, 5, 6, 9})},
               {"az", tensorOf<uint8_t>(ElementType::kUint8, {2, 2, a_zero_columns}, a_zero)},
               {"bz", tensorOf<uint8_t>(ElementType::kUint8, {2, 1, 2}, {1, 2, 5, 4})}});
  };
  Result<std::vector<EvalValue>> out = run(1, {1, 3, 5, 7});
  ASSERT_TRUE(out) << out.status().toString();
  EXPECT_EQ(valuesOf<int32_t>((*out)[0]), (std::vector<int32_t>{2, 2, 4, 4, 1, 5, 1, 5}));
  // A zero point with K columns is neither per tensor nor per row.
  Result<std::vector<EvalValue>> bad = run(2, {1, 1, 3, 3, 5, 5, 7, 7});
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.status().message().find("a_zero_point of shape [2, 2, 2]"), std::string::npos)
      << bad.status().toString();
}

TEST(MatMulIntegerKernel, TheAccumulatorWrapsAt32Bits) {
  // 33026 products of 255 * 255 sum to 2147515650, past INT32_MAX: the spec lets the 32-bit
  // accumulation overflow, which leaves 2147515650 - 2^32.
  std::vector<uint8_t> ones(33026, 255);
  Result<std::vector<EvalValue>> out =
      runText(R"(
    <ir_version: 10, opset_import: ["" : 21]>
    g (uint8[1,33026] a, uint8[33026,1] b) => (int32[1,1] y) { y = MatMulInteger (a, b) })",
              {{"a", tensorOf<uint8_t>(ElementType::kUint8, {1, 33026}, ones)},
               {"b", tensorOf<uint8_t>(ElementType::kUint8, {33026, 1}, ones)}});
  ASSERT_TRUE(out) << out.status().toString();
  EXPECT_EQ(valuesOf<int32_t>((*out)[0]), (std::vector<int32_t>{-2147451646}));
}

TEST(QLinearMatMulKernel, NdScalesAndZeroPointsPerRow) {
  // a_scale and a_zero_point [2, 1, 1]: batch 0 (1 + 2) * 1 = 3, batch 1 (2 + 3) * 2 = 10.
  Result<std::vector<EvalValue>> out =
      runText(R"(
    <ir_version: 10, opset_import: ["" : 21]>
    g (uint8[2,1,2] a, float[2,1,1] as, uint8[2,1,1] az, uint8[2,1] b, float bs, uint8 bz,
       float ys, uint8 yz) => (uint8[2,1,1] y) {
      y = QLinearMatMul (a, as, az, b, bs, bz, ys, yz)
    })",
              {{"a", tensorOf<uint8_t>(ElementType::kUint8, {2, 1, 2}, {1, 2, 3, 4})},
               {"as", tensorOf<float>(ElementType::kFloat, {2, 1, 1}, {1, 2})},
               {"az", tensorOf<uint8_t>(ElementType::kUint8, {2, 1, 1}, {0, 1})},
               {"b", tensorOf<uint8_t>(ElementType::kUint8, {2, 1}, {1, 1})},
               {"bs", tensorOf<float>(ElementType::kFloat, {}, {1})},
               {"bz", tensorOf<uint8_t>(ElementType::kUint8, {}, {0})},
               {"ys", tensorOf<float>(ElementType::kFloat, {}, {1})},
               {"yz", tensorOf<uint8_t>(ElementType::kUint8, {}, {0})}});
  ASSERT_TRUE(out) << out.status().toString();
  EXPECT_EQ(valuesOf<uint8_t>((*out)[0]), (std::vector<uint8_t>{3, 10}));
}

// ---- Dropout and the random operators -----------------------------------------------------

TEST(DropoutKernel, InferenceCopiesAndTrainingScalesKeptElements) {
  const char* model = R"(
    <ir_version: 10, opset_import: ["" : 21]>
    g (float[64] x, float r, bool t) => (float[64] y, bool[64] m) {
      y, m = Dropout <seed = 3> (x, r, t)
    })";
  std::vector<float> ones(64, 1.0f);
  auto run = [&](bool training) {
    return runText(model, {{"x", tensorOf<float>(ElementType::kFloat, {64}, ones)},
                           {"r", tensorOf<float>(ElementType::kFloat, {}, {0.5f})},
                           {"t", tensorOf<bool>(ElementType::kBool, {}, {training})}});
  };
  Result<std::vector<EvalValue>> inference = run(false);
  ASSERT_TRUE(inference) << inference.status().toString();
  EXPECT_EQ(valuesOf<float>((*inference)[0]), ones);
  EXPECT_EQ(valuesOf<bool>((*inference)[1]), std::vector<bool>(64, true));
  Result<std::vector<EvalValue>> training = run(true);
  ASSERT_TRUE(training) << training.status().toString();
  std::vector<float> y = valuesOf<float>((*training)[0]);
  std::vector<bool> mask = valuesOf<bool>((*training)[1]);
  size_t kept = 0;
  for (size_t i = 0; i < y.size(); ++i) {
    EXPECT_EQ(y[i], mask[i] ? 2.0f : 0.0f);
    kept += mask[i] ? 1 : 0;
  }
  EXPECT_GT(kept, 10u);
  EXPECT_LT(kept, 54u);
  Result<std::vector<EvalValue>> again = run(true);
  ASSERT_TRUE(again);
  EXPECT_EQ(valuesOf<bool>((*again)[1]), mask);  // the same seed, the same mask
}

TEST(RandomKernels, SeededUniformIsInRangeAndRepeatable) {
  const char* model = R"(
    <ir_version: 10, opset_import: ["" : 21]>
    g () => (double[100] y) { y = RandomUniform <shape = [100], low = 2.0, high = 3.0, dtype = 11, seed = 5.0> () })";
  Result<std::vector<EvalValue>> out = runText(model, {});
  ASSERT_TRUE(out) << out.status().toString();
  std::vector<double> y = valuesOf<double>((*out)[0]);
  ASSERT_EQ(y.size(), 100u);
  for (double v : y) {
    EXPECT_GE(v, 2.0);
    EXPECT_LT(v, 3.0);
  }
  Result<std::vector<EvalValue>> again = runText(model, {});
  ASSERT_TRUE(again);
  EXPECT_EQ(valuesOf<double>((*again)[0]), y);
}

TEST(RandomKernels, MultinomialNeverDrawsAClassOfProbabilityZero) {
  Result<std::vector<EvalValue>> out = runText(
      R"(
    <ir_version: 10, opset_import: ["" : 21]>
    g (float[2,3] logits) => (int64[2,5] m) { m = Multinomial <sample_size = 5, dtype = 7> (logits) })",
      {{"logits", tensorOf<float>(ElementType::kFloat, {2, 3},
                                  {-INFINITY, 0.0f, -INFINITY, 0.0f, -INFINITY, -INFINITY})}});
  ASSERT_TRUE(out) << out.status().toString();
  EXPECT_EQ(valuesOf<int64_t>((*out)[0]), (std::vector<int64_t>{1, 1, 1, 1, 1, 0, 0, 0, 0, 0}));
}

TEST(RandomKernels, ASeededNodeDrawsNumpysRandomStateNumbers) {
  // numpy.random.RandomState(0).rand(3) = [0.5488135039273248, 0.7151893663724195,
  // 0.6027633760716439], the numbers onnx's reference draws for seed 0.
  Result<std::vector<EvalValue>> out = runText(R"(
    <ir_version: 10, opset_import: ["" : 21]>
    g () => (double[3] y) { y = RandomUniform <shape = [3], dtype = 11, seed = 0.0> () })",
                                               {});
  ASSERT_TRUE(out) << out.status().toString();
  EXPECT_EQ(valuesOf<double>((*out)[0]),
            (std::vector<double>{0.5488135039273248, 0.7151893663724195, 0.6027633760716439}));
}

}  // namespace
}  // namespace onyx
