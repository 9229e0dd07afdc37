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
  std::string out;
  out.reserve(text.size() + 2);
  out += '\'';
  for (char c : text) appendOne(out, c, true);
  out += '\'';
  return out;
}

}  // namespace onyx::check
