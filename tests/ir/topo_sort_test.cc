// topologicalSort: order from data flow and from what subgraphs capture, stability, and
// cycles reported with their nodes.
#include "onyx/ir/topo_sort.h"

#include <gtest/gtest.h>

#include "onyx/check/checker.h"
#include "onyx/ir/editor.h"
#include "support/check_testing.h"
#include "support/graph_testing.h"

namespace onyx {
namespace {

using testing::opTypes;

TEST(TopoSort, ReversedChainComesBackInOrder) {
  Model model = testing::emptyModel();
  GraphEditor edit(model);
  Graph& g = *model.graph;
  Value* x = *edit.addInput(g, "x");
  Node* a = edit.createNode(g, "A", {x});
  Node* b = edit.createNode(g, "B", {a->output(0)});
  Node* c = edit.createNode(g, "C", {b->output(0), a->output(0)});
  g.appendNode(c);
  g.appendNode(b);
  g.appendNode(a);
  edit.addOutput(g, c->output(0));
  ASSERT_EQ(opTypes(g), "C B A");
  ASSERT_TRUE(topologicalSort(g));
  EXPECT_EQ(opTypes(g), "A B C");
  EXPECT_EQ(g.firstNode(), a);
  EXPECT_EQ(g.lastNode(), c);
  EXPECT_TRUE(testing::verified(model));
}

TEST(TopoSort, SortedGraphsKeepTheirOrder) {
  Model model = testing::emptyModel();
  GraphEditor edit(model);
  Graph& g = *model.graph;
  Value* x = *edit.addInput(g, "x");
  // Independent nodes in an arbitrary order stay in that order.
  for (const char* op : {"P", "Q", "R", "S"}) g.appendNode(edit.createNode(g, op, {x}));
  ASSERT_TRUE(topologicalSort(g));
  EXPECT_EQ(opTypes(g), "P Q R S");
}

TEST(TopoSort, ValuesCapturedBySubgraphsOrderTheirProducersFirst) {
  Model model = testing::emptyModel();
  GraphEditor edit(model);
  Graph& g = *model.graph;
  Value* cond = *edit.addInput(g, "cond");
  Node* producer = edit.createNode(g, "Producer", {cond});
  Node* if_node = edit.createNode(g, "If", {cond});
  g.appendNode(if_node);  // before the producer of what its branch reads
  g.appendNode(producer);
  Graph* branch = edit.setGraphAttr(if_node, "then_branch");
  Node* late = edit.createNode(*branch, "Late", {producer->output(0)});
  Node* early = edit.createNode(*branch, "Early", {cond});
  Node* use = edit.createNode(*branch, "Use", {early->output(0), late->output(0)});
  branch->appendNode(use);
  branch->appendNode(late);
  branch->appendNode(early);
  ASSERT_TRUE(topologicalSort(g));
  EXPECT_EQ(opTypes(g), "Producer If");
  EXPECT_EQ(opTypes(*branch), "Late Early Use");  // nested graphs are sorted too
  EXPECT_TRUE(testing::verified(model));
}

TEST(TopoSort, ACycleIsReportedWithItsNodesAndNothingChanges) {
  Model model = testing::emptyModel();
  GraphEditor edit(model);
  Graph& g = *model.graph;
  Value* x = *edit.addInput(g, "x");
  Node* start = edit.createNode(g, "Start", {x});
  Node* a = edit.createNode(g, "A", {x, nullptr});
  Node* b = edit.createNode(g, "B", {a->output(0)});
  Node* c = edit.createNode(g, "C", {b->output(0)});
  a->setInput(1, c->output(0));  // A -> B -> C -> A
  a->name = "a";
  b->name = "b";
  for (Node* n : {c, b, start, a}) g.appendNode(n);
  std::vector<Node*> cycle;
  Status status = topologicalSort(g, &cycle);
  ASSERT_FALSE(status);
  EXPECT_EQ(status.code(), ErrorCode::kInvalidArgument);
  ASSERT_EQ(cycle.size(), 3u);
  // The cycle in data-flow order, from whichever node it starts at.
  size_t at = std::find(cycle.begin(), cycle.end(), a) - cycle.begin();
  ASSERT_LT(at, 3u);
  EXPECT_EQ(cycle[(at + 1) % 3], b);
  EXPECT_EQ(cycle[(at + 2) % 3], c);
  // Each node as its place in the graph (core/place_path.h) and its operator.
  EXPECT_NE(status.message().find("node[3](a) (A) -> node[1](b) (B)"), std::string::npos)
      << status.message();
  EXPECT_NE(status.message().find("(C)"), std::string::npos);
  EXPECT_EQ(opTypes(g), "C B Start A");  // unchanged
  EXPECT_TRUE(testing::verified(model));
}

TEST(TopoSort, ANodeReadingItsOwnOutputIsACycleOfOne) {
  Model model = testing::emptyModel();
  GraphEditor edit(model);
  Graph& g = *model.graph;
  Node* self = edit.createNode(g, "Self", {nullptr});
  self->setInput(0, self->output(0));
  g.appendNode(self);
  std::vector<Node*> cycle;
  EXPECT_FALSE(topologicalSort(g, &cycle));
  EXPECT_EQ(cycle, std::vector<Node*>{self});
}

TEST(TopoSort, ACycleInsideASubgraphLeavesTheOuterGraphAsItWas) {
  Model model = testing::emptyModel();
  GraphEditor edit(model);
  Graph& g = *model.graph;
  Value* x = *edit.addInput(g, "x");
  Node* second = edit.createNode(g, "Second", {nullptr});
  Node* first = edit.createNode(g, "First", {x});
  second->setInput(0, first->output(0));
  g.appendNode(second);
  g.appendNode(first);
  Graph* body = edit.setGraphAttr(second, "body");
  Node* loop = edit.createNode(*body, "Loop", {nullptr});
  loop->setInput(0, loop->output(0));
  body->appendNode(loop);
  Status status = topologicalSort(g);
  EXPECT_FALSE(status);
  // The path names the cycle's graph below the one given.
  EXPECT_EQ(status.path(), "node[0].attribute[0](body).g") << status.toString();
  EXPECT_EQ(opTypes(g), "Second First");
}

// A model whose main graph, nested graph and function body each list a node before the node
// that computes what it reads.
constexpr const char* kUnsortedModel = R"(<ir_version: 10, opset_import: ["" : 18, "lib" : 1]>
g (bool c, float[2] x) => (float[2] y) {
  y = If (c) <then_branch = a () => (float[2] p) { p = Abs(q)  q = Neg(t) },
              else_branch = b () => (float[2] r) { r = Identity(t) }>
  t = lib.F(x)
}
<domain: "lib", opset_import: ["" : 18]>
F (i) => (o) { o = Abs(m)  m = Neg(i) }
)";

TEST(TopoSort, AModelIsSortedEverywhere) {
  Model model = testing::parseOrFail(kUnsortedModel);
  Graph& main = *model.graph;
  Graph& branch = *main.firstNode()->graphAttr("then_branch");
  Graph& body = *model.functions[0]->body;
  ASSERT_EQ(opTypes(body), "Abs Neg");
  EXPECT_TRUE(checkModel(model).hasErrors());
  ASSERT_TRUE(topologicalSort(model));
  EXPECT_EQ(opTypes(main), "F If");
  EXPECT_EQ(opTypes(branch), "Neg Abs");
  EXPECT_EQ(opTypes(body), "Neg Abs");
  Diagnostics found = checkModel(model);
  EXPECT_FALSE(found.hasErrors()) << testing::listed(found);
  EXPECT_TRUE(testing::verified(model));
}

TEST(TopoSort, ASortedModelWritesTheSameBytes) {
  Model unsorted = testing::parseOrFail(kUnsortedModel);
  size_t moved = 0;
  ASSERT_TRUE(topologicalSort(unsorted, nullptr, &moved));
  // Each of the three lists swaps its two nodes.
  EXPECT_EQ(moved, 6u);
  const std::string sorted = testing::bytesOf(unsorted);
  Model again = testing::parseOwned(sorted);
  ASSERT_TRUE(topologicalSort(again, nullptr, &moved));
  EXPECT_EQ(moved, 0u);
  EXPECT_EQ(testing::bytesOf(again), sorted);
}

TEST(TopoSort, ACycleInAFunctionBodyIsNamedByItsPlaceAndNothingChanges) {
  Model model = testing::parseOrFail(R"(<ir_version: 10, opset_import: ["" : 18, "lib" : 1]>
g (float[2] x) => (float[2] y) { y = lib.F(t)  t = Neg(x) }
<domain: "lib", opset_import: ["" : 18]>
F (i) => (o) { [n1] o = Add(i, m)  [n2] m = Neg(o) }
)");
  std::vector<Node*> cycle;
  Status status = topologicalSort(model, &cycle);
  ASSERT_FALSE(status);
  EXPECT_EQ(status.path(), "functions[0](F)");
  EXPECT_NE(status.message().find("node[0](n1) (Add) -> node[1](n2) (Neg)"), std::string::npos)
      << status.message();
  EXPECT_EQ(cycle.size(), 2u);
  EXPECT_EQ(opTypes(*model.graph), "F Neg");  // the main graph, sortable, is left as it was
}

}  // namespace
}  // namespace onyx
