// The evaluator against the ONNX backend conformance cases: how many pass, and why the
// others do not. Kernels join operator by operator; the floor keeps what passes passing.
#include <gtest/gtest.h>

#include <cstdio>
#include <map>
#include <string>

#include "onyx/eval/test_case.h"
#include "support/conformance.h"

namespace onyx {
namespace {

// Cases passing when this floor was last raised; the evaluator must not fall below it.
constexpr size_t kPassedFloor = 71;

TEST(EvalConformance, BackendCasesPass) {
  auto cases = testing::conformanceCases();
  if (cases.empty()) GTEST_SKIP() << testing::conformanceMissingReason();
  size_t passed = 0;
  std::map<std::string, size_t> reasons;
  std::vector<std::string> wrong;
  for (const auto& dir : cases) {
    Result<TestCaseResult> result = runTestCase(dir.string());
    if (!result) {
      std::string why = result.status().message();
      size_t cut = why.find(": ");
      reasons[cut == std::string::npos ? why : why.substr(cut + 2)]++;
      continue;
    }
    if (result->failures.empty()) {
      ++passed;
    } else {
      wrong.push_back(dir.filename().string() + ": " + result->failures.front());
    }
  }
  std::printf("%zu/%zu cases pass\n", passed, cases.size());
  std::printf("%zu run and differ:\n", wrong.size());
  for (const std::string& line : wrong) std::printf("  %s\n", line.c_str());
  EXPECT_GE(passed, kPassedFloor);
  // A kernel that runs must compute the right thing: a difference is a bug, not a gap.
  EXPECT_TRUE(wrong.empty());
}

}  // namespace
}  // namespace onyx
