// A MatMul by a matrix + a bias row (+ Relu) runs as one product (src/eval/kernels/fused_matmul.h):
// it computes what the nodes compute one by one, up to float rounding.
#include <gtest/gtest.h>

#include <cmath>

#include "onyx/core/float_formats.h"
#include "onyx/eval/evaluator.h"
#include "onyx/passes/float16.h"
#include "onyx/text/parser.h"
#include "support/eval_testing.h"

namespace onyx {
namespace {

using testing::tensorOf;
using testing::valuesOf;

using testing::randomFloats;

// a (rows x inner) * b (inner x columns) + bias, in double.
std::vector<double> linear(const std::vector<float>& a, const std::vector<float>& b,
                           const std::vector<float>& bias, size_t rows, size_t inner,
                           size_t columns) {
  std::vector<double> out(rows * columns);
  for (size_t i = 0; i < rows; ++i) {
    for (size_t j = 0; j < columns; ++j) {
      double sum = bias[j];
      for (size_t p = 0; p < inner; ++p)
        sum += double(a[i * inner + p]) * double(b[p * columns + j]);
      out[i * columns + j] = sum;
    }
  }
  return out;
}

void expectNear(const std::vector<double>& expected, const EvalValue& actual) {
  std::vector<float> got = valuesOf<float>(actual);
  ASSERT_EQ(got.size(), expected.size());
  for (size_t i = 0; i < got.size(); ++i) {
    ASSERT_NEAR(got[i], expected[i], 1e-5 + 1e-5 * std::fabs(expected[i])) << "element " << i;
  }
}

TEST(FusedMatMul, ALinearLayerWithReluOverABatchOfRows) {
  std::vector<float> a = randomFloats(2 * 3 * 4, 1), b = randomFloats(4 * 5, 2),
                     bias = randomFloats(5, 3);
  Result<std::vector<EvalValue>> out = testing::runText(
      R"(<ir_version: 10, opset_import: ["" : 21]>
      g (float[2, 3, 4] a, float[4, 5] b, float[5] bias) => (float[2, 3, 5] y) {
        product = MatMul(a, b)
        shifted = Add(bias, product)
        y = Relu(shifted)
      })",
      {{"a", tensorOf<float>(ElementType::kFloat, {2, 3, 4}, a)},
       {"b", tensorOf<float>(ElementType::kFloat, {4, 5}, b)},
       {"bias", tensorOf<float>(ElementType::kFloat, {5}, bias)}});
  ASSERT_TRUE(out) << out.status().toString();
  ASSERT_EQ((*out)[0].tensor.shape(), (std::vector<int64_t>{2, 3, 5}));
  std::vector<double> expected = linear(a, b, bias, 6, 4, 5);
  for (double& v : expected) v = std::max(v, 0.0);
  expectNear(expected, (*out)[0]);
}

TEST(FusedMatMul, ABiasOfShapeOneByNAndAnEmptyInnerDimension) {
  std::vector<float> bias = randomFloats(3, 4);
  Result<std::vector<EvalValue>> out = testing::runText(
      R"(<ir_version: 10, opset_import: ["" : 21]>
      g (float[2, 0] a, float[0, 3] b, float[1, 3] bias) => (float[2, 3] y) {
        product = MatMul(a, b)
        y = Add(product, bias)
      })",
      {{"a", tensorOf<float>(ElementType::kFloat, {2, 0}, std::vector<float>{})},
       {"b", tensorOf<float>(ElementType::kFloat, {0, 3}, std::vector<float>{})},
       {"bias", tensorOf<float>(ElementType::kFloat, {1, 3}, bias)}});
  ASSERT_TRUE(out) << out.status().toString();
  std::vector<double> expected;
  for (int row = 0; row < 2; ++row) expected.insert(expected.end(), bias.begin(), bias.end());
  expectNear(expected, (*out)[0]);
}

TEST(FusedMatMul, AnAddOfAWholeTensorRunsNodeByNode) {
  std::vector<float> a = randomFloats(3 * 4, 5), b = randomFloats(4 * 2, 6),
                     r = randomFloats(3 * 2, 7);
  Result<std::vector<EvalValue>> out = testing::runText(
      R"(<ir_version: 10, opset_import: ["" : 21]>
      g (float[3, 4] a, float[4, 2] b, float[3, 2] r) => (float[3, 2] y) {
        product = MatMul(a, b)
        y = Add(product, r)
      })",
      {{"a", tensorOf<float>(ElementType::kFloat, {3, 4}, a)},
       {"b", tensorOf<float>(ElementType::kFloat, {4, 2}, b)},
       {"r", tensorOf<float>(ElementType::kFloat, {3, 2}, r)}});
  ASSERT_TRUE(out) << out.status().toString();
  std::vector<double> expected = linear(a, b, {0, 0}, 3, 4, 2);
  for (size_t i = 0; i < expected.size(); ++i) expected[i] += r[i];
  expectNear(expected, (*out)[0]);
}

TEST(FusedMatMul, TheSameBitsOnOneAndTwoThreads) {
  Result<Model> model = parseText(R"(<ir_version: 10, opset_import: ["" : 21]>
      g (float[1, 300, 256] a, float[256, 600] b, float[600] bias) => (float[1, 300, 600] y) {
        product = MatMul(a, b)
        y = Add(product, bias)
      })");
  ASSERT_TRUE(model) << model.status().toString();
  std::vector<NamedValue> inputs = {
      {"a", tensorOf<float>(ElementType::kFloat, {1, 300, 256}, randomFloats(300 * 256, 8))},
      {"b", tensorOf<float>(ElementType::kFloat, {256, 600}, randomFloats(256 * 600, 9))},
      {"bias", tensorOf<float>(ElementType::kFloat, {600}, randomFloats(600, 10))}};
  EXPECT_EQ(testing::threadCountDifference(*model, inputs), "");
}

// A model whose weights b (inner x columns) and bias are initializers, so fixed: a product as
// wide as PackedLinearLayer takes runs on weights packed once, in blocks of 64 rows.
// `values` as the text syntax writes a tensor's elements (6 decimals).
std::string list(const std::vector<float>& values) {
  std::string text;
  for (float value : values) text += (text.empty() ? "" : ", ") + std::to_string(value);
  return text;
}

std::string fixedWeightsModel(int64_t rows, int64_t inner, int64_t columns,
                              const std::vector<float>& b, const std::vector<float>& bias) {
  std::string a = "float[" + std::to_string(rows) + ", " + std::to_string(inner) + "]";
  std::string y = "float[" + std::to_string(rows) + ", " + std::to_string(columns) + "]";
  return R"(<ir_version: 10, opset_import: ["" : 21]>
      g ()" +
         a + " a) => (" + y + " y) <float[" + std::to_string(inner) + ", " +
         std::to_string(columns) + "] b = {" + list(b) + "}, float[" + std::to_string(columns) +
         "] bias = {" + list(bias) + R"(}> {
        product = MatMul(a, b)
        y = Add(product, bias)
      })";
}

// As exporters often write weights: a Constant node's output, fixed as an initializer is.
std::string constantNodeWeightsModel(int64_t rows, int64_t inner, int64_t columns,
                                     const std::vector<float>& b, const std::vector<float>& bias) {
  std::string text = fixedWeightsModel(rows, inner, columns, b, bias);
  // Moves `b` from the initializer list into a Constant node.
  size_t start = text.find("<float[" + std::to_string(inner));
  size_t end = text.find("}, float[", start);
  std::string literal = text.substr(start + 1, end + 1 - start - 1);  // float[..] b = {...}
  text.erase(start + 1, end + 3 - start - 1);
  literal.replace(literal.find(" b = "), 5, " ");
  text.replace(text.find("product = MatMul"), 0,
               "b = Constant <value = " + literal + "> ()\n        ");
  return text;
}

// The layer as a Gemm exports it: B (inner, columns) written transposed (transB), C the bias
// or none, maybe a Relu after it.
std::string gemmModelText(int64_t rows, int64_t inner, int64_t columns, const std::vector<float>& b,
                          const std::vector<float>& bias, bool with_bias, bool relu) {
  std::vector<float> transposed(b.size());
  for (int64_t p = 0; p < inner; ++p) {
    for (int64_t j = 0; j < columns; ++j) transposed[j * inner + p] = b[p * columns + j];
  }
  auto dims = [](int64_t first, int64_t second) {
    return "float[" + std::to_string(first) + ", " + std::to_string(second) + "]";
  };
  return R"(<ir_version: 10, opset_import: ["" : 21]>
      g ()" +
         dims(rows, inner) + " a) => (" + dims(rows, columns) + " y) <" + dims(columns, inner) +
         " b = {" + list(transposed) + "}, float[" + std::to_string(columns) + "] bias = {" +
         list(bias) + "}> {\n" + (relu ? "h" : "y") + " = Gemm <transB = 1> (a, b" +
         (with_bias ? ", bias)" : ")") + (relu ? "\ny = Relu(h)" : "") + "\n}";
}

TEST(FusedMatMul, WideFixedWeightsRunPackedWithTheSameBitsOnAnyThreadCount) {
  constexpr int64_t kInner = 48, kColumns = 1024;
  // 128 rows: two blocks of 64, packed; 100 rows: on sgemm.
  for (int64_t rows : {128, 100}) {
    std::vector<float> a = randomFloats(rows * kInner, 11), b = randomFloats(kInner * kColumns, 12),
                       bias = randomFloats(kColumns, 13);
    // Multiples of 1/64, which the model's text (6 decimals) gives exactly.
    for (std::vector<float>* fixed : {&b, &bias}) {
      for (float& value : *fixed) value = std::round(value * 64) / 64;
    }
    for (bool constant_node : {false, true}) {
      Result<Model> model =
          parseText(constant_node ? constantNodeWeightsModel(rows, kInner, kColumns, b, bias)
                                  : fixedWeightsModel(rows, kInner, kColumns, b, bias));
      ASSERT_TRUE(model) << model.status().toString();
      std::vector<NamedValue> inputs = {
          {"a", tensorOf<float>(ElementType::kFloat, {rows, kInner}, a)}};
      testing::StepRecorder steps;
      Result<std::vector<EvalValue>> out = evaluate(*model, inputs, {.observer = &steps});
      ASSERT_TRUE(out) << out.status().toString();
      EXPECT_EQ(steps.steps, std::vector<std::string>{"MatMul+Add"}) << rows << " rows";
      expectNear(linear(a, b, bias, static_cast<size_t>(rows), kInner, kColumns), (*out)[0]);
      EXPECT_EQ(testing::threadCountDifference(*model, inputs, 2), "") << rows << " rows";
      EXPECT_EQ(testing::threadCountDifference(*model, inputs, 5), "") << rows << " rows";
      if (constant_node) continue;
      // The same layer as a Gemm reading B transposed (packed from there): the same bits.
      Result<Model> gemm = parseText(gemmModelText(rows, kInner, kColumns, b, bias, true, false));
      ASSERT_TRUE(gemm) << gemm.status().toString();
      testing::StepRecorder gemm_steps;
      Result<std::vector<EvalValue>> same = evaluate(*gemm, inputs, {.observer = &gemm_steps});
      ASSERT_TRUE(same) << same.status().toString();
      EXPECT_EQ(gemm_steps.steps, std::vector<std::string>{"Gemm"}) << rows << " rows";
      EXPECT_EQ(valuesOf<float>((*same)[0]), valuesOf<float>((*out)[0])) << rows << " rows";
    }
  }
}

}  // namespace
}  // namespace onyx

namespace onyx {
namespace {

// A layer of fixed weights with shapes that leave something over at each level of the AVX2
// kernel's cut (panel_linear_layer.h): 101 rows (a block of 64, then 37: six tiles of 6 and one
// row), 300 inner indices (a pass of 256, then 44), 40 columns (two panels and 8 columns of a
// third); the weights and bias multiples of 1/64 (exact in the model's text and in float16).
struct OddLayer {
  static constexpr int64_t kRows = 101, kInner = 300, kColumns = 40;
  std::vector<float> a, b, bias;
  explicit OddLayer(uint32_t seed)
      : a(randomFloats(kRows * kInner, seed)),
        b(randomFloats(kInner * kColumns, seed + 1)),
        bias(randomFloats(kColumns, seed + 2)) {
    for (std::vector<float>* fixed : {&b, &bias}) {
      for (float& value : *fixed) value = std::round(value * 64) / 64;
    }
  }
  std::string text() const { return fixedWeightsModel(kRows, kInner, kColumns, b, bias); }
};

// At every tier up to this host's: each element within `tolerance` (absolute and relative) of
// `expected`, and the same bits at 1 and 3 threads.
void expectAtEveryTier(const Model& model, const std::vector<float>& a,
                       const std::vector<double>& expected, double tolerance) {
  std::vector<NamedValue> inputs = {
      {"a", tensorOf<float>(ElementType::kFloat, {OddLayer::kRows, OddLayer::kInner}, a)}};
  for (CpuTier tier : testing::cpuTiersToTest()) {
    SCOPED_TRACE(std::string(cpuTierName(tier)));
    Result<std::vector<EvalValue>> one = evaluate(model, inputs, {.threads = 1, .max_isa = tier});
    Result<std::vector<EvalValue>> three = evaluate(model, inputs, {.threads = 3, .max_isa = tier});
    ASSERT_TRUE(one) << one.status().toString();
    ASSERT_TRUE(three) << three.status().toString();
    std::vector<float> got = valuesOf<float>((*one)[0]);
    ASSERT_EQ(got.size(), expected.size());
    for (size_t i = 0; i < got.size(); ++i) {
      ASSERT_NEAR(got[i], expected[i], tolerance + tolerance * std::fabs(expected[i]))
          << "element " << i;
    }
    EXPECT_EQ(valuesOf<float>((*three)[0]), got);
  }
}

TEST(FusedMatMul, FixedWeightsOfEveryShapeAtEveryTier) {
  OddLayer layer(21);
  Result<Model> model = parseText(layer.text());
  ASSERT_TRUE(model) << model.status().toString();
  // The inner sums are 300 long: a looser bound than the short products above.
  expectAtEveryTier(
      *model, layer.a,
      linear(layer.a, layer.b, layer.bias, OddLayer::kRows, OddLayer::kInner, OddLayer::kColumns),
      1e-4);
}

// The same layer converted to float16 (its inputs and outputs kept float32): at the AVX2 tier
// its weights are widened straight into the kernel's panels.
// `text`, a model of `layer`, converted to float16 with its input and output kept float32,
// computes the layer at every tier.
void expectFloat16AtEveryTier(const std::string& text, const OddLayer& layer) {
  Result<Model> model = parseText(text);
  ASSERT_TRUE(model) << model.status().toString();
  Float16Options keep_io;
  keep_io.keep_io_types = true;
  ASSERT_TRUE(convertToFloat16(*model, keep_io).isOk());
  // The input reaches the product through a Cast to float16; the result may be rounded to
  // float16 on its way out (2^-11 of it).
  std::vector<float> rounded = layer.a;
  for (float& value : rounded) value = float16ToFloat(floatToFloat16(value));
  expectAtEveryTier(
      *model, layer.a,
      linear(rounded, layer.b, layer.bias, OddLayer::kRows, OddLayer::kInner, OddLayer::kColumns),
      1e-3);
}

TEST(FusedMatMul, FixedFloat16WeightsAtEveryTier) {
  OddLayer layer(31);
  expectFloat16AtEveryTier(layer.text(), layer);
}

// The odd layer as a Gemm exports it.
std::string gemmModel(const OddLayer& layer, bool with_bias, bool relu) {
  return gemmModelText(OddLayer::kRows, OddLayer::kInner, OddLayer::kColumns, layer.b, layer.bias,
                       with_bias, relu);
}

// A Gemm of fixed weights runs as the linear layer does (its B transposed once), at every
// tier: with its bias, and without one and with a Relu.
TEST(FusedMatMul, AGemmOfFixedTransposedWeightsAtEveryTier) {
  OddLayer layer(41);
  for (bool with_bias : {true, false}) {
    SCOPED_TRACE(with_bias ? "with C" : "without C, with a Relu");
    Result<Model> model = parseText(gemmModel(layer, with_bias, !with_bias));
    ASSERT_TRUE(model) << model.status().toString();
    std::vector<float> bias = with_bias ? layer.bias : std::vector<float>(OddLayer::kColumns, 0);
    std::vector<double> expected =
        linear(layer.a, layer.b, bias, OddLayer::kRows, OddLayer::kInner, OddLayer::kColumns);
    if (!with_bias) {
      for (double& value : expected) value = std::max(value, 0.0);
    }
    expectAtEveryTier(*model, layer.a, expected, 1e-4);
  }
}

// The Gemm converted to float16 (inputs and outputs kept float32): its transposed B widened
// once, into the AVX2 kernel's panels at that tier.
TEST(FusedMatMul, AGemmOfFixedFloat16WeightsAtEveryTier) {
  OddLayer layer(61);
  expectFloat16AtEveryTier(gemmModel(layer, true, false), layer);
}

// What the linear layer does not take runs as the node: alpha, and a C over the whole result.
TEST(FusedMatMul, AGemmItDoesNotTakeRunsAsTheNode) {
  std::vector<float> a = randomFloats(2 * 3, 51), b = randomFloats(4 * 3, 52),
                     c = randomFloats(2 * 4, 53);
  for (std::string attributes : {"<transB = 1, alpha = 2.0>", "<transB = 1>"}) {
    SCOPED_TRACE(attributes);
    bool doubled = attributes.find("alpha") != std::string::npos;
    Result<std::vector<EvalValue>> out = testing::runText(
        R"(<ir_version: 10, opset_import: ["" : 21]>
      g (float[2, 3] a, float[2, 4] c) => (float[2, 4] y) <float[4, 3] b = {)" +
            list(b) +
            R"(}> {
        y = Gemm )" +
            attributes +
            R"( (a, b, c)
      })",
        {{"a", tensorOf<float>(ElementType::kFloat, {2, 3}, a)},
         {"c", tensorOf<float>(ElementType::kFloat, {2, 4}, c)}});
    ASSERT_TRUE(out) << out.status().toString();
    std::vector<float> got = valuesOf<float>((*out)[0]);
    ASSERT_EQ(got.size(), 8u);
    for (size_t i = 0; i < 2; ++i) {
      for (size_t j = 0; j < 4; ++j) {
        double sum = 0;
        for (size_t p = 0; p < 3; ++p) {
          // b's text is rounded to six decimals, as std::to_string writes it.
          sum += double(a[i * 3 + p]) * std::stod(std::to_string(b[j * 3 + p]));
        }
        double expected = (doubled ? 2 : 1) * sum + c[i * 4 + j];
        EXPECT_NEAR(got[i * 4 + j], expected, 1e-5 + 1e-5 * std::fabs(expected));
      }
    }
  }
}

}  // namespace
}  // namespace onyx
