#include "draw/display_text.h"

#include "onyx/core/quote.h"
#include "onyx/core/utf8.h"

namespace onyx::draw {

namespace {

constexpr std::string_view kReplacement = "\xEF\xBF\xBD";  // U+FFFD
constexpr std::string_view kEllipsis = "\xE2\x80\xA6";     // U+2026

// `text` as valid UTF-8: each byte that starts no valid character becomes U+FFFD.
std::string validText(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  while (!text.empty()) {
    size_t valid = validUtf8Prefix(text);
    out.append(text.substr(0, valid));
    if (valid == text.size()) break;
    out.append(kReplacement);
    text.remove_prefix(valid + 1);
  }
  return out;
}

bool startsCharacter(char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }

}  // namespace

std::string displayText(std::string_view text, size_t max_chars) {
  std::string out = validText(text);
  escapeControlCharacters(out);
  if (max_chars == 0) return out;
  size_t chars = 0;
  for (size_t i = 0; i < out.size(); ++i) {
    if (!startsCharacter(out[i])) continue;
    if (chars + 1 == max_chars && displayLength(std::string_view(out).substr(i)) > 1) {
      out.resize(i);
      out.append(kEllipsis);
      return out;
    }
    ++chars;
  }
  return out;
}

size_t displayLength(std::string_view text) {
  size_t chars = 0;
  for (char c : text) chars += startsCharacter(c) ? 1 : 0;
  return chars;
}

}  // namespace onyx::draw
