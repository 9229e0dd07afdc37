#include "onyx/core/utf8.h"

#include <cstdint>
#include <cstring>

namespace onyx {

size_t validUtf8Prefix(std::string_view text) {
  const auto* start = reinterpret_cast<const uint8_t*>(text.data());
  const uint8_t* p = start;
  const uint8_t* end = p + text.size();
  while (p < end) {
    // Names are almost always ASCII: test eight bytes at a time.
    if (end - p >= 8) {
      uint64_t word;
      std::memcpy(&word, p, 8);
      if ((word & 0x8080808080808080ull) == 0) {
        p += 8;
        continue;
      }
    }
    uint8_t lead = *p;
    if (lead < 0x80) {
      ++p;
      continue;
    }
    int extra;
    uint32_t min;
    uint32_t code;
    if ((lead & 0xe0) == 0xc0) {
      extra = 1, min = 0x80, code = lead & 0x1f;
    } else if ((lead & 0xf0) == 0xe0) {
      extra = 2, min = 0x800, code = lead & 0x0f;
    } else if ((lead & 0xf8) == 0xf0) {
      extra = 3, min = 0x10000, code = lead & 0x07;
    } else {
      return static_cast<size_t>(p - start);
    }
    if (end - p <= extra) return static_cast<size_t>(p - start);
    for (int i = 1; i <= extra; ++i) {
      if ((p[i] & 0xc0) != 0x80) return static_cast<size_t>(p - start);
      code = (code << 6) | (p[i] & 0x3fu);
    }
    if (code < min || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff))
      return static_cast<size_t>(p - start);
    p += extra + 1;
  }
  return text.size();
}

}  // namespace onyx
