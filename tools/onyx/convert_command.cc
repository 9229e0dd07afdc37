// `onyx convert IN OUT`: rewrite a model, moving tensor data in or out of external files,
// or between the binary format and the text syntax (chosen by each file's extension), with
// --sort putting every node list in topological order, and with --opset /
// --domain-opset moving it to other versions of its operator sets (all or nothing), and with
// --float16 converting its float32 weights and computation to float16 (docs/surgery.md).
#include <fmt/format.h>

#include <charconv>

#include "commands.h"
#include "model_files.h"
#include "onyx/core/file_writer.h"
#include "onyx/ir/topo_sort.h"
#include "onyx/passes/float16.h"
#include "onyx/passes/opset_conversion.h"
#include "onyx/serde/model_io.h"
#include "onyx/text/printer.h"
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
  bool lossy = false;
  bool sort = false;
  std::optional<int64_t> opset;
  std::vector<std::string> domain_opsets;  // DOMAIN=VERSION
  bool float16 = false;
  Float16Options float16_options;
};

/// `onyx: float16: 812 nodes converted, kept in float32: Range 2, Resize 1; 5 Casts added`
std::string float16Summary(const Float16Report& report) {
  std::string text = fmt::format("float16: {} node{} converted", report.nodes_converted,
                                 report.nodes_converted == 1 ? "" : "s");
  if (!report.kept_ops.empty()) {
    text += ", kept in float32:";
    bool first = true;
    for (const auto& [op, count] : report.kept_ops) {
      text += fmt::format("{} {} {}", first ? "" : ",", op, count);
      first = false;
    }
  }
  text += fmt::format("; {} tensor{} converted, {} Cast{} added", report.tensors_converted,
                      report.tensors_converted == 1 ? "" : "s", report.casts_added,
                      report.casts_added == 1 ? "" : "s");
  return text;
}

/// The conversion targets the arguments ask for; an error for a malformed DOMAIN=VERSION.
Result<std::vector<OpsetTarget>> opsetTargets(const ConvertArgs& args) {
  std::vector<OpsetTarget> targets;
  if (args.opset) targets.push_back({"", *args.opset});
  for (const std::string& text : args.domain_opsets) {
    size_t equals = text.rfind('=');
    int64_t version = 0;
    const char* digits = equals == std::string::npos ? nullptr : text.c_str() + equals + 1;
    auto [end, error] = digits == nullptr
                            ? std::from_chars(text.data(), text.data(), version)
                            : std::from_chars(digits, text.data() + text.size(), version);
    if (digits == nullptr || error != std::errc() || end != text.data() + text.size() ||
        end == digits) {
      return Status(ErrorCode::kInvalidArgument,
                    "--domain-opset takes DOMAIN=VERSION, not \"" + text + "\"");
    }
    targets.push_back({text.substr(0, equals), version});
  }
  return targets;
}

int runConvert(const ConvertArgs& args) {
  bool text_out = isTextPath(args.output);
  if (args.inline_external && (args.threshold || !args.external_file.empty())) {
    fmt::print(stderr, "onyx: --inline cannot be combined with --external-data/--size-threshold\n");
    return kExitUnreadable;
  }
  if (text_out && (args.inline_external || args.threshold || !args.external_file.empty())) {
    fmt::print(stderr,
               "onyx: --inline, --external-data and --size-threshold apply to a binary output; "
               "the text keeps each tensor where it is\n");
    return kExitUnreadable;
  }
  if (!args.float16 &&
      (args.float16_options.keep_io_types || !args.float16_options.keep_ops.empty())) {
    fmt::print(stderr, "onyx: --keep-io-types and --keep apply to --float16\n");
    return kExitUnreadable;
  }
  // The text shows external tensors as their references, so their files are not needed (a
  // float16 conversion reads them).
  auto loaded = readModel(args.input, !text_out || args.float16);
  if (!loaded) {
    fmt::print(stderr, "onyx: cannot read {}: {}\n", args.input, loaded.status().toString());
    return kExitUnreadable;
  }
  if (args.opset || !args.domain_opsets.empty()) {
    auto targets = opsetTargets(args);
    if (!targets) {
      fmt::print(stderr, "onyx: {}\n", targets.status().message());
      return kExitUnreadable;
    }
    auto converted = convertOpset(*loaded, *targets);
    if (!converted) {
      // A refused conversion lists every node that blocks it; nothing is written.
      bool usage = converted.status().code() == ErrorCode::kInvalidArgument;
      fmt::print(stderr, "onyx: {}: {}\nonyx: nothing written\n", args.input,
                 converted.status().message());
      return usage ? kExitUnreadable : kExitInvalid;
    }
    fmt::print(stderr, "onyx: converted; {} of {} nodes rewritten", converted->nodes_changed,
               converted->nodes_seen);
    if (converted->nodes_expanded > 0) {
      fmt::print(stderr, ", {} replaced by {}", converted->nodes_expanded,
                 converted->nodes_expanded == 1 ? "its function body" : "their function bodies");
    }
    fmt::print(stderr, "\n");
  }
  if (args.float16) {
    Result<Float16Report> report = convertToFloat16(*loaded, args.float16_options);
    if (!report) {
      fmt::print(stderr, "onyx: {}: {}\nonyx: nothing written\n", args.input,
                 report.status().message());
      return kExitInvalid;
    }
    fmt::print(stderr, "onyx: {}\n", float16Summary(*report));
    for (const std::string& op : report->unmatched_keep_ops) {
      fmt::print(stderr, "onyx: note: --keep {}: no node of the model has that operator type\n",
                 op);
    }
  }
  if (args.sort) {
    // A cycle cannot be sorted: the model is invalid, and nothing is written.
    if (Status sorted = topologicalSort(*loaded); !sorted) {
      fmt::print(stderr, "onyx: cannot sort {}: {}\n", args.input, sorted.toString());
      return kExitInvalid;
    }
  }
  ProgressBar bar("writing");
  SaveOptions options = reportingSaveOptions(bar);
  options.inline_external = args.inline_external;
  options.alignment = args.alignment;
  options.align_threshold = args.alignment;
  if (!args.external_file.empty() || args.threshold) {
    options.external_file = args.external_file;
    options.external_threshold = args.threshold.value_or(1024);
  }
  // What the text syntax cannot hold is refused unless --lossy: a conversion must not drop
  // parts of a model without being asked to.
  return writeModel(*loaded, args.output, options, args.lossy, args.input);
}

}  // namespace

void addConvertCommand(CLI::App& app, int& exit_code) {
  auto* command = app.add_subcommand(
      "convert",
      "Rewrite a model, optionally moving tensor data to or from external files, putting "
      "its nodes in topological order, converting it to another opset, or to float16");
  auto args = std::make_shared<ConvertArgs>();
  command->add_option("IN", args->input, kModelFileHelp)->required();
  command->add_option("OUT", args->output, "the model to write")->required();
  command->add_option("--external-data", args->external_file,
                      "put tensor data in this file (relative to OUT's folder)");
  command->add_option("--size-threshold", args->threshold,
                      "move tensors of at least this many bytes out (default 1024)");
  command->add_option("--align", args->alignment,
                      "align large tensors in the data file to this many bytes (default 4096)");
  command->add_flag("--inline", args->inline_external, "bring all external data back inline");
  command->add_flag("--sort", args->sort,
                    "write the nodes of every graph and function body in topological order "
                    "(each after the nodes whose outputs it reads, the others in file order), "
                    "leaving the rest as it was");
  command->add_option("--opset", args->opset,
                      "convert the default domain (ai.onnx) to this version; all or nothing: a "
                      "model with a node that cannot be converted is not written, and every such "
                      "node is listed");
  command->add_option("--domain-opset", args->domain_opsets,
                      "convert another domain too, as DOMAIN=VERSION (ai.onnx.ml=3); repeatable");
  command->add_flag("--float16", args->float16,
                    "convert float32 weights and computation to float16, with Casts where an "
                    "operator or a kept type needs float32 (docs/surgery.md); all or nothing");
  command->add_flag("--keep-io-types", args->float16_options.keep_io_types,
                    "with --float16: the model's float32 inputs and outputs stay float32");
  command
      ->add_option("--keep", args->float16_options.keep_ops,
                   "with --float16: operator types to leave in float32 (Resize,TopK); "
                   "repeatable")
      ->delimiter(',');
  command->add_flag("--lossy", args->lossy,
                    "write text even where the syntax cannot hold parts of the model (doc "
                    "strings, unknown fields, training info, ...), leaving them out");
  command->callback([&exit_code, args] { exit_code = runConvert(*args); });
}

}  // namespace onyx::tool
