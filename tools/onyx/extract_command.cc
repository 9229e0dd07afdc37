// `onyx extract IN OUT [--inputs a,b] [--outputs c,d] [--external-data FILE]`: the part of a
// model between named values (onyx/passes/extract.h), written as `onyx convert` writes:
// external tensors stay references to their file (copied whole when OUT is in another folder,
// unless --external-data writes the part's tensors to a file of their own). Exit 0 written,
// 1 when the part cannot be cut (an output the inputs do not reach, a cycle), 2 unreadable
// input, a name the main graph does not define, or bad usage. Nothing is written on failure.
#include <fmt/format.h>

#include "commands.h"
#include "model_files.h"
#include "onyx/core/quote.h"
#include "onyx/passes/extract.h"
#include "onyx/serde/model_io.h"
#include "progress.h"

namespace onyx::tool {

namespace {

struct ExtractArguments {
  std::string input;
  std::string output;
  std::vector<std::string> inputs;
  std::vector<std::string> outputs;
  std::string external_file;
};

int runExtract(const ExtractArguments& args, const CLI::App& command) {
  int exit_code = kExitOk;
  std::optional<Model> loaded = readModelOrSay(args.input, true, exit_code, false);
  if (!loaded) return exit_code;
  ExtractBoundary boundary;
  // Given, even empty (`--inputs ""`: a part that reads no input), the list is the boundary.
  auto named = [](const std::vector<std::string>& names) {
    std::vector<std::string> kept;
    for (const std::string& name : names) {
      if (!name.empty()) kept.push_back(name);
    }
    return kept;
  };
  if (command.count("--inputs") > 0) boundary.inputs = named(args.inputs);
  if (command.count("--outputs") > 0) boundary.outputs = named(args.outputs);
  Result<ExtractReport> report = extractModel(*loaded, boundary);
  if (!report) {
    fmt::print(stderr, "onyx: cannot extract from {}: {}\nonyx: nothing written\n", args.input,
               report.status().message());
    return report.status().code() == ErrorCode::kNotFound ? kExitUnreadable : kExitInvalid;
  }
  for (const std::string& name : report->unread_inputs) {
    fmt::print(stderr, "onyx: note: no output of the part reads input {}; it stays an input\n",
               onyx::quoted(name));
  }
  ProgressBar bar("writing");
  SaveOptions options = reportingSaveOptions(bar);
  if (!args.external_file.empty()) {
    options.external_file = args.external_file;
    options.external_threshold = 1024;
  }
  if (int written = writeModel(*loaded, args.output, options, false, args.input);
      written != kExitOk) {
    return written;
  }
  fmt::print(stderr, "onyx: kept {} of {} nodes; removed {} initializer{}{}\n", report->nodes_kept,
             report->nodes_kept + report->nodes_removed, report->initializers_removed,
             report->initializers_removed == 1 ? "" : "s",
             report->functions_removed > 0
                 ? fmt::format(" and {} function{}", report->functions_removed,
                               report->functions_removed == 1 ? "" : "s")
                 : std::string());
  return kExitOk;
}

}  // namespace

void addExtractCommand(CLI::App& app, int& exit_code) {
  auto* command = app.add_subcommand(
      "extract",
      "Write the part of a model that computes some values from others (docs/surgery.md)");
  auto args = std::make_shared<ExtractArguments>();
  command->add_option("IN", args->input, kModelFileHelp)->required();
  command->add_option("OUT", args->output, "the part to write")->required();
  command
      ->add_option("--inputs", args->inputs,
                   "the values the part starts from, comma-separated or repeated (default: "
                   "the model's inputs the part reads)")
      ->delimiter(',');
  command
      ->add_option("--outputs", args->outputs,
                   "the values the part computes, its outputs in this order (default: the "
                   "model's outputs)")
      ->delimiter(',');
  command->add_option("--external-data", args->external_file,
                      "write the part's tensors of 1 KiB or more to this file (relative to OUT's "
                      "folder) instead of referring to the model's data files");
  command->callback([&exit_code, args, command] { exit_code = runExtract(*args, *command); });
}

}  // namespace onyx::tool
