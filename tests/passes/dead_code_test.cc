// dead-code: what no output depends on goes; inputs, defaults, unknown operators and the
// default domain's import stay.
#include <gtest/gtest.h>

#include "onyx/text/printer.h"
#include "support/check_testing.h"
#include "support/eval_testing.h"
#include "support/graph_testing.h"
#include "support/pass_testing.h"

namespace onyx {
namespace {

using testing::optimizeChecked;
using testing::opTypes;
using testing::tensorOf;

std::vector<NamedValue> twoFloats() {
  return {{"x", tensorOf<float>(ElementType::kFloat, {2}, {-1.5f, 2.0f})}};
}

TEST(DeadCode, RemovesAChainNothingReadsAndKeepsWhatOutputsNeed) {
  auto done = optimizeChecked(R"(
    <ir_version: 10, opset_import: ["" : 18]>
    g (float[2] x) => (float[2] y) {
      a = Neg (x)
      b = Abs (a)
      c = Exp (b)
      y = Relu (x)
    })",
                              {"dead-code"}, twoFloats());
  EXPECT_EQ(opTypes(*done.model.graph), "Relu");
  EXPECT_EQ(done.changes.nodes_removed, 3u);
}

TEST(DeadCode, KeepsANodeOnlyANestedGraphReads) {
  auto done = optimizeChecked(R"(
    <ir_version: 10, opset_import: ["" : 18]>
    g (float[2] x, bool c) => (float[2] y) {
      n = Neg (x)
      unused = Abs (x)
      y = If (c) <
        then_branch = t () => (float[2] r) { r = Identity (n) },
        else_branch = e () => (float[2] r) { r = Identity (x) }
      >
    })",
                              {"dead-code"},
                              {{"x", tensorOf<float>(ElementType::kFloat, {2}, {1, 2})},
                               {"c", tensorOf<bool>(ElementType::kBool, {}, {true})}});
  EXPECT_EQ(opTypes(*done.model.graph), "Neg If");
}

// A node read only by a dead node in a branch goes in the same run: the branch's patch removes
// its reader, the main graph's patch the node, applied together.
TEST(DeadCode, ANodeReadOnlyByADeadNodeOfABranchGoes) {
  auto done = optimizeChecked(R"(
    <ir_version: 8, opset_import: ["" : 17]>
    g (float[2] x, bool c) => (float[2] y) <float[2] w = {1, 2}> {
      n = Neg (x)
      y = If (c) <then_branch = t () => (float[2] a) {
                     unused = Mul (n, w)
                     a = Relu (x)
                   },
                   else_branch = e () => (float[2] b) { b = Abs (x) }>
    })",
                              {"dead-code"},
                              {{"x", tensorOf<float>(ElementType::kFloat, {2}, {1, -2})},
                               {"c", tensorOf<bool>(ElementType::kBool, {}, {true})}});
  const Graph& graph = *done.model.graph;
  EXPECT_EQ(opTypes(graph), "If");
  EXPECT_EQ(opTypes(*graph.firstNode()->graphAttr("then_branch")), "Relu");
  EXPECT_TRUE(graph.initializers.empty());
}

// The pass's edits of every graph are one step: made to fail after recording some graphs'
// edits, it leaves the model's bytes as they were.
TEST(DeadCode, FailingHalfWayLeavesTheModelAsItWas) {
  testing::expectAllOrNothing(R"(
    <ir_version: 8, opset_import: ["" : 17]>
    g (float[2] x, bool c) => (float[2] y) <float[2] w = {1, 2}> {
      n = Neg (x)
      dead = Sqrt (x)
      y = If (c) <then_branch = t () => (float[2] a) {
                     unused = Mul (n, w)
                     a = Relu (x)
                   },
                   else_branch = e () => (float[2] b) { b = Abs (x) }>
    })",
                              "dead-code");
}

TEST(DeadCode, RemovesUnusedInitializersButNotInputDefaults) {
  auto done = optimizeChecked(R"(
    <ir_version: 10, opset_import: ["" : 18]>
    g (float[2] x, float[2] d = {1, 2}) => (float[2] y)
      <float[2] w = {3, 4}, float[2] unused = {5, 6}> {
      y = Add (x, w)
    })",
                              {"dead-code"}, twoFloats());
  const Graph& graph = *done.model.graph;
  ASSERT_EQ(graph.initializers.size(), 2u);
  EXPECT_EQ(graph.initializers[0]->nameOrEmpty(), "d");
  EXPECT_EQ(graph.initializers[1]->nameOrEmpty(), "w");
  EXPECT_EQ(graph.inputs.size(), 2u);
  EXPECT_EQ(done.changes.entries_changed, 1u);
}

TEST(DeadCode, KeepsUnknownOperatorsUnlessAggressive) {
  constexpr std::string_view kText = R"(
    <ir_version: 10, opset_import: ["" : 18, "custom.log" : 1]>
    g (float[2] x) => (float[2] y) {
      logged = custom.log.Print (x)
      y = Relu (x)
    })";
  // The evaluator cannot run the custom operator: check the structure alone.
  Model kept = testing::parseOrFail(kText);
  OptimizeOptions options;
  options.passes = {"dead-code"};
  ASSERT_TRUE(optimize(kept, options));
  EXPECT_EQ(opTypes(*kept.graph), "Print Relu");
  EXPECT_TRUE(kept.opsetVersion("custom.log").has_value());
  Model removed = testing::parseOrFail(kText);
  options.aggressive = true;
  ASSERT_TRUE(optimize(removed, options));
  EXPECT_EQ(opTypes(*removed.graph), "Relu");
  // Nothing reads the domain any more: its import goes too.
  EXPECT_FALSE(removed.opsetVersion("custom.log").has_value());
  EXPECT_TRUE(removed.opsetVersion("").has_value());
}

TEST(DeadCode, RemovesFunctionsNothingCallsAndTheirImports) {
  auto done = optimizeChecked(R"(
    <ir_version: 10, opset_import: ["" : 18, "local" : 1, "ai.onnx.ml" : 3]>
    g (float[2] x) => (float[2] y) {
      y = local.used (x)
    }
    <domain: "local", opset_import: ["" : 18, "local" : 1]>
    used (a) => (b) {
      b = local.helper (a)
    }
    <domain: "local", opset_import: ["" : 18]>
    helper (a) => (b) {
      b = Neg (a)
    }
    <domain: "local", opset_import: ["" : 18]>
    unused (a) => (b) {
      b = Abs (a)
    })",
                              {"dead-code"}, twoFloats());
  const Model& model = done.model;
  ASSERT_EQ(model.functions.size(), 2u);
  EXPECT_EQ(model.functions[0]->nameOrEmpty(), "used");
  EXPECT_EQ(model.functions[1]->nameOrEmpty(), "helper");
  EXPECT_FALSE(model.opsetVersion("ai.onnx.ml").has_value());
  EXPECT_TRUE(model.opsetVersion("local").has_value());
}

TEST(DeadCode, RemovesTheDeclarationsOfRemovedValues) {
  auto done = optimizeChecked(R"(
    <ir_version: 10, opset_import: ["" : 18]>
    g (float[2] x) => (float[2] y) <float[2] a> {
      a = Neg (x)
      y = Relu (x)
    })",
                              {"dead-code"}, twoFloats());
  std::string text = printModel(done.model);
  EXPECT_EQ(text.find("float[2] a"), std::string::npos) << text;
}

}  // namespace
}  // namespace onyx
