// onyx/core/utf8.h — UTF-8 validation for names read from untrusted files.
#pragma once

#include <string_view>

namespace onyx {

/// True when `text` is well-formed UTF-8 (no overlong forms, no surrogates, at most U+10FFFF).
bool isValidUtf8(std::string_view text);

}  // namespace onyx
