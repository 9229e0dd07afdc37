// `onyx convert IN OUT`: rewrite a model, moving tensor data in or out of external files.
#include <fmt/format.h>

#include "commands.h"
#include "onyx/serde/model_io.h"
#include "progress.h"

namespace onyx::tool {

namespace {

struct ConvertArgs {
  std::string input;
  std::string output;
  std::string external_file;
  std::optional<uint64_t> threshold;
  uint64_t alignment = 4096;
  bool inline_external = false;
};

bool endsWith(const std::string& text, std::string_view suffix) {
  return text.size() >= suffix.size() &&
         text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

bool isTextPath(const std::string& path) {
  return endsWith(path, ".txt") || endsWith(path, ".onnxtxt");
}

int runConvert(const ConvertArgs& args) {
  if (isTextPath(args.input) || isTextPath(args.output)) {
    fmt::print(stderr, "onyx: the ONNX text syntax is not supported yet ({})\n",
               isTextPath(args.input) ? args.input : args.output);
    return kExitUnreadable;
  }
  if (args.inline_external && (args.threshold || !args.external_file.empty())) {
    fmt::print(stderr, "onyx: --inline cannot be combined with --external-data/--size-threshold\n");
    return kExitUnreadable;
  }
  auto loaded = loadModel(args.input);
  if (!loaded) {
    fmt::print(stderr, "onyx: cannot read {}: {}\n", args.input, loaded.status().toString());
    return kExitUnreadable;
  }
  SaveOptions options;
  options.inline_external = args.inline_external;
  options.alignment = args.alignment;
  options.align_threshold = args.alignment;
  if (!args.external_file.empty() || args.threshold) {
    options.external_file = args.external_file;
    options.external_threshold = args.threshold.value_or(1024);
  }
  ProgressBar bar("writing");
  options.progress = [&bar](uint64_t done, uint64_t total) { bar.update(done, total); };
  options.notice = [](const std::string& text) { fmt::print(stderr, "onyx: {}\n", text); };
  Status status = saveModel(*loaded, args.output, options);
  if (!status) {
    fmt::print(stderr, "onyx: cannot write {}: {}\n", args.output, status.toString());
    return kExitUnreadable;
  }
  return kExitOk;
}

}  // namespace

void addConvertCommand(CLI::App& app, int& exit_code) {
  auto* command = app.add_subcommand(
      "convert", "Rewrite a model, optionally moving tensor data to or from external files");
  auto args = std::make_shared<ConvertArgs>();
  command->add_option("IN", args->input, "the model to read")->required();
  command->add_option("OUT", args->output, "the model to write")->required();
  command->add_option("--external-data", args->external_file,
                      "put tensor data in this file (relative to OUT's folder)");
  command->add_option("--size-threshold", args->threshold,
                      "move tensors of at least this many bytes out (default 1024)");
  command->add_option("--align", args->alignment,
                      "align large tensors in the data file to this many bytes (default 4096)");
  command->add_flag("--inline", args->inline_external, "bring all external data back inline");
  command->callback([&exit_code, args] { exit_code = runConvert(*args); });
}

}  // namespace onyx::tool
