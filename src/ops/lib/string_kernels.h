// Internal: what the string operators' kernels share: a strings attribute as a vector, and
// case mapping of UTF-8 text.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "onyx/ir/attribute.h"
#include "ops/kernels.h"

namespace onyx::ops {

/// A strings attribute (the node's, else empty).
inline std::vector<std::string> stringsAttributeOf(const KernelContext& ctx,
                                                   std::string_view name) {
  std::vector<std::string> values;
  const Attribute* attribute = ctx.attribute(name);
  if (attribute == nullptr) return values;
  for (std::string_view text : attribute->rare().strings) values.emplace_back(text);
  return values;
}

/// Decodes one UTF-8 code point at `i` (advancing it); malformed bytes decode as themselves.
inline uint32_t decodeUtf8(std::string_view text, size_t& i) {
  auto byte = [&](size_t k) { return static_cast<uint8_t>(text[k]); };
  uint8_t lead = byte(i);
  size_t length = lead < 0x80           ? 1
                  : (lead >> 5) == 0x6  ? 2
                  : (lead >> 4) == 0xE  ? 3
                  : (lead >> 3) == 0x1E ? 4
                                        : 0;
  if (length <= 1 || i + length > text.size()) {
    ++i;
    return lead;
  }
  uint32_t code = lead & (0xFF >> (length + 1));
  for (size_t k = 1; k < length; ++k) {
    if ((byte(i + k) & 0xC0) != 0x80) {
      ++i;
      return lead;
    }
    code = (code << 6) | (byte(i + k) & 0x3F);
  }
  i += length;
  return code;
}

inline void encodeUtf8(uint32_t code, std::string& out) {
  if (code < 0x80) {
    out.push_back(static_cast<char>(code));
  } else if (code < 0x800) {
    out.push_back(static_cast<char>(0xC0 | (code >> 6)));
    out.push_back(static_cast<char>(0x80 | (code & 0x3F)));
  } else if (code < 0x10000) {
    out.push_back(static_cast<char>(0xE0 | (code >> 12)));
    out.push_back(static_cast<char>(0x80 | ((code >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (code & 0x3F)));
  } else {
    out.push_back(static_cast<char>(0xF0 | (code >> 18)));
    out.push_back(static_cast<char>(0x80 | ((code >> 12) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | ((code >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (code & 0x3F)));
  }
}

/// The lower (or upper) case of a code point in the Latin, Latin-1, Latin Extended-A, Greek
/// and Cyrillic blocks; others unchanged.
inline uint32_t changeCase(uint32_t c, bool upper) {
  if (upper) {
    if ((c >= 'a' && c <= 'z') || (c >= 0xE0 && c <= 0xFE && c != 0xF7) ||
        (c >= 0x3B1 && c <= 0x3C9 && c != 0x3C2) || (c >= 0x430 && c <= 0x44F)) {
      return c - 0x20;
    }
    if (c >= 0x450 && c <= 0x45F) return c - 0x50;
    if (c >= 0x100 && c <= 0x17F && c != 0x130 && c != 0x131 && c != 0x138 && c != 0x149 &&
        c != 0x178 && c != 0x17F) {
      bool odd_lower = (c >= 0x139 && c <= 0x148) || (c >= 0x179 && c <= 0x17E);
      if (odd_lower ? (c % 2 == 0) : (c % 2 == 1)) return c - 1;
    }
    if (c == 0xFF) return 0x178;
    return c;
  }
  if ((c >= 'A' && c <= 'Z') || (c >= 0xC0 && c <= 0xDE && c != 0xD7) ||
      (c >= 0x391 && c <= 0x3A9 && c != 0x3A2) || (c >= 0x410 && c <= 0x42F)) {
    return c + 0x20;
  }
  if (c >= 0x400 && c <= 0x40F) return c + 0x50;
  if (c >= 0x100 && c <= 0x17F && c != 0x130 && c != 0x131 && c != 0x138 && c != 0x149 &&
      c != 0x178 && c != 0x17F) {
    bool odd_lower = (c >= 0x139 && c <= 0x148) || (c >= 0x179 && c <= 0x17E);
    if (odd_lower ? (c % 2 == 1) : (c % 2 == 0)) return c + 1;
  }
  if (c == 0x178) return 0xFF;
  return c;
}

/// `text` (UTF-8) in lower or upper case.
inline std::string withCase(std::string_view text, bool upper) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size();) encodeUtf8(changeCase(decodeUtf8(text, i), upper), out);
  return out;
}

}  // namespace onyx::ops
