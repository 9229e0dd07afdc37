// The pass manager and optimize(): rounds to a fixed point, the round cap, verification,
// per-pass reports, the registry and the default list.
#include "onyx/passes/pass_manager.h"

#include <gtest/gtest.h>

#include <set>

#include "onyx/ir/editor.h"
#include "onyx/passes/optimize.h"
#include "onyx/passes/standard_passes.h"
#include "support/check_testing.h"
#include "support/eval_testing.h"
#include "support/graph_testing.h"
#include "support/pass_testing.h"

namespace onyx {
namespace {

using testing::opTypes;

// Appends a Neg after the first node's output each run: never reaches a fixed point.
class GrowingPass final : public Pass {
 public:
  std::string_view name() const override { return "growing"; }
  std::string_view summary() const override { return "adds a node each run"; }
  Preserves preserves() const override { return Preserves::kNothing; }
  Result<PassResult> run(Model& model, PassContext&) override {
    Value* read = model.graph->inputs[0]->value;
    Node* node = GraphEditor(model).createNode(*model.graph, "Neg", {read});
    model.graph->appendNode(node);
    PassResult result;
    result.nodes_added = 1;
    return result;
  }
};

// Breaks the graph: points an input at a value of another model's graph.
class BreakingPass final : public Pass {
 public:
  std::string_view name() const override { return "breaking"; }
  std::string_view summary() const override { return "leaves a dangling read"; }
  Preserves preserves() const override { return Preserves::kNothing; }
  Result<PassResult> run(Model& model, PassContext&) override {
    Node* first = *model.graph->nodes().begin();
    first->setInput(0, other_.graph->inputs[0]->value);
    PassResult result;
    result.nodes_rewritten = 1;
    return result;
  }
  Model other_ = testing::parseOrFail(R"(
    <ir_version: 10, opset_import: ["" : 18]>
    g (float[2] q) => (float[2] r) { r = Neg (q) })");
};

constexpr std::string_view kChain = R"(
  <ir_version: 10, opset_import: ["" : 18]>
  g (float[2] x) => (float[2] y) {
    a = Identity (x)
    b = Neg (a)
    c = Neg (a)
    d = Identity (c)
    e = Add (b, d)
    unused = Abs (e)
    y = Identity (e)
  })";

TEST(PassManager, RunsRoundsUntilNothingChangesAndReportsEachPass) {
  Model model = testing::parseOrFail(kChain);
  OptimizeOptions options;
  Result<OptimizeReport> report = optimize(model, options);
  ASSERT_TRUE(report) << report.status().toString();
  EXPECT_EQ(opTypes(*model.graph), "Neg Add");
  EXPECT_FALSE(report->reached_cap);
  EXPECT_GE(report->rounds, 2u);  // the last round changed nothing
  ASSERT_EQ(report->passes.size(), defaultPassNames().size());
  for (const PassStats& stats : report->passes) EXPECT_EQ(stats.runs, report->rounds);
  EXPECT_EQ(report->total().nodes_removed, 5u);
}

TEST(PassManager, StopsAtTheRoundCapAndSaysSo) {
  Model model = testing::parseOrFail(kChain);
  PassManagerOptions options;
  options.max_rounds = 3;
  PassManager manager(options);
  manager.add(std::make_unique<GrowingPass>());
  PassContext context;
  Result<PassManagerReport> report = manager.run(model, context);
  ASSERT_TRUE(report);
  EXPECT_TRUE(report->reached_cap);
  EXPECT_EQ(report->rounds, 3u);
  EXPECT_EQ(report->passes[0].changes.nodes_added, 3u);
}

TEST(PassManager, VerificationNamesThePassThatBrokeTheGraph) {
#ifdef ONYX_DEVELOPMENT_CHECKS
  GTEST_SKIP() << "with development checks the graph API stops the break itself";
#endif
  Model model = testing::parseOrFail(kChain);
  PassManagerOptions options;
  options.verify = true;
  PassManager manager(options);
  manager.add(std::make_unique<BreakingPass>());
  PassContext context;
  Result<PassManagerReport> report = manager.run(model, context);
  ASSERT_FALSE(report);
  EXPECT_NE(report.status().message().find("'breaking'"), std::string::npos)
      << report.status().toString();
}

TEST(PassManager, EveryRegisteredPassHasAUniqueNameAndASummary) {
  std::set<std::string> names;
  for (const PassInfo& info : registeredPasses()) {
    std::unique_ptr<Pass> pass = info.make();
    EXPECT_FALSE(pass->summary().empty()) << pass->name();
    EXPECT_TRUE(names.insert(std::string(pass->name())).second) << pass->name();
    Result<std::unique_ptr<Pass>> found = makePass(pass->name());
    ASSERT_TRUE(found);
    EXPECT_EQ((*found)->name(), pass->name());
  }
  EXPECT_EQ(defaultPassNames(),
            (std::vector<std::string>{"topological-sort", "constant-to-initializer",
                                      "shape-folding", "constant-folding", "noop",
                                      "standard-fusions", "common-subexpression", "dead-code"}));
}

TEST(PassManager, AnUnknownPassNameChangesNothing) {
  Model model = testing::parseOrFail(kChain);
  std::string before = testing::bytesOf(model);
  OptimizeOptions options;
  options.passes = {"noop", "no-such-pass"};
  Result<OptimizeReport> report = optimize(model, options);
  ASSERT_FALSE(report);
  EXPECT_NE(report.status().message().find("no-such-pass"), std::string::npos);
  EXPECT_NE(report.status().message().find("dead-code"), std::string::npos);  // the list
  EXPECT_EQ(testing::bytesOf(model), before);
}

TEST(TopologicalSortPass, RepairsAnUnsortedGraphAndLeavesASortedOneAlone) {
  auto done = testing::optimizeChecked(
      R"(
    <ir_version: 10, opset_import: ["" : 18]>
    g (float[2] x) => (float[2] y) {
      y = Neg (a)
      a = Abs (x)
    })",
      {"topological-sort"}, {{"x", testing::tensorOf<float>(ElementType::kFloat, {2}, {1, -2})}});
  EXPECT_EQ(opTypes(*done.model.graph), "Abs Neg");
  EXPECT_EQ(done.changes.nodes_rewritten, 2u);
}

TEST(InlinePass, ReplacesCallsAndRemovesTheFunctions) {
  auto done = testing::optimizeChecked(
      R"(
    <ir_version: 10, opset_import: ["" : 18, "local" : 1]>
    g (float[2] x) => (float[2] y) {
      y = local.neg_relu (x)
    }
    <domain: "local", opset_import: ["" : 18]>
    neg_relu (a) => (b) {
      t = Neg (a)
      b = Relu (t)
    })",
      {"inline", "dead-code"},
      {{"x", testing::tensorOf<float>(ElementType::kFloat, {2}, {1, -2})}});
  EXPECT_EQ(opTypes(*done.model.graph), "Neg Relu");
  EXPECT_TRUE(done.model.functions.empty());
  EXPECT_FALSE(done.model.opsetVersion("local").has_value());
}

}  // namespace
}  // namespace onyx

namespace onyx {
namespace {

// Models the checker refuses still optimise without a crash and stay consistent: the passes
// leave alone what they cannot judge. A cycle is the one error (topological-sort's).
TEST(Optimize, InvalidModelsStayConsistent) {
  const char* models[] = {
      // Undefined reads, an operator no one knows, a Constant without a value or with two.
      R"(<ir_version: 10, opset_import: ["" : 18]>
         g (float[2] x) => (float[2] y, float[2] z) {
           a = Identity (nowhere)
           b = Constant ()
           c = Constant <value_int = 1, value_float = 2.0> ()
           y = Whatever (a, b, c)
           z = Identity (y)
         })",
      // Attributes out of range or missing: Cast without `to`, a perm too long, axes too large.
      R"(<ir_version: 10, opset_import: ["" : 18]>
         g (float[2,3] x) => (float[2,3] y) <int64[1] axes = {7}> {
           a = Cast (x)
           b = Transpose <perm = [5, 0, 1]> (a)
           c = Transpose <perm = [1, 0]> (b)
           d = Unsqueeze (c, axes)
           e = Squeeze (d, axes)
           y = Reshape (e, x)
         })",
      // No default-domain import at all.
      R"(<ir_version: 10, opset_import: ["custom" : 1]>
         g (float[2] x) => (float[2] y) {
           a = Identity (x)
           y = custom.Op (a)
         })",
  };
  for (const char* text : models) {
    Model model = testing::parseOrFail(text);
    if (model.graph == nullptr) continue;
    OptimizeOptions options;
    options.manager.verify = true;
    Result<OptimizeReport> report = optimize(model, options);
    EXPECT_TRUE(report) << report.status().toString() << "\n" << text;
    EXPECT_TRUE(testing::verified(model)) << text;
  }
  Model cycle = testing::parseOrFail(R"(
    <ir_version: 10, opset_import: ["" : 18]>
    g (float[2] x) => (float[2] y) {
      a = Add (x, b)
      b = Neg (a)
      y = Identity (b)
    })");
  Result<OptimizeReport> report = optimize(cycle);
  ASSERT_FALSE(report);
  EXPECT_NE(report.status().message().find("topological-sort"), std::string::npos)
      << report.status().toString();
  EXPECT_TRUE(testing::verified(cycle));
}

}  // namespace
}  // namespace onyx
