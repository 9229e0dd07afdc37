// onyx_bench_check — onyx's checker on the models of make_check_models.py; the anchor,
// onnx.checker.check_model(full_check=True) of Debian's python3-onnx, is timed by
// check_bench.py in the same run (bench/check_bench.sh prints the ratios).
//
//   onyx_bench_check MODEL... [--reps=N]
//
// For each model: checkModel with inference on the loaded model (the check alone), and loadModel
// then checkModel (what `onyx check` does, in a warm process). Each runs once to warm up, then N
// times (default 7); CPU time, median and minimum. The diagnostics are required to be empty:
// a checker that fails early would look fast.
//
// Lines starting with "RESULT|" are what check_bench.sh reads.
#include <time.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <iostream>
#include <string>
#include <vector>

#include "onyx/check/checker.h"
#include "onyx/infer/infer.h"
#include "onyx/serde/model_io.h"

namespace {

double cpuMilliseconds() {
  timespec now;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) * 1e3 + static_cast<double>(now.tv_nsec) / 1e6;
}

[[noreturn]] void die(const std::string& message) {
  std::cerr << "onyx_bench_check: " << message << "\n";
  std::exit(1);
}

struct Timing {
  double median_ms;
  double min_ms;
};

Timing measure(int reps, const std::function<double()>& step) {
  step();
  std::vector<double> times;
  for (int i = 0; i < reps; ++i) times.push_back(step());
  std::sort(times.begin(), times.end());
  return {times[times.size() / 2], times.front()};
}

void requireValid(const onyx::Diagnostics& diagnostics, const std::string& path) {
  if (!diagnostics.all().empty()) {
    die(path + " is not clean for onyx: " + diagnostics.all().front().toString());
  }
}

}  // namespace

int main(int argc, char** argv) {
  int reps = 7;
  std::vector<std::string> models;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg.rfind("--reps=", 0) == 0) {
      reps = std::max(1, std::atoi(arg.c_str() + 7));
    } else {
      models.push_back(arg);
    }
  }
  if (models.empty()) die("usage: onyx_bench_check MODEL... [--reps=N]");
  // What `onyx check` runs: the checker's rules and inference's (R36, X5), as onnx's
  // full_check runs shape inference.
  onyx::CheckOptions options;
  options.more_rules = onyx::checkInferredTypes;
  for (const std::string& path : models) {
    onyx::Result<onyx::Model> loaded = onyx::loadModel(path);
    if (!loaded.isOk()) die(loaded.status().toString());
    requireValid(onyx::checkModel(loaded.value(), options), path);
    Timing check = measure(reps, [&] {
      double start = cpuMilliseconds();
      onyx::Diagnostics diagnostics = onyx::checkModel(loaded.value(), options);
      double elapsed = cpuMilliseconds() - start;
      if (diagnostics.hasErrors()) die("diagnostics changed between runs");
      return elapsed;
    });
    Timing load_check = measure(reps, [&] {
      double start = cpuMilliseconds();
      onyx::Result<onyx::Model> model = onyx::loadModel(path);
      if (!model.isOk()) die(model.status().toString());
      onyx::Diagnostics diagnostics = onyx::checkModel(model.value(), options);
      double elapsed = cpuMilliseconds() - start;
      if (diagnostics.hasErrors()) die("diagnostics changed between runs");
      return elapsed;
    });
    std::printf("%-40s onyx checkModel          %9.2f ms (min %.2f)\n", path.c_str(),
                check.median_ms, check.min_ms);
    std::printf("%-40s onyx loadModel+check     %9.2f ms (min %.2f)\n", "", load_check.median_ms,
                load_check.min_ms);
    std::printf("RESULT|%s|check|%.3f\nRESULT|%s|load_check|%.3f\n", path.c_str(), check.median_ms,
                path.c_str(), load_check.median_ms);
  }
  return 0;
}
