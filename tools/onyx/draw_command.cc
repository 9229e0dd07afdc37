// `onyx draw MODEL -o OUT.svg|OUT.dot|OUT.html [--depth N] [--collapse PREFIX]...
// [--diff OTHER] [--title TEXT] [--cost [--dim NAME=VALUE]...] [--profile FILE]`: a picture of
// the model (onyx/draw/draw.h). The format follows OUT's extension. With --diff, the picture
// shows OTHER aligned with MODEL by value names: nodes OTHER adds, removes or changes are
// coloured (MODEL is "before", OTHER "after"). With --cost, boxes are coloured by the FLOPs
// `onyx info --cost` counts; with --profile, by the time each node took in the Chrome trace
// `onyx run --profile --json` prints. Exit 0 written, 1 the model cannot be drawn, 2
// unreadable input or bad usage.
#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include <map>

#include "commands.h"
#include "generated_inputs.h"
#include "model_files.h"
#include "onyx/core/file_writer.h"
#include "onyx/core/mapped_file.h"
#include "onyx/draw/draw.h"
#include "onyx/infer/cost.h"
#include "onyx/infer/infer.h"

namespace onyx::tool {

namespace {

struct DrawArguments {
  std::string input;
  std::string output;
  std::string diff;
  std::string title;
  int depth = 0;  // 0: chosen by the box budget
  std::vector<std::string> collapse;
  bool cost = false;
  std::vector<std::string> dims;
  std::string profile;
};

// The FLOPs of each main-graph node whose shapes inference finds (`onyx info --cost`'s).
Status costHeat(Model& model, const std::vector<std::string>& bindings, DrawOptions& options) {
  DimSizes sizes;
  for (const std::string& binding : bindings) {
    ONYX_RETURN_IF_ERROR(addDimSize(binding, sizes));
  }
  ONYX_RETURN_IF_ERROR(checkDimSizesUsed(*model.graph, sizes));
  sizeInputs(model, sizes);
  (void)inferModel(model);
  for (const NodeCost& node : modelCost(model).nodes) {
    if (node.flops) options.heat[node.node] = static_cast<double>(*node.flops);
  }
  options.heat_unit = "FLOPs";
  return Status::ok();
}

// The milliseconds each main-graph node took in a Chrome trace of `onyx run --profile --json`
// (its traceEvents, or the whole run report holding them), summed over the runs it records; a
// step that ran several nodes fused gives each an equal part.
Status profileHeat(const Model& model, const std::string& path, DrawOptions& options) {
  auto file = MappedFile::open(path);
  if (!file) return file.status();
  nlohmann::json trace = nlohmann::json::parse((*file)->bytes(), nullptr, false);
  if (trace.is_object() && trace.contains("traceEvents")) trace = trace["traceEvents"];
  if (!trace.is_array()) {
    return Status(ErrorCode::kInvalidArgument,
                  path + " holds no Chrome trace (onyx run --profile --json writes one)");
  }
  std::map<std::string, const Node*, std::less<>> by_name;
  size_t index = 0;
  for (const Node* node = model.graph->firstNode(); node != nullptr; node = node->next(), ++index) {
    by_name.emplace(node->nameOrEmpty().empty() ? fmt::format("node[{}]", index)
                                                : std::string(node->nameOrEmpty()),
                    node);
  }
  for (const nlohmann::json& event : trace) {
    // The main graph's steps; those inside subgraphs and function bodies run deeper.
    if (!event.is_object() || event.value("tid", 0) != 1 || !event.contains("args")) continue;
    std::string names = event["args"].value("node", "");
    double milliseconds = event.value("dur", 0.0) / 1000;
    std::vector<const Node*> members;
    for (size_t start = 0; start <= names.size();) {
      size_t end = names.find('+', start);
      if (end == std::string::npos) end = names.size();
      auto found = by_name.find(std::string_view(names).substr(start, end - start));
      if (found != by_name.end()) members.push_back(found->second);
      start = end + 1;
    }
    for (const Node* node : members) {
      options.heat[node] += milliseconds / static_cast<double>(members.size());
    }
  }
  if (options.heat.empty()) {
    return Status(ErrorCode::kInvalidArgument,
                  path + " times no node of the model by a name it has");
  }
  options.heat_unit = "ms";
  return Status::ok();
}

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
  if ((args.cost || !args.profile.empty()) && !args.diff.empty()) {
    fmt::print(stderr, "onyx: --cost and --profile colour one model, not a --diff\n");
    return kExitUnreadable;
  }
  if (args.cost && !args.profile.empty()) {
    fmt::print(stderr, "onyx: --cost and --profile colour by one measure: give one\n");
    return kExitUnreadable;
  }
  if (!args.dims.empty() && !args.cost) {
    fmt::print(stderr, "onyx: --dim sizes the inputs for --cost\n");
    return kExitUnreadable;
  }
  if (model->graph != nullptr && (args.cost || !args.profile.empty())) {
    Status measured = args.cost ? costHeat(*model, args.dims, options)
                                : profileHeat(*model, args.profile, options);
    if (!measured) {
      fmt::print(stderr, "onyx: {}\n", measured.message());
      return kExitUnreadable;
    }
  }
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
  command->add_flag("--cost", args->cost,
                    "colour the boxes by the FLOPs each node costs (as onyx info --cost), from "
                    "white to red, and show them");
  command->add_option("--dim", args->dims,
                      "the size of a named dimension of the inputs for --cost, NAME=VALUE");
  command->add_option("--profile", args->profile,
                      "colour the boxes by the time each node took in this Chrome trace (onyx "
                      "run --profile --json > FILE)");
  command->callback([&exit_code, args] { exit_code = runDraw(*args); });
}

}  // namespace onyx::tool
