// Escaping for the formats a picture is written in. Text reaches these after displayText()
// (display_text.h), so it is valid UTF-8 without control characters.
#pragma once

#include <string>
#include <string_view>

namespace onyx::draw {

/// XML character data and attribute values: `&`, `<`, `>`, `"` and `'` as references.
void appendXml(std::string& out, std::string_view text);

/// A JSON string literal, quotes included. `<`, `>` and `&` are written as \u escapes too, so
/// the literal can sit inside an HTML <script> element (`</script>` cannot end it early).
void appendJsonString(std::string& out, std::string_view text);

/// The inside of a Graphviz double-quoted string shown literally: `"` and `\` escaped (so a
/// `\n` in the text does not break the line), `&` as `&amp;` (Graphviz reads entities).
void appendDotString(std::string& out, std::string_view text);

}  // namespace onyx::draw
