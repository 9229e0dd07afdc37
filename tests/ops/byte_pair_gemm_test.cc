// The exact byte-pair product of the integer convolutions and matrix products: against sums
// in int64 wrapped to 32 bits, at the edges of its blocking, with zero points at the limits of
// their types, with sums past 2^31 and 2^32; the AVX2 and the portable path give the same
// bits, and so does any split of the rows or the columns.
#include "ops/nn/byte_pair_gemm.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "onyx/core/cpu_tier.h"

namespace onyx::ops::nn {
namespace {

// A matrix of bytes less a zero point, as the operators widen them: uint8 or int8 elements
// with a zero point of the same type, one per row (for A) or per column (for B).
struct Operand {
  size_t rows = 0, columns = 0, stride = 0;
  std::vector<int16_t> values;  // rows x stride, the part past `columns` never read

  int16_t at(size_t r, size_t c) const { return values[r * stride + c]; }
};

enum class Side { kRows, kColumns };

Operand randomOperand(std::mt19937& random, size_t rows, size_t columns, size_t padding,
                      bool is_signed, Side zero_side) {
  Operand out;
  out.rows = rows;
  out.columns = columns;
  out.stride = columns + padding;
  out.values.assign(rows * out.stride, int16_t{12345});  // the padding: never read
  const int low = is_signed ? -128 : 0, high = is_signed ? 127 : 255;
  std::uniform_int_distribution<int> byte(low, high);
  // Zero points mostly at the limits of the type.
  std::uniform_int_distribution<int> pick(0, 3);
  auto zero_point = [&] {
    switch (pick(random)) {
      case 0: return low;
      case 1: return high;
      case 2: return 0;
      default: return byte(random);
    }
  };
  std::vector<int> zeros(zero_side == Side::kRows ? rows : columns);
  for (int& z : zeros) z = zero_point();
  for (size_t r = 0; r < rows; ++r) {
    for (size_t c = 0; c < columns; ++c) {
      int zero = zeros[zero_side == Side::kRows ? r : c];
      out.values[r * out.stride + c] = static_cast<int16_t>(byte(random) - zero);
    }
  }
  return out;
}

// Sums in int64, wrapped to int32 at the end: the spec's int32 accumulator.
std::vector<int32_t> reference(const Operand& a, const Operand& b) {
  std::vector<int32_t> c(a.rows * b.columns);
  for (size_t i = 0; i < a.rows; ++i) {
    for (size_t j = 0; j < b.columns; ++j) {
      int64_t sum = 0;
      for (size_t k = 0; k < a.columns; ++k) sum += int64_t{a.at(i, k)} * b.at(k, j);
      c[i * b.columns + j] = static_cast<int32_t>(static_cast<uint32_t>(sum));
    }
  }
  return c;
}

// bytePairGemm of a and b into a C with `padding` extra columns per row; the padding must
// stay untouched.
std::vector<int32_t> product(const Operand& a, const Operand& b, bool avx2, size_t padding = 3) {
  BytePairLeft packed(a.rows, a.columns, a.values.data(), a.stride);
  const size_t ldc = b.columns + padding;
  std::vector<int32_t> c(a.rows * ldc, -7);
  bytePairGemm(packed, b.columns, b.values.data(), b.stride, c.data(), ldc, avx2);
  std::vector<int32_t> out(a.rows * b.columns);
  for (size_t i = 0; i < a.rows; ++i) {
    for (size_t j = 0; j < ldc; ++j) {
      if (j < b.columns) {
        out[i * b.columns + j] = c[i * ldc + j];
      } else {
        EXPECT_EQ(c[i * ldc + j], -7) << "C's padding was written at row " << i;
      }
    }
  }
  return out;
}

bool haveAvx2() { return detectedCpuTier() >= CpuTier::kAvx2; }

struct Shape {
  size_t m, n, k;
};

std::vector<Shape> shapes() {
  // Edges of the blocking: 6 rows a panel, 16 columns a panel, 128 columns and at most 768
  // depth (384 pairs) a block; odd depths.
  std::vector<Shape> out = {{1, 1, 1},     {1, 1, 2},     {1, 16, 1},    {6, 16, 2},
                            {7, 17, 3},    {5, 15, 511},  {6, 32, 512},  {13, 33, 513},
                            {12, 48, 767}, {2, 3, 768},   {5, 129, 769}, {7, 257, 1537},
                            {64, 40, 576}, {3, 7, 2999},  {1, 100, 9},   {11, 1, 31},
                            {4, 250, 64},  {6, 128, 770}, {1, 143, 1}};
  std::mt19937 random(7);
  std::uniform_int_distribution<size_t> small(1, 40), deep(1, 3000);
  for (int i = 0; i < 40; ++i) out.push_back({small(random), small(random), small(random)});
  for (int i = 0; i < 10; ++i) out.push_back({small(random), small(random), deep(random)});
  return out;
}

std::string describe(const Shape& s, bool a_signed, bool b_signed) {
  return "m=" + std::to_string(s.m) + " n=" + std::to_string(s.n) + " k=" + std::to_string(s.k) +
         (a_signed ? " int8" : " uint8") + (b_signed ? " x int8" : " x uint8");
}

void checkAgainstReference(bool avx2) {
  std::mt19937 random(42);
  for (const Shape& s : shapes()) {
    for (int types = 0; types < 4; ++types) {
      const bool a_signed = (types & 1) != 0, b_signed = (types & 2) != 0;
      Operand a = randomOperand(random, s.m, s.k, s.k % 3, a_signed, Side::kRows);
      Operand b = randomOperand(random, s.k, s.n, s.n % 5, b_signed, Side::kColumns);
      ASSERT_EQ(product(a, b, avx2), reference(a, b)) << describe(s, a_signed, b_signed);
    }
  }
}

TEST(BytePairGemm, PortablePathMatchesWrappedInt64Sums) { checkAgainstReference(false); }

TEST(BytePairGemm, Avx2PathMatchesWrappedInt64Sums) {
  if (!haveAvx2()) GTEST_SKIP() << "this CPU has no AVX2: only the portable path is tested";
  checkAgainstReference(true);
}

TEST(BytePairGemm, Avx2AndPortablePathsGiveTheSameBits) {
  if (!haveAvx2()) GTEST_SKIP() << "this CPU has no AVX2: there is one path only";
  std::mt19937 random(3);
  std::uniform_int_distribution<size_t> size(1, 70), deep(1, 1500);
  for (int i = 0; i < 30; ++i) {
    Shape s{size(random), size(random), deep(random)};
    Operand a = randomOperand(random, s.m, s.k, 1, (i & 1) != 0, Side::kRows);
    Operand b = randomOperand(random, s.k, s.n, 2, (i & 2) != 0, Side::kColumns);
    ASSERT_EQ(product(a, b, true), product(a, b, false)) << describe(s, (i & 1), (i & 2));
  }
}

// Every product is 255 * 255 (or -255 * 255): the true sums pass 2^31 and then 2^32, where
// the int32 accumulator wraps.
TEST(BytePairGemm, SumsWrapPast2To31And2To32) {
  for (size_t k : {size_t{33027}, size_t{40001}, size_t{66053}}) {
    for (int sign : {1, -1}) {
      Operand a{3, k, k, std::vector<int16_t>(3 * k, 255)};
      // uint8 255 less zero point 0, or int8 -128 less zero point 127.
      Operand b{k, 17, 17, std::vector<int16_t>(k * 17, static_cast<int16_t>(sign * 255))};
      std::vector<int32_t> expected = reference(a, b);
      const int64_t exact = sign * int64_t{255} * 255 * static_cast<int64_t>(k);
      ASSERT_EQ(expected[0], static_cast<int32_t>(static_cast<uint32_t>(exact)));
      if (sign > 0) {
        ASSERT_GT(exact, int64_t{1} << 31);
      }
      EXPECT_EQ(product(a, b, false), expected) << "k=" << k;
      if (haveAvx2()) {
        EXPECT_EQ(product(a, b, true), expected) << "k=" << k;
      }
    }
  }
}

// Work split between threads: any split of the columns, or of the rows packed apart, gives
// the bits of the whole.
TEST(BytePairGemm, SplitsGiveTheBitsOfTheWhole) {
  std::mt19937 random(11);
  Operand a = randomOperand(random, 29, 1031, 0, false, Side::kRows);
  Operand b = randomOperand(random, 1031, 77, 0, true, Side::kColumns);
  for (bool avx2 : {false, true}) {
    if (avx2 && !haveAvx2()) continue;
    std::vector<int32_t> whole = product(a, b, avx2);
    std::vector<int32_t> split(whole.size(), 0);
    const size_t row_cuts[] = {0, 5, 6, 19, 29};
    const size_t column_cuts[] = {0, 1, 16, 30, 77};
    for (size_t ri = 0; ri + 1 < std::size(row_cuts); ++ri) {
      const size_t r0 = row_cuts[ri], r1 = row_cuts[ri + 1];
      BytePairLeft rows(r1 - r0, a.columns, a.values.data() + r0 * a.stride, a.stride);
      for (size_t ci = 0; ci + 1 < std::size(column_cuts); ++ci) {
        const size_t c0 = column_cuts[ci], c1 = column_cuts[ci + 1];
        bytePairGemm(rows, c1 - c0, b.values.data() + c0, b.stride, split.data() + r0 * 77 + c0, 77,
                     avx2);
      }
    }
    EXPECT_EQ(split, whole) << (avx2 ? "avx2" : "portable");
  }
}

TEST(BytePairGemm, NoDepthGivesZeros) {
  BytePairLeft empty(4, 0, nullptr, 0);
  std::vector<int32_t> c(4 * 9, 5);
  std::vector<int16_t> b;
  bytePairGemm(empty, 9, b.data(), 9, c.data(), 9, false);
  EXPECT_EQ(c, std::vector<int32_t>(4 * 9, 0));
  if (haveAvx2()) {
    std::fill(c.begin(), c.end(), 5);
    bytePairGemm(empty, 9, b.data(), 9, c.data(), 9, true);
    EXPECT_EQ(c, std::vector<int32_t>(4 * 9, 0));
  }
}

}  // namespace
}  // namespace onyx::ops::nn
