// `onyx reduce MODEL OUT --check 'CMD {}'`: the smallest part of MODEL for which CMD still
// fails, as polygraphy debug reduce finds one. CMD runs through the shell with `{}` replaced by
// the path of a candidate model (a file beside MODEL); a nonzero exit is a failure. Every
// candidate is a part extractModel cuts (onyx/passes/extract.h): the weights are referred to,
// never copied.
//   1. The node list's shortest prefix that still fails (the part computing every value the
//      prefix makes and does not read itself): a binary search, a check per halving.
//   2. Only the outputs of the prefix's last node (the one whose arrival made it fail), if that
//      still fails.
//   3. From the input side: the part that starts at the values that node reads, then at those
//      one node further back, and so on, until one fails.
// Exit 0 with OUT written; 1 when the check does not fail on MODEL itself (nothing to reduce)
// or a candidate cannot be written; 2 on an unreadable model or bad usage.
#include <fmt/format.h>
#include <sys/wait.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <set>
#include <unordered_set>

#include "commands.h"
#include "model_files.h"
#include "onyx/core/quote.h"
#include "onyx/ir/clone.h"
#include "onyx/passes/extract.h"
#include "onyx/serde/model_io.h"
#include "progress.h"

namespace onyx::tool {

namespace {

struct ReduceArguments {
  std::string input;
  std::string output;
  std::string check;
};

// `text` in single quotes for the shell (a quote inside closed, escaped and reopened), so
// that any path is one word of the check command.
std::string shellWord(const std::string& text) {
  constexpr char kQuote = '\'';
  std::string word(1, kQuote);
  for (char c : text) {
    if (c == kQuote) {
      word += kQuote;
      word += '\\';
      word += kQuote;
    }
    word += c;
  }
  word += kQuote;
  return word;
}

class Reducer {
 public:
  Reducer(const ReduceArguments& args, const Model& model)
      : args_(args), model_(model), candidate_(candidatePath(args.input)) {}

  ~Reducer() {
    std::error_code ignored;
    std::filesystem::remove(candidate_, ignored);
  }

  int run() {
    std::vector<const Node*> nodes;
    for (const Node* node : model_.graph->nodes()) nodes.push_back(node);
    fmt::print(stderr, "onyx: reducing {} nodes; checking the model itself\n", nodes.size());
    Result<bool> whole = fails({});
    if (!whole) return report(whole.status());
    if (!*whole) {
      fmt::print(stderr,
                 "onyx: the check does not fail on {} itself: there is nothing to reduce "
                 "(it must exit nonzero on the model)\n",
                 args_.input);
      return kExitInvalid;
    }
    // 1. The shortest failing prefix: [0, high) fails; [0, low) does not (or is empty).
    size_t low = 0;
    size_t high = nodes.size();
    while (high - low > 1) {
      size_t middle = low + (high - low) / 2;
      ExtractBoundary prefix;
      prefix.outputs = prefixOutputs(nodes, middle);
      Result<bool> failed = fails(prefix);
      if (!failed) return report(failed.status());
      (*failed ? high : low) = middle;
    }
    const Node* culprit = nodes[high - 1];
    ExtractBoundary best;
    best.outputs = prefixOutputs(nodes, high);
    // 2. The outputs of that node alone.
    ExtractBoundary alone;
    alone.outputs = namesOf(culprit->outputs());
    if (Result<bool> failed = fails(alone); !failed) {
      return report(failed.status());
    } else if (*failed) {
      best = alone;
      // 3. Inputs from the node back, one node further each time.
      std::vector<const Value*> frontier;
      for (size_t i = 0; i < culprit->inputCount(); ++i) {
        if (culprit->input(i) != nullptr) frontier.push_back(culprit->input(i));
      }
      for (size_t step = 0; step < kMaxSteps && !frontier.empty(); ++step) {
        ExtractBoundary cut = alone;
        cut.inputs = cutAt(frontier);
        Result<bool> cut_fails = fails(cut);
        if (!cut_fails) return report(cut_fails.status());
        if (*cut_fails) {
          best = cut;
          break;
        }
        frontier = oneFurther(frontier);
      }
    }
    Model reduced = cloneModel(model_);
    Result<ExtractReport> done = extractModel(reduced, best);
    if (!done) return report(done.status());
    if (int written = writeModel(reduced, args_.output, SaveOptions(), false, args_.input);
        written != kExitOk) {
      return written;
    }
    fmt::print(stderr, "onyx: {} of {} nodes still fail the check ({} checks); written to {}\n",
               done->nodes_kept, nodes.size(), checks_, args_.output);
    return kExitOk;
  }

 private:
  // A node further back than this many steps from the culprit is left in the part.
  static constexpr size_t kMaxSteps = 64;

  // Beside the model, so that a candidate refers to its external data rather than copying it.
  static std::string candidatePath(const std::string& model) {
    std::filesystem::path path(model);
    std::string name = ".onyx-reduce-candidate-" + std::to_string(getpid()) + ".onnx";
    return (path.parent_path().empty() ? std::filesystem::path(name) : path.parent_path() / name)
        .string();
  }

  int report(const Status& status) const {
    fmt::print(stderr, "onyx: cannot reduce {}: {}\n", args_.input, status.message());
    return kExitInvalid;
  }

  static std::vector<std::string> namesOf(std::span<Value* const> values) {
    std::vector<std::string> names;
    for (const Value* value : values) {
      if (value != nullptr && !value->name().empty()) names.emplace_back(value->name());
    }
    return names;
  }

  // What nodes [0, end) make and do not read among themselves (the graph outputs they make
  // too): the outputs of the part that is exactly those nodes.
  std::vector<std::string> prefixOutputs(const std::vector<const Node*>& nodes, size_t end) const {
    std::unordered_set<const Node*> inside(nodes.begin(), nodes.begin() + end);
    std::vector<std::string> names;
    for (size_t i = 0; i < end; ++i) {
      for (const Value* value : nodes[i]->outputs()) {
        if (value == nullptr || value->name().empty()) continue;
        bool read_inside = false;
        bool leaves = value->isGraphOutputOfItsGraph();
        for (const Use& use : value->uses()) {
          const Node* user = use.user();
          for (; user != nullptr && user->graph() != model_.graph; user = user->graph()->owner()) {
          }
          read_inside = read_inside || (user != nullptr && inside.contains(user));
        }
        if (!read_inside || leaves) names.emplace_back(value->name());
      }
    }
    return names;
  }

  // The boundary `frontier` stands for: its values computed by nodes (inputs and initializers
  // of the model need no cut).
  static std::vector<std::string> cutAt(const std::vector<const Value*>& frontier) {
    std::set<std::string> names;
    for (const Value* value : frontier) {
      if (value->producer() != nullptr || value->isGraphInput()) names.emplace(value->name());
    }
    return {names.begin(), names.end()};
  }

  // The values the nodes computing `frontier` read: the boundary one node further back.
  static std::vector<const Value*> oneFurther(const std::vector<const Value*>& frontier) {
    std::vector<const Value*> next;
    std::set<const Value*> seen;
    bool moved = false;
    for (const Value* value : frontier) {
      const Node* producer = value->producer();
      if (producer == nullptr) {
        if (seen.insert(value).second) next.push_back(value);
        continue;
      }
      moved = true;
      for (size_t i = 0; i < producer->inputCount(); ++i) {
        const Value* read = producer->input(i);
        if (read != nullptr && seen.insert(read).second) next.push_back(read);
      }
    }
    if (!moved) next.clear();
    return next;
  }

  // Whether the check fails on the part `boundary` cuts (the whole model when unset); an
  // error when the part cannot be cut or written.
  Result<bool> fails(const ExtractBoundary& boundary) {
    Model candidate = cloneModel(model_);
    if (boundary.inputs || boundary.outputs) {
      Result<ExtractReport> cut = extractModel(candidate, boundary);
      if (!cut) return false;  // no such part: it cannot be the one that fails
    }
    if (Status saved = saveModel(candidate, candidate_); !saved) return saved;
    std::string command = args_.check;
    std::string word = shellWord(candidate_);
    for (size_t at = command.find("{}"); at != std::string::npos;
         at = command.find("{}", at + word.size())) {
      command.replace(at, 2, word);
    }
    ++checks_;
    int status = std::system((command + " >/dev/null 2>&1").c_str());
    if (status == -1) return Status(ErrorCode::kIoError, "cannot run the check command");
    bool failed = !(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    fmt::print(stderr, "onyx: check {}: {} nodes: {}\n", checks_, candidate.graph->nodeCount(),
               failed ? "fails" : "passes");
    return failed;
  }

  const ReduceArguments& args_;
  const Model& model_;
  std::string candidate_;
  size_t checks_ = 0;
};

int runReduce(const ReduceArguments& args) {
  if (args.check.find("{}") == std::string::npos) {
    fmt::print(stderr, "onyx: --check needs {{}} where the candidate model's path goes\n");
    return kExitUnreadable;
  }
  int exit_code = kExitOk;
  std::optional<Model> loaded = readModelOrSay(args.input, true, exit_code);
  if (!loaded) return exit_code;
  return Reducer(args, *loaded).run();
}

}  // namespace

void addReduceCommand(CLI::App& app, int& exit_code) {
  auto* command =
      app.add_subcommand("reduce",
                         "Shrink a model to the smallest part on which a command still fails "
                         "(docs/debugging.md)");
  auto args = std::make_shared<ReduceArguments>();
  command->add_option("MODEL", args->input, kModelFileHelp)->required();
  command->add_option("OUT", args->output, "the reduced model to write")->required();
  command
      ->add_option("--check", args->check,
                   "the command that fails on the model: run through the shell, {} replaced "
                   "by a candidate's path; a nonzero exit is a failure")
      ->required();
  command->callback([&exit_code, args] { exit_code = runReduce(*args); });
}

}  // namespace onyx::tool
