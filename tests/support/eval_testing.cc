#include "support/eval_testing.h"

#include <gtest/gtest.h>

#include "onyx/text/parser.h"

namespace onyx::testing {

Result<std::vector<EvalValue>> runText(std::string_view text, std::vector<NamedValue> inputs,
                                       const EvalOptions& options) {
  Result<Model> parsed = parseText(text);
  EXPECT_TRUE(parsed) << parsed.status().toString();
  if (!parsed) return parsed.status();
  return evaluate(*parsed, inputs, options);
}

}  // namespace onyx::testing
