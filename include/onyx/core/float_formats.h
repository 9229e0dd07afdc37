// onyx/core/float_formats.h — exact conversions between float and ONNX's narrow floating-point
// formats: FLOAT16, BFLOAT16, the five FLOAT8 types and FLOAT4E2M1.
//
// Decoding (code -> float) is always exact: every value of these formats is a float. Encoding
// (float -> code) rounds to nearest, ties to even (FLOAT8E8M0: as Cast's round_mode says), and
// treats out-of-range values, infinities and NaN the way the Cast operator (opset 25, the current
// one) says. Codes are the bit patterns stored in raw_data.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "onyx/core/element_type.h"

// Exported from the shared libraries: the public API (see src/CMakeLists.txt).
#pragma GCC visibility push(default)

namespace onyx {

enum class Float8Format : uint8_t {
  kE4M3FN,    // bias 7, no inf, NaN is S.1111.111, max 448
  kE4M3FNUZ,  // bias 8, no inf, no -0, NaN is 0x80, max 240
  kE5M2,      // bias 15, IEEE-like: inf S.11111.00, NaN S.11111.{01,10,11}, max 57344
  kE5M2FNUZ,  // bias 16, no inf, no -0, NaN is 0x80, max 57344
  kE8M0,      // exponent only, bias 127, no sign, no zero, no inf; 2^-127 .. 2^127, NaN is 0xFF
};

/// Cast's round_mode attribute, which only applies to FLOAT8E8M0.
enum class E8M0Rounding : uint8_t {
  kUp,       // "up": to the next power of two away from zero (Cast's default)
  kDown,     // "down": to the next power of two towards zero
  kNearest,  // "nearest": to the nearer power of two, ties (1.5 * 2^k) up
};

/// The FLOAT8 format of an element type; nullopt for the other types.
std::optional<Float8Format> float8FormatOf(ElementType type);

/// Parses Cast's round_mode value: "up", "down" or "nearest".
std::optional<E8M0Rounding> e8m0RoundingFromName(std::string_view name);

/// IEEE binary16. Overflow gives inf; NaN stays NaN (quiet, sign and top payload bits kept).
uint16_t floatToFloat16(float value);
float float16ToFloat(uint16_t code);

/// bfloat16: the top half of a float, rounded to nearest even (not truncated: see the .cc).
/// Overflow gives inf; NaN stays NaN (quiet, sign and top payload bits kept).
uint16_t floatToBfloat16(float value);
float bfloat16ToFloat(uint16_t code);

/// Cast to a FLOAT8 type. With `saturate`, finite values past the largest finite value and
/// infinities become ±max; without it they become NaN (inf for E5M2). NaN stays NaN, with its
/// sign for E4M3FN and E5M2. For the FNUZ formats -0 and values that round to zero give +0.
/// This is the table of Cast-24 and later; Cast-19 to Cast-23 turned ±inf into NaN for the FNUZ
/// formats even when saturating. kE8M0 is floatToFloat8E8M0 with Cast's default rounding,
/// E8M0Rounding::kUp.
uint8_t floatToFloat8(float value, Float8Format format, bool saturate);

/// Exact; every NaN code (E4M3FN S.1111.111, E5M2 S.11111.{01,10,11}, FNUZ 0x80, E8M0 0xFF)
/// decodes to a quiet NaN, negative for the negative NaN codes of E4M3FN and E5M2.
float float8ToFloat(uint8_t code, Float8Format format);

/// Cast to FLOAT8E8M0. The value is rounded to a power of two by `mode` (over an unbounded
/// exponent range), then checked against 2^-127 .. 2^127: out of range it becomes the nearest end
/// with `saturate` and NaN without. So with `saturate` 0 gives 2^-127 and inf gives 2^127, and
/// without it both give NaN; NaN always gives NaN. The sign is ignored (the spec leaves
/// negative inputs unspecified; this reads their magnitude, as ONNX's reference does).
uint8_t floatToFloat8E8M0(float value, bool saturate, E8M0Rounding mode);

/// Cast to FLOAT4E2M1, which has no inf or NaN: values past ±6 and ±inf become ±6 and NaN becomes
/// +6 (0x7), as the spec's float4 table says. ±0 keeps its sign. `saturate` changes nothing: Cast's
/// saturate attribute only applies to FLOAT8 types and there is no other result to give.
uint8_t floatToFloat4E2M1(float value, bool saturate = true);

/// Exact. Only the low 4 bits of `code` are read.
float float4E2M1ToFloat(uint8_t code);

}  // namespace onyx

#pragma GCC visibility pop
