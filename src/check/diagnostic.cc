#include "onyx/check/diagnostic.h"

namespace onyx {

std::string_view severityName(Severity severity) {
  return severity == Severity::kError ? "error" : "warning";
}

std::string Diagnostic::toString() const {
  std::string text(severityName(severity));
  text += ' ';
  text += rule;
  if (!path.empty()) {
    text += ' ';
    text += path;
  }
  text += ": ";
  text += message;
  return text;
}

namespace {

void escapeControlCharacters(std::string& text) {
  bool clean = true;
  for (char c : text) clean &= static_cast<unsigned char>(c) >= 0x20 && c != 0x7f;
  if (clean) return;
  static constexpr char kHex[] = "0123456789abcdef";
  std::string escaped;
  escaped.reserve(text.size() + 8);
  for (char c : text) {
    auto byte = static_cast<unsigned char>(c);
    if (byte == '\n') {
      escaped += "\\n";
    } else if (byte == '\t') {
      escaped += "\\t";
    } else if (byte == '\r') {
      escaped += "\\r";
    } else if (byte < 0x20 || byte == 0x7f) {
      escaped += "\\x";
      escaped += kHex[byte >> 4];
      escaped += kHex[byte & 0xf];
    } else {
      escaped += c;
    }
  }
  text.swap(escaped);
}

}  // namespace

void Diagnostics::add(std::string_view rule, Severity severity, std::string path,
                      std::string message) {
  escapeControlCharacters(path);
  escapeControlCharacters(message);
  if (severity == Severity::kError) ++errors_;
  all_.push_back({std::string(rule), severity, std::move(path), std::move(message)});
}

bool Diagnostics::has(std::string_view rule) const {
  for (const Diagnostic& diagnostic : all_) {
    if (diagnostic.rule == rule) return true;
  }
  return false;
}

}  // namespace onyx
