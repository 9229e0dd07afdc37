#include "onyx/core/diagnostic.h"

#include "onyx/core/quote.h"

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

Diagnostic Diagnostic::fromStatus(const Status& status, std::string_view rule, Severity severity) {
  Diagnostic made;
  made.rule = rule;
  made.severity = severity;
  made.path = status.path();
  made.message = status.message();
  if (auto offset = status.offset()) made.message += " (at byte " + std::to_string(*offset) + ")";
  made.code = status.code();
  return made;
}

Status Diagnostic::toStatus() const {
  Status status(code, rule.empty() ? message : rule + ": " + message);
  status.within(path);
  return status;
}

void Diagnostics::add(std::string_view rule, Severity severity, std::string path,
                      std::string message) {
  Diagnostic diagnostic;
  diagnostic.rule = rule;
  diagnostic.severity = severity;
  diagnostic.path = std::move(path);
  diagnostic.message = std::move(message);
  add(std::move(diagnostic));
}

void Diagnostics::add(Diagnostic diagnostic) {
  escapeControlCharacters(diagnostic.path);
  escapeControlCharacters(diagnostic.message);
  if (diagnostic.severity == Severity::kError) ++errors_;
  all_.push_back(std::move(diagnostic));
}

bool Diagnostics::has(std::string_view rule) const {
  for (const Diagnostic& diagnostic : all_) {
    if (diagnostic.rule == rule) return true;
  }
  return false;
}

}  // namespace onyx
