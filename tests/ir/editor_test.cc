// GraphEditor: a model built and changed without naming its arena, ending in a graph that
// verifies, and a patch made through the editor.
#include "onyx/ir/editor.h"

#include <gtest/gtest.h>

#include "support/graph_testing.h"

namespace onyx {
namespace {

TEST(GraphEditor, BuildsAndPatchesWithoutTheArena) {
  Model model = testing::emptyModel();
  GraphEditor edit(model);
  EXPECT_EQ(&edit.arena(), &GraphEditor(model).arena());
  Graph& graph = *model.graph;
  Value* x = edit.addInput(graph, "x").value();
  Value* w =
      edit.addInitializer(graph, testing::floatTensor(edit.arena(), "w", {2}, {1, 2})).value();
  Node* add = edit.createNode(graph, "Add", {x, w});
  graph.appendNode(add);
  Node* concat = edit.createNode(graph, "Concat", {add->output(0)});
  graph.appendNode(concat);
  edit.setIntAttr(concat, "axis", 0);
  edit.insertInput(concat, 0, x);
  edit.addOutput(graph, concat->output(0));
  ASSERT_TRUE(edit.rename(concat->output(0), "y"));
  EXPECT_EQ(concat->intAttr("axis"), 0);
  EXPECT_EQ(concat->input(0), x);
  EXPECT_EQ(concat->input(1), add->output(0));
  EXPECT_TRUE(testing::verified(model));

  Patch patch = edit.patch(graph);
  Node* sub = patch.addNode("Sub", {x, w});
  patch.replaceNode(add, sub);
  ASSERT_TRUE(patch.apply());
  EXPECT_EQ(testing::opTypes(graph), "Sub Concat");
  EXPECT_EQ(concat->input(1), sub->output(0));
  EXPECT_TRUE(testing::verified(model));
}

}  // namespace
}  // namespace onyx
