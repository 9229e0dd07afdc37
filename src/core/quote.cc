#include "onyx/core/quote.h"

namespace onyx {

namespace {

// `escape_backslash` is false only for text that may hold escapes already.
void appendOne(std::string& out, char c, char quote, bool escape_backslash = true) {
  static constexpr char kHex[] = "0123456789abcdef";
  auto byte = static_cast<unsigned char>(c);
  switch (c) {
    case '\n': out += "\\n"; return;
    case '\r': out += "\\r"; return;
    case '\t': out += "\\t"; return;
    default: break;
  }
  if ((c == '\\' && escape_backslash) || (c == quote && quote != '\0')) {
    out += '\\';
    out += c;
  } else if (byte < 0x20 || byte == 0x7f) {
    out += "\\x";
    out += kHex[byte >> 4];
    out += kHex[byte & 0xf];
  } else {
    out += c;
  }
}

bool isControl(char c) {
  auto byte = static_cast<unsigned char>(c);
  return byte < 0x20 || byte == 0x7f;
}

}  // namespace

void appendEscaped(std::string& out, std::string_view text) {
  for (char c : text) appendOne(out, c, '\0');
}

void escapeControlCharacters(std::string& text) {
  bool clean = true;
  for (char c : text) clean &= !isControl(c);
  if (clean) return;
  std::string escaped;
  escaped.reserve(text.size() + 8);
  for (char c : text) appendOne(escaped, c, '\0', false);
  text.swap(escaped);
}

namespace {

// `text` between two `quote`s, escaped; text past 200 bytes is cut and marked `...`, so that a
// message stays one readable line even for a megabyte-long string.
std::string quotedWith(std::string_view text, char quote) {
  constexpr size_t kMaxShown = 200;
  size_t shown = text.size() > kMaxShown ? kMaxShown : text.size();
  std::string out;
  out.reserve(shown + 5);
  out += quote;
  for (char c : text.substr(0, shown)) appendOne(out, c, quote);
  if (shown < text.size()) out += "...";
  out += quote;
  return out;
}

}  // namespace

std::string quoted(std::string_view text) { return quotedWith(text, '\''); }

std::string quotedPath(std::string_view path) { return quotedWith(path, '"'); }

}  // namespace onyx
