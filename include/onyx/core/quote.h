// onyx/core/quote.h — names, strings and file paths as messages show them. A name may hold
// any UTF-8, newlines included; escaping keeps every message (an error, a diagnostic) on one
// line. The checker, the loaders, the evaluator, the command line and the Python package all
// quote through here, so a name reads the same in each of their messages.
#pragma once

#include <string>
#include <string_view>

// Exported from the shared libraries: the public API (see src/CMakeLists.txt).
#pragma GCC visibility push(default)

namespace onyx {

/// Appends `text` with control characters and backslashes escaped (`\n`, `\t`, `\x1b`).
void appendEscaped(std::string& out, std::string_view text);

/// Escapes, in place, the control characters of a message built from names nobody escaped
/// (backslashes stay as they are: the text may hold escapes already).
void escapeControlCharacters(std::string& text);

/// `'text'`, escaped as appendEscaped does, with `'` written as `\'`; text past 200 bytes
/// is cut and marked `...`.
std::string quoted(std::string_view text);

/// `"path"` for a file path or an external-data location, escaped as quoted() escapes (with
/// `"` written as `\"`) and cut the same way: a location comes from an untrusted file and ends
/// up in terminals and logs.
std::string quotedPath(std::string_view path);

}  // namespace onyx

#pragma GCC visibility pop
