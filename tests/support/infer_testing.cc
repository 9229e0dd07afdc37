#include "support/infer_testing.h"

#include <gtest/gtest.h>

#include "onyx/ir/graph.h"
#include "onyx/ir/type.h"
#include "onyx/ir/value.h"
#include "onyx/text/parser.h"

namespace onyx::testing {

std::string InferredText::typeOf(std::string_view name) const {
  if (model.graph == nullptr) return "missing";
  const Value* value = model.graph->lookup(name);
  if (value == nullptr) return "missing";
  const Type* type = value->type();
  return type != nullptr ? formatType(*type) : "none";
}

bool InferredText::refused(std::string_view words) const {
  for (const Diagnostic& diagnostic : result.diagnostics.all()) {
    if (diagnostic.rule == "X5" && diagnostic.message.find(words) != std::string::npos) {
      return true;
    }
  }
  return false;
}

std::string InferredText::diagnostics() const {
  std::string text;
  for (const Diagnostic& diagnostic : result.diagnostics.all()) {
    text += diagnostic.toString() + "\n";
  }
  return text;
}

InferredText inferText(std::string_view text, const InferOptions& options) {
  Result<Model> parsed = parseText(text);
  EXPECT_TRUE(parsed) << parsed.status().toString();
  if (!parsed) return InferredText{Model(), {}};
  InferredText inferred{std::move(*parsed), {}};
  inferred.result = inferModel(inferred.model, options);
  return inferred;
}

}  // namespace onyx::testing
