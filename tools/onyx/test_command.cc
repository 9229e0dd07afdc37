// `onyx test CASE_DIR... [--verbose] [--threads N]`: runs ONNX backend test cases (a folder with
// model.onnx and test_data_set_*/input_K.pb, output_K.pb) and compares the outputs. One line per
// failing case (the data set, the output, the first differing index and both values, or why the
// model could not run); the last line `N passed, N failed, N skipped`. Exit 0 when none
// failed, 1 when some did, 2 on bad usage.
#include <fmt/format.h>

#include <filesystem>

#include "commands.h"
#include "onyx/eval/test_case.h"
#include "progress.h"

namespace onyx::tool {

namespace {

struct TestArguments {
  std::vector<std::string> cases;
  bool verbose = false;
  int threads = 0;
};

int runTests(const TestArguments& arguments) {
  size_t passed = 0;
  size_t failed = 0;
  size_t skipped = 0;
  ProgressBar progress("testing", ProgressUnit::kItems);
  size_t done = 0;
  for (const std::string& folder : arguments.cases) {
    progress.update(done++, arguments.cases.size());
    std::string name = std::filesystem::path(folder).filename().string();
    if (name.empty()) name = folder;
    if (!std::filesystem::exists(std::filesystem::path(folder) / "model.onnx")) {
      fmt::print("skipped {}: no model.onnx\n", name);
      ++skipped;
      continue;
    }
    EvalOptions options;
    options.threads = arguments.threads;
    Result<TestCaseResult> result = runTestCase(folder, options);
    if (!result) {
      fmt::print("FAILED {}: {}\n", name, result.status().toString());
      ++failed;
      continue;
    }
    if (result->data_sets == 0) {
      fmt::print("skipped {}: no test_data_set_* folder\n", name);
      ++skipped;
      continue;
    }
    if (!result->failures.empty()) {
      for (const std::string& failure : result->failures) {
        fmt::print("FAILED {}: {}\n", name, failure);
      }
      ++failed;
      continue;
    }
    if (arguments.verbose) fmt::print("passed {}\n", name);
    ++passed;
  }
  fmt::print("{} passed, {} failed, {} skipped\n", passed, failed, skipped);
  return failed == 0 ? kExitOk : kExitInvalid;
}

}  // namespace

void addTestCommand(CLI::App& app, int& exit_code) {
  auto* command =
      app.add_subcommand("test", "Run ONNX backend test cases and compare their outputs");
  auto arguments = std::make_shared<TestArguments>();
  command->add_option("CASE_DIR", arguments->cases, "test case folders")->required();
  command->add_flag("--verbose", arguments->verbose, "also list the cases that pass");
  command->add_option("--threads", arguments->threads, "threads kernels may use (0: all)")
      ->check(CLI::NonNegativeNumber);
  command->callback([&exit_code, arguments] { exit_code = runTests(*arguments); });
}

}  // namespace onyx::tool
