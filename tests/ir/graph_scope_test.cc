// A graph's scope: the function whose body holds it (at any depth) and the opsets in force.
#include <gtest/gtest.h>

#include "onyx/ir/graph_scope.h"
#include "onyx/text/parser.h"

namespace onyx {
namespace {

constexpr const char* kModel = R"(
  <ir_version: 8, opset_import: ["" : 17, "local" : 1]>
  g (bool c, float[2] x) => (float[2] y) {
    y = If (c) <then_branch = t () => (float[2] r) { r = Neg (x) },
                else_branch = e () => (float[2] r) { r = local.F (x) }>
  }
  <domain: "local", opset_import: ["" : 11]>
  F (a) => (b) {
    k = Constant <value = bool {1}> ()
    b = If (k) <then_branch = t2 () => (float[2] r) { r = Abs (a) },
                else_branch = e2 () => (float[2] r) { r = Neg (a) }>
  })";

TEST(GraphScope, MainGraphNestedGraphsAndFunctionBodies) {
  Result<Model> parsed = parseText(kModel);
  ASSERT_TRUE(parsed) << parsed.status().toString();
  Model& model = *parsed;
  const Graph& main = *model.graph;
  const Graph& then_branch = *(*main.nodes().begin())->attribute("then_branch")->g;
  const Function& function = *model.functions[0];
  const Node& nested_if = **std::next(function.body->nodes().begin());
  const Graph& nested = *nested_if.attribute("else_branch")->g;

  for (const Graph* graph : {&main, &then_branch}) {
    GraphScope scope = scopeOf(model, *graph);
    EXPECT_EQ(scope.function, nullptr);
    EXPECT_EQ(scope.opset(), 17);
    EXPECT_EQ(scope.opset("ai.onnx"), 17);
    EXPECT_EQ(scope.opset("local"), 1);
    EXPECT_EQ(&importListOf(model, *graph), &model.opset_import);
  }
  for (const Graph* graph : {static_cast<const Graph*>(function.body), &nested}) {
    GraphScope scope = scopeOf(model, *graph);
    EXPECT_EQ(scope.function, &function);
    EXPECT_EQ(scope.opset(), 11);
    EXPECT_EQ(scope.opset("local"), 0);  // not imported by the function
    EXPECT_EQ(&importListOf(model, *graph), &model.functions[0]->opset_import);
  }
  EXPECT_EQ(scopeOf(model, nested_if).function, &function);
}

}  // namespace
}  // namespace onyx
