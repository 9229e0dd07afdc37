// convertToFloat16: float32 weights and computation become float16 where the operators allow
// it, with Casts where an operator, a kept type or a fixed parameter type needs float32; the
// converted model checks, runs and computes what the original does within float16's rounding.
#include "onyx/passes/float16.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <limits>

#include "onyx/check/checker.h"
#include "onyx/core/float_formats.h"
#include "onyx/ir/editor.h"
#include "onyx/ir/tensor_data.h"
#include "onyx/serde/model_io.h"
#include "onyx/text/printer.h"
#include "support/check_testing.h"
#include "support/eval_testing.h"
#include "support/graph_testing.h"

namespace onyx {
namespace {

using testing::bytesOf;
using testing::parseOrFail;
using testing::tensorOf;
using testing::verified;

constexpr int32_t kFloat16 = static_cast<int32_t>(ElementType::kFloat16);
constexpr int32_t kFloat = static_cast<int32_t>(ElementType::kFloat);

constexpr std::string_view kDense = R"(
  <ir_version: 8, opset_import: ["" : 17]>
  g (float[N,3] x) => (float[N,2] y)
    <float[3,2] w = {0.5, -1.0, 0.25, 2.0, -0.75, 1.5}, float[2] b = {0.125, -0.5}> {
    h = MatMul (x, w)
    a = Add (h, b)
    y = Relu (a)
  })";

Model converted(std::string_view text, const Float16Options& options = {}) {
  Model model = parseOrFail(text);
  Result<Float16Report> report = convertToFloat16(model, options);
  EXPECT_TRUE(report.isOk()) << report.status().toString();
  EXPECT_TRUE(verified(model));
  Diagnostics diagnostics = checkModel(model);
  EXPECT_FALSE(diagnostics.hasErrors()) << testing::listed(diagnostics) << printModel(model);
  return model;
}

size_t countOps(const Graph& graph, std::string_view op) {
  size_t count = 0;
  for (const Node* node : graph.nodes()) count += node->opType() == op ? 1 : 0;
  return count;
}

int32_t declaredElemType(const Value* value) {
  const Type* type = value->type();
  return type != nullptr && type->elem_type ? *type->elem_type : 0;
}

// The elements of a FLOAT16 or FLOAT output as floats.
std::vector<float> floatsOf(const EvalValue& value) {
  const Array& array = value.tensor;
  std::vector<float> floats;
  for (size_t i = 0; i < array.size(); ++i) {
    floats.push_back(array.type() == ElementType::kFloat16
                         ? float16ToFloat(array.data<uint16_t>()[i])
                         : array.data<float>()[i]);
  }
  return floats;
}

EvalValue halves(std::vector<int64_t> shape, const std::vector<float>& values) {
  std::vector<uint16_t> codes;
  for (float value : values) codes.push_back(floatToFloat16(value));
  return tensorOf<uint16_t>(ElementType::kFloat16, std::move(shape), codes);
}

Result<std::vector<EvalValue>> runWith(const Model& model, std::vector<NamedValue> inputs) {
  return evaluate(model, inputs);
}

const std::vector<float> kInput = {1.0f, 2.0f, -1.0f, 0.5f, -0.25f, 3.0f};

TEST(Float16, ConvertsWeightsAndComputationAndDeclarations) {
  Model model = converted(kDense);
  const Graph& graph = *model.graph;
  EXPECT_EQ(declaredElemType(graph.inputs[0]->value), kFloat16);
  EXPECT_EQ(declaredElemType(graph.outputs[0]->bound()), kFloat16);
  for (const Tensor* weight : graph.initializers) EXPECT_EQ(weight->data_type, kFloat16);
  EXPECT_EQ(countOps(graph, "Cast"), 0u) << printModel(model);

  auto outputs = runWith(model, {{"x", halves({2, 3}, kInput)}});
  ASSERT_TRUE(outputs.isOk()) << outputs.status().toString();
  ASSERT_EQ((*outputs)[0].tensor.type(), ElementType::kFloat16);
  Model original = parseOrFail(kDense);
  auto expected = runWith(original, {{"x", tensorOf<float>(ElementType::kFloat, {2, 3}, kInput)}});
  ASSERT_TRUE(expected.isOk());
  std::vector<float> got = floatsOf((*outputs)[0]);
  std::vector<float> want = floatsOf((*expected)[0]);
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], want[i], 1e-2) << i;
}

TEST(Float16, KeepsInputAndOutputTypesWithCastsAndTheOutputsName) {
  Float16Options options;
  options.keep_io_types = true;
  Model model = converted(kDense, options);
  const Graph& graph = *model.graph;
  EXPECT_EQ(declaredElemType(graph.inputs[0]->value), kFloat);
  const Value* y = graph.outputs[0]->bound();
  EXPECT_EQ(y->name(), "y");
  EXPECT_EQ(declaredElemType(y), kFloat);
  ASSERT_NE(y->producer(), nullptr);
  EXPECT_EQ(y->producer()->opType(), "Cast");
  EXPECT_EQ(countOps(graph, "Cast"), 2u) << printModel(model);
  EXPECT_EQ(graph.initializers[0]->data_type, kFloat16);

  auto outputs = runWith(model, {{"x", tensorOf<float>(ElementType::kFloat, {2, 3}, kInput)}});
  ASSERT_TRUE(outputs.isOk()) << outputs.status().toString();
  EXPECT_EQ((*outputs)[0].tensor.type(), ElementType::kFloat);
}

TEST(Float16, KeepsTheOperatorsAskedForInFloat32) {
  Float16Options options;
  options.keep_ops = {"Relu"};
  Model model = parseOrFail(kDense);
  Result<Float16Report> report = convertToFloat16(model, options);
  ASSERT_TRUE(report.isOk()) << report.status().toString();
  EXPECT_EQ(report->nodes_converted, 2u);
  EXPECT_EQ(report->kept_ops.at("Relu"), 1u);
  // Relu reads a Cast to float32, and y (float16, as the outputs are not kept) a Cast back.
  EXPECT_EQ(report->casts_added, 2u);
  const Node* relu = nullptr;
  for (const Node* node : model.graph->nodes()) {
    if (node->opType() == "Relu") relu = node;
  }
  ASSERT_NE(relu, nullptr);
  EXPECT_EQ(relu->input(0)->producer()->opType(), "Cast");
  EXPECT_EQ(model.graph->outputs[0]->bound()->name(), "y");
  EXPECT_FALSE(checkModel(model).hasErrors()) << printModel(model);
  EXPECT_TRUE(runWith(model, {{"x", halves({2, 3}, kInput)}}).isOk());
}

// Range's type variable does not allow float16; Resize's `scales` is tensor(float) whatever
// its data's type.
TEST(Float16, LeavesWhatTheSchemaAllowsOnlyInFloat32) {
  Model model = converted(R"(
    <ir_version: 8, opset_import: ["" : 17]>
    g (float[1,1,2,2] x, float limit) => (float[1,1,4,4] y, float[?] r) {
      scales = Constant <value = float[4] {1.0, 1.0, 2.0, 2.0}> ()
      y = Resize <mode = "nearest"> (x, , scales)
      start = Constant <value_float = 0.0> ()
      step = Constant <value_float = 0.5> ()
      r = Range (start, limit, step)
    })");
  const Graph& graph = *model.graph;
  for (const Node* node : graph.nodes()) {
    if (node->opType() == "Resize") {
      EXPECT_EQ(declaredElemType(node->input(0)), kFloat16);
      EXPECT_EQ(node->input(2)->producer()->opType(), "Constant") << printModel(model);
    }
    if (node->opType() == "Range") {
      for (size_t i = 0; i < 3; ++i) {
        const Node* producer = node->input(i)->producer();
        // Its inputs are float32: the float16 graph input through a Cast, the constants kept.
        if (producer != nullptr && producer->opType() == "Cast") {
          EXPECT_EQ(producer->intAttr("to"), kFloat);
        }
      }
    }
  }
  auto outputs =
      runWith(model, {{"x", halves({1, 1, 2, 2}, {1, 2, 3, 4})}, {"limit", halves({}, {2.0f})}});
  ASSERT_TRUE(outputs.isOk()) << outputs.status().toString();
  EXPECT_EQ(floatsOf((*outputs)[0])[5], 1.0f);
  EXPECT_EQ((*outputs)[1].tensor.type(), ElementType::kFloat16);
  EXPECT_EQ(floatsOf((*outputs)[1]), (std::vector<float>{0.0f, 0.5f, 1.0f, 1.5f}));
}

TEST(Float16, RewritesCastConstantAndConstantOfShapeThatMakeFloat32) {
  Model model = converted(R"(
    <ir_version: 8, opset_import: ["" : 17]>
    g (int64[3] n) => (float[3] y, float[?] z) {
      f = Cast <to = 1> (n)
      k = Constant <value_float = 1.5> ()
      y = Add (f, k)
      s = Constant <value = int64[1] {2}> ()
      zeros = ConstantOfShape (s)
      ks = Constant <value_floats = [0.25, 0.5]> ()
      z = Add (zeros, ks)
    })");
  for (const Node* node : model.graph->nodes()) {
    if (node->opType() == "Cast") {
      EXPECT_EQ(node->intAttr("to"), kFloat16);
    }
    if (node->opType() == "Constant" && node->output(0)->name() != "s") {
      const Attribute* value = node->attribute("value");
      ASSERT_NE(value, nullptr) << printModel(model);
      EXPECT_EQ(value->t->data_type, kFloat16);
      EXPECT_EQ(node->attribute("value_float"), nullptr);
      EXPECT_EQ(node->attribute("value_floats"), nullptr);
    }
  }
  EXPECT_EQ(countOps(*model.graph, "Cast"), 1u) << printModel(model);
  auto outputs = runWith(model, {{"n", tensorOf<int64_t>(ElementType::kInt64, {3}, {1, 2, 3})}});
  ASSERT_TRUE(outputs.isOk()) << outputs.status().toString();
  EXPECT_EQ(floatsOf((*outputs)[0]), (std::vector<float>{2.5f, 3.5f, 4.5f}));
  EXPECT_EQ(floatsOf((*outputs)[1]), (std::vector<float>{0.25f, 0.5f}));
}

TEST(Float16, SaturatesBeyondItsRangeAndKeepsTinyValuesNonzero) {
  Model model = converted(R"(
    <ir_version: 8, opset_import: ["" : 17]>
    g (float[6] x) => (float[6] y)
      <float[6] w = {1e9, -3.4e38, 1e-12, -1e-30, 0.0, 1.0}> {
      y = Mul (x, w)
    })");
  Result<TensorBytes> bytes = rawBytes(*model.graph->initializers[0]);
  ASSERT_TRUE(bytes);
  ASSERT_EQ(bytes->bytes().size(), 12u);
  std::vector<float> values;
  for (size_t i = 0; i < 6; ++i) {
    uint16_t code = 0;
    std::memcpy(&code, bytes->bytes().data() + 2 * i, 2);
    values.push_back(float16ToFloat(code));
  }
  const float tiny = std::ldexp(1.0f, -24);
  EXPECT_EQ(values, (std::vector<float>{65504.0f, -65504.0f, tiny, -tiny, 0.0f, 1.0f}));
}

// A weight of a megabyte or more is computed when written: the bytes equal the element by
// element conversion, inline or in external data.
TEST(Float16, ComputesLargeWeightsWhenWritten) {
  Model model = parseOrFail(R"(
    <ir_version: 8, opset_import: ["" : 17]>
    g (float[600000] x) => (float[600000] y) <float[1] w = {0.5}> { y = Add (x, w) })");
  Tensor& w = *model.graph->initializers[0];
  GraphEditor edit(model);
  w.dims.values.clear();
  w.dims.values.push_back(edit.arena(), 600000);
  std::vector<float> floats(600000);
  for (size_t i = 0; i < floats.size(); ++i)
    floats[i] = static_cast<float>(i % 1000) * 0.37f - 150.0f;
  w.raw_data = edit.arena().copy(std::string_view(reinterpret_cast<const char*>(floats.data()),
                                                  floats.size() * sizeof(float)));
  ASSERT_TRUE(convertToFloat16(model).isOk());
  ASSERT_EQ(tensorStorage(*model.graph->initializers[0]), TensorStorage::kComputed);

  char name[] = "/tmp/onyx-float16-XXXXXX";
  ASSERT_NE(mkdtemp(name), nullptr);
  std::filesystem::path folder = name;
  SaveOptions options;
  options.external_file = "w.data";
  options.external_threshold = 1024;
  ASSERT_TRUE(saveModel(model, (folder / "m.onnx").string(), options));
  Result<Model> loaded = loadModel((folder / "m.onnx").string());
  ASSERT_TRUE(loaded.isOk()) << loaded.status().toString();
  const Tensor& written = *loaded->graph->initializers[0];
  EXPECT_EQ(written.data_type, kFloat16);
  Result<TensorBytes> bytes = rawBytes(written);
  ASSERT_TRUE(bytes) << bytes.status().toString();
  ASSERT_EQ(bytes->bytes().size(), floats.size() * 2);
  size_t wrong = 0;
  for (size_t i = 0; i < floats.size(); ++i) {
    uint16_t code = 0;
    std::memcpy(&code, bytes->bytes().data() + 2 * i, 2);
    wrong += code != floatToFloat16(floats[i]) ? 1 : 0;
  }
  EXPECT_EQ(wrong, 0u);
  std::filesystem::remove_all(folder);
}

// An If keeps its float32 interface; its branches are converted inside, with Casts.
TEST(Float16, ConvertsInsideSubgraphsBehindAFloat32Interface) {
  Model model = converted(R"(
    <ir_version: 8, opset_import: ["" : 17]>
    g (bool c, float[2] x) => (float[2] y) <float[2] w = {2.0, 3.0}> {
      y = If (c) <
        then_branch = t () => (float[2] tout) { tout = Mul (x, w) },
        else_branch = e () => (float[2] eout) { eout = Add (x, w) }>
    })");
  const Graph& graph = *model.graph;
  auto outputs = runWith(model, {{"c", tensorOf<bool>(ElementType::kBool, {}, {true})},
                                 {"x", halves({2}, {1.5f, -2.0f})}});
  ASSERT_TRUE(outputs.isOk()) << outputs.status().toString() << printModel(model);
  EXPECT_EQ(floatsOf((*outputs)[0]), (std::vector<float>{3.0f, -6.0f}));
  EXPECT_EQ((*outputs)[0].tensor.type(), ElementType::kFloat16);
  EXPECT_GE(countOps(graph, "Cast"), 1u);
}

// A kept node inside a branch reading a float16 value of the enclosing graph gets its Cast
// inside the branch.
TEST(Float16, CastsAnEnclosingValueInsideTheBranchThatReadsIt) {
  Float16Options options;
  options.keep_ops = {"Relu"};
  Model model = converted(R"(
    <ir_version: 8, opset_import: ["" : 17]>
    g (bool c, float[2] x) => (float[2] y) {
      h = Neg (x)
      y = If (c) <
        then_branch = t () => (float[2] tout) { tout = Relu (h) },
        else_branch = e () => (float[2] eout) { eout = Abs (h) }>
    })",
                          options);
  const Node* branch_holder = model.graph->lastNode()->input(0)->producer();
  ASSERT_NE(branch_holder, nullptr);
  ASSERT_EQ(branch_holder->opType(), "If") << printModel(model);
  const Graph* then_branch = branch_holder->attribute("then_branch")->g;
  const Node* first = then_branch->firstNode();
  ASSERT_NE(first, nullptr);
  EXPECT_EQ(first->opType(), "Cast") << printModel(model);
  EXPECT_EQ(first->input(0)->name(), "h");
  auto outputs = runWith(model, {{"c", tensorOf<bool>(ElementType::kBool, {}, {true})},
                                 {"x", halves({2}, {1.5f, -2.0f})}});
  ASSERT_TRUE(outputs.isOk()) << outputs.status().toString() << printModel(model);
  EXPECT_EQ(floatsOf((*outputs)[0]), (std::vector<float>{0.0f, 2.0f}));
}

// A node onyx has no schema for (another domain) stays as it is: it reads float32.
TEST(Float16, KeepsOperatorsWithoutASchema) {
  Model model = parseOrFail(R"(
    <ir_version: 8, opset_import: ["" : 17, "com.example" : 1]>
    g (float[2] x) => (float[2] y) {
      a = Relu (x)
      y = com.example.Scale (a)
    })");
  Result<Float16Report> report = convertToFloat16(model);
  ASSERT_TRUE(report.isOk()) << report.status().toString();
  EXPECT_EQ(report->kept_ops.count("Scale"), 1u);
  // y, declared float, is float16 like every output: a Cast after Scale.
  const Node* cast = model.graph->lastNode();
  EXPECT_EQ(cast->opType(), "Cast");
  const Node* scale = cast->input(0)->producer();
  ASSERT_NE(scale, nullptr);
  EXPECT_EQ(scale->opType(), "Scale");
  ASSERT_NE(scale->input(0)->producer(), nullptr);
  EXPECT_EQ(scale->input(0)->producer()->opType(), "Cast") << printModel(model);
}

// A Cast without its input (an invalid model, kept as read) is left as it is, without a crash.
TEST(Float16, LeavesACastWithoutItsInputAlone) {
  Model model = parseOrFail(R"(
    <ir_version: 8, opset_import: ["" : 17]>
    g (float[2] x) => (float[2] y, float[2] z) {
      y = Relu (x)
      z = Cast <to = 1> ()
    })");
  std::string before = bytesOf(model);
  Result<Float16Report> report = convertToFloat16(model);
  if (!report.isOk()) {
    EXPECT_FALSE(report.status().message().empty());
    EXPECT_EQ(bytesOf(model), before);
  } else {
    EXPECT_TRUE(verified(model));
  }
}

TEST(Float16, LeavesTheModelAsItWasOnAnError) {
  Model model = parseOrFail(kDense);
  // w's bytes are shorter than its dims say.
  Tensor& w = *model.graph->initializers[0];
  w.rare_fields = nullptr;
  w.raw_data = std::string_view("\0\0\0\0\0\0\0\0", 8);
  std::string before = bytesOf(model);
  Result<Float16Report> report = convertToFloat16(model);
  EXPECT_FALSE(report.isOk());
  EXPECT_EQ(bytesOf(model), before);
}

}  // namespace
}  // namespace onyx
