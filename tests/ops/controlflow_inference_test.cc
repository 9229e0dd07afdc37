// Shape rules of If, Loop, Scan and SequenceMap: their outputs come from their subgraphs.
#include <gtest/gtest.h>

#include <string>

#include "onyx/ir/attribute.h"
#include "onyx/ir/graph.h"
#include "onyx/ir/node.h"
#include "onyx/ir/type.h"
#include "onyx/ir/value.h"
#include "support/infer_testing.h"

namespace onyx {
namespace {

using testing::inferText;

TEST(ControlFlowInference, IfMergesItsBranches) {
  auto m = inferText(R"(
    <ir_version: 10, opset_import: ["" : 21]>
    g (bool c, float[N, 3] x, float[2, 3] z) => (same, wider, ranks) {
      same, wider, ranks = If (c) <
        then_branch = then_g () => (a, b, d) {
          a = Relu(x)
          b = Relu(z)
          d = Relu(x)
        },
        else_branch = else_g () => (a2, b2, d2) {
          a2 = Add(x, x)
          b2 = Relu(x)
          minus_one = Constant <value_ints = [-1]> ()
          d2 = Reshape(x, minus_one)
        }>
    })");
  EXPECT_EQ(m.typeOf("same"), "float[N,3]");
  EXPECT_EQ(m.typeOf("wider"), "float[?,3]");
  EXPECT_EQ(m.typeOf("ranks"), "float");
  EXPECT_FALSE(m.result.diagnostics.hasErrors()) << m.diagnostics();
}

TEST(ControlFlowInference, IfWithBranchesOfOtherElementTypesFails) {
  auto m = inferText(R"(
    <ir_version: 10, opset_import: ["" : 21]>
    g (bool c, float[3] x) => (y) {
      y = If (c) <
        then_branch = then_g () => (a) { a = Relu(x) },
        else_branch = else_g () => (b) { b = Shape(x) }>
    })");
  EXPECT_TRUE(m.has("X5")) << m.diagnostics();
}

TEST(ControlFlowInference, IfOfSequencesKeepsTheKind) {
  auto m = inferText(R"(
    <ir_version: 10, opset_import: ["" : 21]>
    g (bool c, float[3] x) => (y) {
      y = If (c) <
        then_branch = then_g () => (a) { a = SequenceConstruct(x, x) },
        else_branch = else_g () => (b) { b = SequenceConstruct(x) }>
    })");
  EXPECT_EQ(m.typeOf("y"), "seq(float[3])");
}

TEST(ControlFlowInference, LoopGivesCarriedValuesAndStackedScanOutputs) {
  auto m = inferText(R"(
    <ir_version: 10, opset_import: ["" : 21]>
    g (int64 m, bool cond, float[2] v) => (vf, scanned) {
      vf, scanned = Loop (m, cond, v) <body = body (int64 i, bool c, float[2] vin) => (cout, vout, s) {
        cout = Identity(c)
        vout = Add(vin, vin)
        s = Relu(vin)
      }>
    })");
  EXPECT_EQ(m.typeOf("vf"), "float[2]");
  EXPECT_EQ(m.typeOf("scanned"), "float[?,2]");
  EXPECT_FALSE(m.result.diagnostics.hasErrors()) << m.diagnostics();
}

TEST(ControlFlowInference, LoopWithAConstantTripCountAndNoConditionKnowsItsLength) {
  auto m = inferText(R"(
    <ir_version: 10, opset_import: ["" : 21]>
    g (float[2, K] v) => (vf, scanned) {
      trip = Constant <value = int64 {5}> ()
      vf, scanned = Loop (trip, "", v) <body = body (int64 i, bool c, vin) => (cout, vout, s) {
        cout = Identity(c)
        vout = Relu(vin)
        s = Shape(vin)
      }>
    })");
  EXPECT_EQ(m.typeOf("vf"), "float[2,K]");
  EXPECT_EQ(m.typeOf("scanned"), "int64[5,2]");
}

TEST(ControlFlowInference, LoopCarriedValueThatChangesBecomesUnknown) {
  auto m = inferText(R"(
    <ir_version: 10, opset_import: ["" : 21]>
    g (int64 m, bool cond, float[2, 3] v, float[4, 2] w) => (vf) {
      vf = Loop (m, cond, v) <body = body (int64 i, bool c, vin) => (cout, vout) {
        cout = Identity(c)
        vout = MatMul(w, vin)
      }>
    })");
  EXPECT_EQ(m.typeOf("vf"), "float[?,3]");
  EXPECT_FALSE(m.result.diagnostics.hasErrors()) << m.diagnostics();
}

TEST(ControlFlowInference, LoopCarriesSequences) {
  auto m = inferText(R"(
    <ir_version: 10, opset_import: ["" : 21]>
    g (int64 m, bool cond, float[3] x) => (sf) {
      empty = SequenceEmpty ()
      sf = Loop (m, cond, empty) <body = body (int64 i, bool c, sin) => (cout, sout) {
        cout = Identity(c)
        sout = SequenceInsert(sin, x)
      }>
    })");
  EXPECT_EQ(m.typeOf("sf"), "seq(float)");
}

TEST(ControlFlowInference, LoopCarryingAnOptionalInGivesTheBodysOutputKind) {
  auto m = inferText(R"(
    <ir_version: 10, opset_import: ["" : 21]>
    g (int64 m, bool cond, optional(seq(float)) o, float[3] x) => (sf) {
      sf = Loop (m, cond, o) <body = body (int64 i, bool c, optional(seq(float)) oin) => (cout, sout) {
        cout = Identity(c)
        got = OptionalGetElement(oin)
        sout = SequenceInsert(got, x)
      }>
    })");
  EXPECT_EQ(m.typeOf("sf"), "seq(float)");
  EXPECT_FALSE(m.result.diagnostics.hasErrors()) << m.diagnostics();
}

TEST(ControlFlowInference, LoopBodyDeclaringItsCounterAsOneElementIsAccepted) {
  auto m = inferText(R"(
    <ir_version: 10, opset_import: ["" : 21]>
    g (int64 m, bool cond, float[2] v) => (vf, scanned) {
      vf, scanned = Loop (m, cond, v) <body = body (int64[1] i, bool[1] c, vin) => (cout, vout, s) {
        cout = Identity(c)
        vout = Relu(vin)
        s = Relu(i)
      }>
    })");
  EXPECT_EQ(m.typeOf("vf"), "float[2]");
  EXPECT_EQ(m.typeOf("scanned"), "int64[?,1]");
  EXPECT_FALSE(m.result.diagnostics.hasErrors()) << m.diagnostics();
}

TEST(ControlFlowInference, LoopBodyWithTooFewOutputsFails) {
  auto m = inferText(R"(
    <ir_version: 10, opset_import: ["" : 21]>
    g (int64 m, bool cond, float[2] v, float[2] w) => (a, b) {
      a, b = Loop (m, cond, v, w) <body = body (int64 i, bool c, vin, win) => (cout, vout) {
        cout = Identity(c)
        vout = Identity(vin)
      }>
    })");
  EXPECT_TRUE(m.has("X5")) << m.diagnostics();
}

TEST(ControlFlowInference, ScanIteratesOverItsAxes) {
  auto m = inferText(R"(
    <ir_version: 10, opset_import: ["" : 21]>
    g (float[2] init, float[T, 2] xs) => (final, ys) {
      final, ys = Scan (init, xs) <num_scan_inputs = 1, body = b (s, x) => (s2, y) {
        s2 = Add(s, x)
        y = Relu(x)
      }>
    })");
  EXPECT_EQ(m.typeOf("final"), "float[2]");
  EXPECT_EQ(m.typeOf("ys"), "float[T,2]");
  EXPECT_FALSE(m.result.diagnostics.hasErrors()) << m.diagnostics();
}

TEST(ControlFlowInference, ScanWithInputAndOutputAxes) {
  auto m = inferText(R"(
    <ir_version: 10, opset_import: ["" : 21]>
    g (float[2, 7] xs) => (ys) {
      ys = Scan (xs) <num_scan_inputs = 1, scan_input_axes = [1], scan_output_axes = [-1],
                      body = b (x) => (y) { y = Relu(x) }>
    })");
  EXPECT_EQ(m.typeOf("ys"), "float[2,7]");
}

TEST(ControlFlowInference, ScanInputsOfDifferentLengthsFail) {
  auto m = inferText(R"(
    <ir_version: 10, opset_import: ["" : 21]>
    g (float[4, 2] a, float[5, 2] b) => (ys) {
      ys = Scan (a, b) <num_scan_inputs = 2, body = g2 (x, z) => (y) { y = Add(x, z) }>
    })");
  EXPECT_TRUE(m.has("X5")) << m.diagnostics();
}

TEST(ControlFlowInference, ScanWithMoreScanInputsThanInputsFails) {
  auto m = inferText(R"(
    <ir_version: 10, opset_import: ["" : 21]>
    g (float[4, 2] a) => (ys) {
      ys = Scan (a) <num_scan_inputs = 3, body = g2 (x) => (y) { y = Relu(x) }>
    })");
  EXPECT_TRUE(m.has("X5")) << m.diagnostics();
}

TEST(ControlFlowInference, Scan8HasABatchAxis) {
  auto m = inferText(R"(
    <ir_version: 4, opset_import: ["" : 8]>
    g (float[B, 2] init, float[B, 5, 2] xs) => (final, ys) {
      final, ys = Scan ("", init, xs) <num_scan_inputs = 1, body = b (s, x) => (s2, y) {
        s2 = Add(s, x)
        y = Relu(x)
      }>
    })");
  EXPECT_EQ(m.typeOf("final"), "float[B,2]");
  EXPECT_EQ(m.typeOf("ys"), "float[B,5,2]");
  EXPECT_FALSE(m.result.diagnostics.hasErrors()) << m.diagnostics();
}

TEST(ControlFlowInference, SequenceMapRunsTheBodyPerElement) {
  auto m = inferText(R"(
    <ir_version: 10, opset_import: ["" : 21]>
    g (seq(float[N, 3]) s, float[3] bias) => (sums, shapes) {
      sums, shapes = SequenceMap (s, bias) <body = b (x, y) => (z, w) {
        z = Add(x, y)
        w = Shape(x)
      }>
    })");
  EXPECT_EQ(m.typeOf("sums"), "seq(float[N,3])");
  EXPECT_EQ(m.typeOf("shapes"), "seq(int64[2])");
}

TEST(ControlFlowInference, SubgraphValuesAreWrittenBack) {
  auto m = inferText(R"(
    <ir_version: 10, opset_import: ["" : 21]>
    g (int64 m, bool cond, float[2, 3] v, float[4, 2] w) => (vf) {
      vf = Loop (m, cond, v) <body = body (int64 i, bool c, vin) => (cout, vout) {
        cout = Identity(c)
        vout = MatMul(w, vin)
      }>
    })");
  const Graph* body = (*m.model.graph->nodes().begin())->attributes[0]->g;
  ASSERT_NE(body, nullptr);
  const Value* vout = body->lookup("vout");
  ASSERT_NE(vout, nullptr);
  ASSERT_NE(vout->type(), nullptr);
  EXPECT_EQ(formatType(*vout->type()), "float[4,3]");
}

TEST(ControlFlowInference, DeeplyNestedLoopsFinish) {
  // Each level's body changes its carried value's shape, so each asks for a second pass;
  // past a few levels the second pass is skipped, or this would take 2^12 passes.
  std::string body = "vout = MatMul(w, vin)";
  for (int level = 0; level < 12; ++level) {
    body = "vout = Loop (m, cond, vin) <body = b" + std::to_string(level) +
           " (int64 i, bool c, vin) => (cout, vout) { cout = Identity(c) " + body + " }>";
  }
  auto m = inferText(R"(<ir_version: 10, opset_import: ["" : 21]>
    g (int64 m, bool cond, float[2, 3] v, float[4, 2] w) => (vf) {
      vf = Loop (m, cond, v) <body = top (int64 i, bool c, vin) => (cout, vout) {
        cout = Identity(c) )" +
                     body + R"( }>
    })");
  EXPECT_EQ(m.typeOf("vf"), "float[?,3]");
  EXPECT_FALSE(m.result.diagnostics.hasErrors()) << m.diagnostics();
}

}  // namespace
}  // namespace onyx
