#include "onyx/core/symbolic_dims.h"

#include <gtest/gtest.h>

namespace onyx {
namespace {

TEST(SymbolicDims, SameNameSameSymbolAndFreshSymbolsDiffer) {
  SymbolicDims dims;
  EXPECT_EQ(dims.symbol("N"), dims.symbol("N"));
  EXPECT_FALSE(dims.symbol("N") == dims.symbol("M"));
  EXPECT_FALSE(dims.fresh() == dims.fresh());
}

TEST(SymbolicDims, ArithmeticIsExactAndNormalised) {
  SymbolicDims dims;
  DimValue n = dims.symbol("N");
  DimValue s = dims.symbol("S");
  DimValue two = DimValue::known(2);
  EXPECT_EQ(dims.text(dims.add(n, DimValue::known(1))), "N+1");
  EXPECT_EQ(dims.add(n, n), dims.multiply(two, n));
  EXPECT_EQ(dims.text(dims.multiply(n, s)), "N*S");
  EXPECT_EQ(dims.multiply(n, s), dims.multiply(s, n));
  EXPECT_EQ(dims.subtract(dims.add(n, s), s), n);
  EXPECT_TRUE(dims.subtract(n, n).is(0));
  EXPECT_EQ(*dims.divideExact(dims.multiply(n, s), s), n);
  EXPECT_EQ(*dims.divideExact(dims.multiply(two, n), two), n);
  EXPECT_FALSE(dims.divideExact(n, two).has_value());
  EXPECT_EQ(dims.text(dims.subtract(DimValue::known(3), n)), "-N+3");
}

TEST(SymbolicDims, NumbersDivideWithFloorAndCeiling) {
  SymbolicDims dims;
  EXPECT_TRUE(dims.divideFloor(DimValue::known(-7), DimValue::known(2)).is(-4));
  EXPECT_TRUE(dims.divideCeil(DimValue::known(7), DimValue::known(2)).is(4));
  EXPECT_FALSE(dims.divideFloor(DimValue::known(7), DimValue::known(0)).isKnown());
  EXPECT_FALSE(dims.divideExact(DimValue::known(INT64_MIN), DimValue::known(-1)).has_value());
}

TEST(SymbolicDims, OverflowGivesAFreshSymbol) {
  SymbolicDims dims;
  DimValue big = DimValue::known(INT64_MAX);
  EXPECT_TRUE(dims.add(big, DimValue::known(1)).isSymbolic());
  EXPECT_TRUE(dims.multiply(dims.multiply(big, dims.symbol("N")), DimValue::known(2)).isSymbolic());
}

TEST(SymbolicDims, AnonymousSymbolsAreNamedOnlyWhenShown) {
  SymbolicDims dims;
  dims.symbol("unk__0");
  DimValue unknown = dims.fresh();
  EXPECT_TRUE(dims.isAnonymous(unknown));
  EXPECT_TRUE(dims.isAnonymous(dims.add(unknown, DimValue::known(1))));
  EXPECT_EQ(dims.text(unknown), "unk__1");  // unk__0 is a name in use
  EXPECT_EQ(dims.text(dims.symbol("a+b")), "(a+b)");
}

}  // namespace
}  // namespace onyx
