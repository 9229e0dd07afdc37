#include "text/scanner.h"

#include <locale.h>  // newlocale, strtof_l, strtod_l: C-locale conversions of range errors

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <system_error>

#include "onyx/core/quote.h"
#include "onyx/ir/name_table.h"

namespace onyx::text {

namespace {

// from_chars leaves the value unset on a range error; C's strtof/strtod give the correctly
// rounded zero or subnormal for an underflow (which onnx accepts) and infinity for an
// overflow (which it refuses). They read the C locale's decimal point whatever the process's.
locale_t cLocale() {
  static const locale_t locale = newlocale(LC_ALL_MASK, "C", nullptr);
  return locale;
}

template <class T>
bool convertFloat(const char* begin, const char* end, T& value) {
  auto [ptr, ec] = std::from_chars(begin, end, value);
  if (ec == std::errc() && ptr == end) return true;
  if (ec != std::errc::result_out_of_range || ptr != end || cLocale() == nullptr) return false;
  std::string copy(begin, end);  // strto* need a terminated string; range errors are rare
  if constexpr (std::is_same_v<T, float>) {
    value = strtof_l(copy.c_str(), nullptr, cLocale());
  } else {
    value = strtod_l(copy.c_str(), nullptr, cLocale());
  }
  return !std::isinf(value);
}

bool isContinuationByte(char c) { return (static_cast<unsigned char>(c) & 0xc0) == 0x80; }

}  // namespace

void Scanner::skipComment() {
  const void* newline = std::memchr(p_, '\n', static_cast<size_t>(end_ - p_));
  p_ = newline != nullptr ? static_cast<const char*>(newline) : end_;
}

bool Scanner::expect(char c) {
  if (accept(c)) return true;
  char what[4] = {'\'', c, '\'', 0};
  return expected(what);
}

bool Scanner::quoted(TextString& out) {
  const char* open = p_;
  const char* q = p_ + 1;
  size_t escapes = 0;
  for (;;) {
    // Most strings are short and have no backslash: look for either byte at once.
    while (q < end_ && *q != '"' && *q != '\\') ++q;
    if (q == end_) {
      return failAt(open, ErrorCode::kMalformed,
                    "expected '\"' to close the string that starts here, found end of input");
    }
    if (*q == '"') break;
    if (q + 1 == end_) {
      return failAt(q + 1, ErrorCode::kMalformed,
                    "expected a character after the backslash, found end of input");
    }
    ++escapes;
    q += 2;
  }
  out.begin = open + 1;
  out.end = q;
  out.size = static_cast<size_t>(q - out.begin) - escapes;
  out.form = escapes == 0 ? TextString::Form::kPlain : TextString::Form::kEscaped;
  p_ = q + 1;
  if (out.size >= NameTable::kMaxNameBytes) {
    return failAt(open, ErrorCode::kLimitExceeded, "a string of 4 GiB or more");
  }
  return true;
}

bool Scanner::isFloatWordAt(const char* at) const {
  const char* q = at;
  while (q < end_ && isAsciiLetter(static_cast<unsigned char>(*q)) && q - at <= 8) ++q;
  size_t length = static_cast<size_t>(q - at);
  if (length > 8 || (q < end_ && isAsciiDigit(static_cast<unsigned char>(*q)))) return false;
  char lower[8];
  for (size_t i = 0; i < length; ++i) {
    char c = at[i];
    lower[i] = (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
  }
  std::string_view word(lower, length);
  return word == "inf" || word == "infinity" || word == "nan";
}

bool Scanner::literal(Literal& out) {
  out = Literal{};
  int c = next();
  const char* start = p_;
  if (c == '"') {
    if (!quoted(out.string)) return false;
    out.kind = Literal::Kind::kString;
    out.begin = start;
    out.end = p_;
    return true;
  }
  const char* q = p_;
  if (c == '-') {
    ++q;
    int after = byteAt(q);
    if (!isAsciiDigit(after) && !isAsciiLetter(after)) {
      // onnx skips spaces here and then fails to convert "- 5"; the sign must touch the number.
      return expectedAt(q, "a digit, inf or nan right after '-'");
    }
  }
  if (q < end_ && isAsciiLetter(static_cast<unsigned char>(*q))) {
    if (!isFloatWordAt(q)) return expectedAt(start, "a number");
    while (q < end_ && isAsciiLetter(static_cast<unsigned char>(*q))) ++q;
    out.kind = Literal::Kind::kFloat;
  } else if (q < end_ && isAsciiDigit(static_cast<unsigned char>(*q))) {
    bool is_float = false;
    bool point = false;
    while (q < end_ && (isAsciiDigit(static_cast<unsigned char>(*q)) || (*q == '.' && !point))) {
      if (*q == '.') point = is_float = true;
      ++q;
    }
    if (q < end_ && (*q == 'e' || *q == 'E')) {
      is_float = true;
      ++q;
      if (q < end_ && (*q == '+' || *q == '-')) ++q;
      const char* digits = q;
      while (q < end_ && isAsciiDigit(static_cast<unsigned char>(*q))) ++q;
      if (q == digits) return expectedAt(q, "the digits of the exponent");
    }
    out.kind = is_float ? Literal::Kind::kFloat : Literal::Kind::kInt;
  } else {
    return true;  // no literal here
  }
  out.begin = start;
  out.end = q;
  p_ = q;
  return true;
}

bool Scanner::int64Value(int64_t& value) {
  Literal lit;
  if (!literal(lit)) return false;
  return toInt64(lit, value);
}

bool Scanner::stringValue(TextString& value) {
  if (next() != '"') return expected("a quoted string");
  return quoted(value);
}

namespace {

// The magnitude of an integer literal (digits after an optional '-'); false past 2^64 - 1.
bool magnitude(const Literal& literal, bool& negative, uint64_t& value) {
  const char* p = literal.begin;
  negative = *p == '-';
  if (negative) ++p;
  value = 0;
  for (; p < literal.end; ++p) {
    uint64_t digit = static_cast<uint64_t>(*p - '0');
    if (value > (std::numeric_limits<uint64_t>::max() - digit) / 10) return false;
    value = value * 10 + digit;
  }
  return true;
}

}  // namespace

bool Scanner::toInt64(const Literal& literal, int64_t& value) {
  if (literal.kind != Literal::Kind::kInt) {
    return expectedAt(literal.kind == Literal::Kind::kNone ? p_ : literal.begin, "an integer");
  }
  bool negative;
  uint64_t abs;
  constexpr uint64_t kMax = static_cast<uint64_t>(std::numeric_limits<int64_t>::max());
  if (!magnitude(literal, negative, abs) || abs > kMax + (negative ? 1 : 0)) {
    return expectedAt(literal.begin, "an integer that fits in 64 bits");
  }
  value = negative ? static_cast<int64_t>(0 - abs) : static_cast<int64_t>(abs);
  return true;
}

bool Scanner::toUint64(const Literal& literal, uint64_t& value) {
  if (literal.kind != Literal::Kind::kInt) {
    return expectedAt(literal.kind == Literal::Kind::kNone ? p_ : literal.begin, "an integer");
  }
  bool negative;
  uint64_t abs;
  if (!magnitude(literal, negative, abs)) {
    return expectedAt(literal.begin, "an integer that fits in 64 bits");
  }
  value = negative ? 0 - abs : abs;
  return true;
}

bool Scanner::toFloat(const Literal& literal, float& value) {
  if (literal.kind != Literal::Kind::kInt && literal.kind != Literal::Kind::kFloat) {
    return expectedAt(literal.kind == Literal::Kind::kNone ? p_ : literal.begin, "a number");
  }
  if (!convertFloat(literal.begin, literal.end, value)) {
    return expectedAt(literal.begin, "a number within the range of float");
  }
  return true;
}

bool Scanner::toDouble(const Literal& literal, double& value) {
  if (literal.kind != Literal::Kind::kInt && literal.kind != Literal::Kind::kFloat) {
    return expectedAt(literal.kind == Literal::Kind::kNone ? p_ : literal.begin, "a number");
  }
  if (!convertFloat(literal.begin, literal.end, value)) {
    return expectedAt(literal.begin, "a number within the range of double");
  }
  return true;
}

// ---------------------------------------------------------------------------------------
// Errors

bool Scanner::expected(std::string_view what) {
  skipSpace();
  return expectedAt(p_, what);
}

bool Scanner::expectedAt(const char* at, std::string_view what) {
  std::string message = "expected ";
  message += what;
  message += ", found ";
  message += describe(at);
  return failAt(at, ErrorCode::kMalformed, message);
}

bool Scanner::failAt(const char* at, ErrorCode code, std::string_view message) {
  if (!status_.isOk()) return false;  // the first error is the one that explains
  // Lines count '\n'; columns count characters (the text is UTF-8), from 1.
  size_t line = 1;
  size_t column = 1;
  for (const char* p = begin_; p < at && p < end_; ++p) {
    if (*p == '\n') {
      ++line;
      column = 1;
    } else if (!isContinuationByte(*p)) {
      ++column;
    }
  }
  std::string text = "line " + std::to_string(line) + ", column " + std::to_string(column) + ": ";
  text += message;
  status_ = Status(code, std::move(text));
  status_.atOffset(static_cast<uint64_t>(at - begin_));
  return false;
}

std::string Scanner::excerpt(const char* from, const char* to) const {
  constexpr size_t kMax = 40;
  if (to > end_) to = end_;
  std::string text;
  for (const char* p = from; p < to; ++p) {
    if (text.size() >= kMax && !isContinuationByte(*p)) {
      text += "...";
      break;
    }
    char c = *p;
    if (c == '\n' || c == '\r' || c == '\t') c = ' ';
    text.push_back(c);
  }
  return text;
}

std::string Scanner::describe(const char* at) const {
  if (at >= end_) return "end of input";
  unsigned char c = static_cast<unsigned char>(*at);
  const char* q = at + 1;
  if (isIdentifierStart(c)) {
    while (q < end_ && isIdentifierChar(static_cast<unsigned char>(*q))) ++q;
    return onyx::quoted(excerpt(at, q));
  }
  if (isAsciiDigit(c) ||
      (c == '-' && q < end_ && isIdentifierChar(static_cast<unsigned char>(*q)))) {
    while (q < end_ && (isIdentifierChar(static_cast<unsigned char>(*q)) || *q == '.' ||
                        ((*q == '+' || *q == '-') && (q[-1] == 'e' || q[-1] == 'E')))) {
      ++q;
    }
    return onyx::quoted(excerpt(at, q));
  }
  if (c == '"') {
    while (q < end_ && *q != '"') q += (*q == '\\' && q + 1 < end_) ? 2 : 1;
    if (q < end_) ++q;
    return "the string " + excerpt(at, q);
  }
  if (c >= 0x80) {
    while (q < end_ && isContinuationByte(*q)) ++q;
    return onyx::quoted(std::string(at, q));
  }
  if (c < 0x20 || c == 0x7f) {
    static const char kHex[] = "0123456789abcdef";
    std::string byte = "the control character 0x";
    byte.push_back(kHex[c >> 4]);
    byte.push_back(kHex[c & 15]);
    return byte;
  }
  return onyx::quoted(std::string(1, static_cast<char>(c)));
}

}  // namespace onyx::text
