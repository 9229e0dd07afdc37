#include "check/quote.h"

namespace onyx::check {

namespace {

void appendOne(std::string& out, char c, bool escape_quote) {
  static constexpr char kHex[] = "0123456789abcdef";
  auto byte = static_cast<unsigned char>(c);
  switch (c) {
    case '\n': out += "\\n"; return;
    case '\r': out += "\\r"; return;
    case '\t': out += "\\t"; return;
    case '\\': out += "\\\\"; return;
    default: break;
  }
  if (c == '\'' && escape_quote) {
    out += "\\'";
  } else if (byte < 0x20 || byte == 0x7f) {
    out += "\\x";
    out += kHex[byte >> 4];
    out += kHex[byte & 0xf];
  } else {
    out += c;
  }
}

}  // namespace

void appendEscaped(std::string& out, std::string_view text) {
  for (char c : text) appendOne(out, c, false);
}

std::string quoted(std::string_view text) {
  // A diagnostic stays one readable line even for a megabyte-long string attribute.
  constexpr size_t kMaxShown = 200;
  size_t shown = text.size() > kMaxShown ? kMaxShown : text.size();
  std::string out;
  out.reserve(shown + 5);
  out += '\'';
  for (char c : text.substr(0, shown)) appendOne(out, c, true);
  if (shown < text.size()) out += "...";
  out += '\'';
  return out;
}

}  // namespace onyx::check
