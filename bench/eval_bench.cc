// onyx_bench_eval — onyx's evaluator on the models of make_eval_models.py; the anchor,
// onnxruntime-node, runs the same models in eval_bench_ort.js in the same run
// (bench/eval_bench.sh prints the ratios).
//
//   onyx_bench_eval MODEL --threads=N [--reps=R]
//
// The model is loaded and prepared once (an Evaluator, as an onnxruntime session); the input
// is random (fixed seed) of the graph input's declared shape. Two warm-up runs, then R runs
// (default 15); wall-clock latency, median and minimum: with more than one thread CPU time
// would count every thread.
//
// Lines starting with "RESULT|" are what eval_bench.sh reads.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <random>
#include <string>
#include <vector>

#include "onyx/eval/evaluator.h"
#include "onyx/ir/graph.h"
#include "onyx/ir/type.h"
#include "onyx/ir/value.h"
#include "onyx/serde/model_io.h"

namespace {

[[noreturn]] void die(const std::string& message) {
  std::cerr << "onyx_bench_eval: " << message << "\n";
  std::exit(1);
}

}  // namespace

int main(int argc, char** argv) {
  std::string path;
  int threads = 1;
  int reps = 15;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg.rfind("--threads=", 0) == 0) {
      threads = std::atoi(arg.c_str() + 10);
    } else if (arg.rfind("--reps=", 0) == 0) {
      reps = std::max(1, std::atoi(arg.c_str() + 7));
    } else {
      path = arg;
    }
  }
  if (path.empty()) die("usage: onyx_bench_eval MODEL --threads=N [--reps=R]");
  onyx::Result<onyx::Model> model = onyx::loadModel(path);
  if (!model) die("cannot load " + path + ": " + model.status().toString());
  const onyx::ValueInfo* input = *model->graph->inputs.begin();
  std::vector<int64_t> shape;
  for (const onyx::Dimension& dim : input->type->shape->dims) shape.push_back(*dim.dim_value);
  onyx::Array array(onyx::ElementType::kFloat, shape);
  std::mt19937 generator(11);
  std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
  for (size_t i = 0; i < array.size(); ++i) array.data<float>()[i] = uniform(generator);
  std::vector<onyx::NamedValue> inputs = {
      {std::string(input->value->name), onyx::EvalValue::of(std::move(array))}};

  onyx::EvalOptions options;
  options.threads = threads;
  onyx::Evaluator evaluator(*model, options);
  auto once = [&] {
    auto start = std::chrono::steady_clock::now();
    onyx::Result<std::vector<onyx::EvalValue>> outputs = evaluator.run(inputs);
    auto stop = std::chrono::steady_clock::now();
    if (!outputs) die("cannot run " + path + ": " + outputs.status().toString());
    return std::chrono::duration<double, std::milli>(stop - start).count();
  };
  once();
  once();
  std::vector<double> times;
  for (int i = 0; i < reps; ++i) times.push_back(once());
  std::sort(times.begin(), times.end());
  std::string name = path.substr(path.find_last_of('/') + 1);
  std::printf("RESULT|onyx|%s|%d|%.3f|%.3f\n", name.c_str(), threads, times[times.size() / 2],
              times.front());
  return 0;
}
