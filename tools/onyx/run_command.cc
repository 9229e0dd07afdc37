// `onyx run MODEL [--input NAME=FILE]... [--output-dir DIR] [--format pb|npy] [--threads N]
// [--seed S] [--max-iterations N]`: evaluates the model. Inputs are .pb files (a
// TensorProto, or the SequenceProto/MapProto/OptionalProto an input of that type takes, as
// in ONNX backend test cases) or .npy files. Each output is printed (type, shape, the first
// elements); with --output-dir, also written there as output_K.pb (or .npy). Exit 0 when
// the model ran, 1 when it could not run (a missing or mistyped input, an operator onyx has
// no kernel for, a kernel's error), 2 when a file cannot be read or written or on bad usage.
#include <fmt/format.h>

#include <chrono>
#include <filesystem>

#include "commands.h"
#include "onyx/core/array_elements.h"
#include "onyx/core/file_writer.h"
#include "onyx/core/mapped_file.h"
#include "onyx/eval/evaluator.h"
#include "onyx/eval/test_case.h"
#include "onyx/ir/graph.h"
#include "onyx/ir/tensor_array.h"
#include "onyx/ir/value.h"
#include "onyx/serde/npy.h"
#include "onyx/serde/test_data.h"

namespace onyx::tool {

namespace {

struct RunArguments {
  std::string path;
  std::vector<std::string> inputs;
  std::string output_dir;
  std::string format = "pb";
  int threads = 0;
  uint64_t seed = 0;
  int64_t max_iterations = int64_t{1} << 31;
};

Result<EvalValue> readInput(const Graph& graph, const std::string& name, const std::string& path) {
  const Value* formal = graph.lookup(name);
  if (formal == nullptr || formal->input == nullptr) {
    return Status(ErrorCode::kInvalidArgument, "the graph has no input named '" + name + "'");
  }
  if (path.ends_with(".npy")) {
    Result<std::shared_ptr<const MappedFile>> file = MappedFile::open(path);
    if (!file) return file.status();
    Result<Array> array = parseNpy((*file)->bytes());
    if (!array) return array.status();
    return EvalValue::of(std::move(*array));
  }
  Result<TestValue> value = loadTestValue(path, testValueKindOf(formal->type()));
  if (!value) return value.status();
  return evalValueOf(*value);
}

std::string describeValue(const EvalValue& value) {
  switch (value.kind) {
    case EvalValue::Kind::kNone: return "an empty optional";
    case EvalValue::Kind::kSequence:
      return fmt::format("a sequence of {} values", value.items.size());
    case EvalValue::Kind::kMap: return fmt::format("a map of {} entries", value.keys.size());
    case EvalValue::Kind::kTensor: break;
  }
  const Array& array = value.tensor;
  std::string text = std::string(elementTypeName(array.type())) + "[";
  for (size_t axis = 0; axis < array.rank(); ++axis) {
    text += (axis ? "," : "") + std::to_string(array.dim(axis));
  }
  text += "] = [";
  constexpr size_t kShown = 8;
  for (size_t i = 0; i < std::min(array.size(), kShown); ++i) {
    if (i) text += ", ";
    text += array.isString() ? "\"" + array.strings()[i] + "\""
                             : fmt::format("{:.7g}", elementAsDouble(array, i));
  }
  if (array.size() > kShown) text += fmt::format(", ... ({} elements)", array.size());
  return text + "]";
}

Status writeOutput(const EvalValue& value, const std::string& destination, bool npy) {
  if (!value.isTensor()) {
    return Status(ErrorCode::kUnsupported, "only tensors are written to files yet");
  }
  std::string bytes;
  if (npy) {
    Result<std::string> encoded = serializeNpy(value.tensor);
    if (!encoded) return encoded.status();
    bytes = std::move(*encoded);
  } else {
    Arena arena;
    Result<std::string> encoded = serializeTensor(*tensorFromArray(value.tensor, arena));
    if (!encoded) return encoded.status();
    bytes = std::move(*encoded);
  }
  Result<AtomicFileWriter> writer = AtomicFileWriter::create(destination);
  if (!writer) return writer.status();
  ONYX_RETURN_IF_ERROR(writer->write(bytes));
  return writer->commit();
}

int runModel(const RunArguments& arguments) {
  Result<Model> loaded = loadModel(arguments.path);
  if (!loaded) {
    fmt::print(stderr, "onyx: cannot read {}: {}\n", arguments.path, loaded.status().toString());
    return kExitUnreadable;
  }
  const Model& model = *loaded;
  if (model.graph == nullptr) {
    fmt::print(stderr, "onyx: {} has no graph\n", arguments.path);
    return kExitInvalid;
  }
  std::vector<NamedValue> inputs;
  for (const std::string& binding : arguments.inputs) {
    size_t equals = binding.find('=');
    if (equals == std::string::npos || equals == 0) {
      fmt::print(stderr, "onyx: --input takes NAME=FILE, not '{}'\n", binding);
      return kExitUnreadable;
    }
    std::string name = binding.substr(0, equals);
    std::string path = binding.substr(equals + 1);
    Result<EvalValue> value = readInput(*model.graph, name, path);
    if (!value) {
      fmt::print(stderr, "onyx: input '{}' from {}: {}\n", name, path, value.status().toString());
      return value.status().code() == ErrorCode::kInvalidArgument ? kExitInvalid : kExitUnreadable;
    }
    inputs.push_back({name, std::move(*value)});
  }
  EvalOptions options;
  options.threads = arguments.threads;
  options.seed = arguments.seed;
  options.max_iterations = arguments.max_iterations;
  auto start = std::chrono::steady_clock::now();
  Result<std::vector<EvalValue>> outputs = evaluate(model, inputs, options);
  auto elapsed = std::chrono::steady_clock::now() - start;
  if (!outputs) {
    fmt::print(stderr, "onyx: {}\n", outputs.status().toString());
    return kExitInvalid;
  }
  for (size_t i = 0; i < outputs->size(); ++i) {
    const Value* bound = model.graph->outputs[i]->bound();
    std::string name = bound != nullptr ? std::string(bound->name) : fmt::format("output {}", i);
    fmt::print("{}: {}\n", name, describeValue((*outputs)[i]));
  }
  fmt::print(stderr, "ran in {:.3f} ms\n",
             std::chrono::duration<double, std::milli>(elapsed).count());
  if (arguments.output_dir.empty()) return kExitOk;
  std::error_code error;
  std::filesystem::create_directories(arguments.output_dir, error);
  bool npy = arguments.format == "npy";
  for (size_t i = 0; i < outputs->size(); ++i) {
    std::string destination = (std::filesystem::path(arguments.output_dir) /
                               fmt::format("output_{}.{}", i, npy ? "npy" : "pb"))
                                  .string();
    Status written = writeOutput((*outputs)[i], destination, npy);
    if (!written.isOk()) {
      fmt::print(stderr, "onyx: cannot write {}: {}\n", destination, written.toString());
      return kExitUnreadable;
    }
  }
  return kExitOk;
}

}  // namespace

void addRunCommand(CLI::App& app, int& exit_code) {
  auto* command = app.add_subcommand("run", "Evaluate a model on given inputs");
  auto arguments = std::make_shared<RunArguments>();
  command->add_option("MODEL", arguments->path, "the model")->required();
  command->add_option("--input", arguments->inputs,
                      "NAME=FILE: a graph input from a .pb (TensorProto, ...) or .npy file");
  command->add_option("--output-dir", arguments->output_dir,
                      "write each output there as output_K.pb (or .npy)");
  command->add_option("--format", arguments->format, "the files --output-dir writes")
      ->check(CLI::IsMember({"pb", "npy"}));
  command->add_option("--threads", arguments->threads, "threads kernels may use (0: all)")
      ->check(CLI::NonNegativeNumber);
  command->add_option("--seed", arguments->seed, "the seed of random operators");
  command
      ->add_option("--max-iterations", arguments->max_iterations,
                   "a bound on any Loop's iterations")
      ->check(CLI::PositiveNumber);
  command->callback([&exit_code, arguments] { exit_code = runModel(*arguments); });
}

}  // namespace onyx::tool
