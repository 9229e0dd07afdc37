// onyx_bench_session — the C++ side of the Python Session.run overhead (bench/python_bench.sh):
// onyx::Evaluator::run on a small model, called in a loop, each call doing what
// onyx.Session.run does in C++ besides the bindings: make the input Arrays from the caller's
// bytes (Python copies each fed NumPy array into an Array), run, and free the outputs.
//
//   onyx_bench_session MODEL.onnx [--calls=N] [--batches=B]
//
// Every graph input must have a fixed shape and float elements. One thread, as the Python
// side asks. B batches (default 7) of N calls (default 20,000) after a warm-up batch; prints
// "SESSION|cpp|MEDIAN_US|MIN_US" (microseconds per call, the median and the fastest batch).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
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
  std::fprintf(stderr, "onyx_bench_session: %s\n", message.c_str());
  std::exit(1);
}

struct InputSource {
  std::string name;
  std::vector<int64_t> shape;
  std::vector<float> elements;  // what the caller holds; copied into a fresh Array per call
};

std::vector<InputSource> inputSources(const onyx::Model& model) {
  std::vector<InputSource> sources;
  for (const onyx::ValueInfo* input : model.graph->inputs) {
    const std::string name(input->value->name());
    const onyx::Type* type = input->type;
    if (type == nullptr || type->shape == nullptr) die("input '" + name + "' has no shape");
    InputSource source{name, {}, {}};
    size_t count = 1;
    for (const onyx::Dimension& dim : type->shape->dims) {
      if (!dim.dim_value) die("input '" + name + "' has a symbolic dim");
      source.shape.push_back(*dim.dim_value);
      count *= static_cast<size_t>(*dim.dim_value);
    }
    for (size_t i = 0; i < count; ++i) {
      source.elements.push_back(static_cast<float>(i % 7) - 3.0f);  // negatives and positives
    }
    sources.push_back(std::move(source));
  }
  return sources;
}

}  // namespace

int main(int argc, char** argv) {
  std::string path;
  long calls = 20000;
  int batches = 7;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg.rfind("--calls=", 0) == 0) {
      calls = std::max(1L, std::atol(arg.c_str() + 8));
    } else if (arg.rfind("--batches=", 0) == 0) {
      batches = std::max(1, std::atoi(arg.c_str() + 10));
    } else {
      path = arg;
    }
  }
  if (path.empty()) die("usage: onyx_bench_session MODEL.onnx [--calls=N] [--batches=B]");
  onyx::Result<onyx::Model> model = onyx::loadModel(path);
  if (!model) die("cannot load " + path + ": " + model.status().toString());
  const std::vector<InputSource> sources = inputSources(*model);

  onyx::EvalOptions options;
  options.threads = 1;
  onyx::Evaluator evaluator(*model, options);
  auto call = [&] {
    std::vector<onyx::NamedValue> inputs;
    inputs.reserve(sources.size());
    for (const InputSource& source : sources) {
      onyx::Array array(onyx::ElementType::kFloat, source.shape);
      std::memcpy(array.bytes().data(), source.elements.data(),
                  source.elements.size() * sizeof(float));
      inputs.push_back({source.name, onyx::EvalValue::of(std::move(array))});
    }
    onyx::Result<std::vector<onyx::EvalValue>> outputs = evaluator.run(inputs);
    if (!outputs) die("cannot run " + path + ": " + outputs.status().toString());
  };

  std::vector<double> per_call;
  for (int batch = 0; batch <= batches; ++batch) {
    auto start = Clock::now();
    for (long i = 0; i < calls; ++i) call();
    double micros = std::chrono::duration<double, std::micro>(Clock::now() - start).count();
    if (batch > 0) per_call.push_back(micros / static_cast<double>(calls));  // 0: warm-up
  }
  std::sort(per_call.begin(), per_call.end());
  std::printf("SESSION|cpp|%.3f|%.3f\n", per_call[per_call.size() / 2], per_call.front());
  return 0;
}
