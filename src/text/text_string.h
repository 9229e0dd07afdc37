// Internal: a string field as the text spells it, written out without being copied first.
//
// Most strings are plain views into the text (identifiers, quoted strings without escapes).
// A quoted string with backslashes is kept as its raw inside and unescaped while written; a
// dotted name (a node's domain, an opaque type's name) that has spaces or comments between
// its parts is kept as the stretch of text it spans and joined while written. So parsing
// allocates nothing per token.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace onyx::text {

struct TextString {
  enum class Form : unsigned char {
    kPlain,    // [begin, end) is the value
    kEscaped,  // [begin, end) is a quoted string's inside; each '\' takes the next byte as is
    kDotted,   // [begin, end) holds identifiers between dots, spaces and comments: join by '.'
  };

  const char* begin = nullptr;  // null: absent (a field that is not set)
  const char* end = nullptr;
  size_t size = 0;  // the bytes the field holds once written
  Form form = Form::kPlain;

  bool present() const { return begin != nullptr; }

  /// `view` as it is; `view.data()` must not be null (a present empty string points into the
  /// text where it would have been).
  static TextString plain(std::string_view view) {
    return {view.data(), view.data() + view.size(), view.size(), Form::kPlain};
  }

  /// Appends the value's bytes to `out`.
  void appendTo(std::string& out) const;
  /// The value as a std::string, for messages and tests.
  std::string str() const {
    std::string out;
    appendTo(out);
    return out;
  }
};

}  // namespace onyx::text
