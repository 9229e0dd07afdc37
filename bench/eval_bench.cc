// onyx_bench_eval — onyx's evaluator on the models of make_eval_models.py; the anchor,
// onnxruntime-node, runs the same models in eval_bench_ort.js in the same run
// (bench/eval_bench.sh prints the ratios).
//
//   onyx_bench_eval MODEL --threads=N [--reps=R] [--outputs=FILE]
//
// The inputs are NAME.input.json and NAME.input.bin beside NAME.onnx (make_eval_models.py
// writes them; bench_inputs.h reads them): each graph input's name, element type and
// dimensions, and its elements, raw little-endian, one after another; eval_bench_ort.js gives
// onnxruntime the same.
//
// The first run is what a user waits for before the first result: loading the model,
// preparing it (an Evaluator, as an onnxruntime session) and running it once. Then one more
// warm-up run and R timed runs (default 15) of the prepared model: wall-clock latency, median
// and minimum (with more than one thread CPU time would count every thread). --outputs
// writes the first run's outputs, raw float32 one after another, for eval_bench_ort.js to
// compare with onnxruntime's.
//
// Lines starting with "RESULT|" (warm median and minimum) and "FIRST|" (the first run, and
// the load and preparation within it) are what eval_bench.sh reads.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "bench_inputs.h"
#include "onyx/eval/evaluator.h"
#include "onyx/ir/graph.h"
#include "onyx/ir/type.h"
#include "onyx/ir/value.h"
#include "onyx/serde/model_io.h"

namespace {

using Clock = std::chrono::steady_clock;

[[noreturn]] void die(const std::string& message) {
  std::cerr << "onyx_bench_eval: " << message << "\n";
  std::exit(1);
}

double millisecondsSince(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

void writeOutputs(const std::string& path, const std::vector<onyx::EvalValue>& outputs) {
  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  for (size_t i = 0; i < outputs.size(); ++i) {
    const onyx::EvalValue& output = outputs[i];
    if (!output.isTensor() || output.tensor.type() != onyx::ElementType::kFloat) {
      die("output " + std::to_string(i) + " is not a float tensor");
    }
    std::span<const std::byte> bytes = output.tensor.bytes();
    file.write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
  }
  if (!file) die("cannot write " + path);
}

}  // namespace

int main(int argc, char** argv) {
  std::string path;
  std::string outputs_path;
  int threads = 1;
  int reps = 15;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg.rfind("--threads=", 0) == 0) {
      threads = std::atoi(arg.c_str() + 10);
    } else if (arg.rfind("--reps=", 0) == 0) {
      reps = std::max(1, std::atoi(arg.c_str() + 7));
    } else if (arg.rfind("--outputs=", 0) == 0) {
      outputs_path = arg.substr(10);
    } else {
      path = arg;
    }
  }
  if (path.empty() || !path.ends_with(".onnx")) {
    die("usage: onyx_bench_eval MODEL.onnx --threads=N [--reps=R] [--outputs=FILE]");
  }
  onyx::Result<std::vector<onyx::NamedValue>> read_inputs = onyx_bench::readModelInputs(path);
  if (!read_inputs) die(read_inputs.status().toString());
  std::vector<onyx::NamedValue> inputs = std::move(*read_inputs);

  auto load_start = Clock::now();
  onyx::Result<onyx::Model> model = onyx::loadModel(path);
  if (!model) die("cannot load " + path + ": " + model.status().toString());
  double load_ms = millisecondsSince(load_start);

  auto prepare_start = Clock::now();
  onyx::EvalOptions options;
  options.threads = threads;
  onyx::Evaluator evaluator(*model, options);
  double prepare_ms = millisecondsSince(prepare_start);
  auto run = [&] {
    onyx::Result<std::vector<onyx::EvalValue>> outputs = evaluator.run(inputs);
    if (!outputs) die("cannot run " + path + ": " + outputs.status().toString());
    return std::move(*outputs);
  };
  std::vector<onyx::EvalValue> first_outputs = run();
  double first_ms = load_ms + millisecondsSince(prepare_start);
  if (!outputs_path.empty()) writeOutputs(outputs_path, first_outputs);
  first_outputs.clear();

  run();
  std::vector<double> times;
  for (int i = 0; i < reps; ++i) {
    auto start = Clock::now();
    std::vector<onyx::EvalValue> outputs = run();
    times.push_back(millisecondsSince(start));  // not timed: freeing the outputs, which
    // onnxruntime-node leaves to the garbage collector
  }
  std::sort(times.begin(), times.end());
  std::string name = path.substr(path.find_last_of('/') + 1);
  std::printf("RESULT|onyx|%s|%d|%.3f|%.3f\n", name.c_str(), threads, times[times.size() / 2],
              times.front());
  std::printf("FIRST|onyx|%s|%d|%.3f|load %.1f ms, prepare %.1f ms\n", name.c_str(), threads,
              first_ms, load_ms, prepare_ms);
  return 0;
}
