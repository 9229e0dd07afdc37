// noop: each kind of node that changes nothing is bypassed, graph output names stay, and
// nodes that do change something stay.
#include <gtest/gtest.h>

#include <string>

#include "support/eval_testing.h"
#include "support/graph_testing.h"
#include "support/pass_testing.h"

namespace onyx {
namespace {

using testing::optimizeChecked;
using testing::opTypes;
using testing::tensorOf;

std::vector<NamedValue> matrix() {
  return {{"x", tensorOf<float>(ElementType::kFloat, {2, 3}, {1, -2, 3, -4, 5, -6})}};
}

std::string optimizedOps(std::string_view text, std::vector<NamedValue> inputs = matrix()) {
  auto done = optimizeChecked(text, {"noop", "dead-code"}, inputs);
  return done.model.graph != nullptr ? opTypes(*done.model.graph) : "";
}

TEST(Noop, IdentityChainsGoAndTheOutputKeepsItsName) {
  auto done = optimizeChecked(R"(
    <ir_version: 10, opset_import: ["" : 18]>
    g (float[2,3] x) => (float[2,3] y) {
      a = Relu (x)
      b = Identity (a)
      y = Identity (b)
    })",
                              {"noop"}, matrix());
  const Graph& graph = *done.model.graph;
  EXPECT_EQ(opTypes(graph), "Relu");
  EXPECT_EQ(graph.outputs[0]->bound()->name(), "y");
  EXPECT_EQ(graph.outputs[0]->bound()->producer()->opType(), "Relu");
}

TEST(Noop, AnIdentityFromAGraphInputToAnOutputStays) {
  EXPECT_EQ(optimizedOps(R"(
    <ir_version: 10, opset_import: ["" : 18]>
    g (float[2,3] x) => (float[2,3] y) { y = Identity (x) })"),
            "Identity");
}

TEST(Noop, DropoutInInferenceGoesUnlessItsMaskIsRead) {
  EXPECT_EQ(optimizedOps(R"(
    <ir_version: 10, opset_import: ["" : 18]>
    g (float[2,3] x) => (float[2,3] y) {
      d = Dropout (x)
      y = Relu (d)
    })"),
            "Relu");
  EXPECT_EQ(optimizedOps(R"(
    <ir_version: 10, opset_import: ["" : 18]>
    g (float[2,3] x) => (float[2,3] y, bool[2,3] m) {
      d, m = Dropout (x)
      y = Relu (d)
    })"),
            "Dropout Relu");
  EXPECT_EQ(optimizedOps(R"(
    <ir_version: 10, opset_import: ["" : 18]>
    g (float[2,3] x) => (float[2,3] y) <float r = {0.5}, bool off = {0}> {
      d = Dropout (x, r, off)
      y = Relu (d)
    })"),
            "Relu");
}

TEST(Noop, CastToTheSameTypeGoesAndARealCastStays) {
  EXPECT_EQ(optimizedOps(R"(
    <ir_version: 10, opset_import: ["" : 18]>
    g (float[2,3] x) => (double[2,3] y) {
      a = Cast <to = 1> (x)
      y = Cast <to = 11> (a)
    })"),
            "Cast");
}

TEST(Noop, ShapePreservingReshapesGo) {
  EXPECT_EQ(optimizedOps(R"(
    <ir_version: 10, opset_import: ["" : 18]>
    g (float[2,3] x) => (float[2,3] y) <int64[2] s = {2, 3}, int64[1] axes = {0}> {
      a = Reshape (x, s)
      b = Unsqueeze (a, axes)
      c = Squeeze (b, axes)
      y = Relu (c)
    })"),
            "Relu");
  // A Reshape that changes the shape stays.
  EXPECT_EQ(optimizedOps(R"(
    <ir_version: 10, opset_import: ["" : 18]>
    g (float[2,3] x) => (float[3,2] y) <int64[2] s = {3, 2}> {
      a = Reshape (x, s)
      y = Relu (a)
    })"),
            "Reshape Relu");
}

TEST(Noop, AReshapeReadingAValueRenamedToAGraphOutputGoesInTheSameRun) {
  // The Identity goes first and c takes the name y: y's type is then the one the graph
  // output declares, as it is once the model is written and read, so the Reshape goes now
  // and not in a later run on the written model.
  auto done = optimizeChecked(R"(
    <ir_version: 10, opset_import: ["" : 18]>
    g (float[2,3] x) => (float[2,6] y, float[2,6] z) <int64[2] s = {2, 6}> {
      c = Concat <axis = 1> (x, x)
      y = Identity (c)
      r = Reshape (y, s)
      z = Relu (r)
    })",
                              {"noop", "dead-code"}, matrix());
  EXPECT_EQ(opTypes(*done.model.graph), "Concat Relu");
}

TEST(Noop, SqueezeAndUnsqueezeOfTheSameAxesUndoEachOtherWithoutShapes) {
  // x's dims are unknown, so shapes cannot tell: the axes do.
  auto done = optimizeChecked(R"(
    <ir_version: 10, opset_import: ["" : 18]>
    g (float[?,?] x) => (float[?,?] y) <int64[1] axes = {1}> {
      a = Unsqueeze (x, axes)
      b = Squeeze (a, axes)
      y = Relu (b)
    })",
                              {"noop", "dead-code"}, matrix());
  EXPECT_EQ(opTypes(*done.model.graph), "Relu");
  // Other axes: a different tensor.
  done = optimizeChecked(R"(
    <ir_version: 10, opset_import: ["" : 18]>
    g (float[?,?] x) => (float[?,?] y) <int64[1] one = {1}, int64[1] zero = {0}> {
      a = Unsqueeze (x, one)
      b = Squeeze (a, zero)
      y = Relu (b)
    })",
                         {"noop", "dead-code"},
                         {{"x", tensorOf<float>(ElementType::kFloat, {1, 3}, {1, 2, 3})}});
  EXPECT_EQ(opTypes(*done.model.graph), "Unsqueeze Squeeze Relu");
}

TEST(Noop, ReshapeOfAReshapeReadsTheFirstInput) {
  EXPECT_EQ(optimizedOps(R"(
    <ir_version: 10, opset_import: ["" : 18]>
    g (float[2,3] x) => (float[3,2] y) <int64[1] flat = {6}, int64[2] s = {3, -1}> {
      a = Reshape (x, flat)
      y = Reshape (a, s)
    })"),
            "Reshape");
  // A 0 copies a dimension of the Reshape's own input (3, where x has 2): not composable.
  EXPECT_EQ(optimizedOps(R"(
    <ir_version: 10, opset_import: ["" : 18]>
    g (float[2,3] x) => (float[3,1,2] y) <int64[2] s1 = {3, 2}, int64[3] s = {0, 1, -1}> {
      a = Reshape (x, s1)
      y = Reshape (a, s)
    })"),
            "Reshape Reshape");
}

TEST(Noop, TransposesComposeAndIdentityPermutationsGo) {
  EXPECT_EQ(optimizedOps(R"(
    <ir_version: 10, opset_import: ["" : 18]>
    g (float[2,3] x) => (float[2,3] y) {
      a = Transpose <perm = [1, 0]> (x)
      b = Transpose <perm = [1, 0]> (a)
      y = Relu (b)
    })"),
            "Relu");
  auto done = optimizeChecked(
      R"(
    <ir_version: 10, opset_import: ["" : 18]>
    g (float[2,3,4] x) => (float[4,2,3] y) {
      a = Transpose <perm = [1, 0, 2]> (x)
      y = Transpose <perm = [2, 1, 0]> (a)
    })",
      {"noop", "dead-code"},
      {{"x", tensorOf<float>(ElementType::kFloat, {2, 3, 4}, testing::randomFloats(24, 1))}});
  ASSERT_EQ(opTypes(*done.model.graph), "Transpose");
  std::span<const int64_t> perm =
      done.model.graph->outputs[0]->bound()->producer()->intsAttr("perm");
  EXPECT_EQ(std::vector<int64_t>(perm.begin(), perm.end()), (std::vector<int64_t>{2, 0, 1}));
}

TEST(Noop, SliceExpandPadAndConcatThatChangeNothingGo) {
  EXPECT_EQ(optimizedOps(R"(
    <ir_version: 10, opset_import: ["" : 18]>
    g (float[2,3] x) => (float[2,3] y)
      <int64[1] start = {0}, int64[1] end = {100}, int64[1] axis = {1}, int64[2] shape = {2, 3},
       int64[4] pads = {0, 0, 0, 0}> {
      a = Slice (x, start, end, axis)
      b = Expand (a, shape)
      c = Pad (b, pads)
      d = Concat <axis = 0> (c)
      y = Relu (d)
    })"),
            "Relu");
  // A reversing slice keeps the shape but not the order.
  EXPECT_EQ(optimizedOps(R"(
    <ir_version: 10, opset_import: ["" : 18]>
    g (float[2,3] x) => (float[2,3] y)
      <int64[1] start = {-1}, int64[1] end = {-100}, int64[1] axis = {1}, int64[1] step = {-1}> {
      y = Slice (x, start, end, axis, step)
    })"),
            "Slice");
}

TEST(Noop, SymbolicShapesCompareByTheirSymbols) {
  // Expand to x's own shape, known only as [N,3]: inference gives the output [N,3] too.
  auto done = optimizeChecked(R"(
    <ir_version: 10, opset_import: ["" : 18]>
    g (float[N,3] x) => (float[N,3] y) {
      s = Shape (x)
      e = Expand (x, s)
      y = Relu (e)
    })",
                              {"noop", "dead-code"}, matrix());
  EXPECT_EQ(opTypes(*done.model.graph), "Relu");
  // [N,3] and [M,3] may differ: the Expand stays.
  done = optimizeChecked(
      R"(
    <ir_version: 10, opset_import: ["" : 18]>
    g (float[N,3] x, float[M,3] z) => (float[M,3] y) {
      s = Shape (z)
      e = Expand (x, s)
      y = Relu (e)
    })",
      {"noop", "dead-code"},
      {matrix()[0], {"z", tensorOf<float>(ElementType::kFloat, {2, 3}, {0, 0, 0, 0, 0, 0})}});
  EXPECT_EQ(opTypes(*done.model.graph), "Shape Expand Relu");
}

TEST(Noop, BypassesInsideSubgraphs) {
  auto done =
      optimizeChecked(R"(
    <ir_version: 10, opset_import: ["" : 18]>
    g (float[2,3] x, bool c) => (float[2,3] y) {
      y = If (c) <
        then_branch = t () => (float[2,3] r) { a = Neg (x)  r = Identity (a) },
        else_branch = e () => (float[2,3] r) { r = Identity (x) }
      >
    })",
                      {"noop"},
                      {{"x", tensorOf<float>(ElementType::kFloat, {2, 3}, {1, 2, 3, 4, 5, 6})},
                       {"c", tensorOf<bool>(ElementType::kBool, {}, {true})}});
  const Graph* then_branch =
      done.model.graph->outputs[0]->bound()->producer()->graphAttr("then_branch");
  ASSERT_NE(then_branch, nullptr);
  EXPECT_EQ(opTypes(*then_branch), "Neg");
}

// A model that imports only the function's domain, and a body that imports the default
// domain at `opset`: Dropout there is governed by the body's import alone.
std::string dropoutInBodyAt(int opset) {
  return R"(
    <ir_version: 8, opset_import: ["local" : 1]>
    g (float[2,3] x) => (float[2,3] y) {
      y = local.F (x)
    }
    <domain: "local", opset_import: ["" : )" +
         std::to_string(opset) + R"(]>
    F (a) => (b) {
      d = Dropout (a)
      b = Relu (d)
    })";
}

TEST(Noop, ADropoutInAFunctionBodyFollowsTheFunctionsOpset) {
  // From opset 12 a Dropout without training_mode is in inference, wherever it is.
  auto done = optimizeChecked(dropoutInBodyAt(17), {"noop"}, matrix());
  ASSERT_EQ(done.model.functions.size(), 1u);
  EXPECT_EQ(opTypes(*done.model.functions[0]->body), "Relu");
}

TEST(Noop, ADropoutInAnOldFunctionBodyStays) {
  // Before 12 the mode is the run's: the function may be called in training.
  auto done = optimizeChecked(dropoutInBodyAt(11), {"noop"}, matrix());
  ASSERT_EQ(done.model.functions.size(), 1u);
  EXPECT_EQ(opTypes(*done.model.functions[0]->body), "Dropout Relu");
}

// The pass's edits of every graph are one step: made to fail after recording some graphs'
// edits, it leaves the model's bytes as they were.
TEST(Noop, FailingHalfWayLeavesTheModelAsItWas) {
  testing::expectAllOrNothing(R"(
    <ir_version: 8, opset_import: ["" : 17]>
    g (float[2] x, bool c) => (float[2] y) {
      i = Identity (x)
      n = Neg (i)
      y = If (c) <then_branch = t () => (float[2] a) {
                     j = Identity (n)
                     a = Relu (j)
                   },
                   else_branch = e () => (float[2] b) { b = Abs (n) }>
    })",
                              "noop");
}

}  // namespace
}  // namespace onyx
