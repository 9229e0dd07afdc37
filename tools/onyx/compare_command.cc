// `onyx compare A [B] [--reference-dir DIR] [--input NAME=FILE]... [--dim NAME=VALUE]...
// [--seed S] [--rtol R] [--atol A] [--all] [--no-fusions]`: finds where two models, or a model
// and values saved from another runtime, part ways. A runs with every node's outputs kept
// (`onyx run --keep-all`); so does B, on the same inputs (given, or made up from the seed as
// `onyx run` makes them: by name, so both see the same); or the reference values are the
// TensorProto files in DIR, matched by the name each holds (`onyx run --keep-all
// --output-dir DIR` writes them so). Values both sides have are compared in A's node order;
// the first beyond the tolerance is named with its node, then a table of the values beyond it
// (every value with --all). Exit 0 when every value agrees, 1 when one does not or a model
// cannot run, 2 on an unreadable file or bad usage.
#include <fmt/format.h>

#include <filesystem>
#include <map>

#include "commands.h"
#include "model_files.h"
#include "onyx/core/quote.h"
#include "onyx/eval/test_case.h"
#include "onyx/eval/value_difference.h"
#include "onyx/serde/test_data.h"
#include "run_inputs.h"

namespace onyx::tool {

namespace {

struct CompareArguments {
  std::string first;
  std::string second;
  std::string reference_dir;
  InputArguments inputs;
  Tolerance tolerance{1e-4, 1e-5};
  bool all = false;
  bool no_fusions = false;
};

// A model's every value, by name, on `inputs` (those it does not take are left out); the
// exit status on failure.
Result<std::map<std::string, EvalValue>> valuesOf(const std::string& path,
                                                  const CompareArguments& args, bool no_fusions,
                                                  Model& model, int& exit_status) {
  std::optional<Model> loaded = readModelOrSay(path, true, exit_status);
  if (!loaded) return Status(ErrorCode::kInvalidArgument, "");  // said already
  model = std::move(*loaded);
  ONYX_RETURN_IF_ERROR(keepValues(model, {}, true));
  Result<std::vector<NamedValue>> inputs = gatherInputs(args.inputs, *model.graph, exit_status);
  if (!inputs) return inputs.status();
  EvalOptions options;
  options.fusions = !no_fusions;
  Result<std::vector<EvalValue>> outputs = evaluate(model, *inputs, options);
  if (!outputs) {
    exit_status = kExitInvalid;
    return Status(outputs.status().code(), path + " does not run: " + outputs.status().toString());
  }
  std::map<std::string, EvalValue> values;
  for (size_t i = 0; i < outputs->size() && i < model.graph->outputs.size(); ++i) {
    if (const Value* bound = model.graph->outputs[i]->bound()) {
      values.emplace(std::string(bound->name()), std::move((*outputs)[i]));
    }
  }
  for (NamedValue& input : *inputs) values.emplace(input.name, std::move(input.value));
  return values;
}

// The TensorProto files of `folder`, by the name each holds; an error for one without a name.
Result<std::map<std::string, EvalValue>> savedValues(const std::string& folder) {
  std::map<std::string, EvalValue> values;
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator(folder, error)) {
    if (entry.path().extension() != ".pb") continue;
    Result<TestValue> value = loadTestValue(entry.path().string(), TestValueKind::kTensor);
    if (!value)
      return Status(value.status().code(),
                    entry.path().string() + ": " + value.status().toString());
    std::string_view name = value->tensor()->nameOrEmpty();
    if (name.empty()) {
      return Status(ErrorCode::kInvalidArgument,
                    entry.path().string() +
                        " holds a tensor without a name: write references "
                        "with onyx run --keep-all --output-dir, which names them");
    }
    Result<EvalValue> converted = evalValueOf(*value);
    if (!converted) return converted.status();
    values.emplace(std::string(name), std::move(*converted));
  }
  if (error) return Status(ErrorCode::kIoError, "cannot read " + folder + ": " + error.message());
  if (values.empty()) return Status(ErrorCode::kNotFound, folder + " holds no .pb file");
  return values;
}

struct Row {
  size_t index;  // the node's place in A's main graph
  const Node* node;
  std::string value;
  Difference difference;
};

std::string nodeText(const Row& row) {
  std::string name = row.node->nameOrEmpty().empty() ? "" : onyx::quoted(row.node->nameOrEmpty());
  return fmt::format("node[{}]{} ({})", row.index, name.empty() ? "" : "(" + name + ")",
                     row.node->opType());
}

int runCompare(const CompareArguments& args) {
  if (args.second.empty() == args.reference_dir.empty()) {
    fmt::print(stderr, "onyx: compare needs B or --reference-dir DIR (one of them)\n");
    return kExitUnreadable;
  }
  int exit_status = kExitOk;
  Model first;
  auto ours = valuesOf(args.first, args, args.no_fusions, first, exit_status);
  if (!ours) {
    if (!ours.status().message().empty()) fmt::print(stderr, "onyx: {}\n", ours.status().message());
    return exit_status;
  }
  Model second;
  auto theirs = args.reference_dir.empty()
                    ? valuesOf(args.second, args, args.no_fusions, second, exit_status)
                    : savedValues(args.reference_dir);
  if (!theirs) {
    if (!theirs.status().message().empty()) {
      fmt::print(stderr, "onyx: {}\n", theirs.status().message());
    }
    return exit_status != kExitOk ? exit_status : kExitUnreadable;
  }
  std::vector<Row> rows;
  size_t index = 0;
  for (const Node* node = first.graph->firstNode(); node != nullptr; node = node->next(), ++index) {
    for (const Value* output : node->outputs()) {
      if (output == nullptr) continue;
      std::string name(output->name());
      auto mine = ours->find(name);
      auto other = theirs->find(name);
      if (mine == ours->end() || other == theirs->end()) continue;
      rows.push_back(
          {index, node, name, differenceOf(mine->second, other->second, args.tolerance)});
    }
  }
  auto beyond = [](const Row& row) {
    return row.difference.beyond || !row.difference.mismatch.empty();
  };
  size_t differing = std::count_if(rows.begin(), rows.end(), beyond);
  fmt::print(
      "compared {} values of {} nodes by name (tolerance {:g} relative + {:g}); {} beyond it\n",
      rows.size(), index, args.tolerance.rtol, args.tolerance.atol, differing);
  if (rows.empty()) {
    fmt::print(stderr, "onyx: the two sides name no value alike\n");
    return kExitInvalid;
  }
  auto first_beyond = std::find_if(rows.begin(), rows.end(), beyond);
  if (first_beyond != rows.end()) {
    const Difference& d = first_beyond->difference;
    fmt::print("first beyond the tolerance: {} of {}: {}\n", onyx::quoted(first_beyond->value),
               nodeText(*first_beyond),
               d.mismatch.empty() ? fmt::format("largest difference {:.3g} ({:.3g} relative)",
                                                d.absolute, d.relative)
                                  : d.mismatch);
  }
  constexpr size_t kListed = 20;
  size_t listed = 0;
  bool header = false;
  for (const Row& row : rows) {
    if (!args.all && (!beyond(row) || listed == kListed)) continue;
    if (!header) {
      fmt::print("{:>12} {:>12}  value, node\n", "largest", "relative");
      header = true;
    }
    ++listed;
    if (!row.difference.mismatch.empty()) {
      fmt::print("{:>25}  {}, {}\n", row.difference.mismatch, onyx::quoted(row.value),
                 nodeText(row));
    } else {
      fmt::print("{:>12.3g} {:>12.3g}  {}, {}{}\n", row.difference.absolute,
                 row.difference.relative, onyx::quoted(row.value), nodeText(row),
                 beyond(row) ? "  <- beyond" : "");
    }
  }
  if (!args.all && differing > listed)
    fmt::print("... and {} more beyond the tolerance\n", differing - listed);
  return differing == 0 ? kExitOk : kExitInvalid;
}

}  // namespace

void addCompareCommand(CLI::App& app, int& exit_code) {
  auto* command = app.add_subcommand(
      "compare",
      "Run two models (or one against saved values) and name the first value that differs "
      "(docs/debugging.md)");
  auto args = std::make_shared<CompareArguments>();
  command->add_option("A", args->first, kModelFileHelp)->required();
  command->add_option("B", args->second, "the model to compare with A");
  command->add_option("--reference-dir", args->reference_dir,
                      "compare A with the named TensorProto files of this folder instead of B "
                      "(onyx run --keep-all --output-dir writes them)");
  command->add_option("--input", args->inputs.inputs,
                      "NAME=FILE: a graph input from a .pb or .npy file (both models take it)");
  command->add_option("--dim", args->inputs.dims,
                      "the size of a symbolic dimension for the inputs made up, NAME=VALUE");
  command->add_option("--seed", args->inputs.seed, "the seed of the inputs made up (default 0)");
  command->add_option("--rtol", args->tolerance.rtol, "the relative tolerance (default 1e-4)");
  command->add_option("--atol", args->tolerance.atol,
                      "the absolute tolerance, for values near zero (default 1e-5)");
  command->add_flag("--all", args->all, "list every value compared, not only those beyond");
  command->add_flag("--no-fusions", args->no_fusions, "run every node alone on both sides");
  command->callback([&exit_code, args] { exit_code = runCompare(*args); });
}

}  // namespace onyx::tool
