// How the walker calls the value rules (value_rules.h): a rule runs with an empty path, and
// only when it reports something is the real path formatted and the rule run again with it.
// And the paths GraphPlace formats for nested graphs.
#include <gtest/gtest.h>

#include "check/check_context.h"
#include "check/place.h"

namespace onyx {
namespace {

using check::runValueRule;

TEST(ValueRuleCalls, APathIsFormattedOnlyForARuleThatReports) {
  Diagnostics out;
  int formatted = 0;
  int runs = 0;
  auto silent = [&](const std::string&, Diagnostics&) { ++runs; };
  runValueRule(out, silent, [&] {
    ++formatted;
    return std::string("graph.initializer[0](w)");
  });
  EXPECT_EQ(runs, 1);
  EXPECT_EQ(formatted, 0);
  EXPECT_TRUE(out.all().empty());

  std::vector<std::string> seen;
  auto reporting = [&](const std::string& path, Diagnostics& sink) {
    seen.push_back(path);
    sink.error("R64", path + ".raw_data", "two data fields");
  };
  runValueRule(out, reporting, [&] {
    ++formatted;
    return std::string("graph.initializer[0](w)");
  });
  EXPECT_EQ(formatted, 1);
  EXPECT_EQ(seen, (std::vector<std::string>{"", "graph.initializer[0](w)"}));
  ASSERT_EQ(out.all().size(), 1u);
  EXPECT_EQ(out.all()[0].toString(), "error R64 graph.initializer[0](w).raw_data: two data fields");
}

TEST(ValueRuleCalls, PlacesOfNestedGraphsFollowTheLoadErrorStyle) {
  Node loop;
  loop.name = "loop";
  Attribute body;
  body.name = "body";
  Attribute* attributes[] = {&body};
  Arena arena;
  loop.attributes.assign(arena, attributes, 1);

  check::GraphPlace main;
  main.root = "graph";
  check::GraphPlace inner;
  inner.outer = &main;
  inner.owner = &loop;
  inner.owner_index = 3;
  inner.attribute = &body;
  inner.attribute_index = 0;
  Node add;
  add.name = "add";
  EXPECT_EQ(inner.nodePath(0, add), "graph.node[3](loop).attribute[0](body).g.node[0](add)");
  inner.list_index = 1;
  inner.name = "then";
  EXPECT_EQ(inner.path(), "graph.node[3](loop).attribute[0](body).graphs[1](then)");
  Node unnamed;
  EXPECT_EQ(main.nodePath(12, unnamed), "graph.node[12]");
}

}  // namespace
}  // namespace onyx
