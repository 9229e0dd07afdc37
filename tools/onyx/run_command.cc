// `onyx run MODEL [--input NAME=FILE]... [--dim NAME=VALUE]... [--output-dir DIR]
// [--format pb|npy] [--threads N] [--seed S] [--max-iterations N] [--no-fusions]
// [--constant-initializers] [--max-isa TIER] [--json] [--repeat N] [--warmup K] [--profile]
// [--keep NAME]... [--keep-all]`: evaluates the model. --keep and --keep-all make values
// inside the main graph outputs too (after the model's own, in graph order), so that they are
// printed and written as outputs are: reading intermediate values.
// Inputs are .pb files (a TensorProto, or the SequenceProto/MapProto/OptionalProto an input of that
// type takes, as in ONNX backend test cases) or .npy files; a tensor input left out is made up from
// its declared type and the seed (generated_inputs.h), symbolic dims sized by --dim. Each output is
// printed (type, shape, the first elements); with --output-dir, also written there as
// output_K.pb (or .npy). With --repeat and --warmup, one Evaluator runs K untimed then N
// timed times and the latency statistics are printed; --profile adds the time per operator
// type and the slowest steps (run_timing.h). Exit 0 when the model ran, 1 when it could not
// run (a missing or mistyped input, an operator onyx has no kernel for, a kernel's error), 2
// when a file cannot be read or written or on bad usage.
#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <optional>

#include "commands.h"
#include "model_files.h"
#include "onyx/core/array_elements.h"
#include "onyx/core/cpu_tier.h"
#include "onyx/core/file_writer.h"
#include "onyx/core/quote.h"
#include "onyx/eval/evaluator.h"
#include "onyx/ir/editor.h"
#include "onyx/ir/graph.h"
#include "onyx/ir/tensor_array.h"
#include "onyx/ir/value.h"
#include "onyx/serde/npy.h"
#include "onyx/serde/test_data.h"
#include "progress.h"
#include "run_inputs.h"
#include "run_timing.h"

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
  std::vector<std::string> dims;
  bool no_fusions = false;
  bool int8_activations = false;
  bool constant_initializers = false;
  int repeat = 1;
  int warmup = -1;  // -1: one warm-up run when timing, none otherwise
  bool profile = false;
  bool json = false;
  std::string max_isa;  // empty: ONYX_MAX_ISA's or none
  std::vector<std::string> keep;
  bool keep_all = false;
};

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

// Writes `value` to `destination`; a .pb holds the value's name (`onyx compare
// --reference-dir` matches by it).
Status writeOutput(const EvalValue& value, std::string_view name, const std::string& destination,
                   bool npy) {
  if (!value.isTensor()) {
    return Status(ErrorCode::kUnsupported, "only tensors are written to files yet");
  }
  std::string bytes;
  if (npy) {
    Result<std::string> encoded = serializeNpy(value.tensor);
    if (!encoded) return encoded.status();
    bytes = std::move(*encoded);
  } else {
    Model scratch;  // holds the TensorProto's bytes until they are written
    GraphEditor edit(scratch);
    Tensor* tensor = edit.tensorFromArray(value.tensor);
    tensor->name = edit.arena().copy(name);
    Result<std::string> encoded = serializeTensor(*tensor);
    if (!encoded) return encoded.status();
    bytes = std::move(*encoded);
  }
  Result<AtomicFileWriter> writer = AtomicFileWriter::create(destination);
  if (!writer) return writer.status();
  ONYX_RETURN_IF_ERROR(writer->write(bytes));
  return writer->commit();
}

double millisecondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
      .count();
}

// What a run prints without --json: each output, the times, the profile.
template <class OutputName>
void printRunReport(const std::vector<EvalValue>& outputs, const OutputName& outputName,
                    double first_run, const std::vector<double>& timed, int warmup,
                    const StepProfile* profile, CpuTier tier) {
  for (size_t i = 0; i < outputs.size(); ++i) {
    fmt::print("{}: {}\n", outputName(i), describeValue(outputs[i]));
  }
  if (timed.size() + static_cast<size_t>(warmup) == 1) {
    fmt::print(stderr, "ran in {:.3f} ms\n", first_run);
  } else {
    fmt::print("\nfirst run (plan + run): {:.3f} ms\n{} timed run{} {}, in ms:\n{}", first_run,
               timed.size(), timed.size() == 1 ? "" : "s",
               warmup == 0 ? "(the first among them)"
                           : fmt::format("after {} warm-up run{}", warmup, warmup == 1 ? "" : "s"),
               formatLatencyTable(summarizeLatency(timed)));
  }
  if (profile != nullptr) {
    fmt::print("\nCPU tier: {}{}\n", cpuTierName(tier),
               tier == detectedCpuTier()
                   ? ""
                   : fmt::format(" (capped; the CPU's own: {})", cpuTierName(detectedCpuTier())));
    double all_timed = 0;
    for (double elapsed : timed) all_timed += elapsed;
    fmt::print("\n{}", profile->format(timed.size(), all_timed));
  }
}

int runModel(const RunArguments& arguments) {
  // Through the environment, so that oneDNN's primitives, whose cap is process-wide and read
  // before their first use, follow it too (onyx/core/cpu_tier.h).
  if (!arguments.max_isa.empty()) setenv("ONYX_MAX_ISA", arguments.max_isa.c_str(), 1);
  Result<CpuTier> tier = cappedCpuTier();
  if (!tier) {
    fmt::print(stderr, "onyx: {}\n", tier.status().message());
    return kExitUnreadable;
  }
  int exit_status = kExitOk;
  std::optional<Model> loaded = readModelOrSay(arguments.path, true, exit_status);
  if (!loaded) return exit_status;
  Model& model = *loaded;
  if (Status kept = keepValues(model, arguments.keep, arguments.keep_all); !kept.isOk()) {
    fmt::print(stderr, "onyx: {}\n", kept.message());
    return kExitUnreadable;
  }
  Result<std::vector<NamedValue>> inputs =
      gatherInputs({arguments.inputs, arguments.dims, arguments.seed}, *model.graph, exit_status);
  if (!inputs) {
    fmt::print(stderr, "onyx: {}\n", inputs.status().message());
    return exit_status;
  }
  EvalOptions options;
  options.threads = arguments.threads;
  options.seed = arguments.seed;
  options.max_iterations = arguments.max_iterations;
  options.fusions = !arguments.no_fusions;
  options.int8_activations = arguments.int8_activations;
  options.constant_initializers = arguments.constant_initializers;
  std::optional<StepProfile> profile;
  if (arguments.profile) {
    profile.emplace(*model.graph);
    profile->setTracing(arguments.json);
    options.observer = &*profile;
  }
  // A warm-up run by default when timing: the first run compiles the plan and sets up the
  // fused steps' primitives, which neither statistics nor a profile should count.
  bool timing = arguments.repeat > 1 || arguments.profile;
  int warmup = arguments.warmup >= 0 ? arguments.warmup : (timing ? 1 : 0);
  int runs = warmup + arguments.repeat;
  Evaluator evaluator(model, options);
  Result<std::vector<EvalValue>> outputs = std::vector<EvalValue>();
  double first_run = 0;
  std::vector<double> timed;
  {
    ProgressBar progress("running", ProgressUnit::kItems);
    for (int run = 0; run < runs; ++run) {
      progress.update(static_cast<uint64_t>(run), static_cast<uint64_t>(runs));
      bool counted = run >= warmup;
      if (profile) profile->setRecording(counted);
      auto start = std::chrono::steady_clock::now();
      outputs = evaluator.run(*inputs);
      double elapsed = millisecondsSince(start);
      if (!outputs) {
        fmt::print(stderr, "onyx: {}\n", outputs.status().toString());
        return kExitInvalid;
      }
      if (run == 0) first_run = elapsed;
      if (counted) timed.push_back(elapsed);
    }
    progress.update(static_cast<uint64_t>(runs), static_cast<uint64_t>(runs));
  }
  auto outputName = [&](size_t i) {
    const Value* bound = model.graph->outputs[i]->bound();
    return bound != nullptr ? std::string(bound->name()) : fmt::format("output {}", i);
  };
  if (arguments.json) {
    // One JSON object: a Chrome trace's reader takes traceEvents and passes over the rest.
    nlohmann::ordered_json report;
    report["outputs"] = nlohmann::ordered_json::array();
    for (size_t i = 0; i < outputs->size(); ++i) {
      report["outputs"].push_back(
          {{"name", outputName(i)}, {"value", describeValue((*outputs)[i])}});
    }
    report["cpu_tier"] = std::string(cpuTierName(*tier));
    report["first_run_ms"] = first_run;
    report["timed_runs_ms"] = timed;
    if (profile)
      report["traceEvents"] = nlohmann::ordered_json::parse(profile->chromeTraceEvents());
    fmt::print("{}\n",
               report.dump(1, ' ', false, nlohmann::ordered_json::error_handler_t::replace));
  } else {
    printRunReport(outputs.value(), outputName, first_run, timed, warmup,
                   profile ? &*profile : nullptr, *tier);
  }
  if (arguments.output_dir.empty()) return kExitOk;
  std::error_code error;
  std::filesystem::create_directories(arguments.output_dir, error);
  bool npy = arguments.format == "npy";
  for (size_t i = 0; i < outputs->size(); ++i) {
    std::string destination = (std::filesystem::path(arguments.output_dir) /
                               fmt::format("output_{}.{}", i, npy ? "npy" : "pb"))
                                  .string();
    Status written = writeOutput((*outputs)[i], outputName(i), destination, npy);
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
  command->add_option("MODEL", arguments->path, kModelFileHelp)->required();
  command->add_option("--input", arguments->inputs,
                      "NAME=FILE: a graph input from a .pb (TensorProto, ...) or .npy file");
  command->add_option("--output-dir", arguments->output_dir,
                      "write each output there as output_K.pb (or .npy)");
  command->add_option("--format", arguments->format, "the files --output-dir writes")
      ->check(CLI::IsMember({"pb", "npy"}));
  command->add_option("--threads", arguments->threads, "threads kernels may use (0: all)")
      ->check(CLI::NonNegativeNumber);
  command->add_option("--dim", arguments->dims,
                      "NAME=VALUE: the size of a symbolic dimension of the inputs left out");
  command->add_option("--seed", arguments->seed,
                      "the seed of random operators and of the inputs left out");
  command
      ->add_option("--max-iterations", arguments->max_iterations,
                   "a bound on any Loop's iterations")
      ->check(CLI::PositiveNumber);
  command->add_flag("--no-fusions", arguments->no_fusions,
                    "run every node alone: each kernel's literal result, no fused steps");
  command->add_flag("--int8-activations", arguments->int8_activations, kInt8ActivationsHelp);
  command->add_flag("--constant-initializers", arguments->constant_initializers,
                    kConstantInitializersHelp);
  command->add_option("--repeat", arguments->repeat, "timed runs; more than one prints statistics")
      ->check(CLI::PositiveNumber);
  command
      ->add_option(
          "--warmup", arguments->warmup,
          "untimed runs before them (default: 1 with --repeat above 1 or --profile, else 0)")
      ->check(CLI::NonNegativeNumber);
  command->add_flag("--profile", arguments->profile,
                    "print the time per operator type and the slowest steps, inside subgraphs "
                    "and function bodies too");
  command
      ->add_option("--max-isa", arguments->max_isa,
                   "the highest CPU tier kernels may use: avx2, avx512, avx512_vnni or amx "
                   "(as ONYX_MAX_ISA; default: the CPU's own)")
      ->check(CLI::IsMember({"baseline", "avx2", "avx512", "avx512_vnni", "amx"}));
  command->add_option("--keep", arguments->keep,
                      "make this value inside the graph an output too (printed and written as "
                      "outputs are); may be repeated");
  command->add_flag("--keep-all", arguments->keep_all,
                    "make every node's outputs outputs too: every intermediate value");
  command->add_flag("--json", arguments->json,
                    "print one JSON object instead: the outputs, the run times and, with "
                    "--profile, traceEvents (a Chrome trace: chrome://tracing, Perfetto)");
  command->callback([&exit_code, arguments] { exit_code = runModel(*arguments); });
}

}  // namespace onyx::tool
