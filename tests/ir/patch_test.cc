// Patch: edits recorded, then applied in one step (the result verifies) or discarded (the
// model writes back the very same bytes, and no name the patch meant to use is taken); an
// apply that finds a problem says where and leaves the model as it was.
#include "onyx/ir/patch.h"

#include <gtest/gtest.h>

#include "onyx/ir/verify.h"
#include "onyx/text/parser.h"
#include "onyx/text/printer.h"
#include "support/graph_testing.h"

namespace onyx {
namespace {

// x -> Relu -> a -> Neg -> b -> Add(b, w) -> y, with a subgraph of an If reading a.
Model sourceModel() {
  auto model = parseText(R"(<ir_version: 10, opset_import: ["" : 18]>
    g (float[2] x, bool c) => (float[2] y, float[2] r) <float[2] w = {1, 2}> {
      [relu] a = Relu(x)
      [neg] b = Neg(a)
      [add] y = Add(b, w)
      [if] r = If(c) <then_branch = t () => (float[2] ta) { ta = Identity(a) },
                      else_branch = e () => (float[2] eb) { eb = Identity(b) }>
    })");
  EXPECT_TRUE(model) << model.status().toString();
  return std::move(model).value();
}

Node* nodeNamed(const Graph& graph, std::string_view name) {
  for (Node* node : graph.nodes()) {
    if (node->nameOrEmpty() == name) return node;
  }
  return nullptr;
}

// Every kind of edit, on `model`'s main graph: Neg(a) becomes Abs(Relu(a)) named "b", a
// new initializer "two" multiplies into y, and the old Neg goes.
void recordEverything(Model& model, Patch& patch) {
  Graph& graph = *model.graph;
  Node* neg = nodeNamed(graph, "neg");
  Node* add = nodeNamed(graph, "add");
  Value* a = neg->input(0);
  Node* relu = patch.addNode("Relu", {a}, 1, neg);
  Node* abs = patch.addNode("Abs", {relu->output(0)});
  abs->name = "abs";
  patch.nameValue(abs->output(0), "b");
  patch.replaceNode(neg, abs);
  Tensor* two = testing::floatTensor(model.arena(), "two", {2}, {2, 2});
  Value* scale = patch.addInitializer(two);
  Node* mul = patch.addNode("Mul", {add->input(1), scale}, 1, add);
  patch.setInput(add, 1, mul->output(0));
}

TEST(Patch, DiscardedLeavesTheModelByteIdentical) {
  Model model = sourceModel();
  std::string before = testing::bytesOf(model);
  size_t values = model.graph->values().size();
  {
    Patch patch(model, *model.graph);
    recordEverything(model, patch);
    EXPECT_FALSE(patch.empty());
    // Destroyed without apply(): discarded.
  }
  Patch patch(model, *model.graph);
  recordEverything(model, patch);
  patch.discard();
  EXPECT_TRUE(patch.empty());
  EXPECT_EQ(testing::bytesOf(model), before);
  EXPECT_EQ(model.graph->nodeCount(), 4u);
  EXPECT_EQ(model.graph->values().size(), values);
  EXPECT_EQ(model.graph->names().find("two"), nullptr);
  EXPECT_EQ(model.graph->names().find("Relu_out"), nullptr);
  EXPECT_EQ(model.graph->names().find("b")->producer(), nodeNamed(*model.graph, "neg"));
  EXPECT_TRUE(testing::verified(model));
  // The patch touched nothing it would have changed: an apply of an empty patch is a no-op.
  EXPECT_TRUE(patch.apply());
  EXPECT_EQ(testing::bytesOf(model), before);
}

TEST(Patch, AppliedVerifiesAndDoesEveryEdit) {
  Model model = sourceModel();
  Patch patch(model, *model.graph);
  recordEverything(model, patch);
  Status applied = patch.apply();
  ASSERT_TRUE(applied) << applied.toString();
  EXPECT_TRUE(patch.empty());
  EXPECT_TRUE(testing::verified(model));
  EXPECT_EQ(testing::opTypes(*model.graph), "Relu Relu Abs Mul Add If");
  Value* b = model.graph->names().find("b");
  ASSERT_NE(b, nullptr);
  EXPECT_EQ(b->producer()->opType(), "Abs");
  EXPECT_EQ(nodeNamed(*model.graph, "neg"), nullptr);
  // The If's else branch read the old b: it reads the new one.
  EXPECT_EQ(b->useCount(), 2u);
  Value* two = model.graph->names().find("two");
  ASSERT_NE(two, nullptr);
  EXPECT_TRUE(two->isInitializer());
  Node* add = nodeNamed(*model.graph, "add");
  EXPECT_EQ(add->input(1)->producer()->opType(), "Mul");
  // The result is a model like any other: it writes and reads back the same.
  Model reread = testing::reparse(model);
  EXPECT_EQ(printModel(reread), printModel(model));
}

void expectRefused(Model& model, Patch& patch, std::string_view what) {
  std::string before = testing::bytesOf(model);
  Status applied = patch.apply();
  ASSERT_FALSE(applied) << "expected: " << what;
  EXPECT_NE(applied.message().find(what), std::string::npos) << applied.toString();
  EXPECT_TRUE(patch.empty());
  EXPECT_EQ(testing::bytesOf(model), before);
  EXPECT_TRUE(testing::verified(model));
}

TEST(Patch, ARemovedNodeStillReadIsRefused) {
  Model model = sourceModel();
  Patch patch(model, *model.graph);
  patch.addNode("Abs", {model.graph->names().find("x")});
  patch.removeNode(nodeNamed(*model.graph, "relu"));  // Neg and the If's then branch read a
  expectRefused(model, patch,
                "node 0 'relu' (Relu) is removed, but its output 'a' would still "
                "be read by node ");
}

TEST(Patch, ACaptureOfARemovedOutputIsFound) {
  Model model = sourceModel();
  Patch patch(model, *model.graph);
  Node* relu = nodeNamed(*model.graph, "relu");
  patch.setInput(nodeNamed(*model.graph, "neg"), 0, relu->input(0));
  patch.removeNode(relu);
  expectRefused(model, patch, "would still be read by node 3 'if' (If)");
}

TEST(Patch, ANameTakenInScopeIsRefused) {
  Model model = sourceModel();
  Patch patch(model, *model.graph);
  Node* abs = patch.addNode("Abs", {model.graph->names().find("x")});
  patch.nameValue(abs->output(0), "ta");  // defined in the If's then branch
  expectRefused(model, patch, "the name 'ta' is already taken in scope");
}

TEST(Patch, AReadOfARemovedOutputIsRefused) {
  Model model = sourceModel();
  Patch patch(model, *model.graph);
  Node* neg = nodeNamed(*model.graph, "neg");
  patch.addNode("Abs", {neg->output(0)});
  patch.replaceNode(neg, patch.addNode("Sign", {neg->input(0)}));
  expectRefused(model, patch, "an output of a node the patch removes");
}

TEST(Patch, AnOrderThatIsNotTopologicalIsRefused) {
  Model model = sourceModel();
  Patch patch(model, *model.graph);
  Node* relu = nodeNamed(*model.graph, "relu");
  // Before Relu, reading Relu's output.
  patch.addNode("Abs", {relu->output(0)}, 1, relu);
  expectRefused(model, patch, "would read a value defined after it");
}

TEST(Patch, ReplacingANodeKeepsItsOutputName) {
  Model model = sourceModel();
  Patch patch(model, *model.graph);
  Node* add = nodeNamed(*model.graph, "add");
  Node* sub = patch.addNode("Sub", {add->input(0), add->input(1)});
  patch.nameValue(sub->output(0), "y");
  patch.replaceNode(add, sub);
  Status applied = patch.apply();
  ASSERT_TRUE(applied) << applied.toString();
  EXPECT_TRUE(testing::verified(model));
  EXPECT_EQ(model.graph->outputs[0]->bound()->name(), "y");
  EXPECT_EQ(model.graph->outputs[0]->bound()->producer()->opType(), "Sub");
  EXPECT_EQ(testing::opTypes(*model.graph), "Relu Neg Sub If");
}

}  // namespace
}  // namespace onyx
