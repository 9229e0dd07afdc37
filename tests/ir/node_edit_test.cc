// Node: its place in the list, its inputs (with omitted optional ones) and outputs, and
// destroying it. Every change is followed by verifyModel.
#include <gtest/gtest.h>

#include <set>

#include "onyx/ir/editor.h"
#include "onyx/ir/graph.h"
#include "support/graph_testing.h"

namespace onyx {
namespace {

using testing::opTypes;
using testing::verified;

struct Chain {
  Model model = testing::emptyModel();
  GraphEditor edit{model};
  Graph& g = *model.graph;
  Value* x = nullptr;
  Node* a = nullptr;
  Node* b = nullptr;
  Node* c = nullptr;

  // x -> A -> B -> C -> output
  Chain() {
    x = *edit.addInput(g, "x");
    a = edit.createNode(g, "A", {x});
    g.appendNode(a);
    b = edit.createNode(g, "B", {a->output(0)});
    g.appendNode(b);
    c = edit.createNode(g, "C", {b->output(0)});
    g.appendNode(c);
    edit.addOutput(g, c->output(0));
  }
};

TEST(NodeList, CreatedNodesAreDetachedUntilInserted) {
  Chain chain;
  Node* d = chain.edit.createNode(chain.g, "D", {chain.x});
  EXPECT_FALSE(d->isAttached());
  EXPECT_EQ(d->graph(), &chain.g);
  EXPECT_EQ(chain.g.nodeCount(), 3u);
  d->insertBefore(chain.b);
  EXPECT_TRUE(d->isAttached());
  EXPECT_EQ(opTypes(chain.g), "A D B C");
  EXPECT_TRUE(verified(chain.model));
  Node* e = chain.edit.createNode(chain.g, "E", {chain.x});
  e->insertAfter(chain.c);
  EXPECT_EQ(opTypes(chain.g), "A D B C E");
  EXPECT_EQ(chain.g.lastNode(), e);
  Node* f = chain.edit.createNode(chain.g, "F", {chain.x});
  chain.g.prependNode(f);
  EXPECT_EQ(opTypes(chain.g), "F A D B C E");
  EXPECT_EQ(chain.g.nodeCount(), 6u);
  EXPECT_TRUE(verified(chain.model));
}

TEST(NodeList, MoveBeforeAndAfter) {
  Chain chain;
  chain.c->moveBefore(chain.a);
  EXPECT_EQ(opTypes(chain.g), "C A B");
  EXPECT_EQ(chain.g.firstNode(), chain.c);
  EXPECT_TRUE(verified(chain.model));  // out of order is still consistent
  chain.c->moveAfter(chain.b);
  EXPECT_EQ(opTypes(chain.g), "A B C");
  chain.a->moveAfter(chain.a);   // no-op
  chain.b->moveBefore(chain.c);  // already there
  EXPECT_EQ(opTypes(chain.g), "A B C");
  EXPECT_EQ(chain.g.lastNode(), chain.c);
  EXPECT_TRUE(verified(chain.model));
}

TEST(NodeList, IsBeforeFollowsTheList) {
  Chain chain;
  EXPECT_TRUE(chain.a->isBefore(chain.c));
  EXPECT_FALSE(chain.c->isBefore(chain.a));
  EXPECT_FALSE(chain.b->isBefore(chain.b));
  chain.a->moveAfter(chain.c);
  EXPECT_TRUE(chain.c->isBefore(chain.a));
}

TEST(NodeOutputs, ReplacingANodesUsesByAnotherNodes) {
  Chain chain;
  Node* twin = chain.edit.createNode(chain.g, "B2", {chain.a->output(0)});
  twin->insertAfter(chain.b);
  EXPECT_TRUE(chain.b->hasUses());
  EXPECT_FALSE(twin->hasUses());
  chain.b->replaceAllUsesWith(twin);
  EXPECT_FALSE(chain.b->hasUses());
  EXPECT_EQ(chain.c->input(0), twin->output(0));
  ASSERT_TRUE(chain.b->destroy());
  EXPECT_EQ(opTypes(chain.g), "A B2 C");
  EXPECT_TRUE(verified(chain.model));
}

TEST(NodeDestroy, RefusedWhileAnOutputIsUsed) {
  Chain chain;
  Status refused = chain.b->destroy();
  EXPECT_FALSE(refused);
  EXPECT_NE(refused.message().find("still has uses"), std::string::npos);
  EXPECT_EQ(opTypes(chain.g), "A B C");
  EXPECT_TRUE(verified(chain.model));
}

TEST(NodeDestroy, UnlinksEverythingAndLeavesNothingPointingAtTheNode) {
  Chain chain;
  Value* b_out = chain.b->output(0);
  Value* a_out = chain.a->output(0);
  chain.c->setInput(0, chain.x);  // B's output is now unused
  ASSERT_TRUE(chain.b->destroy());
  EXPECT_EQ(opTypes(chain.g), "A C");
  EXPECT_EQ(chain.b->graph(), nullptr);
  EXPECT_FALSE(b_out->isAttached());
  EXPECT_FALSE(a_out->hasUses());  // B's input slot is gone from A's output's list
  EXPECT_EQ(chain.g.names().find(b_out->name()), nullptr);
  EXPECT_TRUE(verified(chain.model));
  EXPECT_TRUE(chain.g.removeNode(chain.a));
  EXPECT_EQ(opTypes(chain.g), "C");
  EXPECT_TRUE(verified(chain.model));
  // The destroyed values are gone from the written model too.
  Model back = testing::reparse(chain.model);
  EXPECT_EQ(opTypes(*back.graph), "C");
  EXPECT_EQ(back.graph->firstNode()->input(0)->name(), "x");
}

TEST(NodeDestroy, DiscardsSubgraphsAndTheirUsesOfOuterValues) {
  Chain chain;
  Node* if_node = chain.edit.createNode(chain.g, "If", {chain.x});
  if_node->insertAfter(chain.c);
  Graph* branch = chain.edit.setGraphAttr(if_node, "then_branch");
  Node* inner = chain.edit.createNode(*branch, "Neg", {chain.a->output(0)});
  branch->appendNode(inner);
  chain.edit.addOutput(*branch, chain.b->output(0));
  EXPECT_EQ(chain.a->output(0)->useCount(), 2u);
  EXPECT_TRUE(verified(chain.model));
  ASSERT_TRUE(if_node->destroy());
  EXPECT_EQ(chain.a->output(0)->useCount(), 1u);
  EXPECT_EQ(chain.b->output(0)->useCount(), 1u);
  EXPECT_TRUE(chain.g.subgraphs().empty());
  EXPECT_EQ(branch->parent(), nullptr);
  EXPECT_TRUE(verified(chain.model));
}

TEST(NodeDestroy, ADetachedNodeCanBeDestroyed) {
  Chain chain;
  Node* d = chain.edit.createNode(chain.g, "D", {chain.x}, 2);
  std::string_view name = d->output(1)->name();
  EXPECT_NE(chain.g.names().find(name), nullptr);
  ASSERT_TRUE(d->destroy());
  EXPECT_EQ(chain.g.names().find(name), nullptr);
  EXPECT_EQ(chain.g.nodeCount(), 3u);
  EXPECT_TRUE(verified(chain.model));
  EXPECT_FALSE(d->destroy());  // twice
}

TEST(NodeInputs, SetAddInsertRemoveWithOmittedOptionalInputs) {
  Chain chain;
  Value* a_out = chain.a->output(0);
  Node* n = chain.edit.createNode(chain.g, "Op", {chain.x, nullptr, a_out});
  n->insertAfter(chain.c);
  EXPECT_EQ(n->inputCount(), 3u);
  EXPECT_EQ(n->input(1), nullptr);
  EXPECT_TRUE(verified(chain.model));
  n->setInput(1, chain.x);
  EXPECT_EQ(chain.x->useCount(), 3u);  // A, n[0], n[1]
  EXPECT_TRUE(verified(chain.model));
  chain.edit.addInput(n, nullptr);
  chain.edit.addInput(n, a_out);
  EXPECT_EQ(n->inputCount(), 5u);
  EXPECT_EQ(n->input(4), a_out);
  EXPECT_TRUE(verified(chain.model));
  chain.edit.insertInput(n, 0, chain.c->output(0));
  EXPECT_EQ(n->input(0), chain.c->output(0));
  EXPECT_EQ(n->input(1), chain.x);
  EXPECT_EQ(n->input(3), a_out);
  for (const Use& use : a_out->uses()) {
    if (use.user() == n) {
      EXPECT_EQ(n->input(use.index()), a_out);
    }
  }
  EXPECT_TRUE(verified(chain.model));
  n->removeInput(1);
  EXPECT_EQ(n->inputCount(), 5u);
  EXPECT_EQ(n->input(0), chain.c->output(0));
  EXPECT_EQ(n->input(1), chain.x);
  EXPECT_EQ(n->input(2), a_out);
  EXPECT_EQ(n->input(3), nullptr);
  EXPECT_TRUE(verified(chain.model));
  n->replaceInputWith(a_out, chain.x);
  EXPECT_EQ(a_out->useCount(), 1u);  // only B reads it now
  EXPECT_EQ(chain.x->useCount(), 4u);
  EXPECT_TRUE(verified(chain.model));
  n->removeAllInputs();
  EXPECT_EQ(n->inputCount(), 0u);
  EXPECT_EQ(chain.x->useCount(), 1u);
  EXPECT_TRUE(verified(chain.model));
}

TEST(NodeInputs, OmittedInputsWriteAsEmptyNames) {
  Chain chain;
  Node* n = chain.edit.createNode(chain.g, "Op", {chain.x, nullptr, chain.x});
  n->insertAfter(chain.c);
  Model back = testing::reparse(chain.model);
  Node* read = back.graph->lastNode();
  ASSERT_EQ(read->inputCount(), 3u);
  EXPECT_EQ(read->input(1), nullptr);
  EXPECT_EQ(read->input(2)->name(), "x");
  EXPECT_TRUE(verified(back));
}

TEST(NodeOutputs, AddNamedOmittedAndRemove) {
  Chain chain;
  Node* n = chain.edit.createNode(chain.g, "Split", {chain.x}, 0);
  n->insertAfter(chain.c);
  auto first = chain.edit.addOutputNamed(n, "part0");
  ASSERT_TRUE(first);
  auto omitted = chain.edit.addOutputNamed(n, "");
  ASSERT_TRUE(omitted);
  EXPECT_EQ(*omitted, nullptr);
  Value* third = chain.edit.addOutput(n, "part");
  EXPECT_EQ(third->name(), "part");
  EXPECT_EQ(third->outputIndex(), 2u);
  Value* fourth = chain.edit.addOutput(n, "part");
  EXPECT_EQ(fourth->name().substr(0, 5), "part_");  // "part" is taken now
  EXPECT_TRUE(verified(chain.model));
  auto taken = chain.edit.addOutputNamed(n, "x");
  EXPECT_FALSE(taken);
  EXPECT_EQ(taken.status().code(), ErrorCode::kInvalidArgument);
  chain.edit.addOutput(chain.g, third);
  EXPECT_FALSE(n->removeOutput(2));  // used by the graph output
  ASSERT_TRUE(n->removeOutput(1));   // the omitted one
  EXPECT_EQ(third->outputIndex(), 1u);
  EXPECT_EQ(fourth->outputIndex(), 2u);
  EXPECT_TRUE(verified(chain.model));
  ASSERT_TRUE(n->removeOutput(0));
  EXPECT_EQ(chain.g.names().find("part0"), nullptr);
  EXPECT_EQ(n->output(0), third);
  EXPECT_TRUE(verified(chain.model));
  Model back = testing::reparse(chain.model);
  EXPECT_EQ(back.graph->lastNode()->outputCount(), 2u);
  EXPECT_EQ(back.graph->lastNode()->output(0)->name(), "part");
}

TEST(NodeOutputs, CreatedOutputsGetNamesFreeInScope) {
  Chain chain;
  std::set<std::string_view> names;
  for (int i = 0; i < 50; ++i) {
    Node* n = chain.edit.createNode(chain.g, "Relu", {chain.x});
    chain.g.appendNode(n);
    EXPECT_TRUE(names.insert(n->output(0)->name()).second);
  }
  EXPECT_TRUE(verified(chain.model));
}

}  // namespace
}  // namespace onyx
