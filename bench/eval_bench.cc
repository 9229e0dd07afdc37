// onyx_bench_eval — onyx's evaluator on the models of make_eval_models.py; the anchor,
// onnxruntime-node, runs the same models in eval_bench_ort.js in the same run
// (bench/eval_bench.sh prints the ratios).
//
//   onyx_bench_eval MODEL --threads=N [--reps=R] [--outputs=FILE]
//
// The input is NAME.input.bin beside NAME.onnx (make_eval_models.py writes it): the graph
// input's elements as raw float32, which eval_bench_ort.js gives onnxruntime too.
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
#include <cstring>
#include <fstream>
#include <iostream>
#include <iterator>
#include <string>
#include <vector>

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

std::vector<char> readFile(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) die("cannot read " + path + " (bench/make_eval_models.py writes it)");
  return {std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>()};
}

// The graph's first input, shaped as it declares, holding the elements of `bytes`.
onyx::NamedValue makeInput(const onyx::Model& model, const std::vector<char>& bytes,
                           const std::string& input_path) {
  const onyx::ValueInfo* input = *model.graph->inputs.begin();
  std::vector<int64_t> shape;
  for (const onyx::Dimension& dim : input->type->shape->dims) {
    if (!dim.dim_value) die("input '" + std::string(input->value->name()) + "' has a symbolic dim");
    shape.push_back(*dim.dim_value);
  }
  onyx::Array array(onyx::ElementType::kFloat, shape);
  if (array.bytes().size() != bytes.size()) {
    die(input_path + " holds " + std::to_string(bytes.size()) + " bytes; input '" +
        std::string(input->value->name()) + "' takes " + std::to_string(array.bytes().size()));
  }
  std::memcpy(array.bytes().data(), bytes.data(), bytes.size());
  return {std::string(input->value->name()), onyx::EvalValue::of(std::move(array))};
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
  std::string input_path = path.substr(0, path.size() - 5) + ".input.bin";
  std::vector<char> input_bytes = readFile(input_path);

  auto load_start = Clock::now();
  onyx::Result<onyx::Model> model = onyx::loadModel(path);
  if (!model) die("cannot load " + path + ": " + model.status().toString());
  double load_ms = millisecondsSince(load_start);
  std::vector<onyx::NamedValue> inputs = {makeInput(*model, input_bytes, input_path)};

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
