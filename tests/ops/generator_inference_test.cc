// Shape rules of the generator family: ConstantOfShape and Range from propagated data,
// the random generators' dtype and shape attributes.
#include <gtest/gtest.h>

#include <string>
#include <utility>

#include "support/infer_testing.h"

namespace onyx {
namespace {

using testing::InferredText;
using testing::inferText;

InferredText run(int opset, const std::string& inputs, const std::string& body) {
  return inferText("<ir_version: 10, opset_import: [\"\" : " + std::to_string(opset) + "]> g (" +
                   inputs + ") => () {" + body + "}");
}

TEST(GeneratorInference, ConstantTakesExactlyOneValue) {
  for (auto [node, refusal] : {
           std::pair{"y = Constant <value_int = 1, value_float = 2.0> ()",
                     "Constant has 2 value attributes; it takes exactly one"},
           std::pair{"y = Constant ()", "Constant has 0 value attributes"},
       }) {
    auto bad = run(13, "", node);
    EXPECT_TRUE(bad.refused(refusal)) << node << "\n" << bad.diagnostics();
  }
  auto fine = run(13, "", "y = Constant <value_float = 2.0> ()");
  EXPECT_FALSE(fine.has("X5")) << fine.diagnostics();
  EXPECT_EQ(fine.typeOf("y"), "float[]");
}

TEST(GeneratorInference, ConstantOfShapeFromData) {
  auto m = run(21, "float[N, S] x", R"(
      shape = Shape(x)
      zeros = ConstantOfShape(shape)
      ones = ConstantOfShape <value = int64[1] {1}> (shape)
      one = Constant <value_ints = [1]> ()
      minus_one = ConstantOfShape <value = int64[1] {-1}> (one)
      y = Reshape(x, minus_one)
  )");
  EXPECT_EQ(m.typeOf("zeros"), "float[N,S]");
  EXPECT_EQ(m.typeOf("ones"), "int64[N,S]");
  EXPECT_EQ(m.typeOf("y"), "float[N*S]");
  auto bad = run(21, "", R"(
      shape = Constant <value_ints = [2, -3]> ()
      y = ConstantOfShape(shape)
  )");
  EXPECT_TRUE(bad.has("X5")) << bad.diagnostics();
}

TEST(GeneratorInference, RangeCountIsExactOrSymbolic) {
  auto m = run(21, "float[N, S] x", R"(
      a = Constant <value_int = 1> ()
      b = Constant <value_int = 10> ()
      d = Constant <value_int = 3> ()
      r = Range(a, b, d)
      fa = Constant <value = float {0.0}> ()
      fb = Constant <value = float {1.0}> ()
      fd = Constant <value = float {0.25}> ()
      f = Range(fa, fb, fd)
      shape = Shape(x)
      one = Constant <value_int = 1> ()
      s = Gather(shape, one)
      zero = Constant <value_int = 0> ()
      positions = Range(zero, s, one)
      neg = Constant <value_int = -1> ()
      down = Range(b, a, neg)
  )");
  EXPECT_EQ(m.typeOf("r"), "int64[3]");
  EXPECT_EQ(m.typeOf("f"), "float[4]");
  EXPECT_EQ(m.typeOf("positions"), "int64[S]");
  EXPECT_EQ(m.typeOf("down"), "int64[9]");
  auto bad = run(21, "", R"(
      a = Constant <value_int = 1> ()
      z = Constant <value_int = 0> ()
      r = Range(a, a, z)
  )");
  EXPECT_TRUE(bad.has("X5")) << bad.diagnostics();
}

TEST(GeneratorInference, RandomGeneratorsTakeDtypeAndShape) {
  auto m = run(22, "double[N, 4] x", R"(
      rn = RandomNormal <shape = [2, 3]> ()
      ru = RandomUniform <shape = [5], dtype = 11> ()
      rnl = RandomNormalLike(x)
      rul = RandomUniformLike <dtype = 1> (x)
      be = Bernoulli(x)
      bei = Bernoulli <dtype = 7> (x)
      eye = EyeLike <dtype = 7> (x)
      mn = Multinomial <sample_size = 3> (x)
  )");
  EXPECT_EQ(m.typeOf("rn"), "float[2,3]");
  EXPECT_EQ(m.typeOf("ru"), "double[5]");
  EXPECT_EQ(m.typeOf("rnl"), "double[N,4]");
  EXPECT_EQ(m.typeOf("rul"), "float[N,4]");
  EXPECT_EQ(m.typeOf("be"), "double[N,4]");
  EXPECT_EQ(m.typeOf("bei"), "int64[N,4]");
  EXPECT_EQ(m.typeOf("eye"), "int64[N,4]");
  EXPECT_EQ(m.typeOf("mn"), "int32[N,3]");
  auto bad = run(22, "float[2, 3, 4] x", "y = EyeLike(x)");
  EXPECT_TRUE(bad.has("X5")) << bad.diagnostics();
}

}  // namespace
}  // namespace onyx
