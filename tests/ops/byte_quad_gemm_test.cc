// The exact byte-quad product of the integer convolutions with VNNI: against sums of the bytes
// less their zero points in int64 wrapped to 32 bits, at the edges of its blocking (depths that
// are not multiples of four, panels and blocks cut short), with zero points at the limits of
// their types, with sums past 2^31 and 2^32; the VNNI and the portable path give the same bits,
// and so does any split of the rows or the columns.
#include "ops/nn/byte_quad_gemm.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "onyx/core/cpu_tier.h"

namespace onyx::ops::nn {
namespace {

// A: int8 weights with a zero point per row; B: uint8 bytes with one zero point.
struct Left {
  size_t rows = 0, depth = 0, stride = 0;
  std::vector<int8_t> values;  // rows x stride, the part past `depth` never read
  std::vector<int32_t> zeros;
};

struct Right {
  size_t depth = 0, columns = 0, stride = 0;
  std::vector<uint8_t> values;  // depth x stride
  int32_t zero = 0;
};

// Mostly the limits of [low, high].
int zeroPoint(std::mt19937& random, int low, int high) {
  std::uniform_int_distribution<int> pick(0, 3), any(low, high);
  switch (pick(random)) {
    case 0: return low;
    case 1: return high;
    case 2: return 0;
    default: return any(random);
  }
}

Left randomLeft(std::mt19937& random, size_t rows, size_t depth, size_t padding) {
  Left a{rows, depth, depth + padding, std::vector<int8_t>(rows * (depth + padding), 99), {}};
  std::uniform_int_distribution<int> byte(-128, 127);
  for (size_t r = 0; r < rows; ++r) {
    for (size_t k = 0; k < depth; ++k)
      a.values[r * a.stride + k] = static_cast<int8_t>(byte(random));
    a.zeros.push_back(zeroPoint(random, -128, 127));
  }
  return a;
}

Right randomRight(std::mt19937& random, size_t depth, size_t columns, size_t padding) {
  Right b{depth, columns, columns + padding, std::vector<uint8_t>(depth * (columns + padding), 77),
          zeroPoint(random, 0, 255)};
  std::uniform_int_distribution<int> byte(0, 255);
  for (size_t k = 0; k < depth; ++k) {
    for (size_t j = 0; j < columns; ++j)
      b.values[k * b.stride + j] = static_cast<uint8_t>(byte(random));
  }
  return b;
}

// Sums in int64, wrapped to int32 at the end: the spec's int32 accumulator.
std::vector<int32_t> reference(const Left& a, const Right& b) {
  std::vector<int32_t> c(a.rows * b.columns);
  for (size_t i = 0; i < a.rows; ++i) {
    for (size_t j = 0; j < b.columns; ++j) {
      int64_t sum = 0;
      for (size_t k = 0; k < a.depth; ++k) {
        sum += int64_t{a.values[i * a.stride + k] - a.zeros[i]} *
               (b.values[k * b.stride + j] - b.zero);
      }
      c[i * b.columns + j] = static_cast<int32_t>(static_cast<uint32_t>(sum));
    }
  }
  return c;
}

// byteQuadGemm of a and b into a C with `padding` extra columns per row, which must stay
// untouched.
std::vector<int32_t> product(const Left& a, const Right& b, bool vnni, size_t padding = 3) {
  ByteQuadLeft packed(a.rows, a.depth, a.values.data(), a.stride, a.zeros.data());
  const size_t ldc = b.columns + padding;
  std::vector<int32_t> c(a.rows * ldc, -7);
  byteQuadGemm(packed, b.columns, b.values.data(), b.stride, b.zero, c.data(), ldc, vnni);
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

bool haveVnni() { return detectedCpuTier() >= CpuTier::kAvx512Vnni; }

struct Shape {
  size_t m, n, k;
};

std::string describe(const Shape& s) {
  return "m=" + std::to_string(s.m) + " n=" + std::to_string(s.n) + " k=" + std::to_string(s.k);
}

std::vector<Shape> shapes() {
  // Edges of the blocking: 6 rows a panel, 32 columns a panel, 128 columns and at most 768
  // depth (192 quads) a block; depths of every remainder by four.
  std::vector<Shape> out = {{1, 1, 1},     {1, 1, 4},      {1, 32, 1},     {6, 32, 4},
                            {7, 33, 3},    {5, 31, 767},   {6, 64, 768},   {13, 65, 769},
                            {12, 96, 770}, {2, 3, 1536},   {5, 129, 1537}, {7, 257, 2306},
                            {16, 40, 576}, {3, 7, 2999},   {1, 100, 9},    {11, 1, 31},
                            {4, 250, 64},  {6, 128, 1538}, {1, 143, 2},    {17, 160, 288}};
  std::mt19937 random(7);
  std::uniform_int_distribution<size_t> small(1, 70), deep(1, 3000);
  for (int i = 0; i < 40; ++i) out.push_back({small(random), small(random), small(random)});
  for (int i = 0; i < 10; ++i) out.push_back({small(random), small(random), deep(random)});
  return out;
}

void checkAgainstReference(bool vnni) {
  std::mt19937 random(42);
  for (const Shape& s : shapes()) {
    Left a = randomLeft(random, s.m, s.k, s.k % 3);
    Right b = randomRight(random, s.k, s.n, s.n % 5);
    ASSERT_EQ(product(a, b, vnni), reference(a, b)) << describe(s);
  }
}

TEST(ByteQuadGemm, PortablePathMatchesWrappedInt64Sums) { checkAgainstReference(false); }

TEST(ByteQuadGemm, VnniPathMatchesWrappedInt64Sums) {
  if (!haveVnni()) GTEST_SKIP() << "this CPU has no AVX512-VNNI: only the portable path is tested";
  checkAgainstReference(true);
}

TEST(ByteQuadGemm, VnniAndPortablePathsGiveTheSameBits) {
  if (!haveVnni()) GTEST_SKIP() << "this CPU has no AVX512-VNNI: there is one path only";
  std::mt19937 random(3);
  std::uniform_int_distribution<size_t> size(1, 90), deep(1, 1700);
  for (int i = 0; i < 30; ++i) {
    Shape s{size(random), size(random), deep(random)};
    Left a = randomLeft(random, s.m, s.k, 1);
    Right b = randomRight(random, s.k, s.n, 2);
    ASSERT_EQ(product(a, b, true), product(a, b, false)) << describe(s);
  }
}

// Every product is (-128 - 127) * (255 - 0) or (127 - -128) * (255 - 0): the true sums pass
// 2^31 and then 2^32 (either way), where the int32 accumulator wraps; the zero points' terms
// wrap with them.
TEST(ByteQuadGemm, SumsWrapPast2To31And2To32) {
  for (size_t k : {size_t{33027}, size_t{40001}, size_t{66053}}) {
    for (int sign : {1, -1}) {
      Left a{3, k, k, std::vector<int8_t>(3 * k, static_cast<int8_t>(sign > 0 ? 127 : -128)),
             std::vector<int32_t>(3, sign > 0 ? -128 : 127)};
      Right b{k, 37, 37, std::vector<uint8_t>(k * 37, 255), 0};
      std::vector<int32_t> expected = reference(a, b);
      const int64_t exact = sign * int64_t{255} * 255 * static_cast<int64_t>(k);
      ASSERT_EQ(expected[0], static_cast<int32_t>(static_cast<uint32_t>(exact)));
      ASSERT_GT(exact * sign, int64_t{1} << 31);
      EXPECT_EQ(product(a, b, false), expected) << "k=" << k;
      if (haveVnni()) {
        EXPECT_EQ(product(a, b, true), expected) << "k=" << k;
      }
    }
  }
}

// Work split between threads: any split of the columns, or of the rows packed apart, gives
// the bits of the whole.
TEST(ByteQuadGemm, SplitsGiveTheBitsOfTheWhole) {
  std::mt19937 random(11);
  Left a = randomLeft(random, 29, 1031, 0);
  Right b = randomRight(random, 1031, 77, 0);
  for (bool vnni : {false, true}) {
    if (vnni && !haveVnni()) continue;
    std::vector<int32_t> whole = product(a, b, vnni);
    std::vector<int32_t> split(whole.size(), 0);
    const size_t row_cuts[] = {0, 5, 6, 19, 29};
    const size_t column_cuts[] = {0, 1, 32, 45, 77};
    for (size_t ri = 0; ri + 1 < std::size(row_cuts); ++ri) {
      const size_t r0 = row_cuts[ri], r1 = row_cuts[ri + 1];
      ByteQuadLeft rows(r1 - r0, a.depth, a.values.data() + r0 * a.stride, a.stride,
                        a.zeros.data() + r0);
      for (size_t ci = 0; ci + 1 < std::size(column_cuts); ++ci) {
        const size_t c0 = column_cuts[ci], c1 = column_cuts[ci + 1];
        byteQuadGemm(rows, c1 - c0, b.values.data() + c0, b.stride, b.zero,
                     split.data() + r0 * 77 + c0, 77, vnni);
      }
    }
    EXPECT_EQ(split, whole) << (vnni ? "vnni" : "portable");
  }
}

TEST(ByteQuadGemm, NoDepthGivesZeros) {
  const std::vector<int32_t> zeros = {1, 2, 3, 4};
  ByteQuadLeft empty(4, 0, nullptr, 0, zeros.data());
  std::vector<uint8_t> b;
  for (bool vnni : {false, true}) {
    if (vnni && !haveVnni()) continue;
    std::vector<int32_t> c(4 * 9, 5);
    byteQuadGemm(empty, 9, b.data(), 9, 200, c.data(), 9, vnni);
    EXPECT_EQ(c, std::vector<int32_t>(4 * 9, 0));
  }
}

}  // namespace
}  // namespace onyx::ops::nn
