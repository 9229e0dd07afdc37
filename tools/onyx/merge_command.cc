// `onyx merge A B OUT [--connect OUT_OF_A=IN_OF_B]... [--prefix-a P] [--prefix-b Q]`: one model
// that runs A, then B on what A gives it (onyx/passes/merge.h), written as `onyx convert`
// writes. Exit 0 written, 1 when the two cannot be merged (clashing names or types, an
// operator set that cannot be converted), 2 unreadable input, a connection naming nothing, or
// bad usage. Nothing is written on failure.
#include <fmt/format.h>

#include <filesystem>

#include "commands.h"
#include "model_files.h"
#include "onyx/ir/walk.h"
#include "onyx/passes/merge.h"
#include "onyx/serde/model_io.h"
#include "progress.h"

namespace onyx::tool {

namespace {

struct MergeArguments {
  std::string first;
  std::string second;
  std::string output;
  std::vector<std::string> connections;  // OUT_OF_A=IN_OF_B
  std::string prefix_a;
  std::string prefix_b;
};

bool externalIn(const Model& model) {
  bool found = false;
  forEachTensor(model,
                [&found](Tensor& tensor, TensorRole) { found = found || tensor.isExternal(); });
  return found;
}

bool sameFolder(const std::string& first, const std::string& second) {
  std::error_code error;
  return std::filesystem::equivalent(first.empty() ? "." : first, second.empty() ? "." : second,
                                     error);
}

int runMerge(const MergeArguments& args) {
  MergeOptions options;
  options.prefix_a = args.prefix_a;
  options.prefix_b = args.prefix_b;
  for (const std::string& text : args.connections) {
    size_t equals = text.find('=');
    if (equals == std::string::npos || equals == 0 || equals + 1 == text.size()) {
      fmt::print(stderr, "onyx: --connect takes OUT_OF_A=IN_OF_B, not \"{}\"\n", text);
      return kExitUnreadable;
    }
    options.connections.emplace_back(text.substr(0, equals), text.substr(equals + 1));
  }
  int exit_code = kExitOk;
  std::optional<Model> first = readModelOrSay(args.first, true, exit_code, false);
  if (!first) return exit_code;
  std::optional<Model> second = readModelOrSay(args.second, true, exit_code, false);
  if (!second) return exit_code;
  Result<MergeReport> report = mergeModels(*first, *second, options);
  if (!report) {
    fmt::print(stderr, "onyx: cannot merge {} and {}: {}\nonyx: nothing written\n", args.first,
               args.second, report.status().message());
    return report.status().code() == ErrorCode::kNotFound ? kExitUnreadable : kExitInvalid;
  }
  for (const std::string& conversion : report->conversions) {
    fmt::print(stderr, "onyx: converted {}\n", conversion);
  }
  ProgressBar bar("writing");
  SaveOptions save = reportingSaveOptions(bar);
  if (externalIn(*second) && !sameFolder(first->folder(), second->folder())) {
    // The result's references can name one folder only: B's data is written beside OUT.
    save.external_file = std::filesystem::path(args.output).filename().string() + ".data";
    save.external_threshold = 1024;
    fmt::print(stderr,
               "onyx: {} keeps its data in another folder than {}: tensors of 1 KiB or "
               "more go to {}\n",
               args.second, args.first, save.external_file);
  }
  if (int written = writeModel(*first, args.output, save, false, args.first); written != kExitOk) {
    return written;
  }
  fmt::print(stderr, "onyx: merged {} nodes of A and {} of B", report->nodes_a, report->nodes_b);
  if (!report->shared_inputs.empty()) {
    fmt::print(stderr, "; {} input{} read by both", report->shared_inputs.size(),
               report->shared_inputs.size() == 1 ? "" : "s");
  }
  fmt::print(stderr, "\n");
  return kExitOk;
}

}  // namespace

void addMergeCommand(CLI::App& app, int& exit_code) {
  auto* command = app.add_subcommand(
      "merge", "Write one model that runs A, then B on A's outputs (docs/surgery.md)");
  auto args = std::make_shared<MergeArguments>();
  command->add_option("A", args->first, kModelFileHelp)->required();
  command->add_option("B", args->second, "the model that runs second")->required();
  command->add_option("OUT", args->output, "the model to write")->required();
  command
      ->add_option("--connect", args->connections,
                   "OUT_OF_A=IN_OF_B: the input of B reads the output of A (names as the models "
                   "have them, before prefixes); repeatable, or comma-separated")
      ->delimiter(',');
  command->add_option("--prefix-a", args->prefix_a,
                      "put this before every value and node name of A");
  command->add_option("--prefix-b", args->prefix_b,
                      "put this before every value and node name of B");
  command->callback([&exit_code, args] { exit_code = runMerge(*args); });
}

}  // namespace onyx::tool
