// `onyx set-dims IN OUT --dim NAME_OR_INPUT:AXIS=VALUE|SYMBOL...`: fixes or frees dimensions
// of the model's inputs and rewrites the shapes an exporter baked them into
// (onyx/passes/set_dims.h), written as `onyx convert` writes. Exit 0 written, 1 when a baked
// shape cannot be traced or the new dimensions do not fit a node (nothing written), 2
// unreadable input, an input or symbol the model does not declare, or bad usage.
#include <fmt/format.h>

#include "commands.h"
#include "model_files.h"
#include "onyx/passes/set_dims.h"
#include "onyx/serde/model_io.h"
#include "progress.h"

namespace onyx::tool {

namespace {

struct SetDimsArguments {
  std::string input;
  std::string output;
  std::vector<std::string> dims;
};

int runSetDims(const SetDimsArguments& args) {
  std::vector<DimSetting> settings;
  for (const std::string& text : args.dims) {
    Result<DimSetting> setting = parseDimSetting(text);
    if (!setting) {
      fmt::print(stderr, "onyx: --dim: {}\n", setting.status().message());
      return kExitUnreadable;
    }
    settings.push_back(std::move(*setting));
  }
  int exit_code = kExitOk;
  std::optional<Model> loaded = readModelOrSay(args.input, true, exit_code, false);
  if (!loaded) return exit_code;
  Result<SetDimsReport> report = setDims(*loaded, settings);
  if (!report) {
    fmt::print(stderr, "onyx: cannot set the dimensions of {}: {}\nonyx: nothing written\n",
               args.input, report.status().message());
    return report.status().code() == ErrorCode::kNotFound ? kExitUnreadable : kExitInvalid;
  }
  ProgressBar bar("writing");
  SaveOptions save = reportingSaveOptions(bar);
  if (int written = writeModel(*loaded, args.output, save, false, args.input); written != kExitOk) {
    return written;
  }
  fmt::print(stderr, "onyx: rewrote the shapes of {} node{}", report->rewritten.size(),
             report->rewritten.size() == 1 ? "" : "s");
  constexpr size_t kListed = 8;
  for (size_t i = 0; i < report->rewritten.size() && i < kListed; ++i) {
    fmt::print(stderr, "{}{}", i == 0 ? " (" : ", ", report->rewritten[i]);
  }
  if (report->rewritten.size() > kListed) {
    fmt::print(stderr, ", and {} more", report->rewritten.size() - kListed);
  }
  fmt::print(stderr, "{}; {} declaration{} followed\n", report->rewritten.empty() ? "" : ")",
             report->declarations_changed, report->declarations_changed == 1 ? "" : "s");
  return kExitOk;
}

}  // namespace

void addSetDimsCommand(CLI::App& app, int& exit_code) {
  auto* command = app.add_subcommand(
      "set-dims",
      "Fix or free dimensions of the inputs, and the shapes the exporter baked them into "
      "(docs/surgery.md)");
  auto args = std::make_shared<SetDimsArguments>();
  command->add_option("IN", args->input, kModelFileHelp)->required();
  command->add_option("OUT", args->output, "the model to write")->required();
  command
      ->add_option("--dim", args->dims,
                   "SYMBOL=VALUE (every dimension named SYMBOL) or INPUT:AXIS=VALUE, VALUE a "
                   "number or a new symbol; repeatable")
      ->required();
  command->callback([&exit_code, args] { exit_code = runSetDims(*args); });
}

}  // namespace onyx::tool
