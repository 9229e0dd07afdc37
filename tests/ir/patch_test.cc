// Patch: edits recorded, then applied in one step (the result verifies) or discarded (the
// model writes back the very same bytes, and no name the patch meant to use is taken); an
// apply that finds a problem says where and leaves the model as it was.
#include "onyx/ir/patch.h"

#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "onyx/ir/editor.h"
#include "onyx/ir/opset_imports.h"
#include "onyx/ir/tensor_array.h"
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
  Tensor* two = testing::floatTensor(GraphEditor(model).arena(), "two", {2}, {2, 2});
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

TEST(Patch, WhatIsRecordedAfterAMarkCanBeForgottenAlone) {
  Model model = sourceModel();
  Patch patch(model, *model.graph);
  Node* relu = nodeNamed(*model.graph, "relu");
  Node* add = nodeNamed(*model.graph, "add");
  Node* sqrt = patch.addNode("Sqrt", {relu->output(0)}, 1, add);
  Patch::Mark mark = patch.mark();
  // Everything recordEverything does, then taken back.
  recordEverything(model, patch);
  patch.setOperator(add, "", "Sub");
  patch.discardSince(mark);
  patch.setInput(add, 0, sqrt->output(0));
  Status applied = patch.apply();
  ASSERT_TRUE(applied) << applied.toString();
  EXPECT_TRUE(testing::verified(model));
  EXPECT_EQ(testing::opTypes(*model.graph), "Relu Neg Sqrt Add If");
  EXPECT_EQ(model.graph->names().find("two"), nullptr);
  EXPECT_EQ(add->input(1)->name(), "w");
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
  expectRefused(model, patch, "which the patch removes");
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

// What an opset conversion does to Squeeze from 11 to 13: the axes attribute becomes a second
// input, read from a new Constant, and the node keeps its output (and the uses of it).
void squeezeTo13(Patch& patch, Node* squeeze) {
  Node* axes = patch.addNode("Constant", {}, 1, squeeze);
  Array zero(ElementType::kInt64, {1});
  zero.data<int64_t>()[0] = 0;
  GraphEditor(patch.model())
      .setTensorAttr(axes, "value", GraphEditor(patch.model()).tensorFromArray(zero));
  patch.removeAttribute(squeeze, "axes");
  patch.resizeInputs(squeeze, 2);
  patch.setInput(squeeze, 1, axes->output(0));
}

Model squeezeModel() {
  auto model = parseText(R"(<ir_version: 8, opset_import: ["" : 11]>
    g (float[1,2] x) => (float[2] y) {
      [squeeze] s = Squeeze <axes = [0]> (x)
      [relu] y = Relu (s)
    })");
  EXPECT_TRUE(model) << model.status().toString();
  return std::move(model).value();
}

TEST(Patch, NodesOfTheGraphChangeInPlaceAsRecorded) {
  Model model = squeezeModel();
  Node* squeeze = nodeNamed(*model.graph, "squeeze");
  Node* relu = nodeNamed(*model.graph, "relu");
  Value* s = squeeze->output(0);
  OptString relu_domain = relu->domain;
  Patch patch(model, *model.graph);
  squeezeTo13(patch, squeeze);
  patch.setOperator(relu, "", "LeakyRelu");
  GraphEditor(patch.model()).setFloatAttr(&patch.attributesFor(relu), "alpha", 0.25f);
  // Nothing has changed yet.
  EXPECT_EQ(squeeze->inputCount(), 1u);
  EXPECT_TRUE(squeeze->hasAttr("axes"));
  EXPECT_EQ(relu->opType(), "Relu");
  Status applied = patch.apply();
  ASSERT_TRUE(applied) << applied.toString();
  GraphEditor(model).setImportedVersion(model.opset_import, "", 13);
  EXPECT_TRUE(testing::verified(model));
  // The same nodes and values, changed.
  EXPECT_EQ(nodeNamed(*model.graph, "squeeze"), squeeze);
  EXPECT_EQ(squeeze->output(0), s);
  EXPECT_FALSE(squeeze->hasAttr("axes"));
  ASSERT_EQ(squeeze->inputCount(), 2u);
  EXPECT_EQ(squeeze->input(1)->producer()->opType(), "Constant");
  EXPECT_EQ(relu->opType(), "LeakyRelu");
  EXPECT_EQ(relu->floatAttr("alpha"), 0.25f);
  EXPECT_EQ(relu->domain, relu_domain);  // the default domain keeps its spelling
  EXPECT_EQ(testing::opTypes(*model.graph), "Constant Squeeze LeakyRelu");
}

TEST(Patch, DiscardedNodeEditsLeaveTheModelByteIdentical) {
  Model model = squeezeModel();
  std::string before = testing::bytesOf(model);
  {
    Patch patch(model, *model.graph);
    squeezeTo13(patch, nodeNamed(*model.graph, "squeeze"));
    GraphEditor(patch.model())
        .setIntAttr(&patch.attributesFor(nodeNamed(*model.graph, "relu")), "n", 1);
  }
  EXPECT_EQ(testing::bytesOf(model), before);
  EXPECT_TRUE(testing::verified(model));
}

TEST(Patch, AnEditOfANodeOutsideTheGraphOrOfAGraphAttributeIsRefused) {
  Model model = sourceModel();
  std::string before = testing::bytesOf(model);
  Node* if_node = nodeNamed(*model.graph, "if");
  Graph& then_branch = *if_node->attribute("then_branch")->g;
  {
    Patch patch(model, *model.graph);
    patch.setOperator(then_branch.firstNode(), "", "Abs");  // a node of another graph
    Status applied = patch.apply();
    EXPECT_FALSE(applied);
    EXPECT_NE(applied.message().find("not a node of the patched graph"), std::string::npos)
        << applied.message();
  }
  {
    Patch patch(model, *model.graph);
    GraphEditor(patch.model()).setGraphAttr(&patch.attributesFor(if_node), "then_branch");
    Status applied = patch.apply();
    EXPECT_FALSE(applied);
    EXPECT_NE(applied.message().find("does not stage"), std::string::npos) << applied.message();
  }
  {
    // An input slot the patch does not give the node.
    Patch patch(model, *model.graph);
    Node* relu = nodeNamed(*model.graph, "relu");
    patch.setInput(relu, 1, relu->input(0));
    EXPECT_FALSE(patch.apply());
  }
  EXPECT_EQ(testing::bytesOf(model), before);
  EXPECT_TRUE(testing::verified(model));
}

TEST(Patch, ASlotDroppedByResizeNoLongerReadsARemovedNode) {
  auto parsed = parseText(R"(<ir_version: 8, opset_import: ["" : 18]>
    g (float[2] x) => (float[2] y) {
      [neg] a = Neg (x)
      [add] y = Add (x, a)
    })");
  ASSERT_TRUE(parsed) << parsed.status().toString();
  Model& model = *parsed;
  Node* add = nodeNamed(*model.graph, "add");
  Patch patch(model, *model.graph);
  // Add(x, a) becomes Identity(x) in place: the slot that read Neg's output goes, and so can
  // Neg.
  patch.setOperator(add, "", "Identity");
  patch.resizeInputs(add, 1);
  patch.removeNode(nodeNamed(*model.graph, "neg"));
  Status applied = patch.apply();
  ASSERT_TRUE(applied) << applied.toString();
  EXPECT_TRUE(testing::verified(model));
  EXPECT_EQ(testing::opTypes(*model.graph), "Identity");
  EXPECT_EQ(model.graph->outputs[0]->bound()->name(), "y");
}

// applyAll: patches of several graphs, applied all or none.

Graph& thenBranch(Model& model) {
  return *nodeNamed(*model.graph, "if")->attribute("then_branch")->g;
}

TEST(Patch, ApplyAllAppliesNoneWhenALaterPatchIsRefused) {
  Model model = sourceModel();
  std::string before = testing::bytesOf(model);
  GraphEditor edit(model);
  Graph& main = *model.graph;
  Graph& branch = thenBranch(model);
  Patch first = edit.patch(main);
  recordEverything(model, first);
  Patch second = edit.patch(branch);
  second.removeNode(branch.firstNode());  // its output is the branch's output: still read
  Patch* both[] = {&first, &second};
  Status applied = applyAll(both);
  ASSERT_FALSE(applied);
  EXPECT_EQ(testing::bytesOf(model), before);
  EXPECT_TRUE(first.empty());
  EXPECT_TRUE(second.empty());
}

TEST(Patch, ApplyAllAppliesEveryPatchWhenAllPass) {
  Model model = sourceModel();
  GraphEditor edit(model);
  Graph& main = *model.graph;
  Graph& branch = thenBranch(model);
  Patch first = edit.patch(main);
  recordEverything(model, first);
  Patch second = edit.patch(branch);
  Node* identity = branch.firstNode();
  Node* neg = second.addNode("Neg", {identity->input(0)});
  second.replaceNode(identity, neg);
  Patch* both[] = {&first, &second};
  Status applied = applyAll(both);
  ASSERT_TRUE(applied) << applied.toString();
  EXPECT_NE(nodeNamed(main, "abs"), nullptr);
  EXPECT_EQ(branch.firstNode()->opType(), "Neg");
  EXPECT_TRUE(testing::verified(model));
}

// Two patches of one graph would check against the graph as it is, each blind to the other.
TEST(Patch, ApplyAllRefusesTwoPatchesOfOneGraph) {
  Model model = sourceModel();
  std::string before = testing::bytesOf(model);
  GraphEditor edit(model);
  Patch first = edit.patch(*model.graph);
  recordEverything(model, first);
  Patch second = edit.patch(*model.graph);
  second.removeNode(nodeNamed(*model.graph, "add"));
  Patch* both[] = {&first, &second};
  ASSERT_FALSE(applyAll(both));
  EXPECT_EQ(testing::bytesOf(model), before);
}

// A name given in the main graph and in its branch: each patch alone is sound, together the
// branch's name would hide the outer one.
TEST(Patch, ApplyAllRefusesOneNameInAGraphAndItsSubgraph) {
  Model model = sourceModel();
  std::string before = testing::bytesOf(model);
  GraphEditor edit(model);
  Graph& main = *model.graph;
  Graph& branch = thenBranch(model);
  Patch outer = edit.patch(main);
  Node* abs = outer.addNode("Abs", {nodeNamed(main, "relu")->output(0)});
  outer.nameValue(abs->output(0), "twice");
  Patch inner = edit.patch(branch);
  Node* neg = inner.addNode("Neg", {branch.firstNode()->input(0)});
  inner.nameValue(neg->output(0), "twice");
  Patch* both[] = {&outer, &inner};
  Status applied = applyAll(both);
  ASSERT_FALSE(applied);
  EXPECT_NE(applied.message().find("twice"), std::string::npos) << applied.message();
  EXPECT_EQ(testing::bytesOf(model), before);
}

// The initializer w goes with the Add that reads it: the Add's output taken over by b.
TEST(Patch, AnInitializerRemovedWithItsReaderGoes) {
  Model model = sourceModel();
  Graph& graph = *model.graph;
  Node* add = nodeNamed(graph, "add");
  Value* w = graph.lookup("w");
  Patch patch(model, graph);
  patch.replaceAllUsesWith(add->output(0), add->input(0));
  patch.removeNode(add);
  patch.removeInitializer(w);
  Status applied = patch.apply();
  ASSERT_TRUE(applied) << applied.toString();
  EXPECT_EQ(graph.lookup("w"), nullptr);
  EXPECT_TRUE(graph.initializers.empty());
  EXPECT_TRUE(testing::verified(model));
}

TEST(Patch, AnInitializerStillReadIsNotRemoved) {
  Model model = sourceModel();
  Patch patch(model, *model.graph);
  patch.removeInitializer(model.graph->lookup("w"));
  expectRefused(model, patch, "the initializer is removed, but 'w' would still be read by node");
}

// A removed initializer's name is free for a value the patch adds, as a removed node's is.
TEST(Patch, ARemovedInitializersNameIsFree) {
  Model model = sourceModel();
  Graph& graph = *model.graph;
  Node* add = nodeNamed(graph, "add");
  Value* w = graph.lookup("w");
  Patch patch(model, graph);
  Tensor* three = testing::floatTensor(GraphEditor(model).arena(), "", {2}, {3, 3});
  Value* replacement = patch.addInitializer(three);
  patch.nameValue(replacement, "w");
  patch.replaceAllUsesWith(w, replacement);
  patch.removeInitializer(w);
  Status applied = patch.apply();
  ASSERT_TRUE(applied) << applied.toString();
  EXPECT_EQ(add->input(1), replacement);
  EXPECT_EQ(replacement->name(), "w");
  EXPECT_EQ(graph.initializers.size(), 1u);
  EXPECT_TRUE(testing::verified(model));
}

// The graph output y keeps its name when Neg's output b takes the place of the Add that
// computed it: b is renamed to the name the removed Add gives back.
TEST(Patch, AValueRenamedToTheNameOfARemovedOutput) {
  Model model = sourceModel();
  Graph& graph = *model.graph;
  Node* add = nodeNamed(graph, "add");
  Value* b = add->input(0);
  Patch patch(model, graph);
  patch.replaceAllUsesWith(add->output(0), b);
  patch.removeNode(add);
  patch.removeInitializer(graph.lookup("w"));
  patch.renameValue(b, "y");
  Status applied = patch.apply();
  ASSERT_TRUE(applied) << applied.toString();
  EXPECT_EQ(b->name(), "y");
  EXPECT_EQ(graph.outputs[0]->bound(), b);
  EXPECT_EQ(graph.outputs[0]->bound()->name(), "y");
  EXPECT_TRUE(testing::verified(model));
}

TEST(Patch, ARenameToANameInUseIsRefused) {
  Model model = sourceModel();
  Patch patch(model, *model.graph);
  patch.renameValue(nodeNamed(*model.graph, "neg")->output(0), "a");
  expectRefused(model, patch, "the name 'a' is already taken in scope");
}

// An If the patch adds, whose then_branch is staged: built at once, reading `a` of the
// patched graph and `neg`'s output through the node the patch adds.
Node* recordIfWithStagedBranch(Model& model, Patch& patch) {
  Graph& graph = *model.graph;
  Node* neg = nodeNamed(graph, "neg");
  Value* a = neg->input(0);
  Node* added = patch.addNode("If", {graph.lookup("c")}, 1, nodeNamed(graph, "if"));
  GraphEditor edit(model);
  StagedGraph then_branch = patch.addGraph(added);
  StagedGraph else_branch = patch.addGraph(added);
  for (StagedGraph* staged : {&then_branch, &else_branch}) {
    Value* reads[] = {staged == &then_branch ? a : neg->output(0)};
    Node* inner = staged->addNode("Identity", reads);
    Result<Value*> out = staged->addNodeOutput(inner, staged->uniqueName("a"));
    EXPECT_TRUE(out);
    staged->addGraphOutput(*out, edit.tensorType(1, {Dim(2)}));
  }
  edit.setGraphAttr(added, "then_branch", &then_branch.graph());
  edit.setGraphAttr(added, "else_branch", &else_branch.graph());
  return added;
}

TEST(Patch, AStagedGraphDiscardedTakesItsReadsAndNamesWithIt) {
  Model model = sourceModel();
  Graph& graph = *model.graph;
  std::string before = testing::bytesOf(model);
  Value* a = graph.lookup("a");
  size_t uses = a->useCount();
  size_t subgraphs = graph.subgraphs().size();
  {
    Patch patch(model, graph);
    recordIfWithStagedBranch(model, patch);
    EXPECT_EQ(a->useCount(), uses + 1);  // linked at once
    EXPECT_EQ(graph.subgraphs().size(), subgraphs + 2);
    patch.discard();
  }
  EXPECT_EQ(a->useCount(), uses);
  EXPECT_EQ(graph.subgraphs().size(), subgraphs);
  EXPECT_EQ(testing::bytesOf(model), before);
  EXPECT_TRUE(testing::verified(model));
  // A patch destroyed unapplied does the same.
  {
    Patch patch(model, graph);
    recordIfWithStagedBranch(model, patch);
  }
  EXPECT_EQ(a->useCount(), uses);
  EXPECT_EQ(testing::bytesOf(model), before);
}

TEST(Patch, AStagedGraphJoinsTheModelAtApply) {
  Model model = sourceModel();
  Patch patch(model, *model.graph);
  Node* added = recordIfWithStagedBranch(model, patch);
  Status applied = patch.apply();
  ASSERT_TRUE(applied) << applied.toString();
  EXPECT_EQ(added->graph(), model.graph);
  EXPECT_TRUE(added->isAttached());
  // The branch's own value could not be "a": the name is taken where the branch is.
  EXPECT_EQ(added->graphAttr("then_branch")->outputs[0]->bound()->name(), "a_1");
  EXPECT_TRUE(testing::verified(model));
}

TEST(Patch, AStagedGraphReadingWhatThePatchRemovesIsRefused) {
  Model model = sourceModel();
  Patch patch(model, *model.graph);
  recordIfWithStagedBranch(model, patch);
  Node* neg = nodeNamed(*model.graph, "neg");
  patch.replaceAllUsesWith(neg->output(0), neg->input(0));
  patch.removeNode(neg);
  expectRefused(model, patch, "in a graph it holds, would read 'b', which the patch removes");
}

TEST(Patch, AnOutputHandedOverKeepsItsNameUsesAndDeclaration) {
  Model model = sourceModel();
  Graph& graph = *model.graph;
  Node* neg = nodeNamed(graph, "neg");
  Value* b = neg->output(0);
  Patch patch(model, graph);
  Node* abs = patch.addNode("Abs", {neg->input(0)}, 1, neg);
  patch.handOverOutput(b, abs, 0);
  patch.removeNode(neg);
  Status applied = patch.apply();
  ASSERT_TRUE(applied) << applied.toString();
  EXPECT_EQ(b->producer(), abs);
  EXPECT_EQ(b->name(), "b");
  EXPECT_EQ(nodeNamed(graph, "add")->input(0), b);
  EXPECT_EQ(abs->outputCount(), 1u);
  EXPECT_TRUE(testing::verified(model));
}

TEST(Patch, AValueHandedToANodeAfterItsReadersIsRefused) {
  Model model = sourceModel();
  Node* neg = nodeNamed(*model.graph, "neg");
  Patch patch(model, *model.graph);
  Node* abs = patch.addNode("Abs", {neg->input(0)});  // last: after Add, which reads b
  patch.handOverOutput(neg->output(0), abs, 0);
  patch.removeNode(neg);
  expectRefused(model, patch, "before the node it is handed to");
}

TEST(Patch, AnOutputHandedBackToAKeptNodeWithThatOutputOmitted) {
  // The inliner takes a call back this way: the call kept its place without outputs.
  Model model = sourceModel();
  Graph& graph = *model.graph;
  Node* neg = nodeNamed(graph, "neg");
  Value* b = neg->output(0);
  Patch first(model, graph);
  Node* abs = first.addNode("Abs", {neg->input(0)}, 1, neg);
  first.handOverOutput(b, abs, 0);
  ASSERT_TRUE(first.apply());
  EXPECT_EQ(neg->output(0), nullptr);
  Patch back(model, graph);
  back.handOverOutput(b, neg, 0);
  back.removeNode(abs);
  Status applied = back.apply();
  ASSERT_TRUE(applied) << applied.toString();
  EXPECT_EQ(b->producer(), neg);
  EXPECT_TRUE(testing::verified(model));
}

TEST(Patch, AnAddedNodesOutputOmittedAndAnotherDeclared) {
  Model model = sourceModel();
  Graph& graph = *model.graph;
  Node* add = nodeNamed(graph, "add");
  Patch patch(model, graph);
  Node* dropout = patch.addNode("Dropout", {add->input(0)}, 2, add);
  patch.omitOutput(dropout, 1);
  patch.declareType(dropout->output(0), GraphEditor(model).tensorType(1, {Dim(2)}));
  patch.setInput(add, 0, dropout->output(0));
  Status applied = patch.apply();
  ASSERT_TRUE(applied) << applied.toString();
  EXPECT_EQ(dropout->output(1), nullptr);
  ASSERT_NE(dropout->output(0)->type(), nullptr);
  EXPECT_TRUE(testing::verified(model));
}

std::vector<std::string> namesOf(const ArenaList<ValueInfo*>& entries) {
  std::vector<std::string> names;
  for (const ValueInfo* entry : entries) names.emplace_back(entry->bound()->name());
  return names;
}

// The interface cut as extract cuts it: "a", computed by Relu, becomes an input under its
// name once Relu goes; "x", read by nothing then, leaves the inputs; the initializer "w"
// becomes an input with its default; the outputs are "r" and "b", "b" newly declared.
TEST(Patch, TheGraphsInputsAndOutputsSetInOneStep) {
  Model model = sourceModel();
  Graph& graph = *model.graph;
  GraphEditor edit(model);
  Node* relu = nodeNamed(graph, "relu");
  Value* a = relu->output(0);
  Value* b = nodeNamed(graph, "neg")->output(0);
  Value* c = graph.names().find("c");
  Value* w = graph.names().find("w");
  Value* r = graph.names().find("r");
  Patch patch(model, graph);
  Value* cut = patch.addGraphInput(edit.tensorType(1, {Dim(2)}));
  patch.nameValue(cut, "a");
  patch.replaceAllUsesWith(a, cut);
  patch.removeNode(relu);
  Value* inputs[] = {cut, c, w};
  patch.setGraphInputs(inputs);
  Value* outputs[] = {r, b};
  patch.setGraphOutputs(outputs);
  patch.declareType(b, edit.tensorType(1, {Dim(2)}));
  Status applied = patch.apply();
  ASSERT_TRUE(applied) << applied.toString();
  EXPECT_EQ(namesOf(graph.inputs), (std::vector<std::string>{"a", "c", "w"}));
  EXPECT_EQ(namesOf(graph.outputs), (std::vector<std::string>{"r", "b"}));
  EXPECT_EQ(graph.names().find("x"), nullptr);
  EXPECT_TRUE(w->isInitializer() && w->isGraphInput());
  EXPECT_EQ(cut->name(), "a");
  ASSERT_NE(b->type(), nullptr);
  EXPECT_EQ(graph.outputs[1]->type, b->type());
  EXPECT_TRUE(testing::verified(model));
}

TEST(Patch, AnInputAddedGoesLastUnlessPlaced) {
  Model model = sourceModel();
  Graph& graph = *model.graph;
  Patch patch(model, graph);
  Value* extra = patch.addGraphInput(GraphEditor(model).tensorType(1, {Dim(2)}));
  Node* add = nodeNamed(graph, "add");
  patch.setInput(add, 1, extra);
  Status applied = patch.apply();
  ASSERT_TRUE(applied) << applied.toString();
  EXPECT_EQ(namesOf(graph.inputs), (std::vector<std::string>{"x", "c", "input"}));
  EXPECT_TRUE(testing::verified(model));
}

// An input with a default left out of the inputs stays, a constant of the graph.
TEST(Patch, AnInputWithADefaultLeftOutStaysAConstant) {
  auto parsed = parseText(R"(<ir_version: 10, opset_import: ["" : 18]>
    g (float[2] x, float[2] w) => (float[2] y) <float[2] w = {1, 2}> { y = Add(x, w) })");
  ASSERT_TRUE(parsed) << parsed.status().toString();
  Model model = std::move(parsed).value();
  Graph& graph = *model.graph;
  Value* x = graph.names().find("x");
  Value* w = graph.names().find("w");
  Patch patch(model, graph);
  Value* inputs[] = {x};
  patch.setGraphInputs(inputs);
  Status applied = patch.apply();
  ASSERT_TRUE(applied) << applied.toString();
  EXPECT_EQ(namesOf(graph.inputs), (std::vector<std::string>{"x"}));
  EXPECT_TRUE(w->isInitializer());
  EXPECT_FALSE(w->isGraphInput());
  EXPECT_TRUE(testing::verified(model));
}

// Each interface edit the check refuses names what is wrong, and the model stays byte for byte.
TEST(Patch, InterfaceEditsThatCannotBeAreRefusedWithTheModelUntouched) {
  struct Case {
    const char* what;
    std::function<void(Model&, Patch&)> record;
  };
  auto find = [](Model& model, const char* name) { return model.graph->names().find(name); };
  std::vector<Case> cases = {
      {"would still be read by node",
       [&](Model& model, Patch& patch) {
         Value* inputs[] = {find(model, "c")};  // x left out, Relu still reads it
         patch.setGraphInputs(inputs);
       }},
      {"which the patch removes",
       [&](Model& model, Patch& patch) {
         Node* relu = nodeNamed(*model.graph, "relu");
         patch.removeNode(relu);
         patch.removeNode(nodeNamed(*model.graph, "neg"));
         patch.removeNode(nodeNamed(*model.graph, "add"));
         patch.removeNode(nodeNamed(*model.graph, "if"));
         Value* outputs[] = {relu->output(0)};
         patch.setGraphOutputs(outputs);
       }},
      {"cannot be an input of the graph",
       [&](Model& model, Patch& patch) {
         Value* inputs[] = {find(model, "x"), find(model, "c"), find(model, "a")};
         patch.setGraphInputs(inputs);
       }},
      {"twice",
       [&](Model& model, Patch& patch) {
         Value* inputs[] = {find(model, "x"), find(model, "c"), find(model, "x")};
         patch.setGraphInputs(inputs);
       }},
      {"left out of the graph's inputs",
       [&](Model& model, Patch& patch) {
         patch.addGraphInput(nullptr);
         Value* inputs[] = {find(model, "x"), find(model, "c")};
         patch.setGraphInputs(inputs);
       }},
      {"is declared, but is not a value of the graph that the patch keeps",
       [&](Model& model, Patch& patch) {
         Node* if_node = nodeNamed(*model.graph, "if");
         patch.removeNode(if_node);
         Value* outputs[] = {find(model, "y")};
         patch.setGraphOutputs(outputs);
         patch.declareType(if_node->output(0), nullptr);
       }},
  };
  for (const Case& test : cases) {
    Model model = sourceModel();
    std::string before = testing::bytesOf(model);
    Patch patch(model, *model.graph);
    test.record(model, patch);
    Status applied = patch.apply();
    ASSERT_FALSE(applied) << test.what;
    EXPECT_NE(applied.message().find(test.what), std::string::npos) << applied.message();
    EXPECT_EQ(testing::bytesOf(model), before) << test.what;
  }
}

// A graph output keeps its name and entry while a new node computes it: the old value is
// renamed, the new one takes the name it gives up, and the output is re-pointed.
TEST(Patch, AnOutputRepointedKeepsItsNameAndEntry) {
  Model model = sourceModel();
  Graph& graph = *model.graph;
  Value* y = graph.names().find("y");
  ValueInfo* entry = graph.outputs[0];
  Patch patch(model, graph);
  Node* copy = patch.addNode("Identity", {y});
  patch.renameValue(y, "y_inner");
  patch.nameValue(copy->output(0), "y");
  patch.setGraphOutput(0, copy->output(0));
  Status applied = patch.apply();
  ASSERT_TRUE(applied) << applied.toString();
  EXPECT_EQ(graph.outputs[0], entry);
  EXPECT_EQ(entry->bound(), copy->output(0));
  EXPECT_EQ(namesOf(graph.outputs), (std::vector<std::string>{"y", "r"}));
  EXPECT_EQ(y->name(), "y_inner");
  EXPECT_TRUE(testing::verified(model));
}

TEST(Patch, TwoValuesTradeNames) {
  Model model = sourceModel();
  Graph& graph = *model.graph;
  Value* a = graph.names().find("a");
  Value* b = graph.names().find("b");
  Patch patch(model, graph);
  patch.renameValue(a, "b");
  patch.renameValue(b, "a");
  Status applied = patch.apply();
  ASSERT_TRUE(applied) << applied.toString();
  EXPECT_EQ(a->name(), "b");
  EXPECT_EQ(b->name(), "a");
  EXPECT_EQ(graph.names().find("a"), b);
  EXPECT_EQ(graph.names().find("b"), a);
  EXPECT_TRUE(testing::verified(model));
}

}  // namespace
}  // namespace onyx
