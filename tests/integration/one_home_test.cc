// One model, one answer: the checker, inference, the evaluator and the inliner resolve a node
// the same way — the version its domain is imported at (onyx/ir/opset_imports.h) and what it
// calls (onyx/ops/callee.h). Each case failed in at least one of the four before these facts
// had one home each.
#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

#include "onyx/check/checker.h"
#include "onyx/infer/infer.h"
#include "onyx/ir/opset_imports.h"
#include "onyx/passes/inline_functions.h"
#include "support/check_testing.h"
#include "support/eval_testing.h"

namespace onyx {
namespace {

using testing::errorRules;
using testing::floatOutputs;
using testing::listed;
using testing::parseOrFail;
using testing::Rules;
using testing::tensorOf;

CheckOptions withoutFiles() {
  CheckOptions options;
  options.external_data = false;
  return options;
}

std::vector<NamedValue> twoByThree() {
  return {{"x", tensorOf<float>(ElementType::kFloat, {2, 3}, {1, 2, 3, 4, 5, 6})}};
}

// What inference has to say: its diagnostics, and the nodes it found no rule or body for.
std::string inferenceComplaints(std::string_view text) {
  Model model = parseOrFail(text);
  InferResult result = inferModel(model);
  std::string found = result.diagnostics.all().empty() ? "" : listed(result.diagnostics);
  if (result.stats.nodes_without_rule != 0) {
    for (const std::string& note : result.notes) found += note + "\n";
  }
  return found;
}

// The same model once more, its calls inlined: what it computes is unchanged.
std::vector<std::vector<float>> inlinedAndEvaluated(std::string_view text,
                                                    std::vector<NamedValue> inputs,
                                                    size_t expected_calls) {
  Model model = parseOrFail(text);
  Result<InlineReport> report = inlineAllFunctions(model);
  EXPECT_TRUE(report) << report.status().toString();
  if (!report) return {};
  EXPECT_EQ(report->function_calls, expected_calls);
  EXPECT_TRUE(model.functions.empty());
  return floatOutputs(model, std::move(inputs));
}

// ReduceSum takes its axes as an attribute up to opset 12 and as an input from 13: bound at
// 11, the node sums the columns; bound at 13, it would refuse the attribute (checker), reduce
// to a scalar (inference, evaluator) and clash with the function's import (inliner).
constexpr std::string_view kBody = R"(
g (float[2,3] x) => (float[3] y, float[3] z) {
  y = ReduceSum <axes = [0], keepdims = 0> (x)
  z = local.SumColumns (x)
}
<domain: "local", opset_import: ["" : 11]>
SumColumns (a) => (b) {
  b = ReduceSum <axes = [0], keepdims = 0> (a)
}
)";

void expectTheLastImportBinds(const std::string& text) {
  SCOPED_TRACE(text);
  // The checker reports the repeat and nothing else: every node binds at 11.
  Diagnostics found = checkModel(parseOrFail(text), withoutFiles());
  EXPECT_EQ(errorRules(found), (Rules{"R10"})) << listed(found);
  // Inference agrees with the declared float[3] outputs.
  EXPECT_EQ(inferenceComplaints(text), "");
  // The evaluator sums the columns, in the graph and in the function.
  std::vector<std::vector<float>> expected = {{5, 7, 9}, {5, 7, 9}};
  EXPECT_EQ(floatOutputs(parseOrFail(text), twoByThree()), expected);
  // The inliner finds the function's import of "" (11) equal to the model's.
  EXPECT_EQ(inlinedAndEvaluated(text, twoByThree(), 1), expected);
}

TEST(OneHome, TheDefaultDomainImportedUnderBothSpellingsBindsToTheLastEntry) {
  expectTheLastImportBinds(
      R"(<ir_version: 8, opset_import: ["" : 13, "ai.onnx" : 11, "local" : 1]>)" +
      std::string(kBody));
}

TEST(OneHome, ADomainImportedTwiceBindsToTheLastEntry) {
  expectTheLastImportBinds(R"(<ir_version: 8, opset_import: ["" : 13, "" : 11, "local" : 1]>)" +
                           std::string(kBody));
}

TEST(OneHome, TheImportsOfAListAreReadByOneRule) {
  Model model =
      parseOrFail(R"(<ir_version: 8, opset_import: ["ai.onnx" : 13, "ai.onnx.ml" : 3, "" : 11]>
g (float[2] x) => (float[2] y) { y = Neg (x) })");
  OpsetImports imports(model.opset_import);
  EXPECT_EQ(imports.versionOf(""), 11);
  EXPECT_EQ(imports.versionOf("ai.onnx"), 11);
  EXPECT_EQ(imports.versionOf("ai.onnx.ml"), 3);
  EXPECT_EQ(imports.versionOf("com.x"), std::nullopt);
  EXPECT_EQ(imports.entries().size(), 2u);
  EXPECT_EQ(model.opsetVersion("ai.onnx"), 11);
  EXPECT_EQ(canonicalDomain("ai.onnx"), "");
  EXPECT_EQ(canonicalDomain(""), "");
  EXPECT_EQ(canonicalDomain("ai.onnx.ml"), "ai.onnx.ml");
}

// A model-local function in domain "ai.onnx", called from domain "": one domain, so the node
// calls the function. The checker refuses a function that adds an operator to a standard
// domain (R41) but names it as the node's callee; the other three call it.
constexpr std::string_view kFunctionInTheDefaultDomain = R"(
<ir_version: 10, opset_import: ["" : 18]>
g (float[3] x) => (float[3] y) { y = NegRelu (x) }
<domain: "ai.onnx", opset_import: ["" : 18]>
NegRelu (a) => (b) {
  t = Neg (a)
  b = Relu (t)
}
)";

TEST(OneHome, AFunctionInAiOnnxIsCalledFromTheDefaultDomain) {
  std::string_view text = kFunctionInTheDefaultDomain;
  Diagnostics found = checkModel(parseOrFail(text), withoutFiles());
  EXPECT_EQ(errorRules(found), (Rules{"R41"})) << listed(found);
  ASSERT_FALSE(found.all().empty());
  EXPECT_NE(found.all()[0].message.find("a model-local function cannot add an operator"),
            std::string::npos)
      << listed(found);
  EXPECT_EQ(inferenceComplaints(text), "");
  std::vector<NamedValue> inputs = {
      {"x", tensorOf<float>(ElementType::kFloat, {3}, {-1.0f, 0.0f, 2.0f})}};
  std::vector<std::vector<float>> expected = {{1, 0, 0}};
  // Before: "NegRelu is not a known operator at this opset".
  EXPECT_EQ(floatOutputs(parseOrFail(text), inputs), expected);
  EXPECT_EQ(inlinedAndEvaluated(text, inputs, 1), expected);
}

// IR 10: two functions of one name, told apart by their overload; each call gets its own.
constexpr std::string_view kOverloads = R"(
<ir_version: 10, opset_import: ["" : 18, "local" : 1]>
g (float[3] x) => (float[3] y, float[3] z) {
  y = local.Scale:double (x)
  z = local.Scale:triple (x)
}
<domain: "local", overload: "double", opset_import: ["" : 18]>
Scale (a) => (b) {
  b = Add (a, a)
}
<domain: "local", overload: "triple", opset_import: ["" : 18]>
Scale (a) => (b) {
  t = Add (a, a)
  b = Add (t, a)
}
)";

TEST(OneHome, EachOverloadOfAFunctionIsCalledByItsOwnNodes) {
  std::string_view text = kOverloads;
  Diagnostics found = checkModel(parseOrFail(text), withoutFiles());
  EXPECT_TRUE(found.all().empty()) << listed(found);
  EXPECT_EQ(inferenceComplaints(text), "");
  std::vector<NamedValue> inputs = {
      {"x", tensorOf<float>(ElementType::kFloat, {3}, {1.0f, 2.0f, 3.0f})}};
  std::vector<std::vector<float>> expected = {{2, 4, 6}, {3, 6, 9}};
  EXPECT_EQ(floatOutputs(parseOrFail(text), inputs), expected);
  EXPECT_EQ(inlinedAndEvaluated(text, inputs, 2), expected);
}

// A place in a model is written one way: the evaluator names a node it cannot run as the
// checker names it (it wrote graph.node[0].g.node[0] before).
TEST(OneHome, TheEvaluatorAndTheCheckerNameAPlaceAlike) {
  std::string_view text = R"(
<ir_version: 10, opset_import: ["" : 21]>
g (bool c, float[3] x) => (float[3] y) {
  [choose] y = If (c) <then_branch = yes () => (float[3] p) { [bad] p = Nope (x) },
                       else_branch = no () => (float[3] q) { q = Neg (x) }>
}
)";
  const std::string place = "graph.node[0](choose).attribute[0](then_branch).g.node[0](bad)";
  Diagnostics found = checkModel(parseOrFail(text), withoutFiles());
  EXPECT_EQ(testing::pathOf(found, "R41"), place) << listed(found);
  std::vector<NamedValue> inputs = {
      {"c", tensorOf<bool>(ElementType::kBool, {}, {true})},
      {"x", tensorOf<float>(ElementType::kFloat, {3}, {1.0f, 2.0f, 3.0f})}};
  Result<std::vector<EvalValue>> out = evaluate(parseOrFail(text), inputs);
  ASSERT_FALSE(out);
  EXPECT_EQ(out.status().path(), place) << out.status().toString();
}

}  // namespace
}  // namespace onyx
