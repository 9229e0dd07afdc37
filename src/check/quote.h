// Internal: names as diagnostics show them. A name may hold any UTF-8, newlines included;
// escaping keeps every diagnostic on one line.
#pragma once

#include <string>
#include <string_view>

namespace onyx::check {

/// Appends `text` with control characters and backslashes escaped (`\n`, `\t`, `\x1b`).
void appendEscaped(std::string& out, std::string_view text);

/// `'text'`, escaped as appendEscaped does, with `'` written as `\'`; text past 200 bytes
/// is cut and marked `...`.
std::string quoted(std::string_view text);

}  // namespace onyx::check
