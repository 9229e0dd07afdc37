// The operator-signature rules (R41–R49, R51–R53, R98): for each, a node that breaks it is
// reported with exactly that rule id, and a node on the valid side of the rule's edge is
// accepted.
#include <gtest/gtest.h>

#include <string>

#include "onyx/check/checker.h"
#include "onyx/ir/editor.h"
#include "onyx/ir/graph.h"
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

// A main graph at ai.onnx `opset` (IR 10) with this signature and body.
std::string graphAt(int opset, const std::string& signature, const std::string& body) {
  return "<ir_version: 10, opset_import: [\"\" : " + std::to_string(opset) + "]>\n" + signature +
         " {\n" + body + "\n}";
}

// The message of the first diagnostic with `rule`.
std::string messageOf(const Diagnostics& found, std::string_view rule) {
  for (const Diagnostic& diagnostic : found.all()) {
    if (diagnostic.rule == rule) return diagnostic.message;
  }
  return "(none)";
}

void expectClean(const std::string& text) {
  Diagnostics found = checkText(text);
  EXPECT_TRUE(found.all().empty()) << text << "\n" << listed(found);
}

// ---- R41: the operator resolves --------------------------------------------------------

TEST(NodeSignature, R41AStandardOperatorExistsAtTheImportedVersion) {
  Diagnostics found = checkText(graphAt(13, "g (float[2] x) => (float[2] y)", "y = relu(x)"));
  EXPECT_EQ(errorRules(found), (Rules{"R41"})) << listed(found);
  EXPECT_EQ(pathOf(found, "R41"), "graph.node[0]");
  EXPECT_EQ(messageOf(found, "R41"), "ai.onnx has no operator 'relu'; did you mean 'Relu'?");

  // Gelu came with opset 20: one version short, then at it.
  found = checkText(graphAt(19, "g (float[2] x) => (float[2] y)", "y = Gelu(x)"));
  EXPECT_EQ(errorRules(found), (Rules{"R41"})) << listed(found);
  EXPECT_EQ(messageOf(found, "R41"),
            "Gelu came with opset 20 of ai.onnx, and the model imports opset 19, where it does "
            "not exist yet");
  expectClean(graphAt(20, "g (float[2] x) => (float[2] y)", "y = Gelu(x)"));
}

TEST(NodeSignature, R41AnOperatorOfAnotherStandardDomainIsNamedThere) {
  Diagnostics found = checkText(graphAt(18, "g (int64[2] x) => (string[2] y)",
                                        R"(y = LabelEncoder <keys_int64s = [1, 2],
                                                 values_strings = ["a", "b"]> (x))"));
  EXPECT_EQ(errorRules(found), (Rules{"R41"})) << listed(found);
  EXPECT_NE(messageOf(found, "R41").find("ai.onnx.ml has one"), std::string::npos) << listed(found);
  expectClean(R"(<ir_version: 10, opset_import: ["" : 18, "ai.onnx.ml" : 2]>
g (int64[2] x) => (string[2] y) {
  y = ai.onnx.ml.LabelEncoder <keys_int64s = [1, 2], values_strings = ["a", "b"]> (x)
})");
}

TEST(NodeSignature, R41ACustomOperatorIsAWarningOncePerOperator) {
  const char* custom = R"(<ir_version: 10, opset_import: ["" : 18, "com.example" : 1]>
g (float[2] x) => (float[2] z) {
  y = com.example.Fused(x)
  z = com.example.Fused(y)
})";
  Diagnostics found = checkText(custom);
  EXPECT_EQ(errorRules(found), kNone) << listed(found);
  EXPECT_EQ(warningRules(found), (Rules{"R41"})) << listed(found);
  EXPECT_EQ(pathOf(found, "R41"), "graph.node[0]");
  // A model-local function defines the operator: a call, not a custom operator.
  expectClean(std::string(custom) + R"(
<domain: "com.example", opset_import: ["" : 18]>
Fused (a) => (b) { b = Neg(a) })");
}

TEST(NodeSignature, R41TheFormerExperimentalOperatorsAreAWarning) {
  // As onnx's checker: ATen, Scale, ... were experimental in early ai.onnx and have no schema.
  Diagnostics found = checkText(graphAt(9, "g (float[2] x) => (float[2] z)",
                                        R"(y = ATen <operator = "abs"> (x)
                                           z = ATen <operator = "abs"> (y))"));
  EXPECT_EQ(errorRules(found), kNone) << listed(found);
  EXPECT_EQ(warningRules(found), (Rules{"R41"})) << listed(found);
  EXPECT_EQ(pathOf(found, "R41"), "graph.node[0]");
}

TEST(NodeSignature, R41AFunctionCannotAddAnOperatorToAStandardDomain) {
  Diagnostics found = checkText(R"(<ir_version: 10, opset_import: ["" : 18]>
g (float[2] x) => (float[2] y) { y = Twice(x) }
<domain: "", opset_import: ["" : 18]>
Twice (a) => (b) { b = Add(a, a) })");
  EXPECT_EQ(errorRules(found), (Rules{"R41"})) << listed(found);
  EXPECT_NE(messageOf(found, "R41").find("cannot add an operator to a standard domain"),
            std::string::npos)
      << listed(found);
}

TEST(NodeSignature, R41LeavesADomainNobodyImportsToR11) {
  Diagnostics found = checkText(R"(<ir_version: 10, opset_import: ["" : 18]>
g (float[2] x) => (float[2] y) { y = com.example.Fused(x) })");
  EXPECT_EQ(errorRules(found), (Rules{"R11"})) << listed(found);
  EXPECT_EQ(warningRules(found), kNone) << listed(found);
  // An import R12 refuses is not resolved against the newest schemas either.
  found = checkText(graphAt(99, "g (float[2] x) => (float[2] y)", "y = Relu(x)"));
  EXPECT_EQ(errorRules(found), (Rules{"R12"})) << listed(found);
}

// ---- R42: deprecated operators ---------------------------------------------------------

TEST(NodeSignature, R42DeprecatedOperatorsAreRefused) {
  const char* upsample = R"(y = Upsample <mode = "nearest"> (x, scales))";
  const char* signature = "g (float[1,1,2,2] x, float[4] scales) => (float[1,1,4,4] y)";
  Diagnostics found = checkText(graphAt(10, signature, upsample));
  EXPECT_EQ(errorRules(found), (Rules{"R42"})) << listed(found);
  EXPECT_EQ(messageOf(found, "R42"),
            "Upsample is deprecated from opset 10 of ai.onnx, and the model imports opset 10, "
            "where it no longer exists; use Resize instead");
  expectClean(graphAt(9, signature, upsample));

  // GroupNormalization was withdrawn at 18, the version that brought it, and came back at 21.
  const char* group = "y = GroupNormalization <num_groups = 1> (x, s, b)";
  signature = "g (float[1,2,4] x, float[2] s, float[2] b) => (float[1,2,4] y)";
  found = checkText(graphAt(20, signature, group));
  EXPECT_EQ(errorRules(found), (Rules{"R42"})) << listed(found);
  EXPECT_NE(messageOf(found, "R42").find("opset 21 defines it again"), std::string::npos);
  expectClean(graphAt(21, signature, group));
}

// ---- R43, R44: counts ------------------------------------------------------------------

TEST(NodeSignature, R43InputCountsLieWithinTheSignature) {
  const char* signature =
      "g (float[1,1,3,3] x, float[1,1,1,1] w, float[1] b) => (float[1,1,3,3] y)";
  Diagnostics found = checkText(graphAt(13, signature, "y = Conv(x, w, b, b)"));
  EXPECT_EQ(errorRules(found), (Rules{"R43"})) << listed(found);
  EXPECT_EQ(pathOf(found, "R43"), "graph.node[0]");
  EXPECT_EQ(messageOf(found, "R43"), "Conv at opset 13 takes 2 or 3 inputs; this node has 4");
  found = checkText(graphAt(13, signature, "y = Conv(x)"));
  EXPECT_EQ(errorRules(found), (Rules{"R43"})) << listed(found);
  expectClean(graphAt(13, signature, "y = Conv(x, w, b)"));
  expectClean(graphAt(13, signature, "y = Conv(x, w)"));
}

TEST(NodeSignature, R43AVariadicInputTakesItsMinimumArity) {
  Diagnostics found = checkText(graphAt(13, "g () => (float[2] y)", "y = Concat <axis = 0> ()"));
  EXPECT_EQ(errorRules(found), (Rules{"R43"})) << listed(found);
  EXPECT_EQ(messageOf(found, "R43"),
            "Concat at opset 13 takes at least 1 input; this node has none");
  // Concat with one input is legal, and with many.
  expectClean(graphAt(13, "g (float[2] x) => (float[2] y)", "y = Concat <axis = 0> (x)"));
  expectClean(graphAt(13, "g (float[2] x) => (float[6] y)", "y = Concat <axis = 0> (x, x, x)"));
}

TEST(NodeSignature, R43TrailingOptionalInputsMayBeOmittedOrEmpty) {
  // Clip 11: min and max are optional, omitted or given as "".
  const char* signature = "g (float[2] x, float lo, float hi) => (float[2] y)";
  expectClean(graphAt(11, signature, "y = Clip(x)"));
  expectClean(graphAt(11, signature, R"(y = Clip(x, "", ""))"));
  expectClean(graphAt(11, signature, R"(y = Clip(x, "", hi))"));
  expectClean(graphAt(11, signature, "y = Clip(x, lo, hi)"));
  Diagnostics found = checkText(graphAt(11, signature, "y = Clip(x, lo, hi, hi)"));
  EXPECT_EQ(errorRules(found), (Rules{"R43"})) << listed(found);
  EXPECT_EQ(messageOf(found, "R43"), "Clip at opset 11 takes 1 to 3 inputs; this node has 4");
}

TEST(NodeSignature, R44OutputCountsLieWithinTheSignature) {
  Diagnostics found =
      checkText(graphAt(14, "g (float[2] x) => (float[2] y, float[2] z)", "y, z = Relu(x)"));
  EXPECT_EQ(errorRules(found), (Rules{"R44"})) << listed(found);
  EXPECT_EQ(messageOf(found, "R44"), "Relu at opset 14 gives 1 output; this node has 2");
  // Split 18 gives as many outputs as num_outputs asks (the variadic's minimum is 1).
  expectClean(graphAt(18, "g (float[4] x) => (float[2] a, float[2] b)",
                      "a, b = Split <axis = 0, num_outputs = 2> (x)"));
}

TEST(NodeSignature, R44BatchNormalizationGivesOneOutputOrAll) {
  const char* signature =
      "g (float[1,2,3] x, float[2] s, float[2] b, float[2] m, float[2] v) => (float[1,2,3] y)";
  Diagnostics found =
      checkText(graphAt(15, signature, "y, rm = BatchNormalization(x, s, b, m, v)"));
  EXPECT_EQ(errorRules(found), (Rules{"R44"})) << listed(found);
  EXPECT_EQ(messageOf(found, "R44"),
            "BatchNormalization at opset 15 gives 1 or 3 outputs; this node has 2");
  expectClean(graphAt(15, signature, "y = BatchNormalization(x, s, b, m, v)"));
  expectClean(
      graphAt(15, signature, "y, rm, rv = BatchNormalization <training_mode = 1> (x, s, b, m, v)"));
}

// ---- R45: "" only for optional parameters ----------------------------------------------

TEST(NodeSignature, R45OnlyOptionalParametersAreLeftOut) {
  const char* signature = "g (float[1,1,3,3] x, float[1,1,1,1] w) => (float[1,1,3,3] y)";
  Diagnostics found = checkText(graphAt(13, signature, R"(y = Conv(x, ""))"));
  EXPECT_EQ(errorRules(found), (Rules{"R45"})) << listed(found);
  EXPECT_EQ(pathOf(found, "R45"), "graph.node[0].input[1]");
  EXPECT_EQ(messageOf(found, "R45"),
            "input 1 (W) is left out (\"\"), but Conv at opset 13 requires it; only optional "
            "inputs may be left out");
  // The bias is optional: "" is fine there.
  expectClean(graphAt(13, signature, R"(y = Conv(x, w, ""))"));

  // TopK always gives both outputs; Dropout's mask is optional.
  found =
      checkText(graphAt(13, "g (float[4] x, int64[1] k) => (float[2] v)", R"(v, "" = TopK(x, k))"));
  EXPECT_EQ(errorRules(found), (Rules{"R45"})) << listed(found);
  EXPECT_EQ(pathOf(found, "R45"), "graph.node[0].output[1]");
  expectClean(graphAt(13, "g (float[4] x) => (float[4] y)", R"(y, "" = Dropout(x))"));
}

// ---- R46: attribute names are unique ---------------------------------------------------

TEST(NodeSignature, R46ANodeNamesEachAttributeOnce) {
  Model model = testing::parseOrFail(
      graphAt(13, "g (float[2] x) => (float[2] y)", "y = LeakyRelu <alpha = 0.5> (x)"));
  Node& node = *model.graph->firstNode();
  Attribute* again = GraphEditor(model).arena().make<Attribute>();
  *again = *node.attributes[0];
  node.attributes.push_back(GraphEditor(model).arena(), again);
  Diagnostics found = checkModel(model);
  EXPECT_EQ(errorRules(found), (Rules{"R46"})) << listed(found);
  EXPECT_EQ(pathOf(found, "R46"), "graph.node[0].attribute[1](alpha)");
  // Also on operators nobody defines: the rule needs no schema.
  found = checkText(R"(<ir_version: 10, opset_import: ["" : 18, "com.example" : 1]>
g (float[2] x) => (float[2] y) { y = com.example.Fused <k = 1, k = 2> (x) })");
  EXPECT_EQ(errorRules(found), (Rules{"R46"})) << listed(found);
}

// ---- R47, R48, R49: attributes ---------------------------------------------------------

TEST(NodeSignature, R47AttributesAreOnesTheOperatorDeclares) {
  const char* signature = "g (float[1,1,3,3] x, float[1,1,1,1] w) => (float[1,1,3,3] y)";
  Diagnostics found = checkText(graphAt(13, signature, "y = Conv <padding = [0, 0]> (x, w)"));
  EXPECT_EQ(errorRules(found), (Rules{"R47"})) << listed(found);
  EXPECT_EQ(pathOf(found, "R47"), "graph.node[0].attribute[0](padding)");
  EXPECT_EQ(messageOf(found, "R47"),
            "Conv at opset 13 has no attribute 'padding'; its attributes are auto_pad, "
            "dilations, group, kernel_shape, pads, strides");
  found = checkText(graphAt(14, "g (float[2] x) => (float[2] y)", "y = Relu <alpha = 1.0> (x)"));
  EXPECT_EQ(messageOf(found, "R47"),
            "Relu at opset 14 has no attribute 'alpha'; it takes no attributes");
  // Internal symbols (`__...`) are an implementation's business.
  expectClean(graphAt(13, signature, "y = Conv <__fused = 1> (x, w)"));
  // LayerNormalization 17 accepts attributes it does not declare, as onnx defines it.
  expectClean(graphAt(17, "g (float[2,4] x, float[4] s) => (float[2,4] y)",
                      "y = LayerNormalization <axis = -1, extra = 1> (x, s)"));
}

TEST(NodeSignature, R48AttributesHaveTheDeclaredKind) {
  const char* signature = "g (float[1,1,3,3] x, float[1,1,1,1] w) => (float[1,1,3,3] y)";
  Diagnostics found = checkText(graphAt(13, signature, "y = Conv <group = 1.0> (x, w)"));
  EXPECT_EQ(errorRules(found), (Rules{"R48"})) << listed(found);
  EXPECT_EQ(pathOf(found, "R48"), "graph.node[0].attribute[0](group)");
  EXPECT_EQ(messageOf(found, "R48"),
            "Conv at opset 13 declares 'group' as INT, but this attribute has type FLOAT");
  found = checkText(graphAt(13, signature, "y = Conv <pads = 1> (x, w)"));
  EXPECT_EQ(errorRules(found), (Rules{"R48"})) << listed(found);
  expectClean(graphAt(13, signature, "y = Conv <group = 1, pads = [0, 0, 0, 0]> (x, w)"));
}

TEST(NodeSignature, R49RequiredAttributesArePresent) {
  Diagnostics found = checkText(graphAt(21, "g (float[2] x) => (int64[2] y)", "y = Cast(x)"));
  EXPECT_EQ(errorRules(found), (Rules{"R49"})) << listed(found);
  EXPECT_EQ(pathOf(found, "R49"), "graph.node[0]");
  EXPECT_EQ(messageOf(found, "R49"),
            "Cast at opset 21 requires attribute 'to' (INT), which this node does not have");
  expectClean(graphAt(21, "g (float[2] x) => (int64[2] y)", "y = Cast <to = 7> (x)"));
}

// ---- R51: types ------------------------------------------------------------------------

TEST(NodeSignature, R51DeclaredTypesFitTheConstraints) {
  // Relu 13 takes floating types only; 14 added integers.
  Diagnostics found = checkText(graphAt(13, "g (int32[2] x) => (int32[2] y)", "y = Relu(x)"));
  EXPECT_EQ(errorRules(found), (Rules{"R51", "R51"})) << listed(found);
  EXPECT_EQ(pathOf(found, "R51"), "graph.node[0].input[0]");
  EXPECT_EQ(messageOf(found, "R51"),
            "input 0 (X) has type tensor(int32), which Relu at opset 13 does not accept there: "
            "it takes type T, one of tensor(float), tensor(float16), tensor(double), "
            "tensor(bfloat16)");
  EXPECT_EQ(found.all()[1].path, "graph.node[0].output[0]");
  expectClean(graphAt(14, "g (int32[2] x) => (int32[2] y)", "y = Relu(x)"));
  // A fixed type: Reshape's shape is tensor(int64).
  found =
      checkText(graphAt(14, "g (float[4] x, int32[2] s) => (float[2,2] y)", "y = Reshape(x, s)"));
  EXPECT_EQ(errorRules(found), (Rules{"R51"})) << listed(found);
  EXPECT_NE(messageOf(found, "R51").find("it takes tensor(int64)"), std::string::npos);
}

TEST(NodeSignature, R51ATypeVariableStandsForOneType) {
  Diagnostics found =
      checkText(graphAt(14, "g (float[2] a, double[2] b) => (float[2] y)", "y = Add(a, b)"));
  EXPECT_EQ(errorRules(found), (Rules{"R51"})) << listed(found);
  EXPECT_EQ(pathOf(found, "R51"), "graph.node[0].input[1]");
  EXPECT_EQ(messageOf(found, "R51"),
            "input 1 (B) has type tensor(double), but input 0 (A) has type tensor(float); Add at "
            "opset 14 gives both type T, which stands for one type in a node");
  // The output is bound too.
  found = checkText(graphAt(14, "g (float[2] a, float[2] b) => (double[2] y)", "y = Add(a, b)"));
  EXPECT_EQ(errorRules(found), (Rules{"R51"})) << listed(found);
  EXPECT_EQ(pathOf(found, "R51"), "graph.node[0].output[0]");
  // A homogeneous variadic is homogeneous.
  found = checkText(
      graphAt(13, "g (float[2] a, double[2] b) => (float[4] y)", "y = Concat <axis = 0> (a, b)"));
  EXPECT_EQ(errorRules(found), (Rules{"R51"})) << listed(found);
  // Values of unknown type fit anything.
  expectClean(
      graphAt(14, "g (float[2] a, float[2] b) => (float[2] y)", "t = Add(a, b)  y = Add(t, a)"));
}

TEST(NodeSignature, R51LeavesABrokenTypeToTheTypeRules) {
  // An element type 0 (UNDEFINED) is the type's own fault (R84): R51 does not judge it too.
  Model model = testing::parseOrFail(graphAt(13, "g (float[2] x) => (float[2] y)", "y = Neg(x)"));
  model.graph->inputs[0]->type->elem_type = 0;
  Diagnostics found = checkModel(model);
  EXPECT_TRUE(found.hasErrors()) << listed(found);
  EXPECT_FALSE(found.has("R51")) << listed(found);
}

TEST(NodeSignature, R51AnInitializerSaysItsType) {
  Diagnostics found = checkText(
      graphAt(14, "g (float[2] a) => (float[2] y) <int64[2] w = {1, 2}>", "y = Add(a, w)"));
  EXPECT_EQ(errorRules(found), (Rules{"R51"})) << listed(found);
  EXPECT_EQ(pathOf(found, "R51"), "graph.node[0].input[1]");
  expectClean(
      graphAt(14, "g (float[2] a) => (float[2] y) <float[2] w = {1.0, 2.0}>", "y = Add(a, w)"));
}

TEST(NodeSignature, R51AHeterogeneousVariadicTakesMixedTypes) {
  // Loop carries a float and an int64: each loop-carried value has its own type.
  expectClean(graphAt(16, "g (int64 n, bool c, float[2] x, int64 k) => (float[2] y, int64 z)",
                      R"(y, z = Loop (n, c, x, k) <body = step (int64 i, bool cond, float[2] a,
                                                           int64 b) => (bool co, float[2] a2,
                                                                        int64 b2) {
                           co = Identity(cond)
                           a2 = Identity(a)
                           b2 = Identity(b)
                         }>)"));
}

// ---- R52: control-flow bodies ----------------------------------------------------------

TEST(NodeSignature, R52IfBranchesGiveTheNodesOutputs) {
  const char* signature = "g (bool c, float[2] x) => (float[2] y)";
  Diagnostics found = checkText(graphAt(16, signature, R"(
  y = If (c) <then_branch = t () => (float[2] a, float[2] b) { a = Identity(x)  b = Identity(x) },
              else_branch = e () => (float[2] d) { d = Identity(x) }>)"));
  EXPECT_EQ(errorRules(found), (Rules{"R52"})) << listed(found);
  EXPECT_EQ(pathOf(found, "R52"), "graph.node[0].attribute[0](then_branch).g");
  EXPECT_EQ(messageOf(found, "R52"),
            "the then_branch gives 2 outputs, but the If node has 1 output; each branch gives "
            "exactly the node's outputs");
  found = checkText(graphAt(16, signature, R"(
  y = If (c) <then_branch = t (float[2] q) => (float[2] a) { a = Identity(q) },
              else_branch = e () => (float[2] d) { d = Identity(x) }>)"));
  EXPECT_EQ(errorRules(found), (Rules{"R52"})) << listed(found);
  expectClean(graphAt(16, signature, R"(
  y = If (c) <then_branch = t () => (float[2] a) { a = Identity(x) },
              else_branch = e () => (float[2] d) { d = Neg(x) }>)"));
}

TEST(NodeSignature, R52ALoopBodyTakesTwoPlusNAndGivesOnePlusNPlusK) {
  // The minimal Loop: no carried values, no scan outputs... but a node gives one output, so
  // one scan output: the body takes (i, cond) and gives (cond, scan).
  const char* minimal = R"(
  y = Loop (n, c) <body = step (int64 i, bool cond) => (bool co, float[1] s) {
    co = Identity(cond)
    s = Constant <value = float[1] {1.0}> ()
  }>)";
  expectClean(graphAt(16, "g (int64 n, bool c) => (float[3,1] y)", minimal));
  // One carried value, but the body leaves out the condition input.
  Diagnostics found = checkText(graphAt(16, "g (int64 n, bool c, float[2] x) => (float[2] y)", R"(
  y = Loop (n, c, x) <body = step (bool cond, float[2] a) => (bool co, float[2] a2) {
    co = Identity(cond)
    a2 = Identity(a)
  }>)"));
  EXPECT_EQ(errorRules(found), (Rules{"R52"})) << listed(found);
  EXPECT_EQ(pathOf(found, "R52"), "graph.node[0].attribute[0](body).g");
  EXPECT_EQ(messageOf(found, "R52"),
            "the Loop body takes 2 inputs; for this node's 1 carried value it takes 3: the "
            "iteration number, the condition, then the carried values");
  // The body forgets the condition output.
  found = checkText(graphAt(16, "g (int64 n, bool c, float[2] x) => (float[2] y)", R"(
  y = Loop (n, c, x) <body = step (int64 i, bool cond, float[2] a) => (float[2] a2) {
    a2 = Identity(a)
  }>)"));
  EXPECT_EQ(errorRules(found), (Rules{"R52"})) << listed(found);
  // The node has fewer outputs than carried values.
  found = checkText(graphAt(16, "g (int64 n, bool c, float[2] x, float[2] w) => (float[2] y)", R"(
  y = Loop (n, c, x, w) <body = step (int64 i, bool cond, float[2] a, float[2] b)
                                  => (bool co, float[2] a2) {
    co = Identity(cond)
    a2 = Identity(a)
  }>)"));
  EXPECT_EQ(errorRules(found), (Rules{"R52"})) << listed(found);
  EXPECT_EQ(pathOf(found, "R52"), "graph.node[0]");
}

TEST(NodeSignature, R52AScanBodyMatchesItsStatesAndScans) {
  // One state (s) and one scan input (x); one final state and one scan output.
  const char* signature = "g (float[2] s, float[3,2] x) => (float[2] f, float[3,2] o)";
  const char* scan = R"(
  f, o = Scan (s, x) <num_scan_inputs = 1, scan_output_axes = [0],
                      body = step (float[2] acc, float[2] row) => (float[2] acc2, float[2] out) {
    acc2 = Add(acc, row)
    out = Identity(acc2)
  }>)";
  expectClean(graphAt(16, signature, scan));
  // The body forgets the scan input.
  Diagnostics found = checkText(graphAt(16, signature, R"(
  f, o = Scan (s, x) <num_scan_inputs = 1,
                      body = step (float[2] acc) => (float[2] acc2, float[2] out) {
    acc2 = Identity(acc)
    out = Identity(acc)
  }>)"));
  EXPECT_EQ(errorRules(found), (Rules{"R52"})) << listed(found);
  EXPECT_EQ(pathOf(found, "R52"), "graph.node[0].attribute[1](body).g");
  // num_scan_inputs larger than the inputs; a list of axes of the wrong length.
  found = checkText(graphAt(16, signature, R"(
  f, o = Scan (s, x) <num_scan_inputs = 3,
                      body = step (float[2] acc, float[2] row) => (float[2] acc2, float[2] out) {
    acc2 = Add(acc, row)
    out = Identity(acc2)
  }>)"));
  EXPECT_EQ(errorRules(found), (Rules{"R52"})) << listed(found);
  found = checkText(graphAt(16, signature, R"(
  f, o = Scan (s, x) <num_scan_inputs = 1, scan_input_axes = [0, 0],
                      body = step (float[2] acc, float[2] row) => (float[2] acc2, float[2] out) {
    acc2 = Add(acc, row)
    out = Identity(acc2)
  }>)"));
  EXPECT_EQ(errorRules(found), (Rules{"R52"})) << listed(found);
  EXPECT_EQ(pathOf(found, "R52"), "graph.node[0].attribute[1](scan_input_axes)");
}

TEST(NodeSignature, R52ASequenceMapBodyTakesTheNodesInputs) {
  const char* signature = "g (seq(float[2]) xs) => (seq(float[2]) ys)";
  expectClean(
      graphAt(17, signature,
              "ys = SequenceMap <body = f (float[2] x) => (float[2] y) { y = Neg(x) }> (xs)"));
  Diagnostics found = checkText(graphAt(17, signature,
                                        "ys = SequenceMap <body = f (float[2] x, float[2] z) => "
                                        "(float[2] y) { y = Add(x, z) }> (xs)"));
  EXPECT_EQ(errorRules(found), (Rules{"R52"})) << listed(found);
}

// ---- R53: calls of model-local functions -----------------------------------------------

// A model whose graph runs `call` and defines lib.F with attribute `alpha` (a float default)
// and `beta` (no default).
std::string callingF(const std::string& call) {
  return R"(<ir_version: 10, opset_import: ["" : 18, "lib" : 1]>
g (float[2] x) => (float[2] y) { )" +
         call + R"( }
<domain: "lib", opset_import: ["" : 18]>
F <alpha: float = 1.0> (a, b) => (c) { c = Add(a, a) })";
}

TEST(NodeSignature, R53ACallPassesAtMostTheFunctionsParameters) {
  expectClean(callingF("y = lib.F(x, x)"));
  expectClean(callingF("y = lib.F(x)"));  // trailing inputs left out
  Diagnostics found = checkText(callingF("y = lib.F(x, x, x)"));
  EXPECT_EQ(errorRules(found), (Rules{"R53"})) << listed(found);
  EXPECT_EQ(pathOf(found, "R53"), "graph.node[0]");
  EXPECT_EQ(messageOf(found, "R53"),
            "calls function 'F' of domain 'lib', which takes 2 inputs; this node passes 3");
  found = checkText(callingF("y, z = lib.F(x)"));
  EXPECT_EQ(errorRules(found), (Rules{"R53"})) << listed(found);
}

TEST(NodeSignature, R53ACallPassesOnlyDeclaredAttributes) {
  expectClean(callingF("y = lib.F <alpha = 2.0> (x)"));
  Diagnostics found = checkText(callingF("y = lib.F <gamma = 2.0> (x)"));
  EXPECT_EQ(errorRules(found), (Rules{"R53"})) << listed(found);
  EXPECT_EQ(pathOf(found, "R53"), "graph.node[0].attribute[0](gamma)");
  EXPECT_EQ(messageOf(found, "R53"),
            "function 'F' of domain 'lib' has no attribute 'gamma'; its attributes are 'alpha'");
  // The default says the kind.
  found = checkText(callingF("y = lib.F <alpha = 2> (x)"));
  EXPECT_EQ(errorRules(found), (Rules{"R53"})) << listed(found);
}

TEST(NodeSignature, R47AReferenceInAFunctionBodyIsCheckedByItsKind) {
  const char* text = R"(<ir_version: 10, opset_import: ["" : 18, "lib" : 1]>
g (float[2] x) => (float[2] y) { y = lib.F <alpha = 0.2> (x) }
<domain: "lib", opset_import: ["" : 18]>
F <alpha: float = 0.1> (a) => (b) { b = %s (a) })";
  char buffer[512];
  std::snprintf(buffer, sizeof buffer, text, "LeakyRelu <alpha: float = @alpha>");
  expectClean(buffer);
  // LeakyRelu has no attribute `beta`, whatever it refers to.
  std::snprintf(buffer, sizeof buffer, text, "LeakyRelu <beta: float = @alpha>");
  Diagnostics found = checkText(buffer);
  EXPECT_EQ(errorRules(found), (Rules{"R47"})) << listed(found);
  EXPECT_EQ(pathOf(found, "R47"), "functions[0](F).node[0].attribute[0](beta)");
  // A reference states its kind: an INT reference cannot stand for LeakyRelu's FLOAT alpha.
  // (Whether the function's alpha is an int is R59's to say, in the value rules.)
  std::snprintf(buffer, sizeof buffer, text, "LeakyRelu <alpha: int = @alpha>");
  found = checkText(buffer);
  EXPECT_TRUE(found.has("R48")) << listed(found);
  EXPECT_EQ(pathOf(found, "R48"), "functions[0](F).node[0].attribute[0](alpha)");
  EXPECT_FALSE(found.has("R47")) << listed(found);
}

// ---- R98: the function's and the model's imports agree ---------------------------------

TEST(NodeSignature, R98AFunctionsOperatorsMeanTheSameUnderBothImports) {
  const char* text = R"(<ir_version: 10, opset_import: ["" : 18, "lib" : 1]>
g (float[2] x) => (float[2] y) { y = lib.F(x) }
<domain: "lib", opset_import: ["" : 13]>
F (a) => (b) { b = %s })";
  char buffer[512];
  // Neg is the same version (13) at opsets 13 and 18.
  std::snprintf(buffer, sizeof buffer, text, "Neg(a)");
  expectClean(buffer);
  // Add is version 13 at opset 13 and version 14 at 18.
  std::snprintf(buffer, sizeof buffer, text, "Add(a, a)");
  Diagnostics found = checkText(buffer);
  EXPECT_EQ(errorRules(found), (Rules{"R98"})) << listed(found);
  EXPECT_EQ(pathOf(found, "R98"), "functions[0](F).node[0]");
  EXPECT_EQ(messageOf(found, "R98"),
            "its function imports ai.onnx opset 13, where Add binds to version 13, but Add "
            "binds to version 14 under the model's opset 18; a function's operators must mean "
            "the same under both imports");
}

TEST(NodeSignature, BodyNodesResolveAgainstTheFunctionsImports) {
  // Gelu exists at the model's opset 20 but not at the function's 18.
  Diagnostics found = checkText(R"(<ir_version: 10, opset_import: ["" : 20, "lib" : 1]>
g (float[2] x) => (float[2] y) { y = lib.F(x) }
<domain: "lib", opset_import: ["" : 18]>
F (a) => (b) { b = Gelu(a) })");
  EXPECT_EQ(errorRules(found), (Rules{"R41"})) << listed(found);
  EXPECT_EQ(pathOf(found, "R41"), "functions[0](F).node[0]");
  EXPECT_NE(messageOf(found, "R41").find("its function imports opset 18"), std::string::npos);
}

}  // namespace
}  // namespace onyx
