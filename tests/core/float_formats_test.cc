#include "onyx/core/float_formats.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace onyx {
namespace {

constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

float fromBits(uint32_t bits) { return std::bit_cast<float>(bits); }
uint32_t bitsOf(float value) { return std::bit_cast<uint32_t>(value); }

// One narrow format as the tests see it. The values come from the format's definition
// (docs/docsgen/source/technical/float8.md, float4.md, IEEE 754 for binary16), computed with
// std::ldexp in double, never from the code under test.
struct Codec {
  const char* name;
  int codeBits;           // 16, 8 or 4
  int fractionBits;       // explicit fraction bits
  int bias;               // exponent bias
  uint32_t maxMagnitude;  // largest finite code with the sign bit clear
  bool unsignedZero;      // FNUZ: the "negative zero" code is the only NaN
  bool hasInf;            // the code after maxMagnitude is infinity
  uint32_t (*encode)(float value, bool saturate);
  float (*decode)(uint32_t code);
  // The code an out-of-range value (or infinity) becomes.
  uint32_t (*overflow)(bool negative, bool saturate);

  uint32_t signBit() const { return 1u << (codeBits - 1); }
  uint32_t codeCount() const { return 1u << codeBits; }

  // The value of a magnitude code, with the exponent allowed past the format's top so that
  // maxMagnitude + 1 gives the value an overflowing rounding would reach.
  double magnitudeValue(uint32_t magnitude) const {
    const uint32_t field = magnitude >> fractionBits;
    const uint32_t fraction = magnitude & ((1u << fractionBits) - 1);
    if (field == 0) return std::ldexp(static_cast<double>(fraction), 1 - bias - fractionBits);
    return std::ldexp(static_cast<double>((1u << fractionBits) + fraction),
                      static_cast<int>(field) - bias - fractionBits);
  }

  bool isNaNCode(uint32_t code) const {
    const uint32_t magnitude = code & (signBit() - 1);
    if (unsignedZero) return code == signBit();
    if (magnitude <= maxMagnitude) return false;
    return !(hasInf && magnitude == maxMagnitude + 1);
  }
  bool isInfCode(uint32_t code) const {
    return hasInf && (code & (signBit() - 1)) == maxMagnitude + 1;
  }

  // Round-to-nearest-even by search over every value of the format.
  uint32_t expectedEncoding(float value, bool saturate) const {
    const bool negative = std::signbit(value);
    const double target = std::fabs(static_cast<double>(value));
    uint32_t low = 0;
    uint32_t high = maxMagnitude + 1;
    if (target >= magnitudeValue(high)) return overflow(negative, saturate);
    while (high - low > 1) {  // keeps value(low) <= target < value(high)
      const uint32_t middle = low + (high - low) / 2;
      if (magnitudeValue(middle) <= target) {
        low = middle;
      } else {
        high = middle;
      }
    }
    const double below = target - magnitudeValue(low);
    const double above = magnitudeValue(high) - target;
    const uint32_t nearest = below < above   ? low
                             : above < below ? high
                                             : (low % 2 == 0 ? low : high);
    if (nearest > maxMagnitude) return overflow(negative, saturate);
    if (nearest == 0 && unsignedZero) return 0;
    return (negative ? signBit() : 0) | nearest;
  }
};

const Codec kFloat16Codec = {
    "FLOAT16",
    16,
    10,
    15,
    0x7BFF,
    false,
    true,
    [](float v, bool) -> uint32_t { return floatToFloat16(v); },
    [](uint32_t c) { return float16ToFloat(static_cast<uint16_t>(c)); },
    [](bool negative, bool) -> uint32_t { return (negative ? 0x8000u : 0u) | 0x7C00u; }};

const Codec kBfloat16Codec = {
    "BFLOAT16",
    16,
    7,
    127,
    0x7F7F,
    false,
    true,
    [](float v, bool) -> uint32_t { return floatToBfloat16(v); },
    [](uint32_t c) { return bfloat16ToFloat(static_cast<uint16_t>(c)); },
    [](bool negative, bool) -> uint32_t { return (negative ? 0x8000u : 0u) | 0x7F80u; }};

const Codec kE4M3FNCodec = {
    "E4M3FN",
    8,
    3,
    7,
    0x7E,
    false,
    false,
    [](float v, bool s) -> uint32_t { return floatToFloat8(v, Float8Format::kE4M3FN, s); },
    [](uint32_t c) { return float8ToFloat(static_cast<uint8_t>(c), Float8Format::kE4M3FN); },
    [](bool negative, bool saturate) -> uint32_t {
      return (negative ? 0x80u : 0u) | (saturate ? 0x7Eu : 0x7Fu);
    }};

const Codec kE4M3FNUZCodec = {
    "E4M3FNUZ",
    8,
    3,
    8,
    0x7F,
    true,
    false,
    [](float v, bool s) -> uint32_t { return floatToFloat8(v, Float8Format::kE4M3FNUZ, s); },
    [](uint32_t c) { return float8ToFloat(static_cast<uint8_t>(c), Float8Format::kE4M3FNUZ); },
    [](bool negative, bool saturate) -> uint32_t {
      return saturate ? (negative ? 0xFFu : 0x7Fu) : 0x80u;
    }};

const Codec kE5M2Codec = {
    "E5M2",
    8,
    2,
    15,
    0x7B,
    false,
    true,
    [](float v, bool s) -> uint32_t { return floatToFloat8(v, Float8Format::kE5M2, s); },
    [](uint32_t c) { return float8ToFloat(static_cast<uint8_t>(c), Float8Format::kE5M2); },
    [](bool negative, bool saturate) -> uint32_t {
      return (negative ? 0x80u : 0u) | (saturate ? 0x7Bu : 0x7Cu);
    }};

const Codec kE5M2FNUZCodec = {
    "E5M2FNUZ",
    8,
    2,
    16,
    0x7F,
    true,
    false,
    [](float v, bool s) -> uint32_t { return floatToFloat8(v, Float8Format::kE5M2FNUZ, s); },
    [](uint32_t c) { return float8ToFloat(static_cast<uint8_t>(c), Float8Format::kE5M2FNUZ); },
    [](bool negative, bool saturate) -> uint32_t {
      return saturate ? (negative ? 0xFFu : 0x7Fu) : 0x80u;
    }};

const Codec kFloat4Codec = {
    "FLOAT4E2M1",
    4,
    1,
    1,
    0x7,
    false,
    false,
    [](float v, bool s) -> uint32_t { return floatToFloat4E2M1(v, s); },
    [](uint32_t c) { return float4E2M1ToFloat(static_cast<uint8_t>(c)); },
    [](bool negative, bool) -> uint32_t { return (negative ? 0x8u : 0u) | 0x7u; }};

const Codec* const kCodecs[] = {&kFloat16Codec, &kBfloat16Codec, &kE4M3FNCodec, &kE4M3FNUZCodec,
                                &kE5M2Codec,    &kE5M2FNUZCodec, &kFloat4Codec};

class CodecTest : public testing::TestWithParam<const Codec*> {};

INSTANTIATE_TEST_SUITE_P(Formats, CodecTest, testing::ValuesIn(kCodecs),
                         [](const testing::TestParamInfo<const Codec*>& param) {
                           return std::string(param.param->name);
                         });

// Every code decodes to the value its definition gives, bit for bit (including the sign of zero).
TEST_P(CodecTest, EveryCodeDecodesExactly) {
  const Codec& codec = *GetParam();
  int nanCodes = 0;
  for (uint32_t code = 0; code < codec.codeCount(); ++code) {
    const float value = codec.decode(code);
    const bool negative = (code & codec.signBit()) != 0;
    if (codec.isNaNCode(code)) {
      EXPECT_TRUE(std::isnan(value)) << std::hex << code;
      ++nanCodes;
      continue;
    }
    if (codec.isInfCode(code)) {
      EXPECT_EQ(value, negative ? -kInf : kInf) << std::hex << code;
      continue;
    }
    const double magnitude = codec.magnitudeValue(code & (codec.signBit() - 1));
    const auto expected = static_cast<float>(negative ? -magnitude : magnitude);
    ASSERT_EQ(static_cast<double>(expected), negative ? -magnitude : magnitude);  // fits a float
    EXPECT_EQ(bitsOf(value), bitsOf(expected)) << std::hex << code;
  }
  if (codec.unsignedZero) {
    EXPECT_EQ(nanCodes, 1);
  }
}

// Decoding then encoding gives the code back, for every code that is not NaN, in both modes.
TEST_P(CodecTest, EveryCodeRoundTrips) {
  const Codec& codec = *GetParam();
  for (uint32_t code = 0; code < codec.codeCount(); ++code) {
    if (codec.isNaNCode(code)) continue;
    const float value = codec.decode(code);
    EXPECT_EQ(codec.encode(value, false), code) << std::hex << code;
    if (codec.isInfCode(code) && codec.codeBits == 8) {
      // Saturation turns E5M2's infinities into the largest finite values.
      EXPECT_EQ(codec.encode(value, true), (code & codec.signBit()) | codec.maxMagnitude);
    } else {
      EXPECT_EQ(codec.encode(value, true), code) << std::hex << code;
    }
  }
}

TEST_P(CodecTest, NaNCodesDecodeToNaNAndNaNEncodesToANaNCode) {
  const Codec& codec = *GetParam();
  const std::array<uint32_t, 6> nanBits = {0x7FC00000, 0xFFC00000, 0x7F800001,
                                           0xFF800001, 0x7FFFFFFF, 0x7FA00000};
  for (uint32_t bits : nanBits) {
    for (bool saturate : {false, true}) {
      const uint32_t code = codec.encode(fromBits(bits), saturate);
      if (codec.codeBits == 4) {
        EXPECT_EQ(code, 0x7u) << std::hex << bits;  // FLOAT4E2M1 has no NaN: the spec says 6
      } else {
        EXPECT_TRUE(codec.isNaNCode(code)) << std::hex << bits << " -> " << code;
        EXPECT_TRUE(std::isnan(codec.decode(code)));
      }
    }
  }
}

// Every value halfway between two neighbouring codes goes to the even one; a float step either
// side goes to the nearer. Covers subnormals, the step into the normals, and every binade.
TEST_P(CodecTest, HalfwayValuesRoundToEven) {
  const Codec& codec = *GetParam();
  for (uint32_t low = 0; low < codec.maxMagnitude; ++low) {
    const uint32_t high = low + 1;
    const double midpoint = (codec.magnitudeValue(low) + codec.magnitudeValue(high)) / 2;
    const auto tie = static_cast<float>(midpoint);
    ASSERT_EQ(static_cast<double>(tie), midpoint);
    const uint32_t even = low % 2 == 0 ? low : high;
    for (bool negative : {false, true}) {
      const float sign = negative ? -1.0f : 1.0f;
      const auto withSign = [&](uint32_t magnitude) {
        if (magnitude == 0 && codec.unsignedZero) return 0u;
        return (negative ? codec.signBit() : 0u) | magnitude;
      };
      for (bool saturate : {false, true}) {
        EXPECT_EQ(codec.encode(sign * tie, saturate), withSign(even)) << std::hex << low;
        EXPECT_EQ(codec.encode(sign * std::nextafter(tie, kInf), saturate), withSign(high))
            << std::hex << low;
        EXPECT_EQ(codec.encode(sign * std::nextafter(tie, 0.0f), saturate), withSign(low))
            << std::hex << low;
      }
    }
  }
}

// Past the largest finite value: the halfway point to where the next code would be rounds to even
// (which may be the overflow), anything beyond overflows.
TEST_P(CodecTest, OverflowBoundary) {
  const Codec& codec = *GetParam();
  const double max = codec.magnitudeValue(codec.maxMagnitude);
  const double next = codec.magnitudeValue(codec.maxMagnitude + 1);
  const auto tie = static_cast<float>((max + next) / 2);
  const bool tieOverflows = codec.maxMagnitude % 2 == 1;
  for (bool negative : {false, true}) {
    const float sign = negative ? -1.0f : 1.0f;
    const uint32_t maxCode = (negative ? codec.signBit() : 0u) | codec.maxMagnitude;
    for (bool saturate : {false, true}) {
      const uint32_t overflow = codec.overflow(negative, saturate);
      EXPECT_EQ(codec.encode(sign * static_cast<float>(max), saturate), maxCode);
      EXPECT_EQ(codec.encode(sign * std::nextafter(tie, 0.0f), saturate), maxCode);
      EXPECT_EQ(codec.encode(sign * tie, saturate), tieOverflows ? overflow : maxCode);
      EXPECT_EQ(codec.encode(sign * std::nextafter(tie, kInf), saturate), overflow);
      EXPECT_EQ(codec.encode(sign * static_cast<float>(next), saturate), overflow);
      EXPECT_EQ(codec.encode(sign * std::numeric_limits<float>::max(), saturate), overflow);
      EXPECT_EQ(codec.encode(sign * kInf, saturate), overflow);
    }
  }
}

TEST_P(CodecTest, Zeros) {
  const Codec& codec = *GetParam();
  for (bool saturate : {false, true}) {
    EXPECT_EQ(codec.encode(0.0f, saturate), 0u);
    EXPECT_EQ(codec.encode(-0.0f, saturate), codec.unsignedZero ? 0u : codec.signBit());
    // Too small to be anything but zero, keeping the sign where the format has -0.
    const float tiny = std::numeric_limits<float>::denorm_min();
    EXPECT_EQ(codec.encode(tiny, saturate), 0u);
    EXPECT_EQ(codec.encode(-tiny, saturate), codec.unsignedZero ? 0u : codec.signBit());
  }
  EXPECT_EQ(bitsOf(codec.decode(0)), 0u);
  if (!codec.unsignedZero) {
    EXPECT_EQ(bitsOf(codec.decode(codec.signBit())), 0x80000000u);
  }
}

TEST_P(CodecTest, SmallestSubnormal) {
  const Codec& codec = *GetParam();
  const double smallest = codec.magnitudeValue(1);
  const auto value = static_cast<float>(smallest);
  EXPECT_EQ(codec.decode(1), value);
  EXPECT_EQ(codec.encode(value, true), 1u);
  // Exactly half of it ties with zero and goes to zero (even); just above goes up.
  const auto half = static_cast<float>(smallest / 2);
  EXPECT_EQ(codec.encode(half, true), 0u);
  EXPECT_EQ(codec.encode(std::nextafter(half, kInf), true), 1u);
  EXPECT_EQ(codec.encode(-std::nextafter(half, kInf), true), codec.signBit() | 1u);
  // One and a half of it ties between codes 1 and 2 and goes to 2.
  EXPECT_EQ(codec.encode(static_cast<float>(smallest * 1.5), true), 2u);
}

// Every float from well below the smallest subnormal to well above the max, sampled, against
// the search over all values.
TEST_P(CodecTest, MatchesExhaustiveSearchOverSampledFloats) {
  const Codec& codec = *GetParam();
  const uint32_t lowBits = bitsOf(static_cast<float>(codec.magnitudeValue(1) / 8));
  const double top = codec.magnitudeValue(codec.maxMagnitude + 1) * 4;
  const uint32_t highBits =
      top > std::numeric_limits<float>::max() ? bitsOf(kInf) : bitsOf(static_cast<float>(top));
  const uint32_t step = std::max(1u, (highBits - lowBits) / 400000u) | 1u;
  int checked = 0;
  for (uint64_t bits = lowBits; bits <= highBits; bits += step) {
    const float value = fromBits(static_cast<uint32_t>(bits));
    for (bool saturate : {false, true}) {
      ASSERT_EQ(codec.encode(value, saturate), codec.expectedEncoding(value, saturate))
          << value << " saturate=" << saturate;
      ASSERT_EQ(codec.encode(-value, saturate), codec.expectedEncoding(-value, saturate))
          << -value << " saturate=" << saturate;
    }
    ++checked;
  }
  EXPECT_GT(checked, 100000);
  // And a coarse pass over every float exponent, tiny and huge values included.
  for (uint64_t bits = 0; bits < 0x7F800000u; bits += 0x00012345u) {
    const float value = fromBits(static_cast<uint32_t>(bits));
    ASSERT_EQ(codec.encode(value, true), codec.expectedEncoding(value, true)) << value;
    ASSERT_EQ(codec.encode(value, false), codec.expectedEncoding(value, false)) << value;
  }
}

// ---------------------------------------------------------------------------------------------
// Hand-written values from the format definitions.

struct Known {
  uint32_t code;
  float value;
};

void expectKnown(const Codec& codec, const std::vector<Known>& table) {
  ASSERT_GE(table.size(), 12u);
  for (const Known& known : table) {
    if (std::isnan(known.value)) {
      EXPECT_TRUE(std::isnan(codec.decode(known.code))) << std::hex << known.code;
      continue;
    }
    EXPECT_EQ(bitsOf(codec.decode(known.code)), bitsOf(known.value)) << std::hex << known.code;
    EXPECT_EQ(codec.encode(known.value, false), known.code) << known.value;
  }
}

TEST(KnownValues, Float16) {
  expectKnown(kFloat16Codec, {{0x0000, 0.0f},
                              {0x8000, -0.0f},
                              {0x3C00, 1.0f},
                              {0xC000, -2.0f},
                              {0x3800, 0.5f},
                              {0x3E00, 1.5f},
                              {0x4248, 3.140625f},
                              {0x5640, 100.0f},
                              {0x3555, 0.333251953125f},
                              {0x7BFF, 65504.0f},
                              {0xFBFF, -65504.0f},
                              {0x0400, 0x1p-14f},
                              {0x03FF, 0x1.ff8p-15f},
                              {0x0001, 0x1p-24f},
                              {0x7C00, kInf},
                              {0xFC00, -kInf},
                              {0x7E00, kNaN}});
}

TEST(KnownValues, Bfloat16) {
  expectKnown(kBfloat16Codec, {{0x0000, 0.0f},
                               {0x8000, -0.0f},
                               {0x3F80, 1.0f},
                               {0xC000, -2.0f},
                               {0x3F00, 0.5f},
                               {0x4049, 3.140625f},
                               {0x42C8, 100.0f},
                               {0x3EAB, 0.333984375f},
                               {0x7F7F, 0x1.fep127f},
                               {0x0080, 0x1p-126f},
                               {0x0001, 0x1p-133f},
                               {0x007F, 0x1.fcp-127f},
                               {0x7F80, kInf},
                               {0xFF80, -kInf},
                               {0x7FC0, kNaN}});
}

TEST(KnownValues, Float8E4M3FN) {
  expectKnown(kE4M3FNCodec, {{0x00, 0.0f},
                             {0x80, -0.0f},
                             {0x01, 0x1p-9f},
                             {0x07, 0.013671875f},
                             {0x08, 0x1p-6f},
                             {0x30, 0.5f},
                             {0x2F, 0.46875f},
                             {0x34, 0.75f},
                             {0x35, 0.8125f},
                             {0x38, 1.0f},
                             {0x3C, 1.5f},
                             {0x40, 2.0f},
                             {0xB8, -1.0f},
                             {0x77, 240.0f},
                             {0x7D, 416.0f},
                             {0x7E, 448.0f},
                             {0xFE, -448.0f},
                             {0x7F, kNaN},
                             {0xFF, kNaN}});
}

TEST(KnownValues, Float8E4M3FNUZ) {
  expectKnown(kE4M3FNUZCodec, {{0x00, 0.0f},
                               {0x01, 0x1p-10f},
                               {0x08, 0x1p-7f},
                               {0x37, 0.46875f},
                               {0x38, 0.5f},
                               {0x3C, 0.75f},
                               {0x3D, 0.8125f},
                               {0x40, 1.0f},
                               {0xC0, -1.0f},
                               {0x48, 2.0f},
                               {0x7E, 224.0f},
                               {0x7F, 240.0f},
                               {0xFF, -240.0f},
                               {0x80, kNaN}});
}

TEST(KnownValues, Float8E5M2) {
  expectKnown(
      kE5M2Codec,
      {{0x00, 0.0f},     {0x80, -0.0f}, {0x01, 0x1p-16f}, {0x02, 0x1p-15f}, {0x03, 0x1.8p-15f},
       {0x04, 0x1p-14f}, {0x38, 0.5f},  {0x3A, 0.75f},    {0x3B, 0.875f},   {0x3C, 1.0f},
       {0x3E, 1.5f},     {0x40, 2.0f},  {0x7A, 49152.0f}, {0x7B, 57344.0f}, {0xFB, -57344.0f},
       {0x7C, kInf},     {0xFC, -kInf}, {0x7D, kNaN},     {0x7E, kNaN},     {0x7F, kNaN},
       {0xFF, kNaN}});
}

TEST(KnownValues, Float8E5M2FNUZ) {
  expectKnown(kE5M2FNUZCodec, {{0x00, 0.0f},
                               {0x01, 0x1p-17f},
                               {0x04, 0x1p-15f},
                               {0x3C, 0.5f},
                               {0x3E, 0.75f},
                               {0x3F, 0.875f},
                               {0x40, 1.0f},
                               {0xC0, -1.0f},
                               {0x44, 2.0f},
                               {0x7E, 49152.0f},
                               {0x7F, 57344.0f},
                               {0xFF, -57344.0f},
                               {0x80, kNaN}});
}

TEST(KnownValues, Float4E2M1) {
  // float4.md lists the magnitudes 000..111 as 0, 0.5, 1, 1.5, 2, 3, 4, 6.
  const std::array<float, 8> magnitudes = {0.0f, 0.5f, 1.0f, 1.5f, 2.0f, 3.0f, 4.0f, 6.0f};
  std::vector<Known> table;
  for (uint32_t code = 0; code < 8; ++code) {
    table.push_back({code, magnitudes[code]});
    table.push_back({code | 0x8u, -magnitudes[code]});
  }
  expectKnown(kFloat4Codec, table);
}

// ---------------------------------------------------------------------------------------------
// The Cast operator's tables for FLOAT8 (docs/Operators.md, Cast-25): both saturate modes.

struct SpecialRow {
  float input;
  uint8_t saturated;
  uint8_t unsaturated;
};

void expectSpecials(Float8Format format, const std::vector<SpecialRow>& rows) {
  for (const SpecialRow& row : rows) {
    EXPECT_EQ(floatToFloat8(row.input, format, true), row.saturated) << row.input;
    EXPECT_EQ(floatToFloat8(row.input, format, false), row.unsaturated) << row.input;
  }
}

const float kNegNaN = fromBits(0xFFC00000);

TEST(CastTable, Float8E4M3FN) {
  expectSpecials(Float8Format::kE4M3FN, {{0.0f, 0x00, 0x00},
                                         {-0.0f, 0x80, 0x80},
                                         {kNaN, 0x7F, 0x7F},
                                         {kNegNaN, 0xFF, 0xFF},
                                         {kInf, 0x7E, 0x7F},
                                         {-kInf, 0xFE, 0xFF},
                                         {1e6f, 0x7E, 0x7F},
                                         {-1e6f, 0xFE, 0xFF},
                                         {480.0f, 0x7E, 0x7F}});
}

TEST(CastTable, Float8E4M3FNUZ) {
  expectSpecials(Float8Format::kE4M3FNUZ, {{0.0f, 0x00, 0x00},
                                           {-0.0f, 0x00, 0x00},
                                           {kNaN, 0x80, 0x80},
                                           {kNegNaN, 0x80, 0x80},
                                           {kInf, 0x7F, 0x80},
                                           {-kInf, 0xFF, 0x80},
                                           {1e6f, 0x7F, 0x80},
                                           {-1e6f, 0xFF, 0x80},
                                           {256.0f, 0x7F, 0x80}});
}

TEST(CastTable, Float8E5M2) {
  expectSpecials(Float8Format::kE5M2, {{0.0f, 0x00, 0x00},
                                       {-0.0f, 0x80, 0x80},
                                       {kNaN, 0x7E, 0x7E},
                                       {kNegNaN, 0xFE, 0xFE},
                                       {kInf, 0x7B, 0x7C},
                                       {-kInf, 0xFB, 0xFC},
                                       {1e6f, 0x7B, 0x7C},
                                       {-1e6f, 0xFB, 0xFC},
                                       {65536.0f, 0x7B, 0x7C}});
}

TEST(CastTable, Float8E5M2FNUZ) {
  expectSpecials(Float8Format::kE5M2FNUZ, {{0.0f, 0x00, 0x00},
                                           {-0.0f, 0x00, 0x00},
                                           {kNaN, 0x80, 0x80},
                                           {kNegNaN, 0x80, 0x80},
                                           {kInf, 0x7F, 0x80},
                                           {-kInf, 0xFF, 0x80},
                                           {1e6f, 0x7F, 0x80},
                                           {-1e6f, 0xFF, 0x80},
                                           {65536.0f, 0x7F, 0x80}});
}

TEST(CastTable, Float8FNUZHasNoNegativeZero) {
  for (Float8Format format : {Float8Format::kE4M3FNUZ, Float8Format::kE5M2FNUZ}) {
    for (bool saturate : {false, true}) {
      EXPECT_EQ(floatToFloat8(-1e-30f, format, saturate), 0x00);
      EXPECT_EQ(floatToFloat8(-std::numeric_limits<float>::denorm_min(), format, saturate), 0x00);
    }
    EXPECT_TRUE(std::isnan(float8ToFloat(0x80, format)));
  }
}

TEST(CastTable, Float8NaNKeepsItsSignWhereTheFormatHasOne) {
  EXPECT_FALSE(std::signbit(float8ToFloat(0x7F, Float8Format::kE4M3FN)));
  EXPECT_TRUE(std::signbit(float8ToFloat(0xFF, Float8Format::kE4M3FN)));
  EXPECT_TRUE(std::signbit(float8ToFloat(0xFD, Float8Format::kE5M2)));
}

// ---------------------------------------------------------------------------------------------
// The ONNX backend test data (onnx/backend/test/data/node/test_cast_*): inputs and the codes the
// reference produced.

const std::array<float, 15> kFloat8CastInputs = {
    0.47892547f, 0.48033667f, 0.49968487f, 0.81910545f, 0.47031248f, 0.7229038f, 1000000.0f, 1e-7f,
    kNaN,        kInf,        kInf,        -kInf,       -1e-7f,      1e-7f,      -1000000.0f};

void expectCastData(Float8Format format, bool saturate, const std::array<uint8_t, 15>& expected) {
  for (size_t i = 0; i < kFloat8CastInputs.size(); ++i) {
    EXPECT_EQ(floatToFloat8(kFloat8CastInputs[i], format, saturate), expected[i])
        << "element " << i;
  }
}

TEST(BackendTestData, CastFloatToFloat8) {
  expectCastData(
      Float8Format::kE4M3FN, true,
      {0x2f, 0x2f, 0x30, 0x35, 0x2f, 0x34, 0x7e, 0x00, 0x7f, 0x7e, 0x7e, 0xfe, 0x80, 0x00, 0xfe});
  expectCastData(
      Float8Format::kE4M3FN, false,
      {0x2f, 0x2f, 0x30, 0x35, 0x2f, 0x34, 0x7f, 0x00, 0x7f, 0x7f, 0x7f, 0xff, 0x80, 0x00, 0xff});
  expectCastData(
      Float8Format::kE4M3FNUZ, true,
      {0x37, 0x37, 0x38, 0x3d, 0x37, 0x3c, 0x7f, 0x00, 0x80, 0x7f, 0x7f, 0xff, 0x00, 0x00, 0xff});
  expectCastData(
      Float8Format::kE4M3FNUZ, false,
      {0x37, 0x37, 0x38, 0x3d, 0x37, 0x3c, 0x80, 0x00, 0x80, 0x80, 0x80, 0x80, 0x00, 0x00, 0x80});
  expectCastData(
      Float8Format::kE5M2, true,
      {0x38, 0x38, 0x38, 0x3b, 0x38, 0x3a, 0x7b, 0x00, 0x7e, 0x7b, 0x7b, 0xfb, 0x80, 0x00, 0xfb});
  expectCastData(
      Float8Format::kE5M2, false,
      {0x38, 0x38, 0x38, 0x3b, 0x38, 0x3a, 0x7c, 0x00, 0x7e, 0x7c, 0x7c, 0xfc, 0x80, 0x00, 0xfc});
  expectCastData(
      Float8Format::kE5M2FNUZ, true,
      {0x3c, 0x3c, 0x3c, 0x3f, 0x3c, 0x3e, 0x7f, 0x00, 0x80, 0x7f, 0x7f, 0xff, 0x00, 0x00, 0xff});
  expectCastData(
      Float8Format::kE5M2FNUZ, false,
      {0x3c, 0x3c, 0x3c, 0x3f, 0x3c, 0x3e, 0x80, 0x00, 0x80, 0x80, 0x80, 0x80, 0x00, 0x00, 0x80});
}

const std::array<float, 12> kWideCastInputs = {0.47892547f, 0.48033667f, 0.49968487f, 0.81910545f,
                                               0.47031248f, 0.816468f,   0.21087195f, 0.7229038f,
                                               kNaN,        kInf,        kInf,        -kInf};

TEST(BackendTestData, CastFloatToFloat16) {
  const std::array<uint16_t, 12> expected = {0x37aa, 0x37af, 0x37ff, 0x3a8e, 0x3786, 0x3a88,
                                             0x32bf, 0x39c9, 0x7e00, 0x7c00, 0x7c00, 0xfc00};
  for (size_t i = 0; i < expected.size(); ++i) {
    EXPECT_EQ(floatToFloat16(kWideCastInputs[i]), expected[i]) << "element " << i;
  }
}

TEST(BackendTestData, CastFloatToBfloat16RoundsToNearestEven) {
  const std::array<uint16_t, 12> expected = {0x3ef5, 0x3ef6, 0x3f00, 0x3f52, 0x3ef1, 0x3f51,
                                             0x3e58, 0x3f39, 0x7fc0, 0x7f80, 0x7f80, 0xff80};
  for (size_t i = 0; i < expected.size(); ++i) {
    EXPECT_EQ(floatToBfloat16(kWideCastInputs[i]), expected[i]) << "element " << i;
  }
  // Truncation would give 0x3EAA for 1/3 (0x3EAAAAAB) and 0x3F00 for 0.49968487 (0x3EFFD6xx).
  EXPECT_EQ(floatToBfloat16(1.0f / 3.0f), 0x3EAB);
}

TEST(BackendTestData, CastFloatToFloat4E2M1) {
  const std::array<float, 15> inputs = {0.48f, 0.25f, 1.05f, -3.5f, -8.0f, 9.0f,  1000000.0f, 1e-7f,
                                        kNaN,  kInf,  kInf,  -kInf, -4.0f, 0.01f, -0.0f};
  // Element 8 is NaN: float4.md's Cast table says 6 (0x7). The backend data, made with
  // ml_dtypes, has 0x8 there; the spec wins.
  const std::array<uint8_t, 15> expected = {0x1, 0x0, 0x2, 0xe, 0xf, 0x7, 0x7, 0x0,
                                            0x7, 0x7, 0x7, 0xf, 0xe, 0x0, 0x8};
  for (size_t i = 0; i < inputs.size(); ++i) {
    EXPECT_EQ(floatToFloat4E2M1(inputs[i]), expected[i]) << "element " << i;
    EXPECT_EQ(floatToFloat4E2M1(inputs[i], false), expected[i]) << "element " << i;
  }
}

TEST(BackendTestData, CastFloatToFloat8E8M0) {
  // test_cast_e8m0_FLOAT_to_FLOAT8E8M0: saturate=1, round_mode="up".
  const std::array<float, 8> inputs = {0.0f, 0.124f, 0.25f, 0.5f, 1.1f, 2.0f, 4.0f, 8.0f};
  const std::array<uint8_t, 8> expected = {0x00, 0x7c, 0x7d, 0x7e, 0x80, 0x80, 0x81, 0x82};
  for (size_t i = 0; i < inputs.size(); ++i) {
    EXPECT_EQ(floatToFloat8E8M0(inputs[i], true, E8M0Rounding::kUp), expected[i]) << i;
    EXPECT_EQ(floatToFloat8(inputs[i], Float8Format::kE8M0, true), expected[i]) << i;
  }
}

// ---------------------------------------------------------------------------------------------
// FLOAT8E8M0.

constexpr std::array<E8M0Rounding, 3> kRoundings = {E8M0Rounding::kUp, E8M0Rounding::kDown,
                                                    E8M0Rounding::kNearest};

TEST(Float8E8M0, EveryCodeDecodesToAPowerOfTwo) {
  for (uint32_t code = 0; code < 255; ++code) {
    const float value = float8ToFloat(static_cast<uint8_t>(code), Float8Format::kE8M0);
    EXPECT_EQ(static_cast<double>(value), std::ldexp(1.0, static_cast<int>(code) - 127)) << code;
  }
  EXPECT_TRUE(std::isnan(float8ToFloat(0xFF, Float8Format::kE8M0)));
}

TEST(Float8E8M0, EveryCodeRoundTripsInEveryMode) {
  for (uint32_t code = 0; code < 255; ++code) {
    const float value = float8ToFloat(static_cast<uint8_t>(code), Float8Format::kE8M0);
    for (E8M0Rounding mode : kRoundings) {
      for (bool saturate : {false, true}) {
        EXPECT_EQ(floatToFloat8E8M0(value, saturate, mode), code) << code;
      }
    }
  }
}

TEST(Float8E8M0, KnownValues) {
  const std::vector<Known> table = {{0x00, 0x1p-127f}, {0x01, 0x1p-126f}, {0x68, 0x1p-23f},
                                    {0x7C, 0.125f},    {0x7D, 0.25f},     {0x7E, 0.5f},
                                    {0x7F, 1.0f},      {0x80, 2.0f},      {0x81, 4.0f},
                                    {0x82, 8.0f},      {0x96, 0x1p23f},   {0xFE, 0x1p127f}};
  for (const Known& known : table) {
    EXPECT_EQ(float8ToFloat(static_cast<uint8_t>(known.code), Float8Format::kE8M0), known.value);
    EXPECT_EQ(floatToFloat8E8M0(known.value, false, E8M0Rounding::kNearest), known.code);
  }
}

TEST(Float8E8M0, RoundingModes) {
  for (int k = -126; k <= 126; ++k) {
    const auto code = static_cast<uint32_t>(k + 127);
    const float power = std::ldexp(1.0f, k);
    const float aboveOne = std::nextafter(power, kInf);
    const float threeQuarters = power * 1.5f;  // the arithmetic midpoint of 2^k and 2^(k+1)
    const float belowMid = std::nextafter(threeQuarters, 0.0f);
    const float almostNext = std::nextafter(power * 2.0f, 0.0f);
    for (bool saturate : {false, true}) {
      EXPECT_EQ(floatToFloat8E8M0(aboveOne, saturate, E8M0Rounding::kUp), code + 1) << k;
      EXPECT_EQ(floatToFloat8E8M0(aboveOne, saturate, E8M0Rounding::kDown), code) << k;
      EXPECT_EQ(floatToFloat8E8M0(aboveOne, saturate, E8M0Rounding::kNearest), code) << k;
      EXPECT_EQ(floatToFloat8E8M0(threeQuarters, saturate, E8M0Rounding::kNearest), code + 1) << k;
      EXPECT_EQ(floatToFloat8E8M0(belowMid, saturate, E8M0Rounding::kNearest), code) << k;
      EXPECT_EQ(floatToFloat8E8M0(threeQuarters, saturate, E8M0Rounding::kDown), code) << k;
      EXPECT_EQ(floatToFloat8E8M0(almostNext, saturate, E8M0Rounding::kDown), code) << k;
      EXPECT_EQ(floatToFloat8E8M0(almostNext, saturate, E8M0Rounding::kUp), code + 1) << k;
    }
  }
}

TEST(Float8E8M0, CastTableSpecialValues) {
  // docs/Operators.md, Cast: the "saturate + up" and "non-saturate + nearest" columns.
  const float max = std::numeric_limits<float>::max();
  const float tiny = std::numeric_limits<float>::denorm_min();
  EXPECT_EQ(floatToFloat8E8M0(0.0f, true, E8M0Rounding::kUp), 0x00);
  EXPECT_EQ(floatToFloat8E8M0(kNaN, true, E8M0Rounding::kUp), 0xFF);
  EXPECT_EQ(floatToFloat8E8M0(kInf, true, E8M0Rounding::kUp), 0xFE);
  EXPECT_EQ(floatToFloat8E8M0(max, true, E8M0Rounding::kUp), 0xFE);
  EXPECT_EQ(floatToFloat8E8M0(tiny, true, E8M0Rounding::kUp), 0x00);

  EXPECT_EQ(floatToFloat8E8M0(0.0f, false, E8M0Rounding::kNearest), 0xFF);
  EXPECT_EQ(floatToFloat8E8M0(kNaN, false, E8M0Rounding::kNearest), 0xFF);
  EXPECT_EQ(floatToFloat8E8M0(kInf, false, E8M0Rounding::kNearest), 0xFF);
  EXPECT_EQ(floatToFloat8E8M0(max, false, E8M0Rounding::kNearest), 0xFF);
  EXPECT_EQ(floatToFloat8E8M0(tiny, false, E8M0Rounding::kNearest), 0xFF);

  // The other combinations follow the same two rules: out of range after rounding is the
  // nearest end with saturation, NaN without.
  for (E8M0Rounding mode : kRoundings) {
    EXPECT_EQ(floatToFloat8E8M0(kInf, true, mode), 0xFE);
    EXPECT_EQ(floatToFloat8E8M0(kInf, false, mode), 0xFF);
    EXPECT_EQ(floatToFloat8E8M0(0.0f, true, mode), 0x00);
    EXPECT_EQ(floatToFloat8E8M0(0.0f, false, mode), 0xFF);
    EXPECT_EQ(floatToFloat8E8M0(kNaN, true, mode), 0xFF);
    EXPECT_EQ(floatToFloat8E8M0(fromBits(0x7F800001), true, mode), 0xFF);
    EXPECT_EQ(floatToFloat8E8M0(max, true, mode), 0xFE);
  }
  // FLT_MAX is just under 2^128: rounding down gives 2^127, in range either way.
  EXPECT_EQ(floatToFloat8E8M0(max, false, E8M0Rounding::kDown), 0xFE);
  EXPECT_EQ(floatToFloat8E8M0(max, false, E8M0Rounding::kUp), 0xFF);
}

TEST(Float8E8M0, FloatSubnormalsAreRoundedByTheirValue) {
  const float min = 0x1p-127f;  // E8M0's smallest value, a float subnormal
  for (E8M0Rounding mode : kRoundings) {
    EXPECT_EQ(floatToFloat8E8M0(min, false, mode), 0x00);
  }
  EXPECT_EQ(floatToFloat8E8M0(std::nextafter(min, kInf), false, E8M0Rounding::kUp), 0x01);
  EXPECT_EQ(floatToFloat8E8M0(std::nextafter(min, kInf), false, E8M0Rounding::kDown), 0x00);
  EXPECT_EQ(floatToFloat8E8M0(0x1.8p-127f, false, E8M0Rounding::kNearest), 0x01);
  EXPECT_EQ(floatToFloat8E8M0(0x1.7p-127f, false, E8M0Rounding::kNearest), 0x00);
  // Below 2^-127: up reaches it, down does not (NaN, or the min with saturation), nearest
  // reaches it from 0.75 * 2^-127 on.
  const float below = 0x1.4p-128f;
  EXPECT_EQ(floatToFloat8E8M0(below, false, E8M0Rounding::kUp), 0x00);
  EXPECT_EQ(floatToFloat8E8M0(below, false, E8M0Rounding::kDown), 0xFF);
  EXPECT_EQ(floatToFloat8E8M0(below, true, E8M0Rounding::kDown), 0x00);
  EXPECT_EQ(floatToFloat8E8M0(below, false, E8M0Rounding::kNearest), 0xFF);
  EXPECT_EQ(floatToFloat8E8M0(0x1.8p-128f, false, E8M0Rounding::kNearest), 0x00);
  EXPECT_EQ(floatToFloat8E8M0(0x1.7p-128f, false, E8M0Rounding::kNearest), 0xFF);
  EXPECT_EQ(floatToFloat8E8M0(0x1.7p-128f, true, E8M0Rounding::kNearest), 0x00);
  // An exact power of two below the range stays out of range whatever the rounding.
  EXPECT_EQ(floatToFloat8E8M0(0x1p-149f, false, E8M0Rounding::kUp), 0xFF);
  EXPECT_EQ(floatToFloat8E8M0(0x1p-149f, true, E8M0Rounding::kUp), 0x00);
  EXPECT_EQ(floatToFloat8E8M0(0x1p-149f, false, E8M0Rounding::kNearest), 0xFF);
}

TEST(Float8E8M0, NegativeValuesUseTheirMagnitude) {
  EXPECT_EQ(floatToFloat8E8M0(-2.0f, false, E8M0Rounding::kUp), 0x80);
  EXPECT_EQ(floatToFloat8E8M0(-3.0f, false, E8M0Rounding::kUp), 0x81);
  EXPECT_EQ(floatToFloat8E8M0(-0.0f, true, E8M0Rounding::kUp), 0x00);
  EXPECT_EQ(floatToFloat8E8M0(-0.0f, false, E8M0Rounding::kUp), 0xFF);
  EXPECT_EQ(floatToFloat8E8M0(-kInf, true, E8M0Rounding::kUp), 0xFE);
}

TEST(Float8E8M0, GenericEntryPointRoundsUp) {
  for (float value : {0.3f, 1.0f, 1.5f, 3.0f, 1e-30f, 1e30f}) {
    for (bool saturate : {false, true}) {
      EXPECT_EQ(floatToFloat8(value, Float8Format::kE8M0, saturate),
                floatToFloat8E8M0(value, saturate, E8M0Rounding::kUp));
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Names and small helpers.

TEST(FloatFormatHelpers, Float8FormatOf) {
  EXPECT_EQ(float8FormatOf(ElementType::kFloat8E4M3FN), Float8Format::kE4M3FN);
  EXPECT_EQ(float8FormatOf(ElementType::kFloat8E4M3FNUZ), Float8Format::kE4M3FNUZ);
  EXPECT_EQ(float8FormatOf(ElementType::kFloat8E5M2), Float8Format::kE5M2);
  EXPECT_EQ(float8FormatOf(ElementType::kFloat8E5M2FNUZ), Float8Format::kE5M2FNUZ);
  EXPECT_EQ(float8FormatOf(ElementType::kFloat8E8M0), Float8Format::kE8M0);
  EXPECT_EQ(float8FormatOf(ElementType::kFloat16), std::nullopt);
  EXPECT_EQ(float8FormatOf(ElementType::kFloat4E2M1), std::nullopt);
  EXPECT_EQ(float8FormatOf(ElementType::kUint8), std::nullopt);
}

TEST(FloatFormatHelpers, RoundModeNames) {
  EXPECT_EQ(e8m0RoundingFromName("up"), E8M0Rounding::kUp);
  EXPECT_EQ(e8m0RoundingFromName("down"), E8M0Rounding::kDown);
  EXPECT_EQ(e8m0RoundingFromName("nearest"), E8M0Rounding::kNearest);
  EXPECT_EQ(e8m0RoundingFromName("UP"), std::nullopt);
  EXPECT_EQ(e8m0RoundingFromName(""), std::nullopt);
  EXPECT_EQ(e8m0RoundingFromName("nearest_even"), std::nullopt);
}

TEST(FloatFormatHelpers, Float4ReadsOnlyTheLowBits) {
  EXPECT_EQ(float4E2M1ToFloat(0xF7), 6.0f);
  EXPECT_EQ(float4E2M1ToFloat(0x3F), -6.0f);
}

TEST(Float16, NaNStaysQuietNaNWithItsSign) {
  EXPECT_EQ(floatToFloat16(kNaN), 0x7E00);
  EXPECT_EQ(floatToFloat16(kNegNaN), 0xFE00);
  // A signalling NaN whose payload sits below float16's fraction must not turn into infinity.
  EXPECT_EQ(floatToFloat16(fromBits(0x7F800001)), 0x7E00);
  EXPECT_EQ(floatToFloat16(fromBits(0x7FFFFFFF)), 0x7FFF);
  EXPECT_EQ(floatToBfloat16(kNaN), 0x7FC0);
  EXPECT_EQ(floatToBfloat16(kNegNaN), 0xFFC0);
  EXPECT_EQ(floatToBfloat16(fromBits(0x7F800001)), 0x7FC0);
  EXPECT_EQ(floatToBfloat16(fromBits(0xFFFFFFFF)), 0xFFFF);
}

TEST(Float16, Float16SubnormalBoundaries) {
  // 2^-25 ties between 0 and the smallest subnormal; 0x1.004p-14 needs 11 bits and rounds.
  EXPECT_EQ(floatToFloat16(0x1p-25f), 0x0000);
  EXPECT_EQ(floatToFloat16(0x1.000002p-25f), 0x0001);
  EXPECT_EQ(floatToFloat16(0x1.8p-24f), 0x0002);
  EXPECT_EQ(floatToFloat16(0x1.ffcp-15f), 0x0400);  // the largest subnormal plus half rounds up
  EXPECT_EQ(floatToFloat16(0x1.ff8p-15f), 0x03FF);
  EXPECT_EQ(floatToFloat16(65519.0f), 0x7BFF);
  EXPECT_EQ(floatToFloat16(65520.0f), 0x7C00);
}

TEST(Float16, BfloatSubnormalsAndFloatSubnormals) {
  // Every float subnormal is a bfloat16 subnormal or zero after rounding.
  EXPECT_EQ(floatToBfloat16(0x1p-133f), 0x0001);
  EXPECT_EQ(floatToBfloat16(0x1p-134f), 0x0000);    // tie with zero, to even
  EXPECT_EQ(floatToBfloat16(0x1.8p-133f), 0x0002);  // tie between 1 and 2, to even
  EXPECT_EQ(floatToBfloat16(fromBits(0x00008000)), 0x0000);
  EXPECT_EQ(floatToBfloat16(fromBits(0x00008001)), 0x0001);
  EXPECT_EQ(floatToBfloat16(fromBits(0x80018000)), 0x8002);
  EXPECT_EQ(floatToBfloat16(std::numeric_limits<float>::max()), 0x7F80);
}

}  // namespace
}  // namespace onyx
