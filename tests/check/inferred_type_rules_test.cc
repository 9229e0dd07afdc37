// R36 and X5 through the checker: inference joins it as `onyx check` runs it
// (CheckOptions::more_rules = checkInferredTypes).
#include <gtest/gtest.h>

#include "onyx/check/checker.h"
#include "onyx/infer/infer.h"
#include "onyx/text/parser.h"

namespace onyx {
namespace {

Diagnostics checkWithInference(std::string_view text) {
  Result<Model> parsed = parseText(text);
  EXPECT_TRUE(parsed) << parsed.status().toString();
  if (!parsed) return {};
  CheckOptions options;
  options.more_rules = checkInferredTypes;
  return checkModel(*parsed, options);
}

std::string listing(const Diagnostics& diagnostics) {
  std::string text;
  for (const Diagnostic& diagnostic : diagnostics.all()) text += diagnostic.toString() + "\n";
  return text;
}

TEST(InferredTypeRules, R36DeclaredOutputContradictsInferredShape) {
  Diagnostics found = checkWithInference(R"(
    <ir_version: 10, opset_import: ["" : 21]>
    g (float[2, 3] x) => (float[2, 4] y) { y = Relu(x) })");
  ASSERT_EQ(found.all().size(), 1u) << listing(found);
  EXPECT_EQ(found.all()[0].rule, "R36");
  EXPECT_EQ(found.all()[0].path, "graph.node[0].output[0]");
}

TEST(InferredTypeRules, R36DeclaredValueInfoContradictsInferredShape) {
  // (Element types that contradict the signature are R51's: one fault, one rule.)
  Diagnostics found = checkWithInference(R"(
    <ir_version: 10, opset_import: ["" : 21]>
    g (float[2] x) => (float[2] y) <float[2, 1] t> { t = Relu(x)  y = Relu(x) })");
  ASSERT_EQ(found.all().size(), 1u) << listing(found);
  EXPECT_EQ(found.all()[0].rule, "R36");
  EXPECT_EQ(found.all()[0].message, "'t': value_info declares float[2,1], Relu gives float[2]");
}

TEST(InferredTypeRules, R36ValidSideSymbolsAndUnknownsAgreeWithNumbers) {
  // A declared symbol or unknown dimension does not contradict an inferred number: only
  // what both know is compared.
  Diagnostics found = checkWithInference(R"(
    <ir_version: 10, opset_import: ["" : 21]>
    g (float[2, 3] x) => (float[M, ?] y) { y = Relu(x) })");
  EXPECT_FALSE(found.hasErrors()) << listing(found);
}

TEST(InferredTypeRules, X5NodeInputsContradictTheOperator) {
  Diagnostics found = checkWithInference(R"(
    <ir_version: 10, opset_import: ["" : 21]>
    g (float[2, 3] x, float[4] b) => (float[2, 3] y) { y = Add(x, b) })");
  EXPECT_TRUE(found.has("X5")) << listing(found);
}

TEST(InferredTypeRules, InferenceRunsOnlyOnModelsWithoutOtherErrors) {
  // R11: the operator's domain is not imported; the R36 conflict below is not also reported,
  // since inference would read a graph the checker already refused.
  Diagnostics found = checkWithInference(R"(
    <ir_version: 10, opset_import: ["" : 21]>
    g (float[2, 3] x) => (float[2, 4] y) { t = other.Op(x)  y = Relu(x) })");
  EXPECT_TRUE(found.hasErrors());
  EXPECT_FALSE(found.has("R36")) << listing(found);
}

}  // namespace
}  // namespace onyx
