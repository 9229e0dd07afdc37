// common-subexpression: equal computations merge; different attributes, random operators
// and graph-holding nodes do not.
#include <gtest/gtest.h>

#include <string>

#include "support/check_testing.h"
#include "support/eval_testing.h"
#include "support/graph_testing.h"
#include "support/pass_testing.h"

namespace onyx {
namespace {

using testing::optimizeChecked;
using testing::opTypes;
using testing::tensorOf;

std::vector<NamedValue> vector4() {
  return {{"x", tensorOf<float>(ElementType::kFloat, {4}, {1, -2, 3, -4})}};
}

std::string optimizedOps(std::string_view text) {
  auto done = optimizeChecked(text, {"common-subexpression", "dead-code"}, vector4());
  return done.model.graph != nullptr ? opTypes(*done.model.graph) : "";
}

TEST(CommonSubexpression, EqualNodesMergeAndTheirReadersThen) {
  EXPECT_EQ(optimizedOps(R"(
    <ir_version: 10, opset_import: ["" : 18]>
    g (float[4] x) => (float[4] y) {
      a = LeakyRelu <alpha = 0.5> (x)
      b = LeakyRelu <alpha = 0.5> (x)
      c = Neg (a)
      d = Neg (b)
      y = Add (c, d)
    })"),
            "LeakyRelu Neg Add");
}

TEST(CommonSubexpression, AttributesAreComparedAsValues) {
  EXPECT_EQ(optimizedOps(R"(
    <ir_version: 10, opset_import: ["" : 18]>
    g (float[4] x) => (float[4] y) {
      a = LeakyRelu <alpha = 0.5> (x)
      b = LeakyRelu <alpha = 0.25> (x)
      y = Add (a, b)
    })"),
            "LeakyRelu LeakyRelu Add");
  EXPECT_EQ(optimizedOps(R"(
    <ir_version: 10, opset_import: ["" : 18]>
    g (float[4] x) => (float[4] y) {
      a = Constant <value = float[4] {1, 2, 3, 4}> ()
      b = Constant <value = float[4] {1, 2, 3, 4}> ()
      c = Constant <value = float[4] {1, 2, 3, 5}> ()
      s = Add (a, b)
      t = Add (s, c)
      y = Add (t, x)
    })"),
            "Constant Constant Add Add Add");
}

TEST(CommonSubexpression, DeterministicNodesMergeAndRandomOnesStay) {
  auto done = optimizeChecked(R"(
    <ir_version: 10, opset_import: ["" : 18]>
    g (float[4] x) => (float[4] y) {
      a = Shape (x)
      b = Shape (x)
      y = Expand (x, a)
      z = Equal (a, b)
    })",
                              {"common-subexpression"}, vector4());
  EXPECT_EQ(opTypes(*done.model.graph), "Shape Expand Equal");
  Model random = testing::parseOrFail(R"(
    <ir_version: 10, opset_import: ["" : 18]>
    g (float[4] x) => (float[4] y, float[4] z) {
      y = RandomNormalLike (x)
      z = RandomNormalLike (x)
    })");
  OptimizeOptions options;
  options.passes = {"common-subexpression"};
  ASSERT_TRUE(optimize(random, options));
  EXPECT_EQ(opTypes(*random.graph), "RandomNormalLike RandomNormalLike");
}

TEST(CommonSubexpression, TwoGraphOutputsOfEqualNodesKeepBothNames) {
  auto done = optimizeChecked(R"(
    <ir_version: 10, opset_import: ["" : 18]>
    g (float[4] x) => (float[4] y, float[4] z) {
      y = Neg (x)
      z = Neg (x)
    })",
                              {"common-subexpression"}, vector4());
  const Graph& graph = *done.model.graph;
  EXPECT_EQ(opTypes(graph), "Neg Neg");
  EXPECT_EQ(graph.outputs[0]->bound()->name(), "y");
  EXPECT_EQ(graph.outputs[1]->bound()->name(), "z");
}

TEST(CommonSubexpression, AGraphOutputTakesTheNameOfTheMergedNode) {
  auto done = optimizeChecked(R"(
    <ir_version: 10, opset_import: ["" : 18]>
    g (float[4] x) => (float[4] y, float[4] z) {
      a = Neg (x)
      y = Abs (a)
      z = Neg (x)
    })",
                              {"common-subexpression"}, vector4());
  const Graph& graph = *done.model.graph;
  EXPECT_EQ(opTypes(graph), "Neg Abs");
  EXPECT_EQ(graph.outputs[1]->bound()->name(), "z");
  EXPECT_EQ(graph.outputs[1]->bound()->producer()->opType(), "Neg");
}

TEST(CommonSubexpression, CommutativeOperandsMatchInEitherOrder) {
  EXPECT_EQ(optimizedOps(R"(
    <ir_version: 10, opset_import: ["" : 18]>
    g (float[4] x) => (float[4] y) {
      n = Neg (x)
      a = Add (x, n)
      b = Add (n, x)
      p = Sub (x, n)
      q = Sub (n, x)
      s = Mul (a, b)
      t = Mul (p, q)
      y = Add (s, t)
    })"),
            "Neg Add Sub Sub Mul Mul Add");
}

TEST(CommonSubexpression, MaxAndMinOperandsAreNotSwapped) {
  // Max(+0, -0) and Max(-0, +0) may differ in sign: the trait says they do not commute.
  EXPECT_EQ(optimizedOps(R"(
    <ir_version: 10, opset_import: ["" : 18]>
    g (float[4] x) => (float[4] y) {
      n = Neg (x)
      a = Max (x, n)
      b = Max (n, x)
      y = Add (a, b)
    })"),
            "Neg Max Max Add");
}

// A function body that imports the default domain at `opset`, in a model that imports only
// the function's domain (so the body's import is the only one that can govern it).
std::string bodyAtOpset(int opset) {
  return R"(
    <ir_version: 10, opset_import: ["local" : 1]>
    g (float[4] x) => (float[4] y) {
      y = local.sums (x)
    }
    <domain: "local", opset_import: ["" : )" +
         std::to_string(opset) + R"(]>
    sums (a) => (b) {
      n = Neg (a)
      p = Add (a, n)
      q = Add (n, a)
      b = Mul (p, q)
    })";
}

TEST(CommonSubexpression, CommutativityIsThatOfTheOperatorVersionTheBodyImports) {
  // At opset 6 Add's `broadcast` stretches its second input only: Add(a, n) and Add(n, a)
  // are not the same computation there. At 18 they are.
  auto old_body = optimizeChecked(bodyAtOpset(6), {"common-subexpression"}, vector4());
  ASSERT_EQ(old_body.model.functions.size(), 1u);
  EXPECT_EQ(opTypes(*old_body.model.functions[0]->body), "Neg Add Add Mul");
  auto new_body = optimizeChecked(bodyAtOpset(18), {"common-subexpression"}, vector4());
  ASSERT_EQ(new_body.model.functions.size(), 1u);
  EXPECT_EQ(opTypes(*new_body.model.functions[0]->body), "Neg Add Mul");
}

TEST(CommonSubexpression, MergesInsideFunctionBodies) {
  auto done = optimizeChecked(R"(
    <ir_version: 10, opset_import: ["" : 18, "local" : 1]>
    g (float[4] x) => (float[4] y) {
      y = local.twice (x)
    }
    <domain: "local", opset_import: ["" : 18]>
    twice (a) => (b) {
      p = Neg (a)
      q = Neg (a)
      b = Add (p, q)
    })",
                              {"common-subexpression"}, vector4());
  ASSERT_EQ(done.model.functions.size(), 1u);
  EXPECT_EQ(opTypes(*done.model.functions[0]->body), "Neg Add");
}

// The pass's edits of every graph are one step: made to fail after recording some graphs'
// edits, it leaves the model's bytes as they were.
TEST(CommonSubexpression, FailingHalfWayLeavesTheModelAsItWas) {
  testing::expectAllOrNothing(R"(
    <ir_version: 8, opset_import: ["" : 17]>
    g (float[2] x, bool c) => (float[2] y) {
      n1 = Neg (x)
      n2 = Neg (x)
      s = Add (n1, n2)
      y = If (c) <then_branch = t () => (float[2] a) {
                     r1 = Relu (s)
                     r2 = Relu (s)
                     a = Mul (r1, r2)
                   },
                   else_branch = e () => (float[2] b) { b = Abs (s) }>
    })",
                              "common-subexpression");
}

}  // namespace
}  // namespace onyx
