#include <gtest/gtest.h>

#include <string>
#include <string_view>

#include "onyx/infer/infer.h"
#include "support/check_testing.h"
#include "support/graph_testing.h"
#include "support/infer_testing.h"

namespace onyx {
namespace {

using testing::inferText;
using testing::listed;

TEST(InferEngine, SignatureGivesElementTypeAndRuleGivesShape) {
  auto m = inferText(R"(
    <ir_version: 10, opset_import: ["" : 21]>
    g (float[N, 3] x, float[3] b) => (y) { t = Relu(x)  y = Add(t, b) })");
  EXPECT_EQ(m.typeOf("t"), "float[N,3]");
  EXPECT_EQ(m.typeOf("y"), "float[N,3]");
  EXPECT_FALSE(m.result.diagnostics.hasErrors()) << m.diagnostics();
}

// A const model is only read: its types are returned, not written, even when the options ask
// for write-back; the same model taken mutable gets them.
TEST(InferEngine, AConstModelIsInferredWithoutWritingBack) {
  Model model = testing::parseOrFail(R"(
    <ir_version: 10, opset_import: ["" : 21]>
    g (float[N, 3] x) => (y) { t = Relu(x)  y = Neg(t) })");
  const std::string before = testing::bytesOf(model);
  InferOptions options;
  options.write_back = true;
  options.keep_values = true;
  const Model& read_only = model;
  InferResult result = inferModel(read_only, options);
  EXPECT_EQ(testing::bytesOf(model), before);
  const Value* y = model.graph->names().find("y");
  ASSERT_NE(y, nullptr);
  ASSERT_TRUE(result.values.contains(y));
  EXPECT_TRUE(result.values.at(y).type.isKnown());
  inferModel(model, options);
  EXPECT_NE(testing::bytesOf(model), before);
  ASSERT_NE(y->type(), nullptr);
}

TEST(InferEngine, DataPropagatesFromShapeIntoReshape) {
  auto m = inferText(R"(
    <ir_version: 10, opset_import: ["" : 21]>
    g (float[N, S, 8] x) => (y) {
      s = Shape <end = 2> (x)
      minus_one = Constant <value_ints = [-1]> ()
      y = Reshape(x, minus_one)
      z = Reshape(x, s)
    })");
  EXPECT_EQ(m.typeOf("s"), "int64[2]");
  EXPECT_EQ(m.typeOf("y"), "float[8*N*S]");
  EXPECT_EQ(m.typeOf("z"), "float[N,S]");
}

// An initializer listed as a graph input: a default a caller may override from IR 4 on, the
// constant it holds before (every initializer had to be an input then, and none can be fed).
constexpr std::string_view kInitializerAsInput = R"(
    <ir_version: IR, opset_import: ["" : 8]>
    g (float[2,12] x, int64[2] target) => (y) <int64[2] target = {3, 8}> {
      y = Reshape (x, target)
    })";

std::string atIr(int ir_version) {
  std::string text(kInitializerAsInput);
  text.replace(text.find("IR"), 2, std::to_string(ir_version));
  return text;
}

TEST(InferEngine, BeforeIrFourAnInitializerListedAsAnInputIsAConstant) {
  EXPECT_EQ(inferText(atIr(3)).typeOf("y"), "float[3,8]");
}

TEST(InferEngine, FromIrFourAnInitializerListedAsAnInputIsADefaultUnlessAsked) {
  EXPECT_EQ(inferText(atIr(8)).typeOf("y"), "float[?,?]");
  InferOptions options;
  options.constant_initializers = true;
  EXPECT_EQ(inferText(atIr(8), options).typeOf("y"), "float[3,8]");
}

// Strict inference reports what stops it from being sure, as onnx's strict mode does: an
// input whose type the operator does not take (onnx's check_type), a graph input whose
// element type is UNDEFINED. Without strict mode both stay silent, as before.
TEST(InferEngine, StrictInferenceReportsATypeTheOperatorDoesNotTake) {
  constexpr std::string_view kInt32Shape = R"(
    <ir_version: 8, opset_import: ["" : 17]>
    g (int32[2] s) => (y) {
      t = Identity (s)
      y = ConstantOfShape (t)
    })";
  EXPECT_FALSE(inferText(kInt32Shape).result.diagnostics.hasErrors());
  InferOptions strict;
  strict.strict = true;
  auto m = inferText(kInt32Shape, strict);
  ASSERT_EQ(m.result.diagnostics.errorCount(), 1u) << m.diagnostics();
  const Diagnostic& found = m.result.diagnostics.all()[0];
  EXPECT_EQ(found.rule, "R51");
  EXPECT_EQ(found.path, "graph.node[1]");
  EXPECT_EQ(found.message,
            "input 0 (input) has type tensor(int32), which ConstantOfShape-9 does not accept: it "
            "takes tensor(int64)");
}

TEST(InferEngine, StrictInferenceReportsAGraphInputOfUndefinedElementType) {
  constexpr std::string_view kRelu = R"(
    <ir_version: 8, opset_import: ["" : 17]>
    g (float[2] x) => (y) { y = Relu (x) })";
  for (bool strict : {false, true}) {
    Model model = testing::parseOrFail(kRelu);
    model.graph->inputs[0]->type->elem_type = 0;  // UNDEFINED, as a faulty exporter writes it
    InferOptions options;
    options.strict = strict;
    InferResult result = inferModel(model, options);
    if (!strict) {
      EXPECT_FALSE(result.diagnostics.hasErrors()) << listed(result.diagnostics);
      continue;
    }
    ASSERT_TRUE(result.diagnostics.hasErrors());
    const Diagnostic& found = result.diagnostics.all()[0];
    EXPECT_EQ(found.rule, "R84");
    EXPECT_EQ(found.path, "graph.input[0](x)");
    EXPECT_NE(found.message.find("element type 0 (UNDEFINED)"), std::string::npos) << found.message;
  }
}

TEST(InferEngine, AGraphInputThatContradictsItsInitializerIsR36) {
  for (const char* declared : {"float[4,3]", "float[8]", "int64[8,7]"}) {
    std::string text = R"(
      <ir_version: 8, opset_import: ["" : 17]>
      g (DECLARED x) => (y) <float[8,7] x = {0.0}> { y = Identity (x) })";
    text.replace(text.find("DECLARED"), 8, declared);
    auto m = inferText(text);
    ASSERT_TRUE(m.result.diagnostics.hasErrors()) << declared;
    const Diagnostic& found = m.result.diagnostics.all()[0];
    EXPECT_EQ(found.rule, "R36") << declared;
    EXPECT_EQ(found.path, "graph.input[0](x)") << declared;
    EXPECT_NE(found.message.find("its initializer holds float[8,7]"), std::string::npos)
        << found.message;
  }
  // A symbol takes the initializer's size: no conflict.
  auto fits = inferText(R"(
    <ir_version: 8, opset_import: ["" : 17]>
    g (float[N,7] x) => (y) <float[8,7] x = {0.0}> { y = Identity (x) })");
  EXPECT_FALSE(fits.result.diagnostics.hasErrors()) << fits.diagnostics();
}

TEST(InferEngine, ConflictWithDeclarationIsR36) {
  auto m = inferText(R"(
    <ir_version: 10, opset_import: ["" : 21]>
    g (float[2, 3] x) => (int64[2, 3] y) { y = Relu(x) })");
  EXPECT_TRUE(m.has("R36")) << m.diagnostics();
}

TEST(InferEngine, BroadcastFailureIsX5) {
  auto m = inferText(R"(
    <ir_version: 10, opset_import: ["" : 21]>
    g (float[2, 3] x, float[4] b) => (y) { y = Add(x, b) })");
  EXPECT_TRUE(m.has("X5")) << m.diagnostics();
}

TEST(InferEngine, UnknownDimsStayUnknownOrGetNamesWhenAsked) {
  const char* text = R"(
    <ir_version: 10, opset_import: ["" : 21]>
    g (float[?, 3] x) => (y) { y = Relu(x) })";
  EXPECT_EQ(inferText(text).typeOf("y"), "float[?,3]");
  InferOptions named;
  named.name_unknown_dims = true;
  EXPECT_EQ(inferText(text, named).typeOf("y"), "float[unk__0,3]");
}

TEST(InferEngine, ModelLocalFunctionIsInferredThroughItsBody) {
  auto m = inferText(R"(
    <ir_version: 10, opset_import: ["" : 21, "local" : 1]>
    g (float[N, 4] x) => (y) { y = local.Twice(x) }
    <domain: "local", opset_import: ["" : 21]>
    Twice (a) => (b) { b = Add(a, a) })");
  EXPECT_EQ(m.typeOf("y"), "float[N,4]");
}

TEST(InferEngine, StrictModeReportsOutputsWithoutType) {
  const char* text = R"(
    <ir_version: 10, opset_import: ["" : 21, "custom" : 1]>
    g (float[2] x) => (y) { y = custom.Mystery(x) })";
  EXPECT_FALSE(inferText(text).has("X6"));
  InferOptions strict;
  strict.strict = true;
  auto m = inferText(text, strict);
  EXPECT_TRUE(m.has("X6"));
  ASSERT_FALSE(m.result.notes.empty());
  EXPECT_NE(m.result.notes[0].find("unknown operator"), std::string::npos) << m.result.notes[0];
}

}  // namespace
}  // namespace onyx

namespace onyx {
namespace {

TEST(InferEngine, AnAbsurdRankFromALengthStaysUnknown) {
  // A shape input of declared length 10^12 would be a rank no tensor has; making that many
  // dimensions would exhaust memory (found by fuzz_checker). The rank stays unknown.
  auto m = testing::inferText(R"(
    <ir_version: 10, opset_import: ["" : 21]>
    g (float[2, 3] x, int64[1000000000000] s) => (y) { y = Reshape(x, s) })");
  EXPECT_EQ(m.typeOf("y"), "float");
  ASSERT_FALSE(m.result.notes.empty());
  EXPECT_NE(m.result.notes[0].find("beyond what inference represents"), std::string::npos)
      << m.result.notes[0];
}

}  // namespace
}  // namespace onyx
