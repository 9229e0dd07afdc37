// Models as exporters write them, through every layer: the checker (with inference's rules,
// as `onyx check` runs it), inference, the evaluator, the text syntax both ways and the binary
// format both ways. Each quirk below was met in models that onnx's checker accepts and
// onnxruntime runs; each model is built here from the text syntax and the graph API.
#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

#include "onyx/check/checker.h"
#include "onyx/eval/evaluator.h"
#include "onyx/infer/infer.h"
#include "onyx/ir/editor.h"
#include "onyx/ir/topo_sort.h"
#include "onyx/text/parser.h"
#include "onyx/text/printer.h"
#include "support/check_testing.h"
#include "support/eval_testing.h"
#include "support/graph_testing.h"
#include "support/model_equal.h"

namespace onyx {
namespace {

using testing::bytesOf;
using testing::errorRules;
using testing::floatOutputs;
using testing::listed;
using testing::parseOrFail;
using testing::parseOwned;
using testing::Rules;
using testing::tensorOf;
using testing::valuesOf;
using testing::warningRules;

const Rules kNone;

// What `onyx check` reports: the checker's rules, then inference's (R36, X5).
Diagnostics checked(const Model& model) {
  CheckOptions options;
  options.more_rules = checkInferredTypes;
  return checkModel(model, options);
}

EvalValue floats(std::vector<float> values) {
  const auto count = static_cast<int64_t>(values.size());
  return tensorOf<float>(ElementType::kFloat, {count}, values);
}

EvalValue boolean(bool value) {
  return tensorOf<uint8_t>(ElementType::kBool, {}, {static_cast<uint8_t>(value)});
}

// The model written and read back writes the same bytes again.
void expectBinaryRoundTrip(const Model& model) {
  const std::string bytes = bytesOf(model);
  Model back = parseOwned(bytes);
  EXPECT_EQ(bytesOf(back), bytes);
}

// The model printed as text and parsed back: the same model, but for what the text syntax
// cannot hold (docs/text-syntax-printing.md).
Model textRoundTrip(const Model& model) {
  Result<Model> back = parseText(printModel(model));
  EXPECT_TRUE(back) << back.status().toString();
  if (!back) return Model();
  testing::ModelEqualOptions options;
  options.ignore_text_losses = true;
  std::optional<testing::ModelDifference> difference =
      testing::firstDifference(model, *back, options);
  EXPECT_FALSE(difference.has_value()) << difference->toString();
  return std::move(back).value();
}

// ---- empty types in subgraphs -----------------------------------------------------------------

// PyTorch's exporter gives If branches and Loop bodies inputs and outputs whose `type` is
// present but sets no kind. Untyped here; the test gives them that empty type.
constexpr std::string_view kControlFlow = R"(<ir_version: 8, opset_import: ["" : 16]>
g (bool c, float[2] x) => (float[2] y, float[2] z) <int64 n = {3}> {
  t = Neg(x)
  y = If (c) <then_branch = th () => (p) { p = Abs(t) },
              else_branch = el () => (q) { q = Identity(t) }>
  z = Loop (n, "", x) <body = l (i, d, v) => (e, w) { e = Identity(d)  w = Add(v, t) }>
}
)";

// The inputs and outputs of every graph nested in `model`'s main graph get an empty type.
void giveNestedGraphsEmptyTypes(Model& model) {
  for (Node* node = model.graph->firstNode(); node != nullptr; node = node->next()) {
    for (Attribute* attribute : node->attributes) {
      if (attribute->g == nullptr) continue;
      for (ValueInfo* info : attribute->g->inputs)
        info->type = GraphEditor(model).arena().make<Type>();
      for (ValueInfo* info : attribute->g->outputs)
        info->type = GraphEditor(model).arena().make<Type>();
    }
  }
}

// Up to IR 3 every initializer had to be listed as an input, subgraphs' too: a Loop body
// lists its own after the inputs the Loop passes. The checker, inference and the evaluator
// all count only the inputs passed.
TEST(ExporterQuirks, AnIrThreeLoopBodyListsItsInitializersAsInputs) {
  Model model = parseOrFail(R"(
    <ir_version: 3, opset_import: ["" : 11]>
    g (float[2] x) => (float[2] y) {
      n = Constant <value = int64 {3}> ()
      go = Constant <value = bool {1}> ()
      y = Loop (n, go, x) <body = body (int64 i, bool cond, float[2] acc, float[2] step)
                                  => (bool cond_out, float[2] acc_out)
                                  <float[2] step = {1.0, 2.0}> {
        cond_out = Identity (cond)
        acc_out = Add (acc, step)
      }>
    })");
  Diagnostics checked = checkModel(model);
  EXPECT_FALSE(checked.hasErrors()) << listed(checked);
  InferResult inferred = inferModel(model);
  EXPECT_FALSE(inferred.diagnostics.hasErrors()) << listed(inferred.diagnostics);
  std::vector<std::vector<float>> outputs =
      floatOutputs(model, {{"x", tensorOf<float>(ElementType::kFloat, {2}, {0.5f, 0.0f})}});
  ASSERT_EQ(outputs.size(), 1u);
  EXPECT_EQ(outputs[0], (std::vector<float>{3.5f, 6.0f}));
}

TEST(ExporterQuirks, EmptyTypesInSubgraphsAreUnknownTypes) {
  Model model = parseOrFail(kControlFlow);
  giveNestedGraphsEmptyTypes(model);
  // Through the binary format, as an exporter's file would come: the empty types stay.
  model = parseOwned(bytesOf(model));
  const ValueInfo& branch_output =
      *model.graph->firstNode()->next()->graphAttr("then_branch")->outputs[0];
  ASSERT_NE(branch_output.type, nullptr);
  EXPECT_EQ(branch_output.type->kind, Type::Kind::kNone);

  Diagnostics found = checked(model);
  EXPECT_EQ(errorRules(found), kNone) << listed(found);
  EXPECT_EQ(warningRules(found), kNone) << listed(found);

  expectBinaryRoundTrip(model);

  // The text has no spelling for an empty type: it is written as no type, which says the
  // same, and the printer counts it as lost.
  std::vector<TextLoss> losses = textLosses(model);
  ASSERT_EQ(losses.size(), 7u);
  // Once each.
  EXPECT_EQ(losses[0].path, "graph.node[1].attribute[0](then_branch).g.output[0](p).type");
  EXPECT_EQ(losses[0].detail, "a type with no member set");
  EXPECT_EQ(losses[1].path, "graph.node[1].attribute[1](else_branch).g.output[0](q).type");
  Model from_text = textRoundTrip(model);
  found = checked(from_text);
  EXPECT_EQ(errorRules(found), kNone) << listed(found);

  const std::vector<NamedValue> taken = {{"c", boolean(true)}, {"x", floats({1, -2})}};
  const std::vector<NamedValue> not_taken = {{"c", boolean(false)}, {"x", floats({1, -2})}};
  using Outputs = std::vector<std::vector<float>>;
  EXPECT_EQ(floatOutputs(model, taken), (Outputs{{1, 2}, {-2, 4}}));
  EXPECT_EQ(floatOutputs(model, not_taken), (Outputs{{-1, 2}, {-2, 4}}));
  EXPECT_EQ(floatOutputs(from_text, taken), floatOutputs(model, taken));

  // Inference sees through the unknown types to what the bodies compute.
  InferResult inferred = inferModel(model);
  EXPECT_FALSE(inferred.diagnostics.hasErrors()) << listed(inferred.diagnostics);
  EXPECT_EQ(formatType(*model.graph->outputs[0]->type), "float[2]");
  EXPECT_EQ(formatType(*model.graph->outputs[1]->type), "float[2]");
}

TEST(ExporterQuirks, AnEmptyTypeOnTheMainGraphIsStillAnError) {
  // The main graph's inputs and outputs MUST be typed (IR.md "Graphs").
  Model model = parseOrFail(kControlFlow);
  giveNestedGraphsEmptyTypes(model);
  model.graph->inputs[1]->type = GraphEditor(model).arena().make<Type>();
  model.graph->outputs[0]->type = GraphEditor(model).arena().make<Type>();
  model = parseOwned(bytesOf(model));
  Diagnostics found = checked(model);
  ASSERT_EQ(errorRules(found), (Rules{"R83", "R83"})) << listed(found);
  EXPECT_EQ(found.all()[0].path, "graph.input[1](x).type");
  EXPECT_EQ(found.all()[1].path, "graph.output[0](y).type");
}

// ---- nodes out of order -----------------------------------------------------------------------

// A float16 converter's output: the Cast of the graph input is left at the end.
constexpr std::string_view kUnsorted = R"(<ir_version: 8, opset_import: ["" : 13]>
g (float16[3] x) => (float16[3] y) {
  ["/conv_in/Relu"] h = Relu(graph_input_cast_0)
  [graph_output_cast_0] y = Cast <to = 10> (h)
  [graph_input_cast_0] graph_input_cast_0 = Cast <to = 1> (x)
}
)";

EvalValue halves() {
  // -1.5, 0.5, 2 as float16 bits.
  return tensorOf<uint16_t>(ElementType::kFloat16, {3}, {0xBE00, 0x3800, 0x4000});
}

TEST(ExporterQuirks, UnsortedNodesAreReportedWithTheRepairAndSorted) {
  Model model = parseOrFail(kUnsorted);
  Diagnostics found = checked(model);
  ASSERT_EQ(errorRules(found), (Rules{"R30"})) << listed(found);
  EXPECT_EQ(found.all()[0].path, "graph.node[0](/conv_in/Relu).input[0]");
  EXPECT_NE(found.all()[0].message.find("run `onyx convert --sort IN OUT` to reorder them"),
            std::string::npos)
      << found.all()[0].message;

  ASSERT_TRUE(topologicalSort(model));
  EXPECT_EQ(testing::opTypes(*model.graph), "Cast Relu Cast");
  found = checked(model);
  EXPECT_EQ(errorRules(found), kNone) << listed(found);
  const std::vector<NamedValue> inputs = {{"x", halves()}};
  Result<std::vector<EvalValue>> out = evaluate(model, inputs);
  ASSERT_TRUE(out) << out.status().toString();
  EXPECT_EQ(valuesOf<uint16_t>((*out)[0]), (std::vector<uint16_t>{0, 0x3800, 0x4000}));
  expectBinaryRoundTrip(model);
}

TEST(ExporterQuirks, TheEvaluatorRunsUnsortedNodes) {
  Model model = parseOrFail(kUnsorted);
  const std::vector<NamedValue> inputs = {{"x", halves()}};
  Result<std::vector<EvalValue>> out = evaluate(model, inputs);
  ASSERT_TRUE(out) << out.status().toString();
  EXPECT_EQ(valuesOf<uint16_t>((*out)[0]), (std::vector<uint16_t>{0, 0x3800, 0x4000}));
}

// ---- outer-scope names four If levels deep ---------------------------------------------------

// Each level reads values of every level above it: the main graph's input and node output,
// and what the levels between compute.
constexpr std::string_view kFourLevels = R"(<ir_version: 8, opset_import: ["" : 16]>
g (bool c, float[2] x) => (float[2] y) {
  a = Neg(x)
  y = If (c) <then_branch = l1 () => (float[2] y1) {
    b = Mul(a, x)
    y1 = If (c) <then_branch = l2 () => (float[2] y2) {
      d = Add(b, a)
      y2 = If (c) <then_branch = l3 () => (float[2] y3) {
        e = Mul(d, b)
        y3 = If (c) <then_branch = l4 () => (float[2] y4) { y4 = Add(e, a) },
                     else_branch = m4 () => (float[2] z4) { z4 = Sub(x, e) }>
      }, else_branch = m3 () => (float[2] z3) { z3 = Identity(d) }>
    }, else_branch = m2 () => (float[2] z2) { z2 = Identity(b) }>
  }, else_branch = m1 () => (float[2] z1) { z1 = Identity(a) }>
}
)";

TEST(ExporterQuirks, OuterScopeNamesFourIfLevelsDeep) {
  Model model = parseOrFail(kFourLevels);
  Diagnostics found = checked(model);
  EXPECT_EQ(errorRules(found), kNone) << listed(found);
  EXPECT_EQ(warningRules(found), kNone) << listed(found);

  // x = [1, 2]: a = [-1, -2], b = a * x = [-1, -4], d = b + a = [-2, -6],
  // e = d * b = [2, 24], y4 = e + a = [1, 22].
  using Outputs = std::vector<std::vector<float>>;
  EXPECT_EQ(floatOutputs(model, {{"c", boolean(true)}, {"x", floats({1, 2})}}), (Outputs{{1, 22}}));
  EXPECT_EQ(floatOutputs(model, {{"c", boolean(false)}, {"x", floats({1, 2})}}),
            (Outputs{{-1, -2}}));

  Model copy = textRoundTrip(model);
  InferResult inferred = inferModel(copy);
  EXPECT_FALSE(inferred.diagnostics.hasErrors()) << listed(inferred.diagnostics);
  EXPECT_EQ(formatType(*copy.graph->outputs[0]->type), "float[2]");
  expectBinaryRoundTrip(model);
}

// ---- opset imports no node uses ---------------------------------------------------------------

TEST(ExporterQuirks, OpsetImportsOfDomainsNoNodeUsesAreAcceptedAndKept) {
  // tf2onnx imports ai.onnx.ml and com.microsoft whatever the graph uses; PyTorch imports its
  // function libraries' domains.
  Model model = parseOrFail(R"(<ir_version: 8, opset_import: ["" : 13, "ai.onnx.ml" : 3,
  "com.microsoft" : 1, "ai.onnx.training" : 1, "pkg.onnxscript.torch_lib" : 1]>
g (float[2] x) => (float[2] y) { y = Relu(x) }
)");
  Diagnostics found = checked(model);
  EXPECT_EQ(errorRules(found), kNone) << listed(found);
  EXPECT_EQ(warningRules(found), kNone) << listed(found);
  using Outputs = std::vector<std::vector<float>>;
  EXPECT_EQ(floatOutputs(model, {{"x", floats({-1, 2})}}), (Outputs{{0, 2}}));

  InferResult inferred = inferModel(model);
  EXPECT_FALSE(inferred.diagnostics.hasErrors()) << listed(inferred.diagnostics);
  expectBinaryRoundTrip(model);
  Model back = textRoundTrip(model);
  ASSERT_EQ(back.opset_import.size(), 5u);
  EXPECT_EQ(back.opsetVersion("pkg.onnxscript.torch_lib"), 1);
  EXPECT_EQ(back.opsetVersion("com.microsoft"), 1);
}

// ---- names as exporters write them ------------------------------------------------------------

// PyTorch's scoped names (`/model/layers.0/...`), `::` from C++ namespaces, and a JSON text as
// a name: none is a C identifier, all are legal.
constexpr std::string_view kNames = R"(<ir_version: 8, opset_import: ["" : 13]>
g (float[2] "{\"a\": [1, 2]}", float[2] "a::b") => (float[2] "/model/layers.0/Conv_output_0")
  <float[2] "/model/layers.0/weight" = {10, 20}> {
  ["/model/layers.0/Add"] "layers.0.sum" = Add("{\"a\": [1, 2]}", "a::b")
  ["ns::Mul"] "ns::product" = Mul("layers.0.sum", "/model/layers.0/weight")
  ["/model/layers.0/Conv"] "/model/layers.0/Conv_output_0" = Relu("ns::product")
}
)";

TEST(ExporterQuirks, NamesHoldingJsonColonsDotsAndSlashes) {
  Model model = parseOrFail(kNames);
  ASSERT_EQ(model.graph->inputs.size(), 2u);
  EXPECT_EQ(model.graph->inputs[0]->value->name(), R"({"a": [1, 2]})");
  EXPECT_EQ(model.graph->inputs[1]->value->name(), "a::b");
  EXPECT_EQ(model.graph->firstNode()->nameOrEmpty(), "/model/layers.0/Add");

  Diagnostics found = checked(model);
  EXPECT_EQ(errorRules(found), kNone) << listed(found);
  EXPECT_EQ(warningRules(found), kNone) << listed(found);
  // Not C identifiers, which names SHOULD be: warnings, and only when asked for.
  CheckOptions style;
  style.name_style = true;
  found = checkModel(model, style);
  EXPECT_EQ(errorRules(found), kNone) << listed(found);
  EXPECT_FALSE(warningRules(found).empty());

  const std::vector<NamedValue> inputs = {{R"({"a": [1, 2]})", floats({1, -3})},
                                          {"a::b", floats({2, 1})}};
  using Outputs = std::vector<std::vector<float>>;
  EXPECT_EQ(floatOutputs(model, inputs), (Outputs{{30, 0}}));

  expectBinaryRoundTrip(model);
  Model back = textRoundTrip(model);
  EXPECT_EQ(floatOutputs(back, inputs), (Outputs{{30, 0}}));

  InferResult inferred = inferModel(model);
  EXPECT_FALSE(inferred.diagnostics.hasErrors()) << listed(inferred.diagnostics);
  const Value* sum = model.graph->firstNode()->output(0);
  ASSERT_NE(sum->type(), nullptr);
  EXPECT_EQ(formatType(*sum->type()), "float[2]");
}

}  // namespace
}  // namespace onyx
