// Value names: the name table's erase, which names a scope holds, fresh names.
#include "onyx/ir/unique_names.h"

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "ir/graph_builder.h"
#include "support/graph_testing.h"

namespace onyx {
namespace {

TEST(NameTable, EraseKeepsEveryOtherNameReachable) {
  // At up to 3/4 load the table has probe runs of several slots, some wrapping around its
  // end; erasing from the middle of a run must not hide the names after it.
  Arena arena;
  NameTable table;
  std::vector<Value*> values;
  std::vector<std::string> names;
  for (int i = 0; i < 400; ++i) names.push_back("n" + std::to_string(i));
  for (const std::string& name : names) {
    Value* value = arena.make<Value>();
    ir_internal::GraphBuilder::name(value) = arena.copy(name);
    table.put(arena, value);
    values.push_back(value);
  }
  for (size_t i = 0; i < names.size(); i += 3) EXPECT_TRUE(table.erase(names[i]));
  EXPECT_FALSE(table.erase(names[0]));
  EXPECT_FALSE(table.erase("absent"));
  for (size_t i = 0; i < names.size(); ++i) {
    EXPECT_EQ(table.find(names[i]), i % 3 == 0 ? nullptr : values[i]) << names[i];
  }
  size_t listed = 0;
  table.forEach([&](std::string_view name, Value* value) {
    EXPECT_EQ(value->name(), name);
    ++listed;
  });
  EXPECT_EQ(listed, table.size());
  EXPECT_EQ(table.size(), 400u - 134u);
}

TEST(UniqueNames, NamesInScopeAreThoseVisibleOrDefinedInNestedGraphs) {
  Model model = testing::emptyModel();
  Arena& arena = model.arena();
  Graph& g = *model.graph;
  Value* x = *g.addInput(arena, "x");
  Node* if_node = g.createNode(arena, "If", {x});
  g.appendNode(if_node);
  Graph* branch = if_node->setGraphAttr(arena, "then_branch");
  Node* inner = branch->createNode(arena, "Neg", {x});
  branch->appendNode(inner);
  ASSERT_TRUE(renameValue(arena, *inner->output(0), "inner"));
  Graph* other = if_node->setGraphAttr(arena, "else_branch");
  EXPECT_TRUE(isNameInScope(g, "x"));
  EXPECT_TRUE(isNameInScope(g, "inner"));        // defined in a nested graph
  EXPECT_TRUE(isNameInScope(*branch, "x"));      // visible from outside
  EXPECT_FALSE(isNameInScope(*other, "inner"));  // a sibling's name
  EXPECT_FALSE(isNameInScope(g, "free"));
  // Fresh names avoid all of them.
  EXPECT_EQ(uniqueValueName(arena, g, "free"), "free");
  std::string_view fresh = uniqueValueName(arena, g, "inner");
  EXPECT_NE(fresh, "inner");
  EXPECT_FALSE(isNameInScope(g, fresh));
  EXPECT_EQ(uniqueValueName(arena, *other, "inner"), "inner");
  EXPECT_FALSE(isNameInScope(*branch, uniqueValueName(arena, *branch, "x")));
  EXPECT_EQ(uniqueValueName(arena, g, ""), "v");
  EXPECT_TRUE(testing::verified(model));
}

TEST(UniqueNames, ManyFreshNamesFromOneHintStayDistinct) {
  Model model = testing::emptyModel();
  Arena& arena = model.arena();
  Graph& g = *model.graph;
  Value* x = *g.addInput(arena, "t");
  std::map<std::string, int> seen;
  for (int i = 0; i < 1000; ++i) {
    Node* n = g.createNode(arena, "Relu", {x}, 0);
    g.appendNode(n);
    Value* out = n->addOutput(arena, "t");
    EXPECT_EQ(seen[std::string(out->name())]++, 0) << out->name();
  }
  // One try each: the counter never looks back.
  EXPECT_LE(ir_internal::GraphBuilder::nameCounter(&g), 1000u);
  EXPECT_TRUE(testing::verified(model));
}

}  // namespace
}  // namespace onyx
