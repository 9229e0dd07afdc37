// differenceOf (onyx/eval/value_difference.h): how `onyx compare`, `onyx optimize --verify` and
// Python's onyx.compare measure two values.
#include "onyx/eval/value_difference.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "onyx/core/float_formats.h"
#include "support/eval_testing.h"

namespace onyx {
namespace {

using testing::tensorOf;

TEST(ValueDifference, ANaNAgainstANumberIsBeyondAnyTolerance) {
  const float nan = std::nanf("");
  EvalValue first = tensorOf<float>(ElementType::kFloat, {3}, {1, nan, 2});
  Difference against_number =
      differenceOf(first, tensorOf<float>(ElementType::kFloat, {3}, {1, 0, 2}), {1e-4, 1e-5});
  EXPECT_TRUE(against_number.beyond);
  EXPECT_TRUE(std::isinf(against_number.absolute));
  EXPECT_EQ(against_number.mismatch, "");
  Difference against_nan = differenceOf(first, first, {0, 0});
  EXPECT_FALSE(against_nan.beyond);
  EXPECT_EQ(against_nan.absolute, 0);
}

TEST(ValueDifference, RelativeToTheLargerMagnitudeWithAnAbsoluteFloor) {
  EvalValue first = tensorOf<float>(ElementType::kFloat, {2}, {4.0f, 1e-12f});
  EvalValue second = tensorOf<float>(ElementType::kFloat, {2}, {4.5f, 0.0f});
  Difference found = differenceOf(first, second, {0.2, 1e-7});
  EXPECT_EQ(found.absolute, 0.5);
  EXPECT_DOUBLE_EQ(found.relative, 1.0);  // 1e-12 against 0
  EXPECT_FALSE(found.beyond);             // 0.5 <= 0.2 * 4.5; 1e-12 <= the floor
  EXPECT_TRUE(differenceOf(first, second, {0.1, 1e-7}).beyond);
}

TEST(ValueDifference, TwoFloatFormatsByValueOtherTypesAndShapesNot) {
  EvalValue wide = tensorOf<float>(ElementType::kFloat, {2}, {1.5f, -2.0f});
  EvalValue half =
      tensorOf<uint16_t>(ElementType::kFloat16, {2}, {floatToFloat16(1.5f), floatToFloat16(-2.0f)});
  EXPECT_FALSE(differenceOf(wide, half, {0, 0}).beyond);
  EXPECT_EQ(differenceOf(wide, half, {0, 0}).mismatch, "");
  EXPECT_NE(
      differenceOf(wide, tensorOf<int32_t>(ElementType::kInt32, {2}, {1, -2}), {1, 1}).mismatch,
      "");
  EXPECT_NE(differenceOf(wide, tensorOf<float>(ElementType::kFloat, {1}, {1.5f}), {1, 1}).mismatch,
            "");
}

}  // namespace
}  // namespace onyx
