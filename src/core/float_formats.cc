#include "onyx/core/float_formats.h"

#include <array>
#include <bit>

namespace onyx {
namespace {

constexpr uint32_t kSignBit = 0x80000000u;
constexpr uint32_t kInfBits = 0x7F800000u;  // also the largest magnitude that is not NaN
constexpr uint32_t kFractionMask = 0x007FFFFFu;
constexpr uint32_t kQuietNaNBits = 0x7FC00000u;

// Rounds a float magnitude (its bits with the sign cleared; finite or inf, never NaN) to the
// nearest code of a binary format with kFractionBits fraction bits and exponent bias kBias, ties
// to even. The exponent is unbounded above: a code past the format's largest finite one means the
// value overflowed, and the caller decides what that becomes. Rounding first and checking the
// range afterwards is IEEE 754's rule and what the Cast tables mean by comparing [x] with FLT_MAX.
template <int kFractionBits, int kBias>
constexpr uint32_t roundToCode(uint32_t magnitude) {
  constexpr int kDroppedBits = 23 - kFractionBits;
  // The float exponent field of the target's smallest normal number.
  constexpr auto kMinNormalField = static_cast<uint32_t>(127 - kBias + 1);
  constexpr auto kRebias = static_cast<uint32_t>(127 - kBias) << kFractionBits;
  uint32_t kept;
  uint32_t rest;
  int dropped;
  if (magnitude >= (kMinNormalField << 23)) {
    // Exponent and fraction sit side by side in the float's bits, so a shift keeps the top
    // fraction bits and a subtraction rebiases the exponent. A carry out of the fraction when
    // rounding up lands in the exponent, which is exactly the next code.
    kept = (magnitude >> kDroppedBits) - kRebias;
    rest = magnitude & ((1u << kDroppedBits) - 1);
    dropped = kDroppedBits;
  } else {
    // Subnormal or zero in the target: the significand, with its leading 1 made explicit, shifts
    // one place further for each step its exponent is below the target's smallest normal.
    const uint32_t field = magnitude >> 23;
    const uint32_t significand = (magnitude & kFractionMask) | (field != 0 ? 0x00800000u : 0u);
    const uint32_t belowMinNormal = kMinNormalField - (field != 0 ? field : 1u);
    dropped = kDroppedBits + static_cast<int>(belowMinNormal);
    // The significand is below 2^24, so with 25 bits dropped it is already under half a step.
    if (dropped > 25) dropped = 25;
    kept = significand >> dropped;
    rest = significand & ((1u << dropped) - 1);
  }
  const uint32_t half = 1u << (dropped - 1);
  return kept + ((rest > half || (rest == half && (kept & 1u) != 0)) ? 1u : 0u);
}

// The positive value of a magnitude code of a binary format (no NaN or inf handling).
template <int kFractionBits, int kBias>
constexpr float decodeMagnitude(uint32_t code) {
  const uint32_t field = code >> kFractionBits;
  const uint32_t fraction = code & ((1u << kFractionBits) - 1);
  if (field != 0) {
    const auto floatField = static_cast<uint32_t>(static_cast<int>(field) + 127 - kBias);
    return std::bit_cast<float>((floatField << 23) | (fraction << (23 - kFractionBits)));
  }
  if (fraction == 0) return 0.0f;
  // Subnormal: fraction * 2^(1 - kBias - kFractionBits), renormalised around its leading bit.
  const int lead = std::bit_width(fraction) - 1;
  const auto floatField = static_cast<uint32_t>(1 - kBias - kFractionBits + lead + 127);
  const uint32_t floatFraction = (fraction & ~(1u << lead)) << (23 - lead);
  return std::bit_cast<float>((floatField << 23) | floatFraction);
}

constexpr float withSign(float magnitude, bool negative) {
  return negative ? std::bit_cast<float>(std::bit_cast<uint32_t>(magnitude) | kSignBit) : magnitude;
}

constexpr float quietNaN(bool negative) {
  return std::bit_cast<float>(kQuietNaNBits | (negative ? kSignBit : 0u));
}

struct Float8Params {
  int fractionBits;
  int bias;
  uint8_t maxCode;    // largest finite magnitude code
  bool unsignedZero;  // FNUZ: 0x80 is the only NaN, there is no -0
  bool hasInf;        // E5M2
};

template <Float8Format kFormat>
constexpr Float8Params kParams = {};
template <>
constexpr Float8Params kParams<Float8Format::kE4M3FN> = {3, 7, 0x7E, false, false};
template <>
constexpr Float8Params kParams<Float8Format::kE4M3FNUZ> = {3, 8, 0x7F, true, false};
template <>
constexpr Float8Params kParams<Float8Format::kE5M2> = {2, 15, 0x7B, false, true};
template <>
constexpr Float8Params kParams<Float8Format::kE5M2FNUZ> = {2, 16, 0x7F, true, false};

template <Float8Format kFormat>
uint8_t encodeFloat8(float value, bool saturate) {
  constexpr Float8Params kP = kParams<kFormat>;
  const uint32_t bits = std::bit_cast<uint32_t>(value);
  const uint32_t sign = (bits >> 24) & 0x80u;
  const uint32_t magnitude = bits & ~kSignBit;
  if (magnitude > kInfBits) {
    if constexpr (kP.unsignedZero) return 0x80;
    // E5M2's NaN takes the quiet pattern S.11111.10, E4M3FN's its only one, S.1111.111.
    return static_cast<uint8_t>(sign | (kP.hasInf ? 0x7Eu : 0x7Fu));
  }
  // Infinity needs no case of its own: it rounds past the max like any other overflow, and every
  // row of both Cast tables treats the two alike.
  uint32_t code = roundToCode<kP.fractionBits, kP.bias>(magnitude);
  if (code > kP.maxCode) {
    if (saturate) {
      code = kP.maxCode;
    } else if constexpr (kP.unsignedZero) {
      return 0x80;
    } else {
      code = kP.hasInf ? 0x7Cu : 0x7Fu;
    }
  }
  if constexpr (kP.unsignedZero) {
    if (code == 0) return 0;
  }
  return static_cast<uint8_t>(sign | code);
}

template <Float8Format kFormat>
constexpr std::array<float, 256> makeFloat8Table() {
  constexpr Float8Params kP = kParams<kFormat>;
  std::array<float, 256> table{};
  for (uint32_t code = 0; code < 256; ++code) {
    const bool negative = (code & 0x80u) != 0;
    const uint32_t magnitude = code & 0x7Fu;
    float value = withSign(decodeMagnitude<kP.fractionBits, kP.bias>(magnitude), negative);
    if (kP.unsignedZero && code == 0x80) {
      value = quietNaN(false);
    } else if (kP.hasInf && magnitude == 0x7C) {
      value = std::bit_cast<float>(kInfBits | (negative ? kSignBit : 0u));
    } else if (magnitude > kP.maxCode) {
      value = quietNaN(negative);
    }
    table[code] = value;
  }
  return table;
}

constexpr std::array<float, 256> makeE8M0Table() {
  std::array<float, 256> table{};
  // 2^-127 is a float subnormal, the only code whose float bits are not just code << 23.
  table[0] = std::bit_cast<float>(0x00400000u);
  for (uint32_t code = 1; code < 255; ++code) table[code] = std::bit_cast<float>(code << 23);
  table[255] = quietNaN(false);
  return table;
}

constexpr std::array<float, 16> makeFloat4Table() {
  std::array<float, 16> table{};
  for (uint32_t code = 0; code < 16; ++code) {
    table[code] = withSign(decodeMagnitude<1, 1>(code & 0x7u), (code & 0x8u) != 0);
  }
  return table;
}

constexpr std::array<std::array<float, 256>, 5> kFloat8Tables = {
    makeFloat8Table<Float8Format::kE4M3FN>(), makeFloat8Table<Float8Format::kE4M3FNUZ>(),
    makeFloat8Table<Float8Format::kE5M2>(), makeFloat8Table<Float8Format::kE5M2FNUZ>(),
    makeE8M0Table()};

constexpr std::array<float, 16> kFloat4Table = makeFloat4Table();

static_assert(kFloat4Table[7] == 6.0f && kFloat4Table[1] == 0.5f && kFloat4Table[13] == -3.0f);
static_assert(kFloat8Tables[0][0x7E] == 448.0f && kFloat8Tables[1][0x7F] == 240.0f);
static_assert(kFloat8Tables[2][0x7B] == 57344.0f && kFloat8Tables[3][0x7F] == 57344.0f);
static_assert(kFloat8Tables[4][127] == 1.0f && kFloat8Tables[0][0x01] == 0.001953125f);

}  // namespace

std::optional<Float8Format> float8FormatOf(ElementType type) {
  switch (type) {
    case ElementType::kFloat8E4M3FN:
      return Float8Format::kE4M3FN;
    case ElementType::kFloat8E4M3FNUZ:
      return Float8Format::kE4M3FNUZ;
    case ElementType::kFloat8E5M2:
      return Float8Format::kE5M2;
    case ElementType::kFloat8E5M2FNUZ:
      return Float8Format::kE5M2FNUZ;
    case ElementType::kFloat8E8M0:
      return Float8Format::kE8M0;
    default:
      return std::nullopt;
  }
}

std::optional<E8M0Rounding> e8m0RoundingFromName(std::string_view name) {
  if (name == "up") return E8M0Rounding::kUp;
  if (name == "down") return E8M0Rounding::kDown;
  if (name == "nearest") return E8M0Rounding::kNearest;
  return std::nullopt;
}

uint16_t floatToFloat16(float value) {
  const uint32_t bits = std::bit_cast<uint32_t>(value);
  const uint32_t sign = (bits >> 16) & 0x8000u;
  const uint32_t magnitude = bits & ~kSignBit;
  if (magnitude > kInfBits) {
    // Setting the top fraction bit keeps a NaN whose payload was only in the low bits a NaN.
    return static_cast<uint16_t>(sign | 0x7E00u | ((magnitude >> 13) & 0x03FFu));
  }
  uint32_t code = roundToCode<10, 15>(magnitude);
  if (code > 0x7BFFu) code = 0x7C00u;
  return static_cast<uint16_t>(sign | code);
}

float float16ToFloat(uint16_t code) {
  const uint32_t sign = static_cast<uint32_t>(code & 0x8000u) << 16;
  const uint32_t field = (code >> 10) & 0x1Fu;
  const uint32_t fraction = code & 0x03FFu;
  if (field == 0x1F) return std::bit_cast<float>(sign | kInfBits | (fraction << 13));
  if (field != 0) return std::bit_cast<float>(sign | ((field + 112) << 23) | (fraction << 13));
  // Subnormal: fraction * 2^-24, a product that float holds exactly.
  return withSign(static_cast<float>(fraction) * 0x1p-24f, sign != 0);
}

// ONNX rounds to nearest even here. Cast's text does not say how bfloat16 is rounded, but its
// reference implementation converts with ml_dtypes (round to nearest even), the backend test
// test_cast_FLOAT_to_BFLOAT16 expects those results, and the helper that predates ml_dtypes
// (helper.float32_to_bfloat16) rounded to nearest even unless asked to truncate. The onnx.proto
// comment "truncated to 16 bits" describes the layout, not the rounding.
uint16_t floatToBfloat16(float value) {
  const uint32_t bits = std::bit_cast<uint32_t>(value);
  const uint32_t sign = (bits >> 16) & 0x8000u;
  const uint32_t magnitude = bits & ~kSignBit;
  if (magnitude > kInfBits) return static_cast<uint16_t>(sign | 0x0040u | (magnitude >> 16));
  uint32_t code = roundToCode<7, 127>(magnitude);
  if (code > 0x7F7Fu) code = 0x7F80u;
  return static_cast<uint16_t>(sign | code);
}

float bfloat16ToFloat(uint16_t code) {
  return std::bit_cast<float>(static_cast<uint32_t>(code) << 16);
}

uint8_t floatToFloat8(float value, Float8Format format, bool saturate) {
  switch (format) {
    case Float8Format::kE4M3FN:
      return encodeFloat8<Float8Format::kE4M3FN>(value, saturate);
    case Float8Format::kE4M3FNUZ:
      return encodeFloat8<Float8Format::kE4M3FNUZ>(value, saturate);
    case Float8Format::kE5M2:
      return encodeFloat8<Float8Format::kE5M2>(value, saturate);
    case Float8Format::kE5M2FNUZ:
      return encodeFloat8<Float8Format::kE5M2FNUZ>(value, saturate);
    case Float8Format::kE8M0:
      return floatToFloat8E8M0(value, saturate, E8M0Rounding::kUp);
  }
  return 0;
}

float float8ToFloat(uint8_t code, Float8Format format) {
  return kFloat8Tables[static_cast<size_t>(format)][code];
}

// Two places where this follows Cast's table and text rather than ONNX's reference
// implementation (numpy_helper.to_float8e8m0), which reads only the float's exponent field:
// infinity saturates to 2^127 (the reference gives NaN), and float subnormals are rounded by their
// real value (the reference treats exponent field 0 as 2^-127 times 1.fraction). Zero without
// saturation is NaN as the table says; the reference gives 2^-127.
uint8_t floatToFloat8E8M0(float value, bool saturate, E8M0Rounding mode) {
  constexpr uint8_t kNaN = 0xFF;
  constexpr uint8_t kMax = 0xFE;
  constexpr uint8_t kMin = 0x00;
  const uint32_t magnitude = std::bit_cast<uint32_t>(value) & ~kSignBit;
  if (magnitude > kInfBits) return kNaN;
  if (magnitude == kInfBits) return saturate ? kMax : kNaN;
  if (magnitude == 0) return saturate ? kMin : kNaN;
  // |value| = 2^exponent * 1.fraction, with fractionBits bits of fraction.
  int exponent;
  uint32_t fraction;
  int fractionBits;
  if (const uint32_t field = magnitude >> 23; field != 0) {
    exponent = static_cast<int>(field) - 127;
    fraction = magnitude & kFractionMask;
    fractionBits = 23;
  } else {
    fractionBits = std::bit_width(magnitude) - 1;
    exponent = fractionBits - 149;
    fraction = magnitude & ((1u << fractionBits) - 1);
  }
  switch (mode) {
    case E8M0Rounding::kUp:
      exponent += fraction != 0 ? 1 : 0;
      break;
    case E8M0Rounding::kDown:
      break;
    case E8M0Rounding::kNearest:
      // The midpoint of 2^k and 2^(k+1) is 1.5 * 2^k: the top fraction bit decides, ties go up.
      exponent += (fractionBits > 0 && ((fraction >> (fractionBits - 1)) & 1u) != 0) ? 1 : 0;
      break;
  }
  const int code = exponent + 127;
  if (code > kMax) return saturate ? kMax : kNaN;
  if (code < kMin) return saturate ? kMin : kNaN;
  return static_cast<uint8_t>(code);
}

uint8_t floatToFloat4E2M1(float value, bool /*saturate*/) {
  const uint32_t bits = std::bit_cast<uint32_t>(value);
  const uint32_t sign = (bits >> 28) & 0x8u;
  const uint32_t magnitude = bits & ~kSignBit;
  // The float4 document's Cast table maps NaN to 6, whatever its sign.
  if (magnitude > kInfBits) return 0x7;
  uint32_t code = roundToCode<1, 1>(magnitude);
  if (code > 0x7u) code = 0x7u;
  return static_cast<uint8_t>(sign | code);
}

float float4E2M1ToFloat(uint8_t code) { return kFloat4Table[code & 0xFu]; }

}  // namespace onyx
