#include "text/text_writer.h"

#include <fmt/format.h>

#include <bit>
#include <cmath>

#include "onyx/core/element_type.h"

namespace onyx::text {

namespace {

bool isAlpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool isDigit(char c) { return c >= '0' && c <= '9'; }
bool isIdentifierByte(char c) { return isAlpha(c) || isDigit(c) || c == '_'; }

char lower(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; }

template <class Float>
void appendNumber(std::string& out, Float value) {
  if (std::isnan(value)) {
    out.append(std::signbit(value) ? "-nan" : "nan");
  } else if (std::isinf(value)) {
    out.append(value < 0 ? "-inf" : "inf");
  } else {
    fmt::format_to(std::back_inserter(out), "{}", value);
  }
}

}  // namespace

bool isNanWithPayload(float value) {
  return std::isnan(value) && (std::bit_cast<uint32_t>(value) & 0x7fffffffu) != 0x7fc00000u;
}

bool isNanWithPayload(double value) {
  return std::isnan(value) &&
         (std::bit_cast<uint64_t>(value) & 0x7fffffffffffffffull) != 0x7ff8000000000000ull;
}

bool isIdentifier(std::string_view text) {
  if (text.empty() || !(isAlpha(text[0]) || text[0] == '_')) return false;
  for (char c : text) {
    if (!isIdentifierByte(c)) return false;
  }
  return true;
}

bool isTypeKeyword(std::string_view text) {
  if (text == "seq" || text == "map" || text == "optional" || text == "sparse_tensor" ||
      text == "opaque") {
    return true;
  }
  for (const ElementTypeInfo& info : kElementTypeTable) {
    if (info.shortName == text) return true;
  }
  return false;
}

bool readsAsFloatWord(std::string_view text) {
  // onnx's parser reads at most nine letters, refuses the word when a digit follows them,
  // and compares them without case.
  size_t letters = 0;
  while (letters < text.size() && letters <= 8 && isAlpha(text[letters])) ++letters;
  if (letters < text.size() && isDigit(text[letters])) return false;
  std::string word;
  for (size_t i = 0; i < letters; ++i) word.push_back(lower(text[i]));
  return word == "inf" || word == "infinity" || word == "nan";
}

bool isDottedIdentifier(std::string_view domain) {
  size_t start = 0;
  while (true) {
    size_t dot = domain.find('.', start);
    std::string_view part = domain.substr(start, dot == std::string_view::npos ? dot : dot - start);
    if (!isIdentifier(part)) return false;
    if (dot == std::string_view::npos) return true;
    start = dot + 1;
  }
}

std::string identifierStandIn(std::string_view text) {
  std::string result;
  for (char c : text) result.push_back(isIdentifierByte(c) ? c : '_');
  if (result.empty() || isDigit(result[0]) || isTypeKeyword(result) || readsAsFloatWord(result)) {
    result.insert(result.begin(), '_');
  }
  return result;
}

void TextWriter::quoted(std::string_view text) {
  out_.push_back('"');
  size_t from = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '"' || text[i] == '\\') {
      out_.append(text.substr(from, i - from));
      out_.push_back('\\');
      from = i;
    }
  }
  out_.append(text.substr(from));
  out_.push_back('"');
}

void TextWriter::name(std::string_view text) {
  if (isIdentifier(text) && !isTypeKeyword(text)) {
    out_.append(text);
  } else {
    quoted(text);
  }
}

void TextWriter::number(float value) { appendNumber(out_, value); }
void TextWriter::number(double value) { appendNumber(out_, value); }

void TextWriter::floatLiteral(float value) {
  size_t start = out_.size();
  appendNumber(out_, value);
  if (out_.find_first_of(".eEna", start) == std::string::npos) out_.append(".0");
}

}  // namespace onyx::text
