// onyx/core/utf8.h — UTF-8 validation for names read from untrusted files.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>

// Exported from the shared libraries: the public API (see src/CMakeLists.txt).
#pragma GCC visibility push(default)

namespace onyx {

/// The length of the longest prefix of `text` that is well-formed UTF-8 (no overlong forms,
/// no surrogates, at most U+10FFFF): text.size() when all of it is, else the offset of the
/// first byte that starts no valid character.
size_t validUtf8Prefix(std::string_view text);

namespace detail {
/// True when no byte of `text` has its high bit set. Eight bytes at a time, the last eight
/// overlapping the ones before rather than read byte by byte: most names are 10 to 60
/// bytes of ASCII, and a decoder checks every one.
inline bool isAscii(std::string_view text) {
  constexpr uint64_t kHighBits = 0x8080808080808080ull;
  const char* p = text.data();
  size_t n = text.size();
  uint64_t word;
  if (n < 8) {
    uint64_t bits = 0;
    for (size_t i = 0; i < n; ++i) bits |= static_cast<uint8_t>(p[i]);
    return (bits & 0x80) == 0;
  }
  uint64_t seen = 0;
  for (size_t i = 0; i + 8 <= n; i += 8) {
    std::memcpy(&word, p + i, 8);
    seen |= word;
  }
  std::memcpy(&word, p + n - 8, 8);
  return ((seen | word) & kHighBits) == 0;
}
}  // namespace detail

/// True when `text` is well-formed UTF-8.
inline bool isValidUtf8(std::string_view text) {
  return detail::isAscii(text) || validUtf8Prefix(text) == text.size();
}

}  // namespace onyx

#pragma GCC visibility pop
