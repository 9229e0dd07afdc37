// onyx_bench_pattern — the pattern rewriter's matching cost: 100 rules over a generated
// 200,000-node graph (issue 21: "well under a second").
//
//   onyx_bench_pattern [--nodes=N] [--reps=N]
//
// The graph: one chain of N nodes, each a unary operator picked from 20 by a fixed hash of
// its position, every tenth an Add of a constant instead. The rules: 100 two- and
// three-node patterns over those operators (Add commutative, some with a value predicate),
// whose rewrites count the match and decline, so the graph stays as it is and every rep
// does the same work. Timed: one RuleSet::applyTo over the graph (a walk, an index lookup
// per node, the rules of its operator tried); then, once, a rule that does rewrite (Neg of
// Neg removed) applied to a fixed point through the pass manager. Wall-clock, median of the
// reps.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "onyx/ir/editor.h"
#include "onyx/ir/graph.h"
#include "onyx/ir/model.h"
#include "onyx/ir/tensor_array.h"
#include "onyx/passes/pass_manager.h"
#include "onyx/passes/pattern.h"

namespace {

constexpr std::string_view kUnary[] = {
    "Relu", "Neg", "Abs",   "Exp",        "Log", "Sigmoid",  "Tanh",     "Sqrt", "Floor", "Ceil",
    "Sin",  "Cos", "Round", "Reciprocal", "Erf", "Softsign", "Softplus", "Sign", "Atan",  "Asin"};
constexpr size_t kUnaryCount = sizeof(kUnary) / sizeof(kUnary[0]);

size_t mixed(size_t i) { return (i * 2654435761u) >> 7; }

onyx::Model makeChain(size_t count) {
  onyx::Model model;
  onyx::GraphEditor edit(model);
  model.ir_version = 10;
  model.setOpsetVersion("", 18);
  model.graph = edit.newGraph();
  onyx::Graph& graph = *model.graph;
  onyx::Value* last = edit.addInput(graph, "x").value();
  onyx::Array one(onyx::ElementType::kFloat, {1});
  one.data<float>()[0] = 0.5f;
  onyx::Tensor* tensor = edit.tensorFromArray(one);
  tensor->name = "half";
  onyx::Value* half = edit.addInitializer(graph, tensor).value();
  for (size_t i = 0; i < count; ++i) {
    onyx::Node* node = nullptr;
    if (i % 10 == 9) {
      node = edit.createNode(graph, "Add", {last, half});
    } else {
      node = edit.createNode(graph, kUnary[mixed(i) % kUnaryCount], {last});
    }
    graph.appendNode(node);
    last = node->output(0);
  }
  edit.addOutput(graph, last);
  return model;
}

struct Counter {
  size_t matches = 0;
};

// 100 rules: outer(inner(x)) for 80 pairs of unary operators, and Add(unary(x), c) for 20
// with c a constant, checked by a predicate.
onyx::RuleSet makeRules(Counter& counter) {
  onyx::RuleSet rules;
  for (size_t r = 0; r < 100; ++r) {
    onyx::Pattern pattern;
    onyx::PatternValue x = pattern.var("x");
    std::string_view inner = kUnary[(r * 7 + 3) % kUnaryCount];
    onyx::PatternNode below = pattern.op(inner, {x});
    if (r < 80) {
      pattern.op(kUnary[r % kUnaryCount], {below});
    } else {
      pattern.op("Add", {below, pattern.var("c").constant()});
    }
    onyx::RewriteRule rule;
    rule.name = "rule-" + std::to_string(r);
    rule.pattern = std::move(pattern);
    rule.rewrite = [&counter](const onyx::Match&, onyx::RewriteBuilder&) {
      ++counter.matches;
      return std::vector<onyx::Value*>{};
    };
    if (!rules.add(std::move(rule)).isOk()) std::abort();
  }
  return rules;
}

double secondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

int main(int argc, char** argv) {
  size_t nodes = 200000;
  size_t reps = 7;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg.rfind("--nodes=", 0) == 0) nodes = std::stoul(arg.substr(8));
    if (arg.rfind("--reps=", 0) == 0) reps = std::stoul(arg.substr(7));
  }
  onyx::Model model = makeChain(nodes);
  Counter counter;
  onyx::RuleSet rules = makeRules(counter);
  std::vector<double> times;
  for (size_t rep = 0; rep < reps; ++rep) {
    counter.matches = 0;
    onyx::PassContext context;
    auto start = std::chrono::steady_clock::now();
    onyx::Result<onyx::PassResult> done = rules.applyTo(model, *model.graph, context);
    times.push_back(secondsSince(start));
    if (!done) {
      std::fprintf(stderr, "%s\n", done.status().toString().c_str());
      return 1;
    }
  }
  std::sort(times.begin(), times.end());
  std::printf("match: %zu nodes, %zu rules, %zu matches, median %.1f ms (min %.1f ms)\n", nodes,
              rules.size(), counter.matches, times[times.size() / 2] * 1e3, times[0] * 1e3);

  // Rewriting: Neg(Neg(x)) → x, to a fixed point.
  onyx::Pattern pattern;
  onyx::PatternValue x = pattern.var("x");
  pattern.op("Neg", {pattern.op("Neg", {x})});
  onyx::RuleSet negations;
  if (!negations
           .add({"neg-neg", std::move(pattern), nullptr,
                 [x](const onyx::Match& match, onyx::RewriteBuilder&) {
                   return std::vector<onyx::Value*>{match.value(x)};
                 }})
           .isOk()) {
    return 1;
  }
  onyx::PassManager manager;
  manager.add(onyx::makeRewritePass("neg-neg", "Neg of Neg", std::move(negations)));
  onyx::PassContext context;
  size_t before = model.graph->nodeCount();
  auto start = std::chrono::steady_clock::now();
  onyx::Result<onyx::PassManagerReport> report = manager.run(model, context);
  double seconds = secondsSince(start);
  if (!report) return 1;
  std::printf(
      "rewrite: Neg(Neg(x)) removed to a fixed point, %zu -> %zu nodes in %zu rounds, "
      "%.1f ms\n",
      before, model.graph->nodeCount(), report->rounds, seconds * 1e3);
  return 0;
}
