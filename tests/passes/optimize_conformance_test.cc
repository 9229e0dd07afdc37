// optimize() over every ONNX backend node case: the optimised model passes the checker
// whenever the original does, gives the expected outputs whenever the original does (the
// case's own data sets, through the conformance runner), and optimising is deterministic and
// idempotent: the same bytes from a second run on the original and from a run on the
// optimised model.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <map>
#include <string>

#include "onyx/check/checker.h"
#include "onyx/eval/node_evaluator.h"
#include "onyx/eval/test_case.h"
#include "onyx/infer/infer.h"
#include "onyx/passes/optimize.h"
#include "onyx/serde/model_io.h"
#include "support/conformance.h"
#include "support/graph_testing.h"

namespace onyx {
namespace {

namespace fs = std::filesystem;

bool checksClean(const Model& model) {
  CheckOptions options;
  options.more_rules = checkInferredTypes;
  return !checkModel(model, options).hasErrors();
}

size_t nodeCount(const Graph& graph) {
  size_t count = 0;
  for (const Node* node : graph.nodes()) count += node != nullptr ? 1 : 0;
  return count;
}

bool passesItsCase(const fs::path& folder) {
  Result<TestCaseResult> result = runTestCase(folder.string());
  return result && result->failures.empty();
}

// The case folder with `model` in place of its model: the data sets (and tolerances) linked.
fs::path caseWith(const fs::path& scratch, const fs::path& original, const Model& model) {
  fs::path folder = scratch / original.filename();
  fs::create_directories(folder);
  for (const auto& entry : fs::directory_iterator(original)) {
    if (entry.path().filename() == "model.onnx") continue;
    fs::create_symlink(entry.path(), folder / entry.path().filename());
  }
  EXPECT_TRUE(saveModel(model, (folder / "model.onnx").string()));
  return folder;
}

TEST(OptimizeConformance, BackendCasesStayValidCorrectAndStable) {
  auto cases = testing::conformanceCases();
  if (cases.empty()) GTEST_SKIP() << testing::conformanceMissingReason();
  char pattern[] = "/tmp/onyx-optimize-conformance-XXXXXX";
  ASSERT_NE(mkdtemp(pattern), nullptr);
  fs::path scratch = pattern;
  auto start = std::chrono::steady_clock::now();
  size_t optimized = 0;
  size_t changed = 0;
  size_t nodes_before = 0;
  size_t nodes_after = 0;
  std::map<std::string, std::string> cannot;  // case: why
  // As `onyx optimize` runs: folding through the evaluator's kernels.
  KernelNodeEvaluator evaluator;
  OptimizeOptions options;
  options.node_evaluator = &evaluator;
  for (const fs::path& dir : cases) {
    std::string name = dir.filename().string();
    fs::path model_path = dir / "model.onnx";
    Result<Model> loaded = loadModel(model_path.string());
    if (!loaded) continue;  // the loader's own tests cover these
    bool was_clean = checksClean(*loaded);
    nodes_before += nodeCount(*loaded->graph);
    Result<OptimizeReport> report = optimize(*loaded, options);
    if (!report) {
      cannot[name] = report.status().toString();
      continue;
    }
    ++optimized;
    nodes_after += nodeCount(*loaded->graph);
    std::string bytes = testing::bytesOf(*loaded);
    if (report->total().changed()) ++changed;
    EXPECT_FALSE(report->reached_cap) << name;
    if (was_clean) {
      EXPECT_TRUE(checksClean(*loaded)) << name << ": the optimised model fails the checker";
    }
    // Deterministic: the original again gives the same bytes.
    Result<Model> again = loadModel(model_path.string());
    ASSERT_TRUE(again);
    ASSERT_TRUE(optimize(*again, options)) << name;
    EXPECT_EQ(testing::bytesOf(*again), bytes) << name << ": two runs differ";
    // Idempotent: the optimised model is left as it is.
    Model reread = testing::parseOwned(bytes);
    Result<OptimizeReport> second = optimize(reread, options);
    ASSERT_TRUE(second) << name;
    EXPECT_EQ(testing::bytesOf(reread), bytes) << name << ": optimising twice changes the model";
    if (!report->total().changed()) continue;
    fs::path folder = caseWith(scratch, dir, *loaded);
    if (!passesItsCase(folder) && passesItsCase(dir)) {
      Result<TestCaseResult> result = runTestCase(folder.string());
      ADD_FAILURE() << name << ": the optimised model gives other outputs: "
                    << (result ? (result->failures.empty() ? "" : result->failures.front())
                               : result.status().toString());
    }
  }
  fs::remove_all(scratch);
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("%zu/%zu cases optimised (%zu changed; main-graph nodes %zu -> %zu) in %.1f s\n",
              optimized, cases.size(), changed, nodes_before, nodes_after, seconds);
  for (const auto& [name, why] : cannot)
    std::printf("  cannot optimise %s: %s\n", name.c_str(), why.c_str());
  EXPECT_TRUE(cannot.empty());
}

}  // namespace
}  // namespace onyx
