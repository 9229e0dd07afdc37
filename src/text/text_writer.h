// Internal: the words of the ONNX text syntax and a buffer that writes them.
//
// The lexical rules here are those of onnx's parser (onnx/defs/parser.h and parser.cc at
// the mirror's HEAD), which is what decides whether printed text reads back: an
// identifier is [A-Za-z_][A-Za-z0-9_]*, a quoted string escapes only `"` and `\` (a
// backslash makes the next byte literal, so there is no \n), and `#` starts a comment that
// runs to the end of the line.
#pragma once

#include <charconv>
#include <cstdint>
#include <iterator>
#include <string>
#include <string_view>

namespace onyx::text {

bool isIdentifier(std::string_view text);

/// Words that begin a type where onnx's parser looks for one (an element type name, or seq,
/// map, optional, sparse_tensor, opaque). A value named so must be quoted wherever a type
/// may precede a name, or the parser reads the name as the type.
bool isTypeKeyword(std::string_view text);

/// True when onnx's parser would take an attribute value starting with `text` for a float
/// (nan, inf, infinity in any case, as the first letters of a word): a graph so named, as
/// an attribute value, would read as a number.
bool readsAsFloatWord(std::string_view text);

/// `domain` as a dotted run of identifiers (`com.example`), the only form a node's domain
/// can take in the text.
bool isDottedIdentifier(std::string_view domain);

/// `text` with every byte that cannot be in an identifier replaced by `_` and a leading `_`
/// when it starts with a digit or would be a keyword: a stand-in where the syntax has no
/// quoting, for names the printer reports as lost.
std::string identifierStandIn(std::string_view text);

/// A NaN whose bits are not those of `nan` or `-nan` as onnx's parser reads them (the default
/// quiet NaN of either sign): its payload has no spelling.
bool isNanWithPayload(float value);
bool isNanWithPayload(double value);

class TextWriter {
 public:
  explicit TextWriter(std::string& out) : out_(out) {}

  std::string& buffer() { return out_; }
  size_t size() const { return out_.size(); }

  void raw(std::string_view text) { out_.append(text); }
  void raw(char c) { out_.push_back(c); }
  void spaces(int count) { out_.append(static_cast<size_t>(count), ' '); }

  /// `"text"` with `"` and `\` escaped; every other byte as it is.
  void quoted(std::string_view text);
  /// A name where the grammar takes a quotable id: bare when it is an identifier that
  /// cannot be mistaken for a type, quoted otherwise.
  void name(std::string_view text);

  void integer(int64_t value) { decimal(value); }
  void integer(uint64_t value) { decimal(value); }
  /// The shortest text that reads back as the same value; NaN as nan or -nan and infinity
  /// as inf or -inf, which onnx's parser reads (NaN payloads cannot be written).
  void number(float value);
  void number(double value);
  /// number(), with `.0` added to a whole number, so that the literal reads as a float
  /// whatever the context: onnx's parser before 1.13 takes `2` for an int even where a float
  /// is declared, and a reader sees the kind at a glance.
  void floatLiteral(float value);

 private:
  template <class T>
  void decimal(T value) {
    char digits[24];
    out_.append(digits, std::to_chars(digits, digits + sizeof digits, value).ptr);
  }

  std::string& out_;
};

}  // namespace onyx::text
