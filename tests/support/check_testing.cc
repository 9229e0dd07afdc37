#include "support/check_testing.h"

#include <gtest/gtest.h>

#include "onyx/serde/model_io.h"
#include "onyx/text/parser.h"

namespace onyx::testing {

Model parseOrFail(std::string_view text) {
  Result<Model> model = parseText(text);
  if (!model) {
    ADD_FAILURE() << "the text does not parse: " << model.status().toString();
    return Model();
  }
  return std::move(model).value();
}

Diagnostics checkText(std::string_view text, const CheckOptions& options) {
  Model model = parseOrFail(text);
  return checkModel(model, options);
}

Diagnostics checkBytes(const std::string& bytes, const CheckOptions& options) {
  LoadOptions load;
  load.load_external_data = false;
  Result<Model> model = parseModel(bytes, nullptr, load);
  if (!model) {
    ADD_FAILURE() << "the bytes do not decode: " << model.status().toString();
    return Diagnostics();
  }
  return checkModel(*model, options);
}

namespace {

Rules rulesOf(const Diagnostics& diagnostics, Severity severity) {
  Rules rules;
  for (const Diagnostic& diagnostic : diagnostics.all()) {
    if (diagnostic.severity == severity) rules.push_back(diagnostic.rule);
  }
  return rules;
}

}  // namespace

Rules errorRules(const Diagnostics& diagnostics) { return rulesOf(diagnostics, Severity::kError); }

Rules warningRules(const Diagnostics& diagnostics) {
  return rulesOf(diagnostics, Severity::kWarning);
}

std::string pathOf(const Diagnostics& diagnostics, std::string_view rule) {
  for (const Diagnostic& diagnostic : diagnostics.all()) {
    if (diagnostic.rule == rule) return diagnostic.path;
  }
  return "(none)";
}

std::string listed(const Diagnostics& diagnostics) {
  std::string text;
  for (const Diagnostic& diagnostic : diagnostics.all()) text += diagnostic.toString() + "\n";
  return text.empty() ? "(no diagnostics)\n" : text;
}

}  // namespace onyx::testing
