// Shape inference rules of the logical family (src/ops/logical).
#include <gtest/gtest.h>

#include <string>

#include "support/infer_testing.h"

namespace onyx {
namespace {

using testing::InferredText;
using testing::inferText;

InferredText inferAt(int opset, const std::string& signature, const std::string& body) {
  return inferText("<ir_version: 10, opset_import: [\"\" : " + std::to_string(opset) + "]>\n" +
                   "g " + signature + " {\n" + body + "\n}");
}

TEST(LogicalInference, ComparisonsBroadcastToBool) {
  for (const char* op : {"Equal", "Greater", "Less", "GreaterOrEqual", "LessOrEqual"}) {
    auto m = inferAt(19, "(float[N, 1] a, float[4] b) => (y)", std::string("y = ") + op + "(a, b)");
    EXPECT_EQ(m.typeOf("y"), "bool[N,4]") << op;
    EXPECT_FALSE(m.result.diagnostics.hasErrors()) << m.diagnostics();
  }
  auto bad = inferAt(13, "(float[3] a, float[4] b) => (y)", "y = Equal(a, b)");
  EXPECT_TRUE(bad.has("X5"));
}

TEST(LogicalInference, BooleanAndBitwiseOperatorsBroadcast) {
  for (const char* op : {"And", "Or", "Xor"}) {
    auto m = inferAt(7, "(bool[N, 1] a, bool[1, M] b) => (y)", std::string("y = ") + op + "(a, b)");
    EXPECT_EQ(m.typeOf("y"), "bool[N,M]") << op;
  }
  for (const char* op : {"BitwiseAnd", "BitwiseOr", "BitwiseXor"}) {
    auto m = inferAt(18, "(int32[2, 1, 3] a, int32[5, 1] b) => (y)",
                     std::string("y = ") + op + "(a, b)");
    EXPECT_EQ(m.typeOf("y"), "int32[2,5,3]") << op;
  }
  auto shift = inferAt(11, "(uint8[N, 4] a, uint8[4] b) => (y)",
                       R"(y = BitShift <direction = "LEFT"> (a, b))");
  EXPECT_EQ(shift.typeOf("y"), "uint8[N,4]");
  auto bad = inferAt(18, "(int32[2] a, int32[3] b) => (y)", "y = BitwiseOr(a, b)");
  EXPECT_TRUE(bad.has("X5"));
}

TEST(LogicalInference, LegacyBroadcastTakesTheFirstInputsShape) {
  auto m =
      inferAt(1, "(bool[N, 3, 4] a, bool[3] b) => (y)", "y = And <broadcast = 1, axis = 1> (a, b)");
  EXPECT_EQ(m.typeOf("y"), "bool[N,3,4]");
  auto greater =
      inferAt(1, "(float[N, 3] a, float[3] b) => (y)", "y = Greater <broadcast = 1> (a, b)");
  EXPECT_EQ(greater.typeOf("y"), "bool[N,3]");
}

TEST(LogicalInference, NotsKeepTheShape) {
  EXPECT_EQ(inferAt(1, "(bool[N, 2] a) => (y)", "y = Not(a)").typeOf("y"), "bool[N,2]");
  EXPECT_EQ(inferAt(18, "(int8[N, 2] a) => (y)", "y = BitwiseNot(a)").typeOf("y"), "int8[N,2]");
}

}  // namespace
}  // namespace onyx
