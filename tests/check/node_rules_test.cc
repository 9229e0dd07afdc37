// The node rules the checker enforces without operator schemas (R39, R40, R54), and the
// paths of the places it reports, in every kind of graph.
#include <gtest/gtest.h>

#include "onyx/check/checker.h"
#include "support/check_testing.h"

namespace onyx {
namespace {

using testing::checkText;
using testing::errorRules;
using testing::listed;
using testing::pathOf;
using testing::Rules;
using testing::warningRules;

const Rules kNone;

TEST(NodeRules, R39ANodeNamesItsOperator) {
  Model model = testing::parseOrFail(R"(<ir_version: 8, opset_import: ["" : 13]>
g (float[2] x) => (float[2] y) { t = Neg(x)  [second] y = Neg(t) })");
  model.graph->lastNode()->op_type.reset();
  Diagnostics found = checkModel(model);
  EXPECT_EQ(errorRules(found), (Rules{"R39"})) << listed(found);
  EXPECT_EQ(pathOf(found, "R39"), "graph.node[1](second)");
  model.graph->lastNode()->op_type = "";
  found = checkModel(model);
  EXPECT_EQ(errorRules(found), (Rules{"R39"})) << listed(found);
}

TEST(NodeRules, R40ANodeProducesSomething) {
  Diagnostics found = checkText(R"(<ir_version: 8, opset_import: ["" : 13, "com.x" : 1]>
g (float[2] x) => (float[2] y) { y = Neg(x)  = com.x.Print(y) })");
  EXPECT_EQ(errorRules(found), (Rules{"R40"})) << listed(found);
  EXPECT_EQ(pathOf(found, "R40"), "graph.node[1]");
  // A node with no inputs is fine (Constant, RandomNormal).
  found = checkText(R"(<ir_version: 8, opset_import: ["" : 13]>
g () => (float[1] y) { y = Constant <value_floats = [1.0]> () })");
  EXPECT_TRUE(found.all().empty()) << listed(found);
}

TEST(NodeRules, R54OverloadsExistFromIr10) {
  const char* text = R"(<ir_version: %d, opset_import: ["" : 18, "lib" : 1]>
g (float[2] x) => (float[2] y) { y = lib.Twice:alt(x) }
<domain: "lib", overload: "alt", opset_import: ["" : 18]>
Twice (in) => (out) { out = Add(in, in) })";
  char buffer[512];
  std::snprintf(buffer, sizeof buffer, text, 9);
  Diagnostics found = checkText(buffer);
  EXPECT_EQ(errorRules(found), kNone) << listed(found);
  // The node's overload and the function's.
  EXPECT_EQ(warningRules(found), (Rules{"R54", "R100"})) << listed(found);
  EXPECT_EQ(pathOf(found, "R54"), "graph.node[0].overload");
  std::snprintf(buffer, sizeof buffer, text, 10);
  found = checkText(buffer);
  EXPECT_TRUE(found.all().empty()) << listed(found);
}

TEST(NodeRules, PathsNameEveryKindOfPlace) {
  Diagnostics found = checkText(R"(<ir_version: 10, opset_import: ["" : 18, "lib" : 1]>
main (int64 n, bool c, float[2] x) => (float[2] y, float[2] z) {
  t = Neg(x)
  [loop] y = Loop (n, c, x) <body = step (i, cond, acc) => (cond2, acc2) {
    [add] acc2 = Add(acc, missing1)
    cond2 = If (cond) <then_branch = yes () => (k) { k = Identity(missing2) },
                       else_branch = no () => (k2) { k2 = Identity(cond) },
                       extra = [gx () => (kx) { kx = Identity(missing3) }]>
  }>
  z = lib.F(t)
}
<domain: "lib", opset_import: ["" : 18]>
F (a) => (b) { [first] b = Add(a, missing4) })");
  // If declares no attribute `extra` (R47); the graphs it holds are walked all the same.
  ASSERT_EQ(errorRules(found), (Rules{"R30", "R47", "R30", "R30", "R95"})) << listed(found);
  const std::string body = "graph.node[1](loop).attribute[0](body).g";
  EXPECT_EQ(found.all()[0].path, body + ".node[0](add).input[1]");
  EXPECT_EQ(found.all()[1].path, body + ".node[1].attribute[2](extra)");
  EXPECT_EQ(found.all()[2].path, body + ".node[1].attribute[0](then_branch).g.node[0].input[0]");
  EXPECT_EQ(found.all()[3].path,
            body + ".node[1].attribute[2](extra).graphs[0](gx).node[0].input[0]");
  EXPECT_EQ(found.all()[4].path, "functions[0](F).node[0](first).input[1]");
}

}  // namespace
}  // namespace onyx
