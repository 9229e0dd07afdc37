// Initializers listed as graph inputs: before IR 4 (or when the caller says so) they are the
// constants they hold, for folding, fusions and the evaluator's plan alike; from IR 4 on they
// are defaults a caller may override, which no pass reads. `initializers-not-inputs` takes
// them out of the inputs.
#include <gtest/gtest.h>

#include "onyx/check/checker.h"
#include "onyx/eval/evaluator.h"
#include "onyx/eval/node_evaluator.h"
#include "onyx/infer/infer.h"
#include "onyx/passes/optimize.h"
#include "support/check_testing.h"
#include "support/eval_testing.h"
#include "support/graph_testing.h"
#include "support/pass_testing.h"

namespace onyx {
namespace {

using testing::floatOutputs;
using testing::listed;
using testing::optimizeChecked;
using testing::opTypes;
using testing::parseOrFail;
using testing::tensorOf;

// w * 2 + x, with w and two listed as inputs beside their initializers.
std::string scaledSum(int ir_version) {
  return R"(<ir_version: )" + std::to_string(ir_version) + R"(, opset_import: ["" : 9]>
    g (float[2] x, float[2] w, float[1] two) => (float[2] y)
    <float[2] w = {1, 2}, float[1] two = {2}> {
      t = Mul (w, two)
      y = Add (x, t)
    })";
}

std::vector<NamedValue> pair() {
  return {{"x", tensorOf<float>(ElementType::kFloat, {2}, {1, 1})}};
}

TEST(InitializerInputs, BeforeIrFourTheyFoldAsConstants) {
  auto done = optimizeChecked(scaledSum(3), {"constant-folding", "dead-code"}, pair());
  // A new constant is a Constant node: before IR 4 an initializer would have to be an input.
  EXPECT_EQ(opTypes(*done.model.graph), "Constant Add");
  // The interface stays: both are still inputs with their initializers.
  EXPECT_EQ(done.model.graph->inputs.size(), 3u);
  EXPECT_EQ(floatOutputs(done.model, pair())[0], (std::vector<float>{3, 5}));
}

TEST(InitializerInputs, FromIrFourTheyAreDefaultsNoPassReads) {
  auto done = optimizeChecked(scaledSum(8), {"constant-folding", "dead-code"}, pair());
  EXPECT_EQ(opTypes(*done.model.graph), "Mul Add");
}

TEST(InitializerInputs, FromIrFourTheCallerMayAskForConstants) {
  Model model = parseOrFail(scaledSum(8));
  OptimizeOptions options;
  KernelNodeEvaluator evaluator;
  options.node_evaluator = &evaluator;
  options.constant_initializers = true;
  ASSERT_TRUE(optimize(model, options));
  EXPECT_EQ(opTypes(*model.graph), "Add");
  EXPECT_EQ(model.graph->inputs.size(), 3u);
}

TEST(InitializerInputs, BatchNormalizationFoldsIntoWeightsListedAsInputs) {
  // An old exporter's Conv + BatchNormalization, every weight an input too.
  auto done =
      optimizeChecked(R"(
    <ir_version: 3, opset_import: ["" : 9]>
    g (float[1,1,2,2] x, float[1,1,1,1] w, float[1] s, float[1] b, float[1] m, float[1] v)
      => (float[1,1,2,2] y)
    <float[1,1,1,1] w = {2}, float[1] s = {3}, float[1] b = {1}, float[1] m = {0.5},
     float[1] v = {1}> {
      c = Conv (x, w)
      y = BatchNormalization <epsilon = 0.0> (c, s, b, m, v)
    })",
                      {"standard-fusions", "dead-code"},
                      {{"x", tensorOf<float>(ElementType::kFloat, {1, 1, 2, 2}, {1, 2, 3, 4})}},
                      false, {1e-6, 1e-6});
  EXPECT_EQ(opTypes(*done.model.graph), "Constant Constant Conv");  // new weights and bias
}

TEST(InitializerInputs, TheEvaluatorRefusesToOverrideOneBeforeIrFour) {
  Model model = parseOrFail(scaledSum(3));
  std::vector<NamedValue> feeds = pair();
  EXPECT_EQ(floatOutputs(model, feeds)[0], (std::vector<float>{3, 5}));
  feeds.push_back({"w", tensorOf<float>(ElementType::kFloat, {2}, {0, 0})});
  Result<std::vector<EvalValue>> run = evaluate(model, feeds);
  ASSERT_FALSE(run);
  EXPECT_NE(run.status().message().find("'w' is an initializer"), std::string::npos)
      << run.status().message();
  // From IR 4 on the same feed overrides the default.
  Model defaults = parseOrFail(scaledSum(8));
  EXPECT_EQ(floatOutputs(defaults, feeds)[0], (std::vector<float>{1, 1}));
}

TEST(InitializerInputs, InitializersNotInputsDropsThemAndKeepsTheMeaning) {
  auto done = optimizeChecked(scaledSum(8), {"initializers-not-inputs"}, pair());
  ASSERT_EQ(done.model.graph->inputs.size(), 1u);
  EXPECT_EQ(done.model.graph->inputs[0]->value->name(), "x");
  EXPECT_EQ(done.model.graph->initializers.size(), 2u);
  EXPECT_EQ(done.changes.entries_changed, 2u);
  EXPECT_EQ(done.model.ir_version, 8);
}

// A model before IR 4 whose main graph and Loop body list initializers as inputs.
constexpr std::string_view kLoopBeforeIrFour = R"(
    <ir_version: 3, opset_import: ["" : 11]>
    g (float[2] x, float[2] bias) => (float[2] y) <float[2] bias = {1, 1}> {
      n = Constant <value = int64 {3}> ()
      go = Constant <value = bool {1}> ()
      s = Loop (n, go, x) <body = body (int64 i, bool cond, float[2] acc, float[2] step)
                                  => (bool cond_out, float[2] acc_out)
                                  <float[2] step = {1.0, 2.0}> {
        cond_out = Identity (cond)
        acc_out = Add (acc, step)
      }>
      y = Add (s, bias)
    })";

TEST(InitializersNotInputs, AModelBeforeIrFourBecomesIrFourNestedBodiesIncluded) {
  Model model = parseOrFail(kLoopBeforeIrFour);
  std::vector<NamedValue> feeds = {{"x", tensorOf<float>(ElementType::kFloat, {2}, {0.5f, 0})}};
  std::vector<std::vector<float>> before = floatOutputs(model, feeds);
  OptimizeOptions options;
  options.passes = {"initializers-not-inputs"};
  options.manager.verify = true;
  Result<OptimizeReport> report = optimize(model, options);
  ASSERT_TRUE(report) << report.status().toString();
  EXPECT_EQ(model.ir_version, 4);
  EXPECT_EQ(model.graph->inputs.size(), 1u);
  const Graph* body = model.graph->firstNode()->next()->next()->graphAttr("body");
  ASSERT_NE(body, nullptr);
  EXPECT_EQ(body->inputs.size(), 3u);
  Diagnostics checked = checkModel(model);
  EXPECT_FALSE(checked.hasErrors()) << listed(checked);
  EXPECT_EQ(floatOutputs(model, feeds), before);
  EXPECT_EQ(before[0], (std::vector<float>{4.5f, 7.0f}));
}

// The pass's edits of every graph are one step: made to fail after recording some graphs'
// edits, it leaves the model's bytes as they were (its IR version included).
TEST(InitializersNotInputs, FailingHalfWayLeavesTheModelAsItWas) {
  testing::expectAllOrNothing(kLoopBeforeIrFour, "initializers-not-inputs");
}

}  // namespace
}  // namespace onyx
