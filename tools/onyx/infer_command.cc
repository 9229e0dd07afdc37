// `onyx infer MODEL [OUT] [--strict] [--verbose] [--name-unknown-dims]
// [--constant-initializers] [--json]`: type and shape inference. With OUT, writes the model
// with value_info filled in; without, prints each graph output's type. Diagnostics (R36 conflicts,
// X5 refused nodes, X6 in strict mode) go to stdout like `onyx check`'s; exit 0 when there is no
// error, 1 when there is, 2 when the model cannot be read or written.
#include <fmt/format.h>

#include <cstdio>
#include <nlohmann/json.hpp>

#include "commands.h"
#include "model_files.h"
#include "onyx/infer/infer.h"
#include "onyx/ir/graph.h"
#include "onyx/ir/type.h"
#include "onyx/ir/value.h"
#include "onyx/serde/model_io.h"

namespace onyx::tool {

namespace {

struct InferArguments {
  std::string path;
  std::string output;
  bool strict = false;
  bool verbose = false;
  bool name_unknown_dims = false;
  bool constant_initializers = false;
  bool json = false;
};

std::string outputName(const ValueInfo& info) {
  const Value* value = info.bound();
  return std::string(value != nullptr ? value->name() : info.name.value_or(""));
}

int runInfer(const InferArguments& arguments) {
  Result<Model> loaded = readModel(arguments.path, true);
  if (!loaded) {
    fmt::print(stderr, "onyx: cannot read {}: {}\n", arguments.path, loaded.status().toString());
    return kExitUnreadable;
  }
  Model& model = *loaded;
  InferOptions options;
  options.strict = arguments.strict;
  options.name_unknown_dims = arguments.name_unknown_dims;
  options.constant_initializers = arguments.constant_initializers;
  InferResult result = inferModel(model, options);

  std::string text;
  if (arguments.json) {
    nlohmann::ordered_json out;
    nlohmann::ordered_json outputs = nlohmann::ordered_json::array();
    if (model.graph != nullptr) {
      for (const ValueInfo* info : model.graph->outputs) {
        outputs.push_back(
            {{"name", outputName(*info)}, {"type", info->type ? formatType(*info->type) : "?"}});
      }
    }
    out["outputs"] = outputs;
    nlohmann::ordered_json diagnostics = nlohmann::ordered_json::array();
    for (const Diagnostic& diagnostic : result.diagnostics.all()) {
      diagnostics.push_back({{"rule", diagnostic.rule},
                             {"severity", severityName(diagnostic.severity)},
                             {"path", diagnostic.path},
                             {"message", diagnostic.message}});
    }
    out["diagnostics"] = diagnostics;
    if (arguments.verbose) out["notes"] = result.notes;
    out["stats"] = {{"nodes", result.stats.nodes},
                    {"outputs", result.stats.outputs},
                    {"outputs_typed", result.stats.outputs_typed},
                    {"outputs_shaped", result.stats.outputs_shaped},
                    {"nodes_without_rule", result.stats.nodes_without_rule}};
    text = out.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n";
  } else {
    for (const Diagnostic& diagnostic : result.diagnostics.all()) {
      text += diagnostic.toString() + "\n";
    }
    if (arguments.output.empty() && model.graph != nullptr) {
      for (const ValueInfo* info : model.graph->outputs) {
        text += fmt::format("{}: {}\n", outputName(*info),
                            info->type ? formatType(*info->type) : std::string("?"));
      }
    }
    if (arguments.verbose) {
      for (const std::string& note : result.notes) text += "note " + note + "\n";
    }
  }
  std::fwrite(text.data(), 1, text.size(), stdout);
  if (std::fflush(stdout) != 0) {
    fmt::print(stderr, "onyx: cannot write to stdout\n");
    return kExitUnreadable;
  }
  fmt::print(stderr, "{}: {} of {} node outputs typed, {} with a shape; {} error{}\n",
             arguments.path, result.stats.outputs_typed, result.stats.outputs,
             result.stats.outputs_shaped, result.diagnostics.errorCount(),
             result.diagnostics.errorCount() == 1 ? "" : "s");
  if (!arguments.output.empty()) {
    int written = writeModel(model, arguments.output, SaveOptions(), false, arguments.path);
    if (written != kExitOk) return written;
  }
  return result.diagnostics.hasErrors() ? kExitInvalid : kExitOk;
}

}  // namespace

void addInferCommand(CLI::App& app, int& exit_code) {
  auto* command = app.add_subcommand(
      "infer", "Infer every value's type and shape; write them into OUT, or print the outputs'");
  auto arguments = std::make_shared<InferArguments>();
  command->add_option("MODEL", arguments->path, kModelFileHelp)->required();
  command->add_option("OUT", arguments->output, "write the model with value_info filled in");
  command->add_flag("--strict", arguments->strict,
                    "an output whose type cannot be inferred is an error (X6)");
  command->add_flag("--verbose", arguments->verbose,
                    "say which nodes leave outputs without a shape, and why");
  command->add_flag("--name-unknown-dims", arguments->name_unknown_dims,
                    "name dimensions nothing names (unk__0, ...) instead of leaving them unknown");
  command->add_flag("--constant-initializers", arguments->constant_initializers,
                    kConstantInitializersHelp);
  command->add_flag("--json", arguments->json, "print outputs, diagnostics and counts as JSON");
  command->callback([&exit_code, arguments] { exit_code = runInfer(*arguments); });
}

}  // namespace onyx::tool
