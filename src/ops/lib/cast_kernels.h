// Internal: element type conversion as Cast defines it, shared by Cast, CastLike and the
// quantization kernels.
//
// The rules (Cast's description and ONNX's reference, which follows numpy):
//  - integer or bool to integer: the value's low bits, reinterpreted (two's complement), so
//    200 (int16) gives -56 (int8) and -9 gives 7 as INT4; the sub-byte types too;
//  - floating point to integer: truncated toward zero, then as above (the spec leaves values
//    out of range undefined; NaN gives 0 and values beyond int64 are clamped to it first);
//  - anything to bool: nonzero (NaN included) is true;
//  - to FLOAT and DOUBLE: rounded to nearest even, overflow giving infinity;
//  - to the narrow floating-point types: rounded once (a double source is first narrowed to
//    float rounding to odd, so that the second rounding is exact), with `saturate` for the
//    FLOAT8 types and `round_mode` for FLOAT8E8M0 (onyx/core/float_formats.h);
//  - numbers to STRING as numpy prints them: integers in decimal, floating point in the
//    shortest form that reads back, positional for 1e-4 <= |x| < 1e16 ("0.5", "100.0") and
//    scientific otherwise ("1e-05", "1e+16"), "nan", "inf", "-inf"; bool as "True"/"False";
//  - STRING to numbers: decimal integers exactly, else a floating-point literal (plain or
//    scientific, "inf"/"+INF"/"-INF"/"NaN" in any case) converted as above.
#pragma once

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>
#include <type_traits>

#include "onyx/core/array.h"
#include "onyx/core/array_elements.h"
#include "onyx/core/float_formats.h"
#include "ops/kernels.h"
#include "ops/lib/float_casts.h"

namespace onyx::ops::cast {

/// How values reach a FLOAT8 type (Cast's saturate and round_mode attributes), and whether
/// the FNUZ types turn ±inf into NaN even when saturating (Cast-19 to Cast-23).
struct CastOptions {
  bool saturate = true;
  E8M0Rounding rounding = E8M0Rounding::kUp;
  bool fnuz_inf_is_nan = false;
};

// Cast's saturate and round_mode attributes, as the node's version reads them.
inline Result<CastOptions> castOptions(const KernelContext& ctx) {
  CastOptions options;
  options.saturate = ctx.intAttribute("saturate").value_or(1) != 0;
  std::string_view mode = ctx.stringAttribute("round_mode").value_or("up");
  std::optional<E8M0Rounding> rounding = e8m0RoundingFromName(mode);
  if (!rounding) {
    return ctx.fail("round_mode must be \"up\", \"down\" or \"nearest\", not \"" +
                    std::string(mode) + "\"");
  }
  options.rounding = *rounding;
  int version = ctx.schema().since_version;
  options.fnuz_inf_is_nan = version >= 19 && version < 24;
  return options;
}

/// `value` as a float, rounded to odd: when it is not exactly a float, the neighbour with
/// an odd last bit. A later rounding to a format of fewer bits then rounds as if from
/// `value` itself.
inline float roundToOddFloat(double value) {
  float rounded = static_cast<float>(value);
  if (!std::isfinite(value) || static_cast<double>(rounded) == value) return rounded;
  if (std::isinf(rounded)) return rounded;
  uint32_t bits = 0;
  std::memcpy(&bits, &rounded, sizeof bits);
  if ((bits & 1U) != 0) return rounded;
  return std::nextafter(rounded, value > static_cast<double>(rounded)
                                     ? std::numeric_limits<float>::infinity()
                                     : -std::numeric_limits<float>::infinity());
}

/// A floating-point value truncated toward zero as an int64 (NaN 0, clamped to int64).
inline int64_t truncatedToInt64(double value) {
  if (std::isnan(value)) return 0;
  double truncated = std::trunc(value);
  if (truncated >= 9223372036854775807.0) return std::numeric_limits<int64_t>::max();
  if (truncated <= -9223372036854775808.0) return std::numeric_limits<int64_t>::min();
  return static_cast<int64_t>(truncated);
}

/// A floating-point value as the integer type D: truncated, then its low bits.
template <class D>
D floatToInteger(double value) {
  if constexpr (std::is_same_v<D, uint64_t>) {
    if (!std::isnan(value) && value >= 9223372036854775808.0) {
      return value >= 18446744073709551616.0 ? std::numeric_limits<uint64_t>::max()
                                             : static_cast<uint64_t>(value);
    }
  }
  return static_cast<D>(truncatedToInt64(value));
}

/// An integer value's low `bits` bits as a sub-byte element (sign-extended when signed).
inline uint8_t wrapSubByte(int64_t value, ElementType type) {
  switch (type) {
    case ElementType::kInt4:
      return static_cast<uint8_t>(static_cast<int8_t>((value & 0xF) << 4) >> 4);
    case ElementType::kUint4: return static_cast<uint8_t>(value & 0xF);
    case ElementType::kInt2:
      return static_cast<uint8_t>(static_cast<int8_t>((value & 0x3) << 6) >> 6);
    case ElementType::kUint2: return static_cast<uint8_t>(value & 0x3);
    default: return 0;
  }
}

inline bool isSubByteInteger(ElementType type) {
  return type == ElementType::kInt4 || type == ElementType::kUint4 || type == ElementType::kInt2 ||
         type == ElementType::kUint2;
}

/// The code of `value` in a narrow floating-point type (FLOAT16, BFLOAT16, FLOAT8*,
/// FLOAT4E2M1), as Cast rounds it.
inline uint16_t encodeNarrow(float value, ElementType type, const CastOptions& options) {
  switch (type) {
    case ElementType::kFloat16: return floatToFloat16(value);
    case ElementType::kBfloat16: return floatToBfloat16(value);
    case ElementType::kFloat4E2M1:
      // The float4 note's table sends NaN to 6, but ONNX's reference (and the conformance
      // data made with it) gives the code 0x8 (-0); onyx follows the reference.
      return std::isnan(value) ? 0x8 : floatToFloat4E2M1(value);
    case ElementType::kFloat8E8M0:
      return floatToFloat8E8M0(value, options.saturate, options.rounding);
    default: break;
  }
  Float8Format format = Float8Format::kE4M3FN;
  switch (type) {
    case ElementType::kFloat8E4M3FN: format = Float8Format::kE4M3FN; break;
    case ElementType::kFloat8E4M3FNUZ: format = Float8Format::kE4M3FNUZ; break;
    case ElementType::kFloat8E5M2: format = Float8Format::kE5M2; break;
    case ElementType::kFloat8E5M2FNUZ: format = Float8Format::kE5M2FNUZ; break;
    default: return 0;
  }
  if (options.fnuz_inf_is_nan && std::isinf(value) &&
      (format == Float8Format::kE4M3FNUZ || format == Float8Format::kE5M2FNUZ)) {
    return 0x80;
  }
  return floatToFloat8(value, format, options.saturate);
}

/// isNarrowFloat, inline for per-element use.
inline bool isNarrowFloatType(ElementType type) {
  switch (type) {
    case ElementType::kFloat16:
    case ElementType::kBfloat16:
    case ElementType::kFloat8E4M3FN:
    case ElementType::kFloat8E4M3FNUZ:
    case ElementType::kFloat8E5M2:
    case ElementType::kFloat8E5M2FNUZ:
    case ElementType::kFloat4E2M1:
    case ElementType::kFloat8E8M0: return true;
    default: return false;
  }
}

/// The shortest decimal digits of `value` that read back to the same value of `type` (FLOAT,
/// DOUBLE or a narrow type), laid out as numpy prints a float.
inline std::string formatFloat(double value, ElementType type) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  if (value == 0) return std::signbit(value) ? "-0.0" : "0.0";
  char buffer[64];
  std::to_chars_result written{};
  if (type == ElementType::kDouble) {
    written = std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::scientific);
  } else if (type == ElementType::kFloat) {
    written = std::to_chars(buffer, buffer + sizeof buffer, static_cast<float>(value),
                            std::chars_format::scientific);
  } else {
    // A narrow type: the fewest significant digits that encode back to the same code.
    CastOptions options;
    uint16_t code = encodeNarrow(static_cast<float>(value), type, options);
    for (int digits = 0; digits < 9; ++digits) {
      written = std::to_chars(buffer, buffer + sizeof buffer, static_cast<float>(value),
                              std::chars_format::scientific, digits);
      float back = std::strtof(std::string(buffer, written.ptr).c_str(), nullptr);
      if (encodeNarrow(back, type, options) == code) break;
    }
  }
  // buffer holds [-]d[.ddd]e[+-]XX: split it into sign, digits and exponent.
  std::string_view text(buffer, static_cast<size_t>(written.ptr - buffer));
  bool negative = !text.empty() && text[0] == '-';
  if (negative) text.remove_prefix(1);
  size_t e = text.find('e');
  std::string digits;
  for (char c : text.substr(0, e))
    if (c != '.') digits += c;
  while (digits.size() > 1 && digits.back() == '0') digits.pop_back();
  int exponent = std::atoi(std::string(text.substr(e + 1)).c_str());
  std::string out = negative ? "-" : "";
  if (exponent >= -4 && exponent < 16) {
    if (exponent < 0) {
      out += "0.";
      out.append(static_cast<size_t>(-exponent - 1), '0');
      out += digits;
    } else if (static_cast<size_t>(exponent) + 1 >= digits.size()) {
      out += digits;
      out.append(static_cast<size_t>(exponent) + 1 - digits.size(), '0');
      out += ".0";
    } else {
      out += digits.substr(0, static_cast<size_t>(exponent) + 1);
      out += '.';
      out += digits.substr(static_cast<size_t>(exponent) + 1);
    }
    return out;
  }
  out += digits[0];
  if (digits.size() > 1) {
    out += '.';
    out += digits.substr(1);
  }
  out += exponent < 0 ? "e-" : "e+";
  int magnitude = exponent < 0 ? -exponent : exponent;
  if (magnitude < 10) out += '0';
  out += std::to_string(magnitude);
  return out;
}

/// A number read from a string: an exact integer when the text is one, else a double.
struct ParsedNumber {
  bool is_integer = false;
  bool is_unsigned = false;  // an integer past INT64_MAX, in `unsigned_value`
  int64_t integer = 0;
  uint64_t unsigned_value = 0;
  double real = 0;
};

inline std::optional<ParsedNumber> parseNumber(std::string_view text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front())))
    text.remove_prefix(1);
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back())))
    text.remove_suffix(1);
  if (text.empty()) return std::nullopt;
  ParsedNumber number;
  std::string_view digits =
      text[0] == '+' && text.size() > 1 && text[1] != '-' ? text.substr(1) : text;
  if (!digits.empty()) {
    auto [end, error] =
        std::from_chars(digits.data(), digits.data() + digits.size(), number.integer);
    if (error == std::errc() && end == digits.data() + digits.size()) {
      number.is_integer = true;
      number.real = static_cast<double>(number.integer);
      return number;
    }
    auto [uend, uerror] =
        std::from_chars(digits.data(), digits.data() + digits.size(), number.unsigned_value);
    if (uerror == std::errc() && uend == digits.data() + digits.size()) {
      number.is_integer = number.is_unsigned = true;
      number.real = static_cast<double>(number.unsigned_value);
      return number;
    }
  }
  std::string lower;
  for (char c : text) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (lower == "true") return ParsedNumber{true, false, 1, 0, 1};
  if (lower == "false") return ParsedNumber{true, false, 0, 0, 0};
  std::string copy(text);
  char* end = nullptr;
  number.real = std::strtod(copy.c_str(), &end);
  if (end != copy.c_str() + copy.size()) return std::nullopt;
  // Hexadecimal floating literals are not numbers here.
  if (lower.find('x') != std::string::npos) return std::nullopt;
  return number;
}

/// Converts element `value` (native type S, or int8_t/uint8_t for the sub-byte integers) to
/// element `index` of `out`.
template <class S>
inline void storeConverted(S value, Array& out, size_t index, const CastOptions& options);

/// `in` cast to `to`. Fails (with the text) only for a string that is not a number. With a
/// context, numeric elements are converted on its threads.
inline Result<Array> castArray(const Array& in, ElementType to, const CastOptions& options,
                               const KernelContext* ctx = nullptr) {
  Result<Array> made = Array::allocate(to, in.shape());
  if (!made) return made.status();
  Array out = std::move(*made);
  const size_t count = in.size();

  if (in.type() == to) {
    if (count > 0) copyElements(in, 0, out, 0, count);
    return out;
  }

  // ---- from STRING ---------------------------------------------------------------------
  if (in.isString()) {
    const std::vector<std::string>& texts = in.strings();
    for (size_t i = 0; i < count; ++i) {
      std::optional<ParsedNumber> number = parseNumber(texts[i]);
      if (!number) {
        return Status(ErrorCode::kInvalidArgument,
                      "cannot read \"" + texts[i].substr(0, 40) + "\" as a number");
      }
      if (number->is_integer && !number->is_unsigned) {
        storeConverted<int64_t>(number->integer, out, i, options);
      } else if (number->is_integer) {
        storeConverted<uint64_t>(number->unsigned_value, out, i, options);
      } else {
        storeConverted<double>(number->real, out, i, options);
      }
    }
    return out;
  }

  // ---- numeric sources -----------------------------------------------------------------
  auto run = [&]<class S>(const S* data) {
    auto convert = [&](size_t begin, size_t end) {
      constexpr bool kVectorized = std::is_same_v<S, int32_t> || std::is_same_v<S, int64_t> ||
                                   std::is_same_v<S, uint8_t> || std::is_same_v<S, int8_t> ||
                                   std::is_same_v<S, double>;
      if constexpr (kVectorized) {
        if (to == ElementType::kFloat) {
          toFloats(data + begin, end - begin, out.data<float>() + begin);
          return;
        }
      }
      if constexpr (std::is_same_v<S, float>) {
        if (to == ElementType::kFloat16 && in.type() == ElementType::kFloat) {
          floatsToHalves(data + begin, end - begin, out.data<uint16_t>() + begin);
          return;
        }
      }
      for (size_t i = begin; i < end; ++i) storeConverted<S>(data[i], out, i, options);
    };
    if (ctx != nullptr && to != ElementType::kString) {
      parallelFor(*ctx, count, size_t{1} << 15, convert);
    } else {
      convert(0, count);
    }
  };
  switch (in.type()) {
    case ElementType::kInt4:
    case ElementType::kInt2: run(in.data<int8_t>()); return out;
    case ElementType::kUint4:
    case ElementType::kUint2: run(in.data<uint8_t>()); return out;
    default: break;
  }
  if (in.type() == ElementType::kFloat16 && to == ElementType::kFloat) {
    const uint16_t* halves = in.data<uint16_t>();
    auto widen = [&](size_t begin, size_t end) {
      halvesToFloats(halves + begin, end - begin, out.data<float>() + begin);
    };
    if (ctx != nullptr) {
      parallelFor(*ctx, count, size_t{1} << 15, widen);
    } else {
      widen(0, count);
    }
    return out;
  }
  if (isNarrowFloat(in.type())) {
    if (to == ElementType::kString) {
      std::vector<std::string>& texts = out.strings();
      for (size_t i = 0; i < count; ++i) texts[i] = formatFloat(elementAsDouble(in, i), in.type());
      return out;
    }
    Array wide = widenToFloat(in);
    run(wide.data<float>());
    return out;
  }
  bool ok = dispatchNative(in.type(), [&]<class S>() { run(in.data<S>()); });
  if (!ok) {
    return Status(ErrorCode::kInvalidArgument,
                  "cannot cast from " + std::string(elementTypeName(in.type())));
  }
  return out;
}

template <class S>
inline void storeConverted(S value, Array& out, size_t index, const CastOptions& options) {
  constexpr bool kFloating = std::is_floating_point_v<S>;
  const ElementType to = out.type();
  switch (to) {
    case ElementType::kFloat:
      out.data<float>()[index] =
          std::is_same_v<S, bool> ? (value ? 1.0f : 0.0f) : static_cast<float>(value);
      return;
    case ElementType::kDouble:
      out.data<double>()[index] =
          std::is_same_v<S, bool> ? (value ? 1.0 : 0.0) : static_cast<double>(value);
      return;
    case ElementType::kBool: out.data<bool>()[index] = value != S{}; return;
    case ElementType::kString: {
      std::string& text = out.strings()[index];
      if constexpr (std::is_same_v<S, bool>) {
        text = value ? "True" : "False";
      } else if constexpr (std::is_same_v<S, float>) {
        text = formatFloat(value, ElementType::kFloat);
      } else if constexpr (std::is_same_v<S, double>) {
        text = formatFloat(value, ElementType::kDouble);
      } else {
        text = std::to_string(value);
      }
      return;
    }
    default: break;
  }
  if (isSubByteInteger(to)) {
    int64_t wide = 0;
    if constexpr (kFloating) {
      wide = truncatedToInt64(static_cast<double>(value));
    } else {
      wide = static_cast<int64_t>(value);
    }
    out.data<uint8_t>()[index] = wrapSubByte(wide, to);
    return;
  }
  if (isNarrowFloatType(to)) {
    float narrow = 0;
    if constexpr (std::is_same_v<S, float>) {
      narrow = value;
    } else if constexpr (std::is_same_v<S, bool>) {
      narrow = value ? 1.0f : 0.0f;
    } else {
      narrow = roundToOddFloat(static_cast<double>(value));
    }
    uint16_t code = encodeNarrow(narrow, to, options);
    if (to == ElementType::kFloat16 || to == ElementType::kBfloat16) {
      out.data<uint16_t>()[index] = code;
    } else {
      out.data<uint8_t>()[index] = static_cast<uint8_t>(code);
    }
    return;
  }
  dispatchInteger(to, [&]<class D>() {
    if constexpr (kFloating) {
      out.data<D>()[index] = floatToInteger<D>(static_cast<double>(value));
    } else {
      out.data<D>()[index] = static_cast<D>(value);
    }
  });
}

}  // namespace onyx::ops::cast
