// The inliner: a call of a model-local function or a function-operator node replaced by its
// body — renaming, optional inputs, attribute binding, nested graphs, opsets — and refused,
// with the model left as it was, where it cannot be done.
#include "onyx/passes/inline_functions.h"

#include <gtest/gtest.h>

#include <string>

#include "onyx/check/checker.h"
#include "onyx/ir/editor.h"
#include "onyx/ir/verify.h"
#include "support/check_testing.h"
#include "support/graph_testing.h"

namespace onyx {
namespace {

using testing::bytesOf;
using testing::opTypes;
using testing::parseOrFail;
using testing::verified;

Node* nodeWithOp(const Graph& graph, std::string_view op_type) {
  for (Node* node : graph.nodes()) {
    if (node->opType() == op_type) return node;
  }
  return nullptr;
}

::testing::AssertionResult checksValid(const Model& model) {
  CheckOptions options;
  options.external_data = false;
  Diagnostics found = checkModel(model, options);
  if (!found.hasErrors()) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << testing::listed(found);
}

constexpr std::string_view kTwoStep = R"(
  <ir_version: 10, opset_import: ["" : 18, "local" : 1]>
  g (float[N] x) => (float[N] y) {
    y = local.neg_relu (x)
  }
  <domain: "local", opset_import: ["" : 18]>
  neg_relu (a) => (b) {
    t = Neg (a)
    b = Relu (t)
  }
)";

TEST(InlineFunctions, ALocalCallBecomesItsBodyAndKeepsItsOutput) {
  Model model = parseOrFail(kTwoStep);
  Node* call = nodeWithOp(*model.graph, "neg_relu");
  ASSERT_NE(call, nullptr);
  ASSERT_TRUE(inlineNode(model, *call));
  EXPECT_EQ(opTypes(*model.graph), "Neg Relu");
  // The graph output is still the value named y, now computed by Relu.
  Value* y = model.graph->outputs[0]->bound();
  EXPECT_EQ(y->name(), "y");
  ASSERT_NE(y->producer(), nullptr);
  EXPECT_EQ(y->producer()->opType(), "Relu");
  EXPECT_EQ(y->producer()->input(0)->producer()->opType(), "Neg");
  EXPECT_EQ(y->producer()->input(0)->producer()->input(0)->name(), "x");
  EXPECT_TRUE(verified(model));
  EXPECT_TRUE(checksValid(model));
}

TEST(InlineFunctions, BodyNamesThatClashAreRenamed) {
  Model model = parseOrFail(R"(
    <ir_version: 10, opset_import: ["" : 18, "local" : 1]>
    g (float[N] t) => (float[N] y, float[N] a) {
      a = Identity (t)
      y = local.neg_relu (a)
    }
    <domain: "local", opset_import: ["" : 18]>
    neg_relu (a) => (b) {
      t = Neg (a)
      b = Relu (t)
    }
  )");
  ASSERT_TRUE(inlineNode(model, *nodeWithOp(*model.graph, "neg_relu")));
  Node* neg = nodeWithOp(*model.graph, "Neg");
  ASSERT_NE(neg, nullptr);
  EXPECT_NE(neg->output(0)->name(), "t");  // t is the graph's input
  EXPECT_EQ(neg->input(0)->name(), "a");   // the call's actual input
  EXPECT_TRUE(verified(model));
  EXPECT_TRUE(checksValid(model));
}

TEST(InlineFunctions, AnInputTheCallLeavesOutIsLeftOutInTheBody) {
  Model model = parseOrFail(R"(
    <ir_version: 10, opset_import: ["" : 18, "local" : 1]>
    g (float[N] x) => (float[N] y, float[N] z) {
      y = local.clip_low (x)
      z = local.clip_low (x, "")
    }
    <domain: "local", opset_import: ["" : 18]>
    clip_low (v, low) => (w) {
      w = Clip (v, low)
    }
  )");
  while (Node* call = nodeWithOp(*model.graph, "clip_low")) {
    ASSERT_TRUE(inlineNode(model, *call));
  }
  EXPECT_EQ(opTypes(*model.graph), "Clip Clip");
  for (Node* clip : model.graph->nodes()) {
    ASSERT_EQ(clip->inputCount(), 2u);
    EXPECT_EQ(clip->input(0)->name(), "x");
    EXPECT_EQ(clip->input(1), nullptr);
  }
  EXPECT_TRUE(verified(model));
  EXPECT_TRUE(checksValid(model));
}

TEST(InlineFunctions, AttributeReferencesTakeTheCallsValueElseTheDefaultElseAreDropped) {
  Model model = parseOrFail(R"(
    <ir_version: 10, opset_import: ["" : 18, "local" : 1]>
    g (float[N] x) => (float[N] y1, float[N] y2) {
      y1 = local.leaky <slope: float = 0.5> (x)
      y2 = local.leaky (x)
    }
    <domain: "local", opset_import: ["" : 18]>
    leaky <slope: float = 0.25, unused> (v) => (w) {
      u = LeakyRelu <alpha: float = @slope> (v)
      w = Elu <alpha: float = @unused> (u)
    }
  )");
  while (Node* call = nodeWithOp(*model.graph, "leaky")) ASSERT_TRUE(inlineNode(model, *call));
  std::vector<float> alphas;
  for (Node* node : model.graph->nodes()) {
    if (node->opType() == "LeakyRelu") alphas.push_back(node->floatAttr("alpha").value_or(-1));
    if (node->opType() == "Elu") {
      EXPECT_FALSE(node->hasAttr("alpha"));  // no value, no default
    }
    for (const Attribute* attribute : node->attributes) EXPECT_FALSE(attribute->isReference());
  }
  EXPECT_EQ(alphas, (std::vector<float>{0.5f, 0.25f}));
  EXPECT_TRUE(verified(model));
  EXPECT_TRUE(checksValid(model));
}

TEST(InlineFunctions, TheCopiedAttributesOwnTheirLists) {
  // The copy of a body attribute starts as a bitwise copy; its lists must not stay shared
  // with the function's, or a pass editing the inlined node would edit the function too.
  Model model = parseOrFail(R"(
    <ir_version: 10, opset_import: ["" : 18, "local" : 1]>
    g (float[N, 4] x) => (float[N, 4] y) {
      y = local.flip (x)
    }
    <domain: "local", opset_import: ["" : 18]>
    flip (a) => (b) {
      b = Transpose <perm: ints = [1, 0], doc: strings = ["kept"]> (a)
    }
  )");
  ASSERT_TRUE(inlineNode(model, *nodeWithOp(*model.graph, "flip")));
  Node* inlined = nodeWithOp(*model.graph, "Transpose");
  ASSERT_NE(inlined, nullptr);
  Attribute* perm = inlined->attribute("perm");
  Attribute* doc = inlined->attribute("doc");
  ASSERT_NE(perm, nullptr);
  ASSERT_NE(doc, nullptr);
  perm->ints.values[0] = 7;
  GraphEditor(model).rare(doc).strings[0] = "changed";
  const Node* body = model.functions[0]->body->firstNode();
  EXPECT_EQ(body->intsAttr("perm")[0], 1);
  EXPECT_EQ(body->stringsAttr("doc")[0], "kept");
}

TEST(InlineFunctions, NestedGraphsAreCopiedWithTheirReadsBound) {
  Model model = parseOrFail(R"(
    <ir_version: 10, opset_import: ["" : 18, "local" : 1]>
    g (bool c, float[N] x, float[N] picked) => (float[N] y) {
      y = local.pick (c, x)
    }
    <domain: "local", opset_import: ["" : 18]>
    pick (flag, v) => (w) {
      doubled = Add (v, v)
      w = If (flag) <
        then_branch = yes () => (picked) { picked = Neg (doubled) },
        else_branch = no () => (other) { other = Identity (v) }
      >
    }
  )");
  ASSERT_TRUE(inlineNode(model, *nodeWithOp(*model.graph, "pick")));
  EXPECT_EQ(opTypes(*model.graph), "Add If");
  Node* branch = nodeWithOp(*model.graph, "If");
  ASSERT_NE(branch, nullptr);
  Graph* then_branch = branch->graphAttr("then_branch");
  Graph* else_branch = branch->graphAttr("else_branch");
  ASSERT_NE(then_branch, nullptr);
  ASSERT_NE(else_branch, nullptr);
  // The branch reads the copied Add's output and the call's input, and its own output is
  // renamed: `picked` is a graph input of the main graph, which a subgraph may not shadow.
  Node* neg = then_branch->firstNode();
  EXPECT_EQ(neg->input(0), nodeWithOp(*model.graph, "Add")->output(0));
  EXPECT_NE(neg->output(0)->name(), "picked");
  EXPECT_EQ(else_branch->firstNode()->input(0)->name(), "x");
  EXPECT_EQ(then_branch->parent(), model.graph);
  EXPECT_EQ(then_branch->owner(), branch);
  EXPECT_TRUE(verified(model));
  EXPECT_TRUE(checksValid(model));
}

TEST(InlineFunctions, AGraphTheCallPassesIsCopiedAndKeepsReadingItsScope) {
  Model model = parseOrFail(R"(
    <ir_version: 10, opset_import: ["" : 18, "local" : 1]>
    g (bool c, float[N] x) => (float[N] y) {
      y = local.choose <branch = negated () => (out) { out = Neg (x) }> (c, x)
    }
    <domain: "local", opset_import: ["" : 18]>
    choose <branch> (flag, v) => (w) {
      w = If (flag) <
        then_branch: graph = @branch,
        else_branch = kept () => (same) { same = Identity (v) }
      >
    }
  )");
  ASSERT_TRUE(inlineNode(model, *model.graph->firstNode()));
  ASSERT_EQ(opTypes(*model.graph), "If");
  Node* branch = model.graph->firstNode();
  Graph* then_branch = branch->graphAttr("then_branch");
  ASSERT_NE(then_branch, nullptr);
  EXPECT_EQ(then_branch->parent(), model.graph);
  EXPECT_EQ(then_branch->owner(), branch);
  EXPECT_EQ(then_branch->firstNode()->input(0), model.graph->lookup("x"));
  EXPECT_EQ(model.graph->subgraphs().size(), 2u);  // the call's own graph went with it
  EXPECT_TRUE(verified(model));
  EXPECT_TRUE(checksValid(model));
}

TEST(InlineFunctions, TheBodysOpsetsAreAddedWhereTheCallIs) {
  Model model = parseOrFail(R"(
    <ir_version: 10, opset_import: ["local" : 1]>
    g (float[N] x) => (float[N] y) {
      y = local.negate (x)
    }
    <domain: "local", opset_import: ["" : 18]>
    negate (a) => (b) {
      b = Neg (a)
    }
  )");
  ASSERT_TRUE(inlineNode(model, *model.graph->firstNode()));
  EXPECT_EQ(model.opsetVersion(""), 18);
  EXPECT_TRUE(checksValid(model));
}

TEST(InlineFunctions, AConflictingOpsetIsRefusedAndTheModelUnchanged) {
  Model model = parseOrFail(R"(
    <ir_version: 10, opset_import: ["" : 18, "local" : 1]>
    g (float[N] x) => (float[N] y) {
      y = local.negate (x)
    }
    <domain: "local", opset_import: ["" : 17]>
    negate (a) => (b) {
      b = Neg (a)
    }
  )");
  std::string before = bytesOf(model);
  Status status = inlineNode(model, *model.graph->firstNode());
  EXPECT_EQ(status.code(), ErrorCode::kInvalidArgument);
  EXPECT_NE(status.message().find("at version 17"), std::string::npos) << status.message();
  EXPECT_EQ(bytesOf(model), before);

  Result<InlineReport> all = inlineAllFunctions(model);
  EXPECT_FALSE(all);
  EXPECT_EQ(bytesOf(model), before);
}

TEST(InlineFunctions, RecursionIsRefusedAndTheModelUnchanged) {
  Model model = parseOrFail(R"(
    <ir_version: 10, opset_import: ["" : 18, "local" : 1]>
    g (float[N] x) => (float[N] y) {
      y = local.ping (x)
    }
    <domain: "local", opset_import: ["" : 18, "local" : 1]>
    ping (a) => (b) {
      b = local.pong (a)
    }
    <domain: "local", opset_import: ["" : 18, "local" : 1]>
    pong (a) => (b) {
      b = local.ping (a)
    }
  )");
  std::string before = bytesOf(model);
  Result<InlineReport> report = inlineAllFunctions(model);
  ASSERT_FALSE(report);
  EXPECT_EQ(report.status().code(), ErrorCode::kInvalidArgument);
  EXPECT_NE(report.status().message().find("ping -> pong -> ping"), std::string::npos)
      << report.status().message();
  EXPECT_EQ(bytesOf(model), before);
}

TEST(InlineFunctions, TooDeepNestingIsAnErrorAndTheModelUnchanged) {
  Model model = parseOrFail(R"(
    <ir_version: 10, opset_import: ["" : 18, "local" : 1]>
    g (float[N] x) => (float[N] y) {
      y = local.outer (x)
    }
    <domain: "local", opset_import: ["" : 18, "local" : 1]>
    outer (a) => (b) {
      b = local.inner (a)
    }
    <domain: "local", opset_import: ["" : 18]>
    inner (a) => (b) {
      b = Neg (a)
    }
  )");
  std::string before = bytesOf(model);
  InlineOptions options;
  options.max_depth = 1;
  Result<InlineReport> report = inlineAllFunctions(model, options);
  ASSERT_FALSE(report);
  EXPECT_EQ(report.status().code(), ErrorCode::kLimitExceeded);
  EXPECT_EQ(bytesOf(model), before);

  report = inlineAllFunctions(model);
  ASSERT_TRUE(report) << report.status().toString();
  EXPECT_EQ(report->function_calls, 2u);
  EXPECT_EQ(report->functions_removed, 2u);
  EXPECT_EQ(opTypes(*model.graph), "Neg");
  EXPECT_TRUE(model.functions.empty());
  EXPECT_TRUE(verified(model));
  EXPECT_TRUE(checksValid(model));
}

TEST(InlineFunctions, AFailureAfterOtherCallsWereInlinedTakesThemAllBack) {
  // The first calls inline (a body with a nested graph, a call inside a body, an import the
  // body adds), then the last one is refused: the model is changed in place, so each inlined
  // call is taken back, and the bytes are the ones it had.
  Model model = parseOrFail(R"(
    <ir_version: 10, opset_import: ["" : 18, "local" : 1]>
    g (bool c, float[N] x) => (float[N] y) {
      a = local.branchy (c, x)
      b = local.outer (a)
      y = local.conflicting (b)
    }
    <domain: "local", opset_import: ["" : 18, "com.other" : 1]>
    branchy (k, v) => (w) {
      w = If (k) <then_branch = t () => (float[N] r) { r = Neg (v) },
                  else_branch = e () => (float[N] r) { r = Abs (v) }>
    }
    <domain: "local", opset_import: ["" : 18, "local" : 1]>
    outer (a) => (b) {
      t = local.inner (a)
      b = Relu (t)
    }
    <domain: "local", opset_import: ["" : 18]>
    inner (a) => (b) {
      b = Neg (a)
    }
    <domain: "local", opset_import: ["" : 17]>
    conflicting (a) => (b) {
      b = Neg (a)
    }
  )");
  std::string before = bytesOf(model);
  Node* first = model.graph->firstNode();
  Result<InlineReport> report = inlineAllFunctions(model);
  ASSERT_FALSE(report);
  EXPECT_NE(report.status().message().find("at version 17"), std::string::npos)
      << report.status().message();
  EXPECT_EQ(bytesOf(model), before);
  EXPECT_TRUE(verified(model));
  // The calls are the same nodes as before, still in the graph.
  EXPECT_EQ(model.graph->firstNode(), first);
  EXPECT_EQ(first->graph(), model.graph);
  EXPECT_EQ(model.opset_import.size(), 2u);
}

TEST(InlineFunctions, InliningIsInPlaceAndRemovedFunctionsReadAsRemoved) {
  Model model = parseOrFail(kTwoStep);
  Node* call = model.graph->firstNode();
  Value* output = call->output(0);
  Node* body_node = model.functions[0]->body->firstNode();
  ASSERT_TRUE(inlineAllFunctions(model));
  EXPECT_EQ(opTypes(*model.graph), "Neg Relu");
  EXPECT_EQ(call->graph(), nullptr);        // the call was removed
  EXPECT_EQ(output->graph(), model.graph);  // its output lives on, produced by the body
  EXPECT_EQ(output->producer()->opType(), "Relu");
  EXPECT_EQ(body_node->graph(), nullptr);  // the function went, and its body with it
  EXPECT_TRUE(verified(model));
}

TEST(InlineFunctions, CallsInsideNestedGraphsAndTrainingGraphsAreInlined) {
  Model model = parseOrFail(R"(
    <ir_version: 10, opset_import: ["" : 18, "local" : 1]>
    g (bool c, float[N] x) => (float[N] y) {
      y = If (c) <
        then_branch = yes () => (p) { p = local.negate (x) },
        else_branch = no () => (q) { q = Identity (x) }
      >
    }
    <domain: "local", opset_import: ["" : 18]>
    negate (a) => (b) {
      b = Neg (a)
    }
  )");
  Result<InlineReport> report = inlineAllFunctions(model);
  ASSERT_TRUE(report) << report.status().toString();
  EXPECT_EQ(report->function_calls, 1u);
  EXPECT_EQ(opTypes(*model.graph->firstNode()->graphAttr("then_branch")), "Neg");
  EXPECT_TRUE(verified(model));
  EXPECT_TRUE(checksValid(model));
}

TEST(InlineFunctions, AnOutputThatIsABodyInputIsRefused) {
  Model model = parseOrFail(R"(
    <ir_version: 10, opset_import: ["" : 18, "local" : 1]>
    g (float[N] x) => (float[N] y) {
      y = local.same (x)
    }
    <domain: "local", opset_import: ["" : 18]>
    same (a) => (a) {
    }
  )");
  std::string before = bytesOf(model);
  EXPECT_EQ(inlineNode(model, *model.graph->firstNode()).code(), ErrorCode::kUnsupported);
  EXPECT_EQ(bytesOf(model), before);
}

TEST(InlineFunctions, AFunctionOperatorBecomesItsSpecBody) {
  Model model = parseOrFail(R"(
    <ir_version: 10, opset_import: ["" : 18]>
    g (float[N] x) => (float[N] y) {
      y = Softsign (x)
    }
  )");
  ASSERT_TRUE(inlineNode(model, *model.graph->firstNode()));
  EXPECT_EQ(opTypes(*model.graph), "Constant CastLike Abs Add Div");
  EXPECT_EQ(model.opsetVersion(""), 18);
  EXPECT_TRUE(verified(model));
  EXPECT_TRUE(checksValid(model));

  // Below the opset its body is written for, Softsign has none.
  Model older = parseOrFail(R"(
    <ir_version: 8, opset_import: ["" : 13]>
    g (float[N] x) => (float[N] y) {
      y = Softsign (x)
    }
  )");
  EXPECT_EQ(inlineNode(older, *older.graph->firstNode()).code(), ErrorCode::kNotFound);
}

TEST(InlineFunctions, AFunctionOperatorTakesTheSchemaDefaultForAnAttributeLeftOut) {
  Model model = parseOrFail(R"(
    <ir_version: 10, opset_import: ["" : 18]>
    g (float[N] x) => (float[N] y) {
      y = LeakyRelu (x)
    }
  )");
  ASSERT_TRUE(inlineNode(model, *model.graph->firstNode()));
  Node* alpha = model.graph->firstNode();
  ASSERT_EQ(alpha->opType(), "Constant");
  EXPECT_EQ(alpha->floatAttr("value_float"), 0.01f);
  EXPECT_TRUE(checksValid(model));
}

TEST(InlineFunctions, ABuilderThatCannotBuildLeavesTheNodeAlone) {
  // CastLike's body is a Cast to the target's element type, which nothing here declares.
  Model model = parseOrFail(R"(
    <ir_version: 10, opset_import: ["" : 21]>
    g (float[N] x, float16[N] like) => (float16[N] y, float[N] z) {
      t = Neg (like)
      y = CastLike (x, t)
      z = Softsign (x)
    }
  )");
  std::string before = bytesOf(model);
  EXPECT_EQ(inlineNode(model, *nodeWithOp(*model.graph, "CastLike")).code(),
            ErrorCode::kUnsupported);
  EXPECT_EQ(bytesOf(model), before);

  InlineOptions options;
  options.function_operators = true;
  Result<InlineReport> report = inlineAllFunctions(model, options);
  ASSERT_TRUE(report) << report.status().toString();
  // Softsign, and the CastLike of its body, whose target is the typed x.
  EXPECT_EQ(report->operator_calls, 2u);
  ASSERT_EQ(report->left_alone.size(), 1u);
  EXPECT_EQ(report->left_alone[0].rfind("CastLike: the body depends on", 0), 0u)
      << report->left_alone[0];
  EXPECT_TRUE(verified(model));
  EXPECT_TRUE(checksValid(model));
}

TEST(InlineFunctions, FunctionOperatorsInsideBodiesAreInlinedInTurn) {
  Model model = parseOrFail(R"(
    <ir_version: 10, opset_import: ["" : 22]>
    g (float[N] x) => (float[N] y) {
      y = HardSwish (x)
    }
  )");
  InlineOptions options;
  options.function_operators = true;
  Result<InlineReport> report = inlineAllFunctions(model, options);
  ASSERT_TRUE(report) << report.status().toString();
  // HardSwish, the HardSigmoid of its body, and the four CastLikes of HardSigmoid's body.
  EXPECT_EQ(report->operator_calls, 6u);
  EXPECT_EQ(nodeWithOp(*model.graph, "CastLike"), nullptr);
  EXPECT_EQ(nodeWithOp(*model.graph, "HardSigmoid"), nullptr);
  EXPECT_NE(nodeWithOp(*model.graph, "Max"), nullptr);
  EXPECT_TRUE(verified(model));
  EXPECT_TRUE(checksValid(model));
}

TEST(InlineFunctions, NamedCallsNameTheirInlinedNodes) {
  Model model = parseOrFail(R"(
    <ir_version: 10, opset_import: ["" : 18, "local" : 1]>
    g (float[N] x) => (float[N] y) {
      [act] y = local.neg_relu (x)
    }
    <domain: "local", opset_import: ["" : 18]>
    neg_relu (a) => (b) {
      [first] t = Neg (a)
      b = Relu (t)
    }
  )");
  ASSERT_TRUE(inlineNode(model, *model.graph->firstNode()));
  EXPECT_EQ(model.graph->firstNode()->nameOrEmpty(), "act/first");
  EXPECT_EQ(model.graph->lastNode()->nameOrEmpty(), "act/Relu");
}

TEST(InlineFunctions, ANodeThatCallsNothingIsRefused) {
  Model model = parseOrFail(R"(
    <ir_version: 10, opset_import: ["" : 18]>
    g (float[N] x) => (float[N] y) {
      y = Neg (x)
    }
  )");
  EXPECT_EQ(inlineNode(model, *model.graph->firstNode()).code(), ErrorCode::kInvalidArgument);
  Result<InlineReport> report = inlineAllFunctions(model);
  ASSERT_TRUE(report);
  EXPECT_EQ(report->function_calls + report->operator_calls, 0u);
}

}  // namespace
}  // namespace onyx
