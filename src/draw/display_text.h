// Names as a picture shows them. A model's names are untrusted: they may hold control
// characters, invalid UTF-8 or megabytes of text. Every writer shows a name through here, so
// it reads the same in the SVG, the DOT file and the HTML page; each writer then escapes the
// result for its own format.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace onyx::draw {

/// `text` with control characters escaped (`\n`, `\x1b`), bytes that are not UTF-8 shown as
/// U+FFFD, and cut to `max_chars` characters (the last one `…`); 0 keeps it whole.
std::string displayText(std::string_view text, size_t max_chars = 0);

/// How many characters displayText(text) has: what a box's width follows from.
size_t displayLength(std::string_view text);

}  // namespace onyx::draw
