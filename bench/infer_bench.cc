// onyx_bench_infer — onyx's inference on the model of make_infer_model.py; the anchor,
// onnx.shape_inference.infer_shapes(data_prop=True) of Debian's python3-onnx, is timed by
// infer_bench.py in the same run (bench/infer_bench.sh prints the ratios and the counts).
//
//   onyx_bench_infer MODEL... [--reps=N]
//
// For each model: inferModel on a freshly loaded model (inference alone; the load is not
// timed), and loadModel then inferModel. One warm-up, then N runs (default 7); CPU time,
// median and minimum. Counts node outputs with a shape, and with every dimension a number
// or a name. Inference errors abort: a rule that fails early would look fast.
//
// Lines starting with "RESULT|" and "COUNT|" are what infer_bench.sh reads.
#include <time.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <iostream>
#include <string>
#include <vector>

#include "onyx/infer/infer.h"
#include "onyx/ir/graph.h"
#include "onyx/ir/node.h"
#include "onyx/ir/type.h"
#include "onyx/ir/value.h"
#include "onyx/serde/model_io.h"

namespace {

double cpuMilliseconds() {
  timespec now;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) * 1e3 + static_cast<double>(now.tv_nsec) / 1e6;
}

[[noreturn]] void die(const std::string& message) {
  std::cerr << "onyx_bench_infer: " << message << "\n";
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

onyx::Model load(const std::string& path) {
  auto loaded = onyx::loadModel(path);
  if (!loaded) die("cannot load " + path + ": " + loaded.status().toString());
  return std::move(*loaded);
}

void infer(onyx::Model& model, const std::string& path) {
  onyx::InferResult result = onyx::inferModel(model);
  if (result.diagnostics.hasErrors()) {
    die(path + ": " + result.diagnostics.all().front().toString());
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
  for (const std::string& path : models) {
    Timing alone = measure(reps, [&] {
      onyx::Model model = load(path);
      double start = cpuMilliseconds();
      infer(model, path);
      return cpuMilliseconds() - start;
    });
    Timing with_load = measure(reps, [&] {
      double start = cpuMilliseconds();
      onyx::Model model = load(path);
      infer(model, path);
      return cpuMilliseconds() - start;
    });
    onyx::Model model = load(path);
    infer(model, path);
    size_t ranked = 0;
    size_t complete = 0;
    for (const onyx::Node* node : model.graph->nodes()) {
      for (const onyx::Value* output : node->outputs()) {
        if (output == nullptr) continue;
        const onyx::TensorShape* shape = output->shape();
        if (shape == nullptr) continue;
        ++ranked;
        bool all = true;
        for (const onyx::Dimension& dim : shape->dims) {
          all = all && (dim.isKnown() || (dim.isSymbolic() && !dim.dim_param->empty()));
        }
        if (all) ++complete;
      }
    }
    std::printf("%-40s onyx inferModel            %9.2f ms (min %.2f)\n", path.c_str(),
                alone.median_ms, alone.min_ms);
    std::printf(
        "%-40s onyx load+inferModel       %9.2f ms (min %.2f); %zu outputs with a "
        "shape, %zu with every dim known or named\n",
        "", with_load.median_ms, with_load.min_ms, ranked, complete);
    std::printf("RESULT|%s|infer|%.3f\n", path.c_str(), alone.median_ms);
    std::printf("RESULT|%s|load_infer|%.3f\n", path.c_str(), with_load.median_ms);
    std::printf("COUNT|%s|ranked|%zu\n", path.c_str(), ranked);
    std::printf("COUNT|%s|complete|%zu\n", path.c_str(), complete);
  }
  return 0;
}
