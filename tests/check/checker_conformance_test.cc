// Every ONNX backend conformance model (IR 3 to 13, opsets 1 to 25, functions, control
// flow, training operators) is valid: a checker that refuses one has misread a rule.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <vector>

#include "onyx/check/checker.h"
#include "onyx/infer/infer.h"
#include "support/conformance.h"

namespace onyx {
namespace {

TEST(CheckerConformance, EveryConformanceModelIsValid) {
  auto cases = testing::conformanceCases();
  if (cases.empty()) GTEST_SKIP() << testing::conformanceMissingReason();
  size_t valid = 0;
  size_t warnings = 0;
  std::vector<std::string> refused;
  for (const auto& dir : cases) {
    // As `onyx check` does: inference joins the checker (R36, X5).
    CheckOptions options;
    options.more_rules = checkInferredTypes;
    auto checked = checkModelFile((dir / "model.onnx").string(), options);
    if (!checked) {
      refused.push_back(dir.filename().string() + ": " + checked.status().toString());
      continue;
    }
    warnings += checked->all().size() - checked->errorCount();
    if (!checked->hasErrors()) {
      ++valid;
      continue;
    }
    std::string report = dir.filename().string() + ":";
    for (const Diagnostic& diagnostic : checked->all()) report += "\n  " + diagnostic.toString();
    refused.push_back(report);
  }
  std::printf("%zu/%zu valid (%zu warnings)\n", valid, cases.size(), warnings);
  EXPECT_EQ(valid, cases.size());
  for (size_t i = 0; i < refused.size() && i < 20; ++i) ADD_FAILURE() << refused[i];
}

}  // namespace
}  // namespace onyx
