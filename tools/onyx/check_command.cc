// `onyx check MODEL [--json]`: every problem the checker finds, one per line on stdout
// (`error R29 graph.node[3](add): ...`), or as a JSON array. Exit 0 when the model is valid
// (warnings allowed), 1 when it is not, 2 when the file cannot be read.
#include <fmt/format.h>

#include <cstdio>
#include <nlohmann/json.hpp>

#include "commands.h"
#include "initializer_inputs_note.h"
#include "model_files.h"
#include "onyx/check/checker.h"
#include "onyx/infer/infer.h"

namespace onyx::tool {

namespace {

struct CheckArguments {
  std::string path;
  bool json = false;
  bool no_external_data = false;
  bool name_style = false;
  bool no_infer = false;
};

int runCheck(const CheckArguments& arguments) {
  CheckOptions options;
  options.external_data = !arguments.no_external_data;
  options.name_style = arguments.name_style;
  std::string note;
  if (!arguments.no_infer) {
    options.more_rules = [&note](const Model& model, Diagnostics& out) {
      checkInferredTypes(model, out);
      note = initializerInputsNote(model);
    };
  }
  // A binary file is checked as bytes too (its encoding, its external data); a text one is
  // parsed first, and a parse error is its diagnostic.
  Result<Diagnostics> checked = Status(ErrorCode::kInternal, "not read");
  if (isTextPath(arguments.path)) {
    Result<Model> parsed = readModel(arguments.path, options.external_data);
    checked = parsed ? Result<Diagnostics>(checkModel(*parsed, options))
                     : Result<Diagnostics>(parsed.status());
  } else {
    checked = checkModelFile(arguments.path, options);
  }
  if (!checked) {
    fmt::print(stderr, "onyx: cannot read {}: {}\n", arguments.path, checked.status().toString());
    return kExitUnreadable;
  }
  const Diagnostics& diagnostics = *checked;
  std::string text;
  if (arguments.json) {
    nlohmann::ordered_json list = nlohmann::ordered_json::array();
    for (const Diagnostic& diagnostic : diagnostics.all()) {
      list.push_back({{"rule", diagnostic.rule},
                      {"severity", severityName(diagnostic.severity)},
                      {"path", diagnostic.path},
                      {"message", diagnostic.message}});
    }
    // Names need not be UTF-8 in a model written by another tool: replace, never throw.
    text = list.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n";
  } else {
    for (const Diagnostic& diagnostic : diagnostics.all()) text += diagnostic.toString() + "\n";
  }
  std::fwrite(text.data(), 1, text.size(), stdout);
  if (std::fflush(stdout) != 0) {
    fmt::print(stderr, "onyx: cannot write the diagnostics to stdout\n");
    return kExitUnreadable;
  }
  if (!note.empty()) fmt::print(stderr, "onyx: {}\n", note);
  size_t errors = diagnostics.errorCount();
  size_t warnings = diagnostics.all().size() - errors;
  fmt::print(stderr, "{}: {} ({} error{}, {} warning{})\n", arguments.path,
             errors == 0 ? "valid" : "invalid", errors, errors == 1 ? "" : "s", warnings,
             warnings == 1 ? "" : "s");
  return errors == 0 ? kExitOk : kExitInvalid;
}

}  // namespace

void addCheckCommand(CLI::App& app, int& exit_code) {
  auto* command = app.add_subcommand(
      "check", "Check a model against the ONNX IR rules; exit 0 valid, 1 invalid, 2 unreadable");
  auto arguments = std::make_shared<CheckArguments>();
  command->add_option("MODEL", arguments->path, kModelFileHelp)->required();
  command->add_flag("--json", arguments->json,
                    "print a JSON array of {rule, severity, path, message}");
  command->add_flag("--no-external-data", arguments->no_external_data,
                    "do not open the model's external data files");
  command->add_flag("--name-style", arguments->name_style,
                    "also warn about names that are not C identifiers (R38)");
  command->add_flag("--no-infer", arguments->no_infer,
                    "skip type and shape inference (R36 declared types that contradict the "
                    "inferred ones, X5 nodes whose inputs contradict their operator)");
  command->callback([&exit_code, arguments] { exit_code = runCheck(*arguments); });
}

}  // namespace onyx::tool
