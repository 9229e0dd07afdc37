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

bool Diagnostics::has(std::string_view rule) const {
  for (const Diagnostic& diagnostic : all_) {
    if (diagnostic.rule == rule) return true;
  }
  return false;
}

}  // namespace onyx
