// Value names: the name table's erase, which names a scope holds, fresh names.
#include "onyx/ir/unique_names.h"
#include "onyx/ir/editor.h"

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
  Model owner;  // holds what the test builds
  GraphEditor edit{owner};
  NameTable table;
  std::vector<Value*> values;
  std::vector<std::string> names;
  for (int i = 0; i < 400; ++i) names.push_back("n" + std::to_string(i));
  for (const std::string& name : names) {
    Value* value = edit.arena().make<Value>();
    ir_internal::GraphBuilder::name(value) = edit.arena().copy(name);
    ir_internal::NameTableWriter::put(table, edit.arena(), value);
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
  GraphEditor edit(model);
  Graph& g = *model.graph;
  Value* x = *edit.addInput(g, "x");
  Node* if_node = edit.createNode(g, "If", {x});
  g.appendNode(if_node);
  Graph* branch = edit.setGraphAttr(if_node, "then_branch");
  Node* inner = edit.createNode(*branch, "Neg", {x});
  branch->appendNode(inner);
  ASSERT_TRUE(edit.rename(inner->output(0), "inner"));
  Graph* other = edit.setGraphAttr(if_node, "else_branch");
  EXPECT_TRUE(isNameInScope(g, "x"));
  EXPECT_TRUE(isNameInScope(g, "inner"));        // defined in a nested graph
  EXPECT_TRUE(isNameInScope(*branch, "x"));      // visible from outside
  EXPECT_FALSE(isNameInScope(*other, "inner"));  // a sibling's name
  EXPECT_FALSE(isNameInScope(g, "free"));
  // Fresh names avoid all of them.
  EXPECT_EQ(edit.uniqueName(g, "free"), "free");
  std::string_view fresh = edit.uniqueName(g, "inner");
  EXPECT_NE(fresh, "inner");
  EXPECT_FALSE(isNameInScope(g, fresh));
  EXPECT_EQ(edit.uniqueName(*other, "inner"), "inner");
  EXPECT_FALSE(isNameInScope(*branch, edit.uniqueName(*branch, "x")));
  EXPECT_EQ(edit.uniqueName(g, ""), "v");
  EXPECT_TRUE(testing::verified(model));
}

TEST(UniqueNames, ManyFreshNamesFromOneHintStayDistinct) {
  Model model = testing::emptyModel();
  GraphEditor edit(model);
  Graph& g = *model.graph;
  Value* x = *edit.addInput(g, "t");
  std::map<std::string, int> seen;
  for (int i = 0; i < 1000; ++i) {
    Node* n = edit.createNode(g, "Relu", {x}, 0);
    g.appendNode(n);
    Value* out = edit.addOutput(n, "t");
    EXPECT_EQ(seen[std::string(out->name())]++, 0) << out->name();
  }
  // One try each: the counter never looks back.
  EXPECT_LE(ir_internal::GraphBuilder::nameCounter(&g), 1000u);
  EXPECT_TRUE(testing::verified(model));
}

}  // namespace
}  // namespace onyx
