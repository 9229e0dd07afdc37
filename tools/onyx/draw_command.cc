// `onyx draw MODEL -o OUT.svg|OUT.dot|OUT.html [--depth N] [--collapse PREFIX]...
// [--diff OTHER] [--title TEXT]`: a picture of the model (onyx/draw/draw.h). The format follows
// OUT's extension. With --diff, the picture shows OTHER aligned with MODEL by value names:
// nodes OTHER adds, removes or changes are coloured (MODEL is "before", OTHER "after").
// Exit 0 written, 1 the model cannot be drawn, 2 unreadable input or bad usage.
#include <fmt/format.h>

#include "commands.h"
#include "model_files.h"
#include "onyx/core/file_writer.h"
#include "onyx/draw/draw.h"

namespace onyx::tool {

namespace {

struct DrawArguments {
  std::string input;
  std::string output;
  std::string diff;
  std::string title;
  int depth = 0;  // 0: chosen by the box budget
  std::vector<std::string> collapse;
};

std::optional<Model> load(const std::string& path) {
  // A picture shows shapes, never weights: external data is not needed.
  auto loaded = readModel(path, false);
  if (!loaded) {
    fmt::print(stderr, "onyx: cannot read {}: {}\n", path, loaded.status().toString());
    return std::nullopt;
  }
  return std::move(*loaded);
}

int runDraw(const DrawArguments& args) {
  std::optional<DrawFormat> format = drawFormatOfPath(args.output);
  if (!format) {
    fmt::print(stderr, "onyx: {}: the picture's name must end in .svg, .dot or .html\n",
               args.output);
    return kExitUnreadable;
  }
  std::optional<Model> model = load(args.input);
  if (!model) return kExitUnreadable;
  DrawOptions options;
  options.format = *format;
  if (args.depth > 0) options.depth = args.depth;
  options.collapse = args.collapse;
  options.title = args.title;
  std::string picture;
  Status drawn;
  if (!args.diff.empty()) {
    std::optional<Model> other = load(args.diff);
    if (!other) return kExitUnreadable;
    drawn = drawDiff(*model, *other, options, picture);
  } else {
    drawn = drawModel(*model, options, picture);
  }
  if (!drawn.isOk()) {
    fmt::print(stderr, "onyx: cannot draw {}: {}\n", args.input, drawn.toString());
    return kExitInvalid;
  }
  auto writer = AtomicFileWriter::create(args.output);
  Status written = writer ? writer->write(picture) : writer.status();
  if (written.isOk()) written = writer->commit(SyncMode::kSkipFsync);
  if (!written.isOk()) {
    fmt::print(stderr, "onyx: cannot write {}: {}\n", args.output, written.toString());
    return kExitUnreadable;
  }
  return kExitOk;
}

}  // namespace

void addDrawCommand(CLI::App& app, int& exit_code) {
  auto* command =
      app.add_subcommand("draw", "Draw a model as SVG, Graphviz DOT or a self-contained HTML page");
  auto args = std::make_shared<DrawArguments>();
  command->add_option("MODEL", args->input, kModelFileHelp)->required();
  command->add_option("-o,--output", args->output, "the picture: OUT.svg, OUT.dot or OUT.html")
      ->required();
  command
      ->add_option("--depth", args->depth,
                   "levels of groups (name scopes, function calls, subgraphs) to show: 1 "
                   "shows the main graph's, its groups collapsed; by default the most that "
                   "show at most 400 boxes")
      ->check(CLI::PositiveNumber);
  command->add_option("--collapse", args->collapse,
                      "draw the name scopes starting with this prefix collapsed (repeatable)");
  command->add_option("--diff", args->diff,
                      "draw this model against MODEL: added, removed and changed nodes in "
                      "colour");
  command->add_option("--title", args->title, "the picture's title (default: the graph's name)");
  command->callback([&exit_code, args] { exit_code = runDraw(*args); });
}

}  // namespace onyx::tool
