// onyx/core/utf8.h — UTF-8 validation for names read from untrusted files.
#pragma once

#include <cstddef>
#include <string_view>

namespace onyx {

/// The length of the longest prefix of `text` that is well-formed UTF-8 (no overlong forms,
/// no surrogates, at most U+10FFFF): text.size() when all of it is, else the offset of the
/// first byte that starts no valid character.
size_t validUtf8Prefix(std::string_view text);

/// True when `text` is well-formed UTF-8.
bool isValidUtf8(std::string_view text);

}  // namespace onyx
