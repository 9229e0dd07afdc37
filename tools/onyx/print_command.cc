// `onyx print MODEL`: the model in the ONNX text syntax, on stdout.
#include <fmt/format.h>

#include <cstdio>

#include "commands.h"
#include "onyx/serde/model_io.h"
#include "onyx/text/printer.h"

namespace onyx::tool {

namespace {

int runPrint(const std::string& path) {
  // The text shows external tensors as their references, so their files are not needed.
  LoadOptions options;
  options.load_external_data = false;
  auto loaded = loadModel(path, options);
  if (!loaded) {
    fmt::print(stderr, "onyx: cannot read {}: {}\n", path, loaded.status().toString());
    return kExitUnreadable;
  }
  std::string text;
  std::vector<TextLoss> losses;
  printModel(*loaded, text, PrintOptions(), &losses);
  std::fwrite(text.data(), 1, text.size(), stdout);
  if (std::fflush(stdout) != 0) {
    fmt::print(stderr, "onyx: cannot write the text to stdout\n");
    return kExitUnreadable;
  }
  if (!losses.empty()) {
    fmt::print(stderr,
               "onyx: the text syntax cannot hold {} part{} of {} (marked by '# lost:' "
               "comments)\n",
               losses.size(), losses.size() == 1 ? "" : "s", path);
  }
  return kExitOk;
}

}  // namespace

void addPrintCommand(CLI::App& app, int& exit_code) {
  auto* command = app.add_subcommand("print", "Print a model in the ONNX text syntax");
  auto path = std::make_shared<std::string>();
  command->add_option("MODEL", *path, "the .onnx file")->required();
  command->callback([&exit_code, path] { exit_code = runPrint(*path); });
}

}  // namespace onyx::tool
