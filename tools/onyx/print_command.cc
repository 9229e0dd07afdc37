// `onyx print MODEL [--weights=elide|full]`: the model in the ONNX text syntax, on stdout;
// large tensors elided unless --weights=full.
#include <fmt/format.h>

#include <cstdio>

#include "commands.h"
#include "model_files.h"
#include "onyx/serde/model_io.h"
#include "onyx/text/printer.h"

namespace onyx::tool {

namespace {

// Tensors of more elements than this print elided unless --weights=full.
constexpr uint64_t kElideOver = 16;

int runPrint(const std::string& path, const std::string& weights) {
  // The text shows external tensors as their references, so their files are not needed.
  auto loaded = readModel(path, false);
  if (!loaded) {
    fmt::print(stderr, "onyx: cannot read {}: {}\n", path, loaded.status().toString());
    return kExitUnreadable;
  }
  std::string text;
  std::vector<TextLoss> losses;
  PrintOptions print_options;
  if (weights == "elide") print_options.elide_tensors_over = kElideOver;
  printModel(*loaded, text, print_options, &losses);
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
  auto weights = std::make_shared<std::string>("elide");
  command->add_option("MODEL", *path, kModelFileHelp)->required();
  command
      ->add_option("--weights", *weights,
                   "elide (default): tensors of more than 16 elements show their type, shape, "
                   "first 8 elements and how many more; full: every element, so that the text "
                   "parses back to the model")
      ->check(CLI::IsMember({"elide", "full"}));
  command->callback([&exit_code, path, weights] { exit_code = runPrint(*path, *weights); });
}

}  // namespace onyx::tool
