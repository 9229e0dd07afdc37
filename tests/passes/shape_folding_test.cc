// shape-folding: Shape scaffolds become constant targets with 0 and -1 where exact, static
// pieces become numbers, and no open dimension of a graph input is ever fixed: each model
// runs before and after at two sizes of its open dimensions.
#include <gtest/gtest.h>

#include "onyx/eval/node_evaluator.h"
#include "onyx/eval/test_case.h"
#include "onyx/ir/tensor_array.h"
#include "support/check_testing.h"
#include "support/eval_testing.h"
#include "support/graph_testing.h"
#include "support/pass_testing.h"

namespace onyx {
namespace {

using testing::optimizeChecked;
using testing::opTypes;
using testing::tensorOf;

const std::vector<std::string> kPasses = {"shape-folding", "constant-folding", "dead-code"};

std::vector<NamedValue> floats(std::string name, std::vector<int64_t> shape) {
  std::vector<float> values = testing::randomFloats(testing::elementCount(shape), 7);
  return {{std::move(name), tensorOf<float>(ElementType::kFloat, std::move(shape), values)}};
}

// `optimized` gives the outputs the model of `text` gives on `inputs`, bit for bit.
void expectSameOutputs(std::string_view text, const Model& optimized,
                       const std::vector<NamedValue>& inputs) {
  Model original = testing::parseOrFail(text);
  EvalOptions options;
  options.fusions = false;
  Result<std::vector<EvalValue>> before = evaluate(original, inputs, options);
  Result<std::vector<EvalValue>> after = evaluate(optimized, inputs, options);
  ASSERT_TRUE(before) << before.status().toString();
  ASSERT_TRUE(after) << after.status().toString();
  ASSERT_EQ(before->size(), after->size());
  for (size_t i = 0; i < before->size(); ++i) {
    EXPECT_EQ(compareValues((*before)[i], (*after)[i], Tolerance{0, 0}), "") << "output " << i;
  }
}

// The integers the value read by input `index` of the first `op_type` node holds.
std::vector<int64_t> constantOperand(const Graph& graph, std::string_view op_type, size_t index) {
  for (const Node* node : graph.nodes()) {
    if (node->opType() != op_type || node->inputCount() <= index) continue;
    const Value* value = node->input(index);
    const Tensor* tensor = value->initializer();
    if (tensor == nullptr && value->producer() != nullptr) {
      tensor = value->producer()->tensorAttr("value");
    }
    if (tensor == nullptr) return {};
    Result<Array> array = arrayFromTensor(*tensor);
    if (!array || array->type() != ElementType::kInt64) return {};
    return std::vector<int64_t>(array->data<int64_t>(), array->data<int64_t>() + array->size());
  }
  return {};
}

std::string inputDims(const Graph& graph, size_t input) {
  std::string text;
  for (const Dimension& dim : graph.inputs[input]->type->shape->dims) {
    text +=
        dim.dim_value ? std::to_string(*dim.dim_value) : std::string(dim.dim_param.value_or("?"));
    text += ",";
  }
  return text;
}

constexpr std::string_view kViewAsHeads = R"(
  <ir_version: 8, opset_import: ["" : 17]>
  g (float[B,S,8] x) => (float[B,S,2,4] y, float[M,8] z)
    <int64 zero = {0}, int64 one = {1}, int64[1] axes = {0}, int64[1] two = {2},
     int64[1] four = {4}, int64[1] eight = {8}> {
    s = Shape (x)
    b = Gather <axis = 0> (s, zero)
    q = Gather <axis = 0> (s, one)
    bu = Unsqueeze (b, axes)
    qu = Unsqueeze (q, axes)
    t = Concat <axis = 0> (bu, qu, two, four)
    y = Reshape (x, t)
    n = Mul (b, q)
    nu = Unsqueeze (n, axes)
    t2 = Concat <axis = 0> (nu, eight)
    z = Reshape (x, t2)
  })";

TEST(ShapeFolding, ViewScaffoldsBecomeConstantTargetsWithZeroAndMinusOne) {
  auto done = optimizeChecked(kViewAsHeads, kPasses, floats("x", {2, 3, 8}));
  const Graph& graph = *done.model.graph;
  EXPECT_EQ(opTypes(graph), "Reshape Reshape");
  EXPECT_EQ(constantOperand(graph, "Reshape", 1), (std::vector<int64_t>{0, 0, 2, 4}));
  const Node* second = graph.lastNode();
  Result<Array> flat = arrayFromTensor(*second->input(1)->initializer());
  ASSERT_TRUE(flat);
  EXPECT_EQ(flat->data<int64_t>()[0], -1);
  EXPECT_EQ(flat->data<int64_t>()[1], 8);
  EXPECT_EQ(inputDims(graph, 0), "B,S,8,");
  expectSameOutputs(kViewAsHeads, done.model, floats("x", {3, 5, 8}));
  expectSameOutputs(kViewAsHeads, done.model, floats("x", {1, 1, 8}));
}

constexpr std::string_view kStaticPieces = R"(
  <ir_version: 8, opset_import: ["" : 17]>
  g (float[B,3,4] x) => (float[B,12] y, int64 c, int64 n)
    <int64[1] start = {1}, int64[1] end = {3}, int64[1] minus = {-1}, int64[1] axes = {0}> {
    w = ReduceSum <keepdims = 0> (x, axes)
    n = Size (w)
    s = Shape (x)
    tail = Slice (s, start, end)
    c = ReduceProd <keepdims = 0> (tail)
    cu = Unsqueeze (c, axes)
    t = Concat <axis = 0> (minus, cu)
    y = Reshape (x, t)
  })";

TEST(ShapeFolding, StaticDimensionsFoldToNumbersAndTheirConsumersToConstants) {
  auto done = optimizeChecked(kStaticPieces, kPasses, floats("x", {2, 3, 4}));
  const Graph& graph = *done.model.graph;
  EXPECT_EQ(opTypes(graph), "Reshape");
  EXPECT_EQ(constantOperand(graph, "Reshape", 1), (std::vector<int64_t>{-1, 12}));
  EXPECT_EQ(graph.outputs[1]->bound()->name(), "c");  // the output kept its name
  const Value* size = graph.outputs[2]->bound();
  ASSERT_NE(size->initializer(), nullptr);
  Result<Array> elements = arrayFromTensor(*size->initializer());
  ASSERT_TRUE(elements);
  EXPECT_EQ(elements->data<int64_t>()[0], 12);
  expectSameOutputs(kStaticPieces, done.model, floats("x", {5, 3, 4}));
}

// Shape inside a function body: the gate that spares models without Shape or Size their
// inference looks into bodies too.
constexpr std::string_view kShapeInAFunction = R"(
  <ir_version: 8, opset_import: ["" : 17, "lib" : 1]>
  g (float[2,3] x) => (float[6] y) {
    s = lib.ShapeOf (x)
    n = ReduceProd <keepdims = 1> (s)
    y = Reshape (x, n)
  }
  <domain: "lib", opset_import: ["" : 17]>
  ShapeOf (i) => (o) { o = Shape (i) })";

TEST(ShapeFolding, AShapeInAFunctionBodyStillFolds) {
  auto done = optimizeChecked(kShapeInAFunction, kPasses, floats("x", {2, 3}));
  EXPECT_EQ(opTypes(*done.model.graph), "Reshape");
  EXPECT_EQ(constantOperand(*done.model.graph, "Reshape", 1), (std::vector<int64_t>{6}));
}

constexpr std::string_view kOpenShapeStays = R"(
  <ir_version: 8, opset_import: ["" : 17]>
  g (float[B,S] x) => (float[B,S] y) {
    s = Shape (x)
    zeros = ConstantOfShape (s)
    y = Add (x, zeros)
  })";

TEST(ShapeFolding, AShapeWithOpenDimensionsIsNeverFixed) {
  auto done = optimizeChecked(kOpenShapeStays, kPasses, floats("x", {2, 3}));
  EXPECT_EQ(opTypes(*done.model.graph), "Shape ConstantOfShape Add");
  expectSameOutputs(kOpenShapeStays, done.model, floats("x", {4, 1}));
}

// value_info written for one traced run (a batch of 1) must not become a constant.
constexpr std::string_view kTracedValueInfo = R"(
  <ir_version: 8, opset_import: ["" : 17]>
  g (float[B,4] x) => (float[B,4] y) <float[1,4] h> {
    h = Relu (x)
    s = Shape (h)
    y = Reshape (x, s)
  })";

TEST(ShapeFolding, ValueInfoOfATracedRunIsNotTrusted) {
  auto done = optimizeChecked(kTracedValueInfo, kPasses, floats("x", {1, 4}));
  EXPECT_EQ(constantOperand(*done.model.graph, "Reshape", 1), (std::vector<int64_t>{0, 4}));
  expectSameOutputs(kTracedValueInfo, done.model, floats("x", {3, 4}));
}

constexpr std::string_view kExpands = R"(
  <ir_version: 8, opset_import: ["" : 17]>
  g (float[B,1,S] mask, float[B,4,S] scores) => (float[B,4,S] y, float[B,1,S] z) {
    s = Shape (scores)
    m = Expand (mask, s)
    y = Add (m, scores)
    own = Shape (mask)
    same = Expand (mask, own)
    z = Mul (same, mask)
  })";

TEST(ShapeFolding, ExpandShapesBecomeOnesAndAnExpandToItsOwnShapeGoes) {
  std::vector<NamedValue> inputs = floats("mask", {2, 1, 3});
  std::vector<NamedValue> more = floats("scores", {2, 4, 3});
  inputs.push_back(more[0]);
  auto done = optimizeChecked(kExpands, kPasses, inputs);
  const Graph& graph = *done.model.graph;
  EXPECT_EQ(opTypes(graph), "Expand Add Mul");
  EXPECT_EQ(constantOperand(graph, "Expand", 1), (std::vector<int64_t>{1, 4, 1}));
  std::vector<NamedValue> other = floats("mask", {5, 1, 2});
  other.push_back(floats("scores", {5, 4, 2})[0]);
  expectSameOutputs(kExpands, done.model, other);
}

constexpr std::string_view kAllowZero = R"(
  <ir_version: 8, opset_import: ["" : 17]>
  g (float[B,6] x) => (float[B,2,3] y) <int64 zero = {0}, int64[1] axes = {0},
                                        int64[2] rest = {2, 3}> {
    s = Shape (x)
    b = Gather <axis = 0> (s, zero)
    bu = Unsqueeze (b, axes)
    t = Concat <axis = 0> (bu, rest)
    y = Reshape <allowzero = 1> (x, t)
  })";

TEST(ShapeFolding, WithAllowZeroAnOpenDimensionBecomesMinusOneNotZero) {
  auto done = optimizeChecked(kAllowZero, kPasses, floats("x", {2, 6}));
  EXPECT_EQ(constantOperand(*done.model.graph, "Reshape", 1), (std::vector<int64_t>{-1, 2, 3}));
  expectSameOutputs(kAllowZero, done.model, floats("x", {7, 6}));
}

constexpr std::string_view kTwoOpen = R"(
  <ir_version: 8, opset_import: ["" : 17]>
  g (float[B,S] x) => (float[S,B] y) <int64 zero = {0}, int64 one = {1}, int64[1] axes = {0}> {
    s = Shape (x)
    b = Gather <axis = 0> (s, zero)
    q = Gather <axis = 0> (s, one)
    bu = Unsqueeze (b, axes)
    qu = Unsqueeze (q, axes)
    t = Concat <axis = 0> (qu, bu)
    y = Reshape (x, t)
  })";

TEST(ShapeFolding, TwoOpenDimensionsOutOfPlaceStay) {
  auto done = optimizeChecked(kTwoOpen, kPasses, floats("x", {2, 3}));
  EXPECT_NE(opTypes(*done.model.graph).find("Shape"), std::string::npos);
  expectSameOutputs(kTwoOpen, done.model, floats("x", {4, 5}));
}

constexpr std::string_view kInABranch = R"(
  <ir_version: 8, opset_import: ["" : 17]>
  g (bool c, float[B,3] x) => (float[B,3] y) <int64 one = {1}, int64[1] axes = {0},
                                             int64[1] minus = {-1}> {
    y = If (c) <then_branch = t () => (float[B,3] a) {
      s = Shape (x)
      w = Gather <axis = 0> (s, one)
      wu = Unsqueeze (w, axes)
      shape = Concat <axis = 0> (minus, wu)
      a = Reshape (x, shape)
    }, else_branch = e () => (float[B,3] b) {
      b = Neg (x)
    }>
  })";

TEST(ShapeFolding, AStaticPieceInABranchBecomesAConstantNode) {
  std::vector<NamedValue> inputs = {{"c", tensorOf<bool>(ElementType::kBool, {}, {true})}};
  inputs.push_back(floats("x", {2, 3})[0]);
  auto done = optimizeChecked(kInABranch, kPasses, inputs);
  const Graph& branch = *done.model.graph->firstNode()->graphAttr("then_branch");
  EXPECT_EQ(opTypes(branch), "Constant Reshape");
  EXPECT_EQ(constantOperand(branch, "Reshape", 1), (std::vector<int64_t>{-1, 3}));
}

// A loop-carried value grows each iteration: its Shape in the body must stay computed.
constexpr std::string_view kGrowingLoop = R"(
  <ir_version: 8, opset_import: ["" : 17]>
  g (float[1] start) => (float[N] y) <int64 trips = {3}, bool go = {1}> {
    y = Loop (trips, go, start) <body = b (int64 i, bool cond, float[K] c)
                                        => (bool cond_out, float[M] c_out) {
      cond_out = Identity (cond)
      s = Shape (c)
      cs = Cast <to = 1> (s)
      c_out = Concat <axis = 0> (c, cs)
    }>
  })";

TEST(ShapeFolding, TheShapeOfALoopCarriedValueStaysComputed) {
  std::vector<NamedValue> start = {{"start", tensorOf<float>(ElementType::kFloat, {1}, {5})}};
  auto done = optimizeChecked(kGrowingLoop, kPasses, start);
  const Graph& body = *done.model.graph->firstNode()->graphAttr("body");
  EXPECT_EQ(opTypes(body), "Identity Shape Cast Concat");
  Result<std::vector<EvalValue>> outputs = evaluate(done.model, start);
  ASSERT_TRUE(outputs);
  EXPECT_EQ(testing::valuesOf<float>((*outputs)[0]), (std::vector<float>{5, 1, 2, 3}));
}

// The pass's edits of every graph are one step: made to fail after recording some graphs'
// edits, it leaves the model's bytes as they were.
TEST(ShapeFolding, FailingHalfWayLeavesTheModelAsItWas) {
  testing::expectAllOrNothing(R"(
    <ir_version: 8, opset_import: ["" : 17]>
    g (float[2,3] x, bool c) => (int64[2] y, int64[2] z) {
      s = Shape (x)
      y = Neg (s)
      z = If (c) <then_branch = t () => (int64[2] a) {
                     inner = Shape (x)
                     a = Abs (inner)
                   },
                   else_branch = e () => (int64[2] b) { b = Identity (s) }>
    })",
                              "shape-folding");
}

}  // namespace
}  // namespace onyx
