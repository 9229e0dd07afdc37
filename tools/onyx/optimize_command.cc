// `onyx optimize IN OUT [--passes a,b,...] [--list-passes] [--profile] [--verify N]
// [--dim NAME=VALUE]... [--aggressive] [--max-rounds N] [--fold-limit BYTES]
// [--constant-initializers]`: simplifies a model
// (the same meaning, fewer nodes) with the default passes or those named, to a fixed point, and
// writes it as `onyx convert` does (every tensor where it was: inline stays inline, external stays
// external). --profile prints the time and changes per pass; --verify N runs the model before
// and after on N sets of generated inputs (seeds 0..N-1, as `onyx run` makes them) and prints
// the largest difference per output. Exit 0 done, 1 when the model cannot be optimised or
// --verify finds an output that differs beyond 1e-5 relative (plus 1e-7 absolute, for values
// near zero), 2 unreadable input or bad usage.
#include <fmt/format.h>

#include <algorithm>
#include <sstream>

#include "commands.h"
#include "generated_inputs.h"
#include "initializer_inputs_note.h"
#include "model_files.h"
#include "onyx/eval/evaluator.h"
#include "onyx/eval/node_evaluator.h"
#include "onyx/eval/value_difference.h"
#include "onyx/ir/clone.h"
#include "onyx/passes/optimize.h"
#include "onyx/serde/model_io.h"

namespace onyx::tool {

namespace {

// --verify's tolerance: 1e-5 relative, and 1e-7 absolute for values near zero.
constexpr Tolerance kVerifyTolerance{1e-5, 1e-7};

struct OptimizeArguments {
  std::string input;
  std::string output;
  std::string passes;
  bool list = false;
  bool profile = false;
  bool aggressive = false;
  bool constant_initializers = false;
  int verify_runs = 0;
  size_t max_rounds = PassManagerOptions().max_rounds;
  size_t fold_limit = OptimizeOptions().fold_limit;
  std::vector<std::string> dims;
};

int listPasses() {
  for (const PassInfo& info : registeredPasses()) {
    std::unique_ptr<Pass> pass = info.make();
    fmt::print("{:<26}{}{}\n", pass->name(), pass->summary(),
               info.in_default_list ? "" : " (not in the default list)");
  }
  return kExitOk;
}

std::vector<std::string> passNamesOf(const std::string& list) {
  std::vector<std::string> names;
  std::stringstream words(list);
  std::string name;
  while (std::getline(words, name, ',')) {
    if (!name.empty()) names.push_back(name);
  }
  return names;
}

void printProfile(const OptimizeReport& report) {
  fmt::print("{:<26}{:>6}{:>10}{:>9}{:>9}{:>10}{:>10}\n", "pass", "runs", "ms", "removed", "added",
             "rewritten", "entries");
  for (const PassStats& stats : report.passes) {
    fmt::print("{:<26}{:>6}{:>10.3f}{:>9}{:>9}{:>10}{:>10}\n", stats.name, stats.runs,
               std::chrono::duration<double, std::milli>(stats.time).count(),
               stats.changes.nodes_removed, stats.changes.nodes_added,
               stats.changes.nodes_rewritten, stats.changes.entries_changed);
  }
  fmt::print("{} round{}{}\n", report.rounds, report.rounds == 1 ? "" : "s",
             report.reached_cap ? " (the round cap: passes were still changing the model)" : "");
}

// Runs `original` and `optimized` on `runs` sets of generated inputs; prints the largest
// difference per output. The exit status.
int verifyOptimized(const Model& original, const Model& optimized, const OptimizeArguments& args) {
  DimSizes sizes;
  for (const std::string& binding : args.dims) {
    if (Status added = addDimSize(binding, sizes); !added) {
      fmt::print(stderr, "onyx: {}\n", added.message());
      return kExitUnreadable;
    }
  }
  const Graph& graph = *original.graph;
  std::vector<Difference> largest(graph.outputs.size());
  for (int run = 0; run < args.verify_runs; ++run) {
    std::vector<NamedValue> inputs;
    for (const ValueInfo* declared : graph.inputs) {
      const Value* formal = declared->value;
      if (formal == nullptr || formal->initializer() != nullptr) continue;
      Result<Array> made = generateInput(*formal, sizes, static_cast<uint64_t>(run));
      if (!made) {
        fmt::print(stderr, "onyx: --verify: {}\n", made.status().message());
        return kExitUnreadable;
      }
      inputs.push_back({std::string(formal->name()), EvalValue::of(std::move(*made))});
    }
    Result<std::vector<EvalValue>> before = evaluate(original, inputs);
    if (!before) {
      fmt::print(stderr, "onyx: --verify: the original model does not run: {}\n",
                 before.status().toString());
      return kExitInvalid;
    }
    Result<std::vector<EvalValue>> after = evaluate(optimized, inputs);
    if (!after) {
      fmt::print(stderr, "onyx: --verify: the optimised model does not run: {}\n",
                 after.status().toString());
      return kExitInvalid;
    }
    for (size_t k = 0; k < largest.size() && k < before->size() && k < after->size(); ++k) {
      Difference found = differenceOf((*before)[k], (*after)[k], kVerifyTolerance);
      Difference& kept = largest[k];
      if (kept.mismatch.empty()) kept.mismatch = found.mismatch;
      kept.absolute = std::max(kept.absolute, found.absolute);
      kept.relative = std::max(kept.relative, found.relative);
      kept.beyond = kept.beyond || found.beyond;
    }
  }
  bool differs = false;
  for (size_t k = 0; k < largest.size(); ++k) {
    const Value* bound = graph.outputs[k]->bound();
    std::string name = bound != nullptr ? std::string(bound->name()) : std::to_string(k);
    const Difference& found = largest[k];
    if (!found.mismatch.empty()) {
      fmt::print("output {}: {}\n", name, found.mismatch);
      differs = true;
      continue;
    }
    differs = differs || found.beyond;
    fmt::print("output {}: largest difference {:.3g} ({:.3g} relative){}\n", name, found.absolute,
               found.relative, found.beyond ? ", beyond 1e-5 relative" : "");
  }
  return differs ? kExitInvalid : kExitOk;
}

int runOptimize(const OptimizeArguments& args) {
  if (args.list) return listPasses();
  if (args.input.empty() || args.output.empty()) {
    fmt::print(stderr, "onyx: optimize needs IN and OUT (or --list-passes)\n");
    return kExitUnreadable;
  }
  int exit_code = kExitOk;
  std::optional<Model> loaded = readModelOrSay(args.input, true, exit_code);
  if (!loaded) return exit_code;
  std::optional<Model> original;
  if (args.verify_runs > 0) original.emplace(cloneModel(*loaded));
  // Said before the passes change the model, about the model as given.
  std::string note =
      args.profile && !args.constant_initializers ? initializerInputsNote(*loaded) : std::string();
  OptimizeOptions options;
  options.passes = passNamesOf(args.passes);
  options.aggressive = args.aggressive;
  options.manager.max_rounds = args.max_rounds;
  options.fold_limit = args.fold_limit;
  options.constant_initializers = args.constant_initializers;
  // Folding runs the evaluator's kernels, so a folded value is what `onyx run` computes.
  KernelNodeEvaluator node_evaluator;
  options.node_evaluator = &node_evaluator;
  Result<OptimizeReport> report = optimize(*loaded, options);
  if (!report) {
    bool usage = report.status().code() == ErrorCode::kInvalidArgument &&
                 report.status().message().starts_with("no pass named");
    fmt::print(stderr, "onyx: cannot optimize {}: {}\n", args.input, report.status().message());
    return usage ? kExitUnreadable : kExitInvalid;
  }
  if (args.profile) printProfile(*report);
  if (!note.empty()) fmt::print("{}\n", note);
  SaveOptions save;
  save.notice = [](const std::string& text) { fmt::print(stderr, "onyx: {}\n", text); };
  if (int written = writeModel(*loaded, args.output, save, false, args.input); written != kExitOk) {
    return written;
  }
  if (original) return verifyOptimized(*original, *loaded, args);
  return kExitOk;
}

}  // namespace

void addOptimizeCommand(CLI::App& app, int& exit_code) {
  auto* command = app.add_subcommand(
      "optimize", "Simplify a model: the same meaning, fewer nodes (docs/passes.md)");
  auto args = std::make_shared<OptimizeArguments>();
  command->add_option("IN", args->input, kModelFileHelp);
  command->add_option("OUT", args->output, "the model to write");
  command->add_option("--passes", args->passes,
                      "the passes to run, comma-separated, in order (default: the default list; "
                      "see --list-passes)");
  command->add_flag("--list-passes", args->list, "list the passes with what each does");
  command->add_flag("--profile", args->profile, "print the time and changes of each pass");
  command->add_option("--verify", args->verify_runs,
                      "run the model before and after on N sets of generated inputs and print "
                      "the largest difference per output (exit 1 beyond 1e-5 relative)");
  command->add_option("--dim", args->dims,
                      "the size of a symbolic dimension for --verify's inputs, NAME=VALUE");
  command->add_flag("--aggressive", args->aggressive,
                    "also remove and merge nodes of operators onyx does not know");
  command->add_option("--max-rounds", args->max_rounds,
                      fmt::format("rounds of passes at most (default {})", args->max_rounds));
  command->add_option("--fold-limit", args->fold_limit,
                      fmt::format("the bytes constant folding may add to the model per folded "
                                  "output, beyond the constants it leaves unread (default {})",
                                  args->fold_limit));
  command->add_flag("--constant-initializers", args->constant_initializers,
                    kConstantInitializersHelp);
  command->callback([&exit_code, args] { exit_code = runOptimize(*args); });
}

}  // namespace onyx::tool
