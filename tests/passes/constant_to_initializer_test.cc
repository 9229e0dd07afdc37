// constant-to-initializer and its reverse: every form of Constant, the names kept, and a
// round trip back to the same model.
#include <gtest/gtest.h>

#include "onyx/ir/editor.h"
#include "onyx/ir/tensor_array.h"
#include "onyx/passes/optimize.h"
#include "onyx/text/printer.h"
#include "support/check_testing.h"
#include "support/eval_testing.h"
#include "support/graph_testing.h"
#include "support/pass_testing.h"

namespace onyx {
namespace {

using testing::optimizeChecked;
using testing::opTypes;
using testing::tensorOf;

TEST(ConstantToInitializer, EveryFormBecomesAnInitializerOfTheSameName) {
  auto done = optimizeChecked(R"(
    <ir_version: 10, opset_import: ["" : 18]>
    g (float[2] x) => (float[2] y, int64[3] i, string[2] s, float f, int64 n, string one,
                       float[2] t) {
      w = Constant <value = float[2] {3, 4}> ()
      y = Add (x, w)
      i = Constant <value_ints = [1, 2, 3]> ()
      s = Constant <value_strings = ["a", "b"]> ()
      f = Constant <value_float = 2.5> ()
      n = Constant <value_int = 7> ()
      one = Constant <value_string = "z"> ()
      fs = Constant <value_floats = [1.5, -2]> ()
      t = Mul (fs, x)
    })",
                              {"constant-to-initializer"},
                              {{"x", tensorOf<float>(ElementType::kFloat, {2}, {1, 2})}});
  const Graph& graph = *done.model.graph;
  EXPECT_EQ(opTypes(graph), "Add Mul");
  std::vector<std::string_view> names;
  for (const Tensor* tensor : graph.initializers) names.push_back(tensor->nameOrEmpty());
  EXPECT_EQ(names, (std::vector<std::string_view>{"w", "i", "s", "f", "n", "one", "fs"}));
  // Graph outputs keep their names, now read from initializers.
  EXPECT_EQ(graph.outputs[1]->bound()->name(), "i");
  EXPECT_NE(graph.outputs[1]->bound()->initializer(), nullptr);
  EXPECT_EQ(done.changes.nodes_removed, 7u);
}

TEST(ConstantToInitializer, ASparseValueStaysAConstant) {
  // The text syntax has no sparse tensors: the Constant is built through the graph API.
  Model model = testing::parseOrFail(R"(
    <ir_version: 10, opset_import: ["" : 18]>
    g (float[4] x) => (float[4] y) {
      y = Add (x, x)
    })");
  GraphEditor edit(model);
  Arena& arena = edit.arena();
  Graph& graph = *model.graph;
  auto* sparse = arena.make<SparseTensor>();
  sparse->values = testing::floatTensor(arena, "", {2}, {5, 6});
  Array positions(ElementType::kInt64, {2});
  positions.data<int64_t>()[0] = 0;
  positions.data<int64_t>()[1] = 3;
  sparse->indices = edit.tensorFromArray(positions);
  sparse->dims.values.push_back(arena, 4);
  sparse->dims.packed = true;
  Node* constant = edit.createNode(graph, "Constant", {}, 1);
  edit.setSparseTensorAttr(constant, "sparse_value", sparse);
  constant->insertBefore(*graph.nodes().begin());
  Node* add = graph.outputs[0]->bound()->producer();
  add->setInput(1, constant->output(0));
  std::string_view name = constant->output(0)->name();
  std::vector<NamedValue> inputs = {{"x", tensorOf<float>(ElementType::kFloat, {4}, {1, 2, 3, 4})}};
  std::vector<std::vector<float>> before = testing::floatOutputs(model, inputs);
  OptimizeOptions options;
  options.passes = {"constant-to-initializer"};
  ASSERT_TRUE(optimize(model, options));
  EXPECT_EQ(opTypes(graph), "Constant Add");
  EXPECT_EQ(graph.sparse_initializers.size(), 0u);
  EXPECT_EQ(add->input(1)->name(), name);
  EXPECT_TRUE(testing::verified(model));
  EXPECT_EQ(testing::floatOutputs(model, inputs), before);
  EXPECT_EQ(before, (std::vector<std::vector<float>>{{6, 2, 3, 10}}));
}

TEST(ConstantToInitializer, NestedGraphsGetInitializersOfTheirOwnAndOldModelsAreLeftAlone) {
  auto done = optimizeChecked(R"(
    <ir_version: 10, opset_import: ["" : 18]>
    g (float[2] x, bool c) => (float[2] y) {
      y = If (c) <
        then_branch = t () => (float[2] r) { r = Constant <value = float[2] {1, 2}> () },
        else_branch = e () => (float[2] r) { r = Identity (x) }
      >
    })",
                              {"constant-to-initializer"},
                              {{"x", tensorOf<float>(ElementType::kFloat, {2}, {1, 2})},
                               {"c", tensorOf<bool>(ElementType::kBool, {}, {true})}});
  EXPECT_EQ(done.changes.nodes_removed, 1u);
  const Node* branch = *done.model.graph->nodes().begin();
  const Graph* then_branch = branch->graphAttr("then_branch");
  ASSERT_NE(then_branch, nullptr);
  EXPECT_EQ(then_branch->nodeCount(), 0u);
  ASSERT_EQ(then_branch->initializers.size(), 1u);
  EXPECT_EQ(then_branch->initializers[0]->nameOrEmpty(), "r");
  Model old = testing::parseOrFail(R"(
    <ir_version: 3, opset_import: ["" : 8]>
    g (float[2] x) => (float[2] y) {
      w = Constant <value = float[2] {3, 4}> ()
      y = Add (x, w)
    })");
  OptimizeOptions options;
  options.passes = {"constant-to-initializer"};
  ASSERT_TRUE(optimize(old, options));
  EXPECT_EQ(opTypes(*old.graph), "Constant Add");
}

// The pass's edits of every graph are one step: made to fail after recording some graphs'
// edits, it leaves the model's bytes as they were.
TEST(ConstantToInitializer, FailingHalfWayLeavesTheModelAsItWas) {
  testing::expectAllOrNothing(R"(
    <ir_version: 10, opset_import: ["" : 18]>
    g (float[2] x, bool c) => (float[2] y) {
      k = Constant <value = float[2] {1, 2}> ()
      s = Add (x, k)
      y = If (c) <then_branch = t () => (float[2] a) {
                     two = Constant <value_floats = [2, 2]> ()
                     a = Mul (s, two)
                   },
                   else_branch = e () => (float[2] b) { b = Identity (s) }>
    })",
                              "constant-to-initializer");
}

TEST(InitializerToConstant, TurnsInitializersBackAndKeepsInputDefaults) {
  auto done = optimizeChecked(R"(
    <ir_version: 10, opset_import: ["" : 18]>
    g (float[2] x, float[2] d = {1, 1}) => (float[2] y, float[2] w)
      <float[2] w = {3, 4}, float[2] v = {5, 6}> {
      s = Add (x, w)
      t = Mul (s, v)
      y = Sub (t, d)
    })",
                              {"initializer-to-constant"},
                              {{"x", tensorOf<float>(ElementType::kFloat, {2}, {1, 2})}});
  const Graph& graph = *done.model.graph;
  EXPECT_EQ(opTypes(graph), "Constant Constant Add Mul Sub");
  ASSERT_EQ(graph.initializers.size(), 1u);
  EXPECT_EQ(graph.initializers[0]->nameOrEmpty(), "d");
  EXPECT_EQ(graph.outputs[1]->bound()->name(), "w");
  EXPECT_EQ(done.changes.nodes_added, 2u);
}

// The pass's edits of every graph are one step: made to fail after recording some graphs'
// edits, it leaves the model's bytes as they were.
TEST(InitializerToConstant, FailingHalfWayLeavesTheModelAsItWas) {
  testing::expectAllOrNothing(R"(
    <ir_version: 10, opset_import: ["" : 18]>
    g (float[2] x, bool c) => (float[2] y) <float[2] w = {3, 4}> {
      s = Add (x, w)
      y = If (c) <then_branch = t () => (float[2] a) <float[2] k = {1, 2}> { a = Mul (s, k) },
                   else_branch = e () => (float[2] b) { b = Identity (s) }>
    })",
                              "initializer-to-constant");
}

TEST(InitializerToConstant, RoundTripsWithConstantToInitializer) {
  constexpr std::string_view kText = R"(
    <ir_version: 10, opset_import: ["" : 18]>
    g (float[2] x) => (float[2] y) <float[2] w = {3, 4}> {
      y = Add (x, w)
    })";
  Model model = testing::parseOrFail(kText);
  std::string original = testing::bytesOf(model);
  OptimizeOptions options;
  options.passes = {"initializer-to-constant"};
  ASSERT_TRUE(optimize(model, options));
  EXPECT_EQ(opTypes(*model.graph), "Constant Add");
  options.passes = {"constant-to-initializer"};
  ASSERT_TRUE(optimize(model, options));
  EXPECT_EQ(printModel(model), printModel(testing::parseOrFail(kText)));
}

}  // namespace
}  // namespace onyx
