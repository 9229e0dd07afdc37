// onyx/check/diagnostic.h — what the checker reports: one problem, with its rule and place.
//
// Rule ids: R1–R105 are the rules of the checker catalogue (docs/checker.md lists each with
// one sentence and its source in the spec); X1, X2, ... are rules onyx adds where the
// catalogue is silent. A diagnostic's path names the place the way load errors do:
// `graph.node[12](conv1).input[2]`, `functions[1](MyFn).node[0]`.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

// Exported from the shared libraries: the public API (see src/CMakeLists.txt).
#pragma GCC visibility push(default)

namespace onyx {

enum class Severity { kError, kWarning };

std::string_view severityName(Severity severity);

struct Diagnostic {
  std::string rule;  // "R29", "X3"
  Severity severity = Severity::kError;
  std::string path;     // where; empty for the model as a whole
  std::string message;  // stable wording: tests and scripts match on it

  std::string toString() const;  // "error R29 graph.node[3](add): ..."
};

/// Collects diagnostics in the order they are found. Every problem is reported, not only
/// the first.
class Diagnostics {
 public:
  void error(std::string_view rule, std::string path, std::string message) {
    add(rule, Severity::kError, std::move(path), std::move(message));
  }
  void warning(std::string_view rule, std::string path, std::string message) {
    add(rule, Severity::kWarning, std::move(path), std::move(message));
  }
  /// Control characters in `path` or `message` (from names in the file that a rule did not
  /// escape) are escaped here, so that every diagnostic prints as one line.
  void add(std::string_view rule, Severity severity, std::string path, std::string message);

  const std::vector<Diagnostic>& all() const { return all_; }
  size_t errorCount() const { return errors_; }
  bool hasErrors() const { return errors_ != 0; }
  /// True when a diagnostic with `rule` was reported (for tests).
  bool has(std::string_view rule) const;

 private:
  std::vector<Diagnostic> all_;
  size_t errors_ = 0;
};

}  // namespace onyx

#pragma GCC visibility pop
