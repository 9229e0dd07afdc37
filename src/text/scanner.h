// Internal: the characters of the ONNX text syntax — spaces and comments, identifiers, quoted
// strings and numbers — and errors that say where, as a line and a column.
//
// The lexical rules are onnx's (onnx/defs/parser.h, ParserBase): spaces are the six ASCII
// ones, a comment runs from '#' to the end of the line, an identifier is
// [A-Za-z_][A-Za-z0-9_]*, a quoted string takes any byte after a backslash as itself (so
// "\n" is the letter n: onnx has no other escapes), and a number is an optional '-', then
// digits with at most one '.', then an optional exponent — or one of inf, infinity and nan
// in any case. Where onnx's scanner lets a form through that its number conversion then
// throws on ("- 5", "1e", "1e+"), this scanner refuses it with a message instead.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "onyx/core/status.h"
#include "text/text_string.h"

namespace onyx::text {

inline bool isAsciiLetter(int c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
inline bool isAsciiDigit(int c) { return c >= '0' && c <= '9'; }
inline bool isIdentifierStart(int c) { return isAsciiLetter(c) || c == '_'; }
inline bool isIdentifierChar(int c) { return isIdentifierStart(c) || isAsciiDigit(c); }
inline bool isSpace(int c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
}

struct Literal {
  enum class Kind : uint8_t { kNone, kInt, kFloat, kString };
  Kind kind = Kind::kNone;
  const char* begin = nullptr;  // the literal as written (a number with its sign)
  const char* end = nullptr;
  TextString string;  // kString: the value
};

class Scanner {
 public:
  static constexpr int kEnd = -1;

  explicit Scanner(std::string_view text)
      : begin_(text.data()), p_(text.data()), end_(text.data() + text.size()) {}

  /// Skips spaces and comments; then the next byte (0-255), or kEnd.
  int next() {
    skipSpace();
    return p_ < end_ ? static_cast<unsigned char>(*p_) : kEnd;
  }
  /// Consumes `c` if it comes next (after spaces and comments).
  bool accept(char c) {
    if (next() != static_cast<unsigned char>(c)) return false;
    ++p_;
    return true;
  }
  /// Consumes `c` if it is the very next byte (no spaces skipped).
  bool acceptHere(char c) {
    if (p_ == end_ || *p_ != c) return false;
    ++p_;
    return true;
  }
  /// accept(c), or the error "expected 'c', found ...".
  bool expect(char c);
  bool atEnd() { return next() == kEnd; }
  /// The byte at `at`, or kEnd.
  int byteAt(const char* at) const { return at < end_ ? static_cast<unsigned char>(*at) : kEnd; }

  /// Moves past `count` bytes the caller has looked at.
  void skipBytes(size_t count) {
    size_t remaining = static_cast<size_t>(end_ - p_);
    p_ += count < remaining ? count : remaining;
  }

  /// Where the scanner is (after the last thing read; call next() first to skip spaces).
  const char* position() const { return p_; }
  const char* textEnd() const { return end_; }

  /// An identifier after spaces and comments; an empty view at the position when none
  /// starts there.
  std::string_view identifier() {
    skipSpace();
    const char* start = p_;
    if (p_ < end_ && isIdentifierStart(static_cast<unsigned char>(*p_))) {
      ++p_;
      while (p_ < end_ && isIdentifierChar(static_cast<unsigned char>(*p_))) ++p_;
    }
    return {start, static_cast<size_t>(p_ - start)};
  }
  /// identifier() without consuming it.
  std::string_view peekIdentifier() {
    const char* saved = p_;
    std::string_view id = identifier();
    p_ = saved;
    return id;
  }

  /// A quoted string; the next byte must be '"'.
  bool quoted(TextString& out);
  /// A number or a quoted string. Nothing is consumed, and the kind is kNone, when neither
  /// starts here; false (with the error set) for a malformed one.
  bool literal(Literal& out);
  /// True when the letters at `at` spell inf, infinity or nan (any case), not followed by a
  /// digit: onnx's test for a number that starts with a letter.
  bool isFloatWordAt(const char* at) const;

  // Literals of one kind; each error names what was expected.
  bool int64Value(int64_t& value);
  bool stringValue(TextString& value);
  bool toInt64(const Literal& literal, int64_t& value);
  /// As C's strtoull reads it: a negative literal wraps around (onnx's uint64 data).
  bool toUint64(const Literal& literal, uint64_t& value);
  bool toFloat(const Literal& literal, float& value);
  bool toDouble(const Literal& literal, double& value);

  // ---- errors --------------------------------------------------------------------------

  /// Sets the error "line L, column C: expected <what>, found <what is there>" at the next
  /// token; returns false.
  bool expected(std::string_view what);
  bool expectedAt(const char* at, std::string_view what);
  /// Sets the error "line L, column C: <message>"; returns false.
  bool failAt(const char* at, ErrorCode code, std::string_view message);
  bool failed() const { return !status_.isOk(); }
  Status takeStatus() { return std::move(status_); }

  /// What a person sees at `at`: "end of input", "'foo'", "'('", "\"a string\"", ...
  std::string describe(const char* at) const;
  /// The text in [from, to), shortened for a message.
  std::string excerpt(const char* from, const char* to) const;

 private:
  void skipSpace() {
    while (p_ < end_) {
      unsigned char c = static_cast<unsigned char>(*p_);
      if (c == ' ' || c == '\n' || c == '\t' || c == '\r' || c == '\v' || c == '\f') {
        ++p_;
      } else if (c == '#') {
        skipComment();
      } else {
        return;
      }
    }
  }
  void skipComment();

  const char* begin_;
  const char* p_;
  const char* end_;
  Status status_;
};

}  // namespace onyx::text
