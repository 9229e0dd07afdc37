// onyx_bench_session_memory — what each further session of one model costs in memory (issue
// 45: eight sessions of one model in a process should take at most 1.2x the resident memory
// of one; processes should share the weights' pages). bench/session_memory.sh drives it.
//
//   onyx_bench_session_memory MODEL.onnx [--sessions=N] [--threads=T] [--fusions=0]
//   onyx_bench_session_memory MODEL.onnx --hold [--threads=T] [--fusions=0]
//
// A session is what an application makes per user of a model: the model loaded from its file
// (loadModel) and an Evaluator over it, run once. The inputs take the declared shapes
// (symbolic and unknown dims 1) and small elements of the declared type (float, int64, int32
// or bool). The first form makes N sessions (default 8) one after another, all kept, and prints
// after each what the process holds:
//   MEMORY|SESSIONS|RSS|ANON|FILE|MODEL_FILES|MODEL_MAPPINGS|HEAP
// in KiB: VmRSS; its anonymous and file-backed parts (RssAnon, RssFile + RssShmem); of the
// file-backed part, the pages of the model's files (the model and what lies beside it in its
// folder: its external data) and how many mappings of them the process has; and the bytes
// malloc has handed out (mallinfo2), which are within ANON. "MEMORY|0|..." is the process
// before any session. Each session's own growth, step by step, is
//   STEPS|SESSION|LOAD|EVALUATOR|RUN        (KiB of RSS: loadModel, the Evaluator, the run)
// and the model's constants (initializers and Constant nodes' tensors, as raw bytes) are
//   WEIGHTS|BYTES|TENSORS|ALIGNED_BYTES
// where ALIGNED_BYTES lie where an Array's elements may start (Array::kAlignment), so that the
// sessions read them in place instead of a copy.
// Last, "RATIO|N|rss(N) / rss(1)".
//
// --hold makes one session, prints "HELD|RSS_KIB" and waits for a line (or the end) on
// stdin before it exits, so that the driver reads the proportional set sizes of several such
// processes while they all live.
#include <malloc.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "onyx/core/array.h"
#include "onyx/eval/evaluator.h"
#include "onyx/ir/constant_value.h"
#include "onyx/ir/graph.h"
#include "onyx/ir/tensor_data.h"
#include "onyx/ir/type.h"
#include "onyx/ir/value.h"
#include "onyx/serde/model_io.h"
#include "process_status.h"

namespace {

[[noreturn]] void die(const std::string& message) {
  std::cerr << "onyx_bench_session_memory: " << message << "\n";
  std::exit(1);
}

struct Footprint {
  long rss_kib = 0;
  long anonymous_kib = 0;
  long file_kib = 0;
  long model_files_kib = 0;  // within file_kib
  int model_mappings = 0;
  long heap_kib = 0;
};

// A field of /proc/self/status in KiB.
long statusKib(const char* field) {
  long kib = onyx_bench::processStatusKib(field);
  if (kib < 0) die(std::string("no ") + field + " in /proc/self/status");
  return kib;
}

long residentKib() { return statusKib("VmRSS"); }

Footprint footprint(const std::string& model_folder) {
  Footprint result;
  result.rss_kib = residentKib();
  result.anonymous_kib = statusKib("RssAnon");
  result.file_kib = statusKib("RssFile") + statusKib("RssShmem");
  // The model's own pages: the mappings /proc/self/smaps names by a path in its folder. A
  // mapping's
  // header line starts with its address range; the lines after it until the next header give
  // its sizes ("Rss:      1234 kB").
  std::ifstream smaps("/proc/self/smaps");
  if (!smaps) die("cannot read /proc/self/smaps");
  std::string line;
  bool in_model = false;
  while (std::getline(smaps, line)) {
    std::istringstream fields(line);
    std::string first;
    fields >> first;
    if (first.empty()) continue;
    if (first.back() != ':') {  // a header: address perms offset device inode [path]
      std::string perms, offset, device, inode, path;
      fields >> perms >> offset >> device >> inode;
      std::getline(fields >> std::ws, path);
      in_model = path.starts_with(model_folder);
      if (in_model) ++result.model_mappings;
    } else if (in_model && first == "Rss:") {
      long kib = 0;
      fields >> kib;
      result.model_files_kib += kib;
    }
  }
  struct mallinfo2 heap = mallinfo2();
  result.heap_kib = static_cast<long>((heap.uordblks + heap.hblkhd) / 1024);
  return result;
}

template <class T>
onyx::Array filled(onyx::ElementType type, const std::vector<int64_t>& shape, T value) {
  onyx::Array array(type, shape);
  for (size_t i = 0; i < array.size(); ++i) array.data<T>()[i] = value;
  return array;
}

std::vector<onyx::NamedValue> inputsFor(const onyx::Model& model) {
  std::vector<onyx::NamedValue> inputs;
  const onyx::InitializerInputs fixed = onyx::initializerInputsOf(model);
  for (const onyx::ValueInfo* input : model.graph->inputs) {
    const onyx::Value* value = input->value;
    if (value == nullptr || value->initializer() != nullptr ||
        onyx::fixedInitializer(value, fixed) != nullptr) {
      continue;
    }
    const std::string name(value->name());
    const onyx::Type* type = input->type;
    if (type == nullptr || type->kind != onyx::Type::Kind::kTensor || !type->elem_type ||
        type->shape == nullptr) {
      die("input '" + name + "' is not a tensor of known rank and element type");
    }
    std::vector<int64_t> shape;
    for (const onyx::Dimension& dim : type->shape->dims) shape.push_back(dim.dim_value.value_or(1));
    auto element = static_cast<onyx::ElementType>(*type->elem_type);
    onyx::Array array;
    switch (element) {
      case onyx::ElementType::kFloat: array = filled(element, shape, 0.5f); break;
      case onyx::ElementType::kInt64: array = filled(element, shape, int64_t{1}); break;
      case onyx::ElementType::kInt32: array = filled(element, shape, int32_t{1}); break;
      case onyx::ElementType::kBool: array = filled(element, shape, true); break;
      default: die("input '" + name + "' has an element type this benchmark does not fill");
    }
    inputs.push_back({name, onyx::EvalValue::of(std::move(array))});
  }
  return inputs;
}

// The bytes of the main graph's constants: what a session may hold copies of.
void printWeights(const onyx::Model& model) {
  uint64_t bytes = 0;
  uint64_t aligned_bytes = 0;
  size_t tensors = 0;
  auto count = [&](const onyx::Tensor* tensor) {
    onyx::Result<onyx::TensorBytes> raw = onyx::rawBytes(*tensor);
    if (!raw) return;  // strings: no raw form, and no weights
    bytes += raw->bytes().size();
    if (raw->isView() &&
        reinterpret_cast<uintptr_t>(raw->bytes().data()) % onyx::Array::kAlignment == 0) {
      aligned_bytes += raw->bytes().size();
    }
    ++tensors;
  };
  for (const onyx::Tensor* tensor : model.graph->initializers) count(tensor);
  for (const onyx::Node* node : model.graph->nodes()) {
    if (node->outputCount() != 1) continue;
    const onyx::Tensor* tensor =
        onyx::constantTensor(node->output(0), onyx::initializerInputsOf(model));
    if (tensor != nullptr && node->output(0)->initializer() == nullptr) count(tensor);
  }
  std::printf("WEIGHTS|%llu|%zu|%llu\n", static_cast<unsigned long long>(bytes), tensors,
              static_cast<unsigned long long>(aligned_bytes));
}

struct Session {
  std::unique_ptr<onyx::Model> model;
  std::unique_ptr<onyx::Evaluator> evaluator;
};

struct Options {
  std::string path;
  int sessions = 8;
  int threads = 1;
  bool fusions = true;
  bool hold = false;
};

Session openAndRunOnce(const Options& options, bool print_steps, int number) {
  const long start = residentKib();
  onyx::Result<onyx::Model> loaded = onyx::loadModel(options.path);
  if (!loaded) die("cannot load " + options.path + ": " + loaded.status().toString());
  Session session;
  session.model = std::make_unique<onyx::Model>(std::move(*loaded));
  const long after_load = residentKib();
  onyx::EvalOptions eval_options;
  eval_options.threads = options.threads;
  eval_options.fusions = options.fusions;
  session.evaluator = std::make_unique<onyx::Evaluator>(*session.model, eval_options);
  const long after_evaluator = residentKib();
  {
    std::vector<onyx::NamedValue> inputs = inputsFor(*session.model);
    onyx::Result<std::vector<onyx::EvalValue>> outputs = session.evaluator->run(inputs);
    if (!outputs) die("cannot run " + options.path + ": " + outputs.status().toString());
  }  // the inputs and outputs go: what stays is the session's
  const long after_run = residentKib();
  if (print_steps) {
    std::printf("STEPS|%d|%ld|%ld|%ld\n", number, after_load - start, after_evaluator - after_load,
                after_run - after_evaluator);
  }
  return session;
}

void printFootprint(int sessions, const Footprint& f) {
  std::printf("MEMORY|%d|%ld|%ld|%ld|%ld|%d|%ld\n", sessions, f.rss_kib, f.anonymous_kib,
              f.file_kib, f.model_files_kib, f.model_mappings, f.heap_kib);
  std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
  Options options;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg.rfind("--sessions=", 0) == 0) {
      options.sessions = std::max(1, std::atoi(arg.c_str() + 11));
    } else if (arg.rfind("--threads=", 0) == 0) {
      options.threads = std::atoi(arg.c_str() + 10);
    } else if (arg == "--fusions=0") {
      options.fusions = false;
    } else if (arg == "--hold") {
      options.hold = true;
    } else {
      options.path = arg;
    }
  }
  if (options.path.empty()) {
    die("usage: onyx_bench_session_memory MODEL.onnx [--sessions=N | --hold] [--threads=T] "
        "[--fusions=0]");
  }
  // /proc names a mapped file by its absolute path.
  char* absolute = realpath(options.path.c_str(), nullptr);
  if (absolute == nullptr) die("cannot find " + options.path);
  std::string model_folder = absolute;
  std::free(absolute);
  model_folder.erase(model_folder.rfind('/') + 1);

  if (options.hold) {
    Session session = openAndRunOnce(options, false, 1);
    std::printf("HELD|%ld\n", residentKib());
    std::fflush(stdout);
    std::string line;
    std::getline(std::cin, line);
    return 0;
  }

  printFootprint(0, footprint(model_folder));
  std::vector<Session> sessions;
  long one = 0;
  for (int i = 1; i <= options.sessions; ++i) {
    sessions.push_back(openAndRunOnce(options, true, i));
    if (i == 1) printWeights(*sessions.front().model);
    Footprint now = footprint(model_folder);
    printFootprint(i, now);
    if (i == 1) one = now.rss_kib;
    if (i == options.sessions) {
      std::printf("RATIO|%d|%.2f\n", i,
                  static_cast<double>(now.rss_kib) / static_cast<double>(one));
    }
  }
  return 0;
}
