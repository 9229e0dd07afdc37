// The rules on model-local functions (R15, R91–R102 but R98, X3), each with a model that
// breaks it and one on the valid side of its edge.
#include <gtest/gtest.h>

#include "onyx/check/checker.h"
#include "onyx/ir/editor.h"
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

// A model at IR `ir` whose graph calls lib.F, followed by `functions` (text syntax).
std::string withFunctions(int ir, const std::string& functions) {
  return "<ir_version: " + std::to_string(ir) +
         R"(, opset_import: ["" : 18, "lib" : 1]>
g (float[2] x) => (float[2] y) { y = lib.F(x) }
)" + functions;
}

const char* kF = R"(<domain: "lib", opset_import: ["" : 18]>
F (a) => (b) { t = Neg(a)  b = Abs(t) })";

TEST(FunctionRules, AValidFunctionHasNoDiagnostics) {
  Diagnostics found = checkText(withFunctions(10, kF));
  EXPECT_TRUE(found.all().empty()) << listed(found);
}

TEST(FunctionRules, R15FunctionsComeWithIr8) {
  Diagnostics found = checkText(withFunctions(7, kF));
  EXPECT_EQ(errorRules(found), kNone) << listed(found);
  EXPECT_EQ(warningRules(found), (Rules{"R15"})) << listed(found);
  EXPECT_EQ(pathOf(found, "R15"), "functions");
}

TEST(FunctionRules, R91AFunctionHasANameAndADomain) {
  Model model = testing::parseOrFail(withFunctions(8, kF));
  model.functions[0]->domain.reset();
  Diagnostics found = checkModel(model);
  EXPECT_EQ(errorRules(found), (Rules{"R91"})) << listed(found);
  EXPECT_EQ(pathOf(found, "R91"), "functions[0](F)");
  // Before IR 8 the domain may be missing (the field was not required).
  model.ir_version = 7;
  found = checkModel(model);
  EXPECT_EQ(errorRules(found), kNone) << listed(found);
  model.ir_version = 8;
  model.functions[0]->domain = "lib";
  model.functions[0]->name = "";
  found = checkModel(model);
  EXPECT_EQ(errorRules(found), (Rules{"R91"})) << listed(found);
  EXPECT_EQ(pathOf(found, "R91"), "functions[0]");
}

TEST(FunctionRules, R92FunctionIdsAreUnique) {
  Diagnostics found = checkText(withFunctions(10, std::string(kF) + "\n" + kF));
  EXPECT_EQ(errorRules(found), (Rules{"R92"})) << listed(found);
  EXPECT_EQ(pathOf(found, "R92"), "functions[1](F)");
  // From IR 10 the overload is part of the id; before, it is not.
  std::string overloaded = std::string(kF) + R"(
<domain: "lib", overload: "alt", opset_import: ["" : 18]>
F (a) => (b) { b = Neg(a) })";
  found = checkText(withFunctions(10, overloaded));
  EXPECT_TRUE(found.all().empty()) << listed(found);
  found = checkText(withFunctions(9, overloaded));
  EXPECT_EQ(errorRules(found), (Rules{"R92"})) << listed(found);
}

TEST(FunctionRules, R93FunctionsAreNotRecursive) {
  Diagnostics found = checkText(withFunctions(10, R"(
<domain: "lib", opset_import: ["" : 18, "lib" : 1]>
F (a) => (b) { b = lib.G(a) }
<domain: "lib", opset_import: ["" : 18, "lib" : 1]>
G (a) => (b) { t = Neg(a)  b = lib.H(t) }
<domain: "lib", opset_import: ["" : 18, "lib" : 1]>
H (a) => (b) { b = lib.F(a) })"));
  EXPECT_EQ(errorRules(found), (Rules{"R93"})) << listed(found);
  EXPECT_EQ(pathOf(found, "R93"), "functions[0](F)");
  EXPECT_NE(found.all()[0].message.find("'F' -> 'G' -> 'H' -> 'F'"), std::string::npos)
      << found.all()[0].message;
  // A call from a graph nested in the body counts too.
  found = checkText(withFunctions(10, R"(
<domain: "lib", opset_import: ["" : 18, "lib" : 1]>
F (a) => (b) {
  c = Constant <value = bool[1] {1}> ()
  b = If (c) <then_branch = t () => (p) { p = lib.F(a) }, else_branch = e () => (q) { q = Neg(a) }>
})"));
  EXPECT_EQ(errorRules(found), (Rules{"R93"})) << listed(found);
  // Calls without a cycle are fine.
  found = checkText(withFunctions(10, R"(
<domain: "lib", opset_import: ["" : 18, "lib" : 1]>
F (a) => (b) { t = lib.G(a)  b = lib.G(t) }
<domain: "lib", opset_import: ["" : 18]>
G (a) => (b) { b = Neg(a) })"));
  EXPECT_TRUE(found.all().empty()) << listed(found);
}

TEST(FunctionRules, R94SignatureNamesAreUnique) {
  Diagnostics found = checkText(withFunctions(10, R"(
<domain: "lib", opset_import: ["" : 18]>
F <alpha, alpha, beta: float = 1.0, beta: float = 2.0> (a, a) => (b, b) { b = Neg(a) })"));
  EXPECT_EQ(errorRules(found), (Rules{"R94", "R94", "R94", "R94"})) << listed(found);
  EXPECT_EQ(found.all()[0].path, "functions[0](F).input[1]");
  EXPECT_EQ(found.all()[1].path, "functions[0](F).output[1]");
  EXPECT_EQ(found.all()[2].path, "functions[0](F).attribute[1]");
  EXPECT_EQ(found.all()[3].path, "functions[0](F).attribute_proto[1](beta)");
  // A parameter with a default is listed in attribute_proto only.
  found = checkText(withFunctions(10, R"(
<domain: "lib", opset_import: ["" : 18]>
F <alpha, beta: float = 1.0> (a) => (b) { b = Neg(a) })"));
  EXPECT_TRUE(found.all().empty()) << listed(found);
}

TEST(FunctionRules, X3FunctionParametersAreNamed) {
  Model model = testing::parseOrFail(withFunctions(10, kF));
  model.functions[0]->inputs[0] = nullptr;  // what an input named "" decodes to
  Diagnostics found = checkModel(model);
  // The body's read of 'a' still finds the (now unlisted) input's value.
  EXPECT_EQ(errorRules(found), (Rules{"X3"})) << listed(found);
  EXPECT_EQ(pathOf(found, "X3"), "functions[0](F).input[0]");
}

TEST(FunctionRules, R95BodiesAreClosedSortedAndSingleAssignment) {
  Diagnostics found = checkText(withFunctions(10, R"(
<domain: "lib", opset_import: ["" : 18]>
F (a) => (b) {
  t = Add(a, x)
  u = Neg(v)
  v = Abs(t)
  t = Neg(a)
  a = Abs(v)
  b = Identity(u)
})"));
  // 'x' is the main graph's input: a function sees nothing outside itself.
  EXPECT_EQ(errorRules(found), (Rules{"R95", "R95", "R95", "R95"})) << listed(found);
  EXPECT_EQ(found.all()[0].path, "functions[0](F).node[0].input[1]");
  EXPECT_EQ(found.all()[1].path, "functions[0](F).node[1].input[0]");
  EXPECT_EQ(found.all()[2].path, "functions[0](F).node[3].output[0]");
  EXPECT_EQ(found.all()[3].path, "functions[0](F).node[4].output[0]");
}

TEST(FunctionRules, R96FunctionOutputsAreComputed) {
  Diagnostics found = checkText(withFunctions(10, R"(
<domain: "lib", opset_import: ["" : 18]>
F (a) => (b, c) { b = Neg(a) })"));
  EXPECT_EQ(errorRules(found), (Rules{"R96"})) << listed(found);
  EXPECT_EQ(pathOf(found, "R96"), "functions[0](F).output[1]");
  // An output may be an input passed through.
  found = checkText(withFunctions(10, R"(
<domain: "lib", opset_import: ["" : 18]>
F (a) => (b, a) { b = Neg(a) })"));
  EXPECT_TRUE(found.all().empty()) << listed(found);
}

TEST(FunctionRules, R97BodyDomainsAreImportedByTheFunction) {
  // The model imports "" but the function does not: its nodes resolve against its own.
  Diagnostics found = checkText(withFunctions(10, R"(
<domain: "lib", opset_import: ["com.x" : 1]>
F (a) => (b) { t = com.x.Scale(a)  b = Neg(t) })"));
  EXPECT_EQ(errorRules(found), (Rules{"R97"})) << listed(found);
  EXPECT_EQ(pathOf(found, "R97"), "functions[0](F).node[1]");
}

TEST(FunctionRules, R10AndR12FunctionImportsFollowTheImportRules) {
  Diagnostics found = checkText(withFunctions(10, R"(
<domain: "lib", opset_import: ["" : 18, "ai.onnx" : 17, "ai.onnx.ml" : 9]>
F (a) => (b) { b = Neg(a) })"));
  EXPECT_EQ(errorRules(found), (Rules{"R10", "R12"})) << listed(found);
  EXPECT_EQ(found.all()[0].path, "functions[0](F).opset_import[1]");
  EXPECT_EQ(found.all()[1].path, "functions[0](F).opset_import[2]");
}

TEST(FunctionRules, R99BodyNodesObeyTheNodeRules) {
  Model model = testing::parseOrFail(withFunctions(10, kF));
  model.functions[0]->body->firstNode()->op_type.reset();
  Diagnostics found = checkModel(model);
  EXPECT_EQ(errorRules(found), (Rules{"R39"})) << listed(found);
  EXPECT_EQ(pathOf(found, "R39"), "functions[0](F).node[0]");
}

TEST(FunctionRules, R100FunctionFieldsNewerThanTheModelAreWarnedAbout) {
  Diagnostics found = checkText(withFunctions(8, R"(
<domain: "lib", opset_import: ["" : 18]>
F <alpha: float = 1.0> (a) => (b) <float[2] t> { t = Neg(a)  b = Abs(t) })"));
  EXPECT_EQ(errorRules(found), kNone) << listed(found);
  EXPECT_EQ(warningRules(found), (Rules{"R100", "R100"})) << listed(found);
  EXPECT_EQ(found.all()[0].path, "functions[0](F).attribute_proto");
  EXPECT_EQ(found.all()[1].path, "functions[0](F).value_info");
}

TEST(FunctionRules, R101AttributeDefaultsHoldTheirValue) {
  Model model = testing::parseOrFail(withFunctions(10, R"(
<domain: "lib", opset_import: ["" : 18]>
F <alpha: float = 1.0, value: tensor = float[1] {2.0}, gamma: int = 3> (a) => (b) { b = Neg(a) })"));
  EXPECT_TRUE(checkModel(model).all().empty());
  Function& function = *model.functions[0];
  function.attribute_proto[1]->t = nullptr;  // type TENSOR, no tensor
  GraphEditor(model).rare(function.attribute_proto[2]).ref_attr_name = "alpha";
  // A scalar default without its field is a zero a proto3 writer dropped: still a value.
  function.attribute_proto[0]->f.reset();
  Diagnostics found = checkModel(model);
  EXPECT_EQ(errorRules(found), (Rules{"R101", "R101"})) << listed(found);
  EXPECT_EQ(found.all()[0].path, "functions[0](F).attribute_proto[1](value)");
  EXPECT_EQ(found.all()[1].path, "functions[0](F).attribute_proto[2](gamma)");
}

TEST(FunctionRules, R102FunctionValueInfoNamesItsValuesOnce) {
  Diagnostics found = checkText(withFunctions(10, R"(
<domain: "lib", opset_import: ["" : 18]>
F (a) => (b) <float[2] a, float[2] t, float[2] b, float[2] t, float[2] nothing> {
  t = Neg(a)
  b = Abs(t)
})"));
  EXPECT_EQ(errorRules(found), (Rules{"R102", "R102"})) << listed(found);
  EXPECT_EQ(found.all()[0].path, "functions[0](F).value_info[3](t)");
  EXPECT_EQ(found.all()[1].path, "functions[0](F).value_info[4](nothing)");
}

}  // namespace
}  // namespace onyx
