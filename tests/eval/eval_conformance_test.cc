// The evaluator against the ONNX backend conformance cases: how many pass, and why the
// others do not. The floor keeps what passes passing; a case that runs and differs is a bug,
// except the few whose expected values are random draws no one can reproduce.
#include <gtest/gtest.h>

#include <cstdio>
#include <map>
#include <set>
#include <string>

#include "onyx/eval/test_case.h"
#include "support/conformance.h"

namespace onyx {
namespace {

// Cases passing when this floor was last raised; the evaluator must not fall below it.
constexpr size_t kPassedFloor = 1796;

// Cases whose expected values no evaluator can reproduce: onnx drew them from numpy's global
// random state (np.random.binomial without a seed, even for the `seed` case), so only their
// element type and shape are checked; their values may differ.
const std::set<std::string> kUnreproducibleDraws = {
    "test_bernoulli",          "test_bernoulli_double", "test_bernoulli_double_expanded",
    "test_bernoulli_expanded", "test_bernoulli_seed",   "test_bernoulli_seed_expanded",
};

// Whether every failure line reports differing values, not a differing type or shape.
bool onlyValuesDiffer(const std::vector<std::string>& failures) {
  for (const std::string& failure : failures) {
    if (failure.find(": index ") == std::string::npos) return false;
  }
  return true;
}

// Runs every case with `options`; checks the floor and that nothing that runs differs.
void expectBackendCasesPass(const EvalOptions& options) {
  auto cases = testing::conformanceCases();
  if (cases.empty()) GTEST_SKIP() << testing::conformanceMissingReason();
  size_t passed = 0;
  size_t random_draws = 0;
  std::map<std::string, size_t> reasons;
  std::vector<std::string> wrong;
  for (const auto& dir : cases) {
    Result<TestCaseResult> result = runTestCase(dir.string(), options);
    if (!result) {
      std::string why = result.status().message();
      size_t cut = why.find(": ");
      reasons[cut == std::string::npos ? why : why.substr(cut + 2)]++;
      continue;
    }
    if (result->failures.empty()) {
      ++passed;
    } else if (kUnreproducibleDraws.contains(dir.filename().string()) &&
               onlyValuesDiffer(result->failures)) {
      ++random_draws;
    } else {
      wrong.push_back(dir.filename().string() + ": " + result->failures.front());
    }
  }
  std::printf("%zu/%zu cases pass; %zu random draws differ in value only, as expected\n", passed,
              cases.size(), random_draws);
  std::printf("%zu run and differ:\n", wrong.size());
  for (const std::string& line : wrong) std::printf("  %s\n", line.c_str());
  EXPECT_GE(passed, kPassedFloor);
  // A kernel that runs must compute the right thing: a difference is a bug, not a gap.
  EXPECT_TRUE(wrong.empty());
}

TEST(EvalConformance, BackendCasesPass) { expectBackendCasesPass({}); }

// Every node alone, with its own kernel's literal result (the reference path).
TEST(EvalConformance, BackendCasesPassWithFusionsOff) {
  EvalOptions options;
  options.fusions = false;
  expectBackendCasesPass(options);
}

}  // namespace
}  // namespace onyx
