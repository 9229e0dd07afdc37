// The data-movement kernels (src/ops/tensor, Flatten): what the conformance suite leaves out —
// bad inputs' errors, empty tensors, negative axes and indices, narrow and string types,
// thread counts.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "support/eval_testing.h"

namespace onyx {
namespace {

using testing::runText;
using testing::tensorOf;
using testing::valuesOf;

EvalValue floats(std::vector<int64_t> shape, const std::vector<float>& values) {
  return tensorOf<float>(ElementType::kFloat, std::move(shape), values);
}
EvalValue int64s(std::vector<int64_t> shape, const std::vector<int64_t>& values) {
  return tensorOf<int64_t>(ElementType::kInt64, std::move(shape), values);
}
EvalValue int32s(std::vector<int64_t> shape, const std::vector<int32_t>& values) {
  return tensorOf<int32_t>(ElementType::kInt32, std::move(shape), values);
}
EvalValue strings(std::vector<int64_t> shape, const std::vector<std::string>& values) {
  Array array(ElementType::kString, std::move(shape));
  array.strings() = values;
  return EvalValue::of(std::move(array));
}
std::vector<std::string> stringsOf(const EvalValue& value) { return value.tensor.strings(); }

// Runs `text` and expects it to fail with a message containing `needle`.
void expectError(std::string_view text, std::vector<NamedValue> inputs, std::string_view needle) {
  Result<std::vector<EvalValue>> out = runText(text, std::move(inputs));
  ASSERT_FALSE(out) << "expected an error containing '" << needle << "'";
  EXPECT_NE(out.status().message().find(needle), std::string::npos) << out.status().toString();
}

// ---- Transpose, Concat, Slice ----------------------------------------------------------

TEST(TensorKernels, TransposeReversesAxesByDefault) {
  Result<std::vector<EvalValue>> out = runText(R"(
    <ir_version: 10, opset_import: ["" : 21]>
    g (int32[2,1,3] x) => (int32[3,1,2] y) { y = Transpose(x) })",
                                               {{"x", int32s({2, 1, 3}, {1, 2, 3, 4, 5, 6})}});
  ASSERT_TRUE(out) << out.status().toString();
  EXPECT_EQ((*out)[0].tensor.shape(), (std::vector<int64_t>{3, 1, 2}));
  EXPECT_EQ(valuesOf<int32_t>((*out)[0]), (std::vector<int32_t>{1, 4, 2, 5, 3, 6}));
}

TEST(TensorKernels, TransposeOfStringsAndEmptyTensors) {
  Result<std::vector<EvalValue>> out =
      runText(R"(
    <ir_version: 10, opset_import: ["" : 21]>
    g (string[2,2] s, float[0,3] e) => (string[2,2] t, float[3,0] f) {
      t = Transpose <perm = [1, 0]> (s)
      f = Transpose <perm = [1, 0]> (e)
    })",
              {{"s", strings({2, 2}, {"a", "b", "c", "d"})}, {"e", floats({0, 3}, {})}});
  ASSERT_TRUE(out) << out.status().toString();
  EXPECT_EQ(stringsOf((*out)[0]), (std::vector<std::string>{"a", "c", "b", "d"}));
  EXPECT_EQ((*out)[1].tensor.shape(), (std::vector<int64_t>{3, 0}));
}

TEST(TensorKernels, TransposeRefusesARepeatedAxis) {
  expectError(R"(
    <ir_version: 10, opset_import: ["" : 21]>
    g (float[A,B] x) => (float[C,D] y) { y = Transpose <perm = [0, 0]> (x) })",
              {{"x", floats({2, 2}, {1, 2, 3, 4})}}, "repeated");
}

TEST(TensorKernels, LargeTransposeIsTheSameOnAnyThreadCount) {
  std::vector<float> values(64 * 48 * 40);
  for (size_t i = 0; i < values.size(); ++i) values[i] = static_cast<float>(i);
  std::string_view text = R"(
    <ir_version: 10, opset_import: ["" : 21]>
    g (float[64,48,40] x) => (float[40,64,48] y) { y = Transpose <perm = [2, 0, 1]> (x) })";
  EvalOptions one;
  one.threads = 1;
  EvalOptions four;
  four.threads = 4;
  Result<std::vector<EvalValue>> a = runText(text, {{"x", floats({64, 48, 40}, values)}}, one);
  Result<std::vector<EvalValue>> b = runText(text, {{"x", floats({64, 48, 40}, values)}}, four);
  ASSERT_TRUE(a && b);
  std::vector<float> y = valuesOf<float>((*a)[0]);
  EXPECT_EQ(y, valuesOf<float>((*b)[0]));
  // y[k, i, j] = x[i, j, k]
  EXPECT_EQ(y[(7 * 64 + 5) * 48 + 3], values[(5 * 48 + 3) * 40 + 7]);
}

// perm [0, 2, 3, 1] as attention's keys take it: copied in tiles, with edges that do not
// fill a tile, every element checked on one and three threads.
TEST(TensorKernels, TiledTransposeMovesEveryElement) {
  const std::vector<int64_t> shape = {3, 37, 5, 19};
  std::vector<int32_t> values(3 * 37 * 5 * 19);
  for (size_t i = 0; i < values.size(); ++i) values[i] = static_cast<int32_t>(i);
  std::string_view text = R"(
    <ir_version: 10, opset_import: ["" : 21]>
    g (int32[3,37,5,19] x) => (int32[3,5,19,37] y) { y = Transpose <perm = [0, 2, 3, 1]> (x) })";
  for (int threads : {1, 3}) {
    EvalOptions options;
    options.threads = threads;
    Result<std::vector<EvalValue>> out = runText(text, {{"x", int32s(shape, values)}}, options);
    ASSERT_TRUE(out) << out.status().toString();
    std::vector<int32_t> y = valuesOf<int32_t>((*out)[0]);
    ASSERT_EQ(y.size(), values.size());
    size_t wrong = 0;
    for (size_t a = 0; a < 3; ++a) {
      for (size_t c = 0; c < 5; ++c) {
        for (size_t d = 0; d < 19; ++d) {
          for (size_t b = 0; b < 37; ++b) {
            if (y[((a * 5 + c) * 19 + d) * 37 + b] != values[((a * 37 + b) * 5 + c) * 19 + d]) {
              ++wrong;
            }
          }
        }
      }
    }
    EXPECT_EQ(wrong, 0u) << threads << " threads";
  }
}

TEST(TensorKernels, ConcatJoinsStringsAndSkipsEmptyInputs) {
  Result<std::vector<EvalValue>> out = runText(R"(
    <ir_version: 10, opset_import: ["" : 21]>
    g (string[2,1] a, string[2,0] b, string[2,2] c) => (string[2,3] y) {
      y = Concat <axis = -1> (a, b, c)
    })",
                                               {{"a", strings({2, 1}, {"a", "b"})},
                                                {"b", strings({2, 0}, {})},
                                                {"c", strings({2, 2}, {"c", "d", "e", "f"})}});
  ASSERT_TRUE(out) << out.status().toString();
  EXPECT_EQ(stringsOf((*out)[0]), (std::vector<std::string>{"a", "c", "d", "b", "e", "f"}));
}

TEST(TensorKernels, ConcatRefusesDifferingDimensions) {
  expectError(R"(
    <ir_version: 10, opset_import: ["" : 21]>
    g (float[A,B] a, float[C,D] b) => (float[E,F] y) { y = Concat <axis = 0> (a, b) })",
              {{"a", floats({1, 2}, {1, 2})}, {"b", floats({1, 3}, {1, 2, 3})}}, "differs");
}

TEST(TensorKernels, SliceWithNegativeStepsAndClampedBounds) {
  Result<std::vector<EvalValue>> out =
      runText(R"(
    <ir_version: 10, opset_import: ["" : 21]>
    g (int64[2,5] x, int64[2] starts, int64[2] ends, int64[2] axes, int64[2] steps)
        => (int64[A,B] y) { y = Slice(x, starts, ends, axes, steps) })",
              {{"x", int64s({2, 5}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9})},
               {"starts", int64s({2}, {100, -1})},
               {"ends", int64s({2}, {-100, -9})},
               {"axes", int64s({2}, {-1, 0})},
               {"steps", int64s({2}, {-2, -1})}});
  ASSERT_TRUE(out) << out.status().toString();
  EXPECT_EQ((*out)[0].tensor.shape(), (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(valuesOf<int64_t>((*out)[0]), (std::vector<int64_t>{9, 7, 5, 4, 2, 0}));
}

TEST(TensorKernels, SliceRefusesAZeroStep) {
  expectError(R"(
    <ir_version: 10, opset_import: ["" : 21]>
    g (float[N] x, int64[1] s, int64[1] e, int64[1] a, int64[1] st) => (float[M] y) {
      y = Slice(x, s, e, a, st)
    })",
              {{"x", floats({3}, {1, 2, 3})},
               {"s", int64s({1}, {0})},
               {"e", int64s({1}, {3})},
               {"a", int64s({1}, {0})},
               {"st", int64s({1}, {0})}},
              "is 0");
}

TEST(TensorKernels, SliceOneTakesAttributes) {
  Result<std::vector<EvalValue>> out = runText(R"(
    <ir_version: 3, opset_import: ["" : 1]>
    g (float[2,3] x) => (float[2,2] y) { y = Slice <starts = [1], ends = [3], axes = [1]> (x) })",
                                               {{"x", floats({2, 3}, {1, 2, 3, 4, 5, 6})}});
  ASSERT_TRUE(out) << out.status().toString();
  EXPECT_EQ(valuesOf<float>((*out)[0]), (std::vector<float>{2, 3, 5, 6}));
}

// ---- Gather*, Scatter* -----------------------------------------------------------------

TEST(TensorKernels, GatherWrapsNegativeIndicesOfANarrowType) {
  Result<std::vector<EvalValue>> out =
      runText(R"(
    <ir_version: 10, opset_import: ["" : 21]>
    g (float16[3] x, int32[2] i) => (float16[2] y) { y = Gather(x, i) })",
              {{"x", tensorOf<uint16_t>(ElementType::kFloat16, {3}, {0x3C00, 0x4000, 0x4200})},
               {"i", int32s({2}, {-1, 0})}});
  ASSERT_TRUE(out) << out.status().toString();
  EXPECT_EQ(valuesOf<uint16_t>((*out)[0]), (std::vector<uint16_t>{0x4200, 0x3C00}));
}

TEST(TensorKernels, GatherRefusesAnIndexOutOfRange) {
  expectError(R"(
    <ir_version: 10, opset_import: ["" : 21]>
    g (float[N] x, int64[M] i) => (float[K] y) { y = Gather(x, i) })",
              {{"x", floats({3}, {1, 2, 3})}, {"i", int64s({1}, {-4})}}, "out of range");
}

TEST(TensorKernels, GatherElementsAlongTheLastAxis) {
  Result<std::vector<EvalValue>> out = runText(
      R"(
    <ir_version: 10, opset_import: ["" : 21]>
    g (string[2,2] x, int64[2,3] i) => (string[2,3] y) { y = GatherElements <axis = 1> (x, i) })",
      {{"x", strings({2, 2}, {"a", "b", "c", "d"})}, {"i", int64s({2, 3}, {1, 0, 1, -2, -1, 0})}});
  ASSERT_TRUE(out) << out.status().toString();
  EXPECT_EQ(stringsOf((*out)[0]), (std::vector<std::string>{"b", "a", "b", "c", "d", "c"}));
}

TEST(TensorKernels, GatherNDWithBatchDimsAndSlices) {
  Result<std::vector<EvalValue>> out =
      runText(R"(
    <ir_version: 10, opset_import: ["" : 21]>
    g (int32[2,2,2] x, int64[2,1] i) => (int32[2,2] y) { y = GatherND <batch_dims = 1> (x, i) })",
              {{"x", int32s({2, 2, 2}, {0, 1, 2, 3, 4, 5, 6, 7})}, {"i", int64s({2, 1}, {1, -2})}});
  ASSERT_TRUE(out) << out.status().toString();
  EXPECT_EQ(valuesOf<int32_t>((*out)[0]), (std::vector<int32_t>{2, 3, 4, 5}));
}

TEST(TensorKernels, ScatterElementsAddsFloat16Duplicates) {
  Result<std::vector<EvalValue>> out =
      runText(R"(
    <ir_version: 10, opset_import: ["" : 18]>
    g (float16[3] x, int64[2] i, float16[2] u) => (float16[3] y) {
      y = ScatterElements <reduction = "add"> (x, i, u)
    })",
              {{"x", tensorOf<uint16_t>(ElementType::kFloat16, {3}, {0x3C00, 0x3C00, 0x3C00})},
               {"i", int64s({2}, {-1, 2})},
               {"u", tensorOf<uint16_t>(ElementType::kFloat16, {2}, {0x3C00, 0x4000})}});
  ASSERT_TRUE(out) << out.status().toString();
  // 1 + 1 + 2 = 4 (0x4400) at index 2.
  EXPECT_EQ(valuesOf<uint16_t>((*out)[0]), (std::vector<uint16_t>{0x3C00, 0x3C00, 0x4400}));
}

TEST(TensorKernels, ScatterElementsRefusesAnIndexOutOfRange) {
  expectError(R"(
    <ir_version: 10, opset_import: ["" : 18]>
    g (float[N] x, int64[M] i, float[M] u) => (float[N] y) { y = ScatterElements(x, i, u) })",
              {{"x", floats({2}, {1, 2})}, {"i", int64s({1}, {2})}, {"u", floats({1}, {5})}},
              "out of range");
}

TEST(TensorKernels, ScatterNDMultipliesIntegersWithoutOverflowTrouble) {
  Result<std::vector<EvalValue>> out = runText(R"(
    <ir_version: 10, opset_import: ["" : 18]>
    g (int32[2,2] x, int64[2,1] i, int32[2,2] u) => (int32[2,2] y) {
      y = ScatterND <reduction = "mul"> (x, i, u)
    })",
                                               {{"x", int32s({2, 2}, {1, 2, 3, 4})},
                                                {"i", int64s({2, 1}, {1, 1})},
                                                {"u", int32s({2, 2}, {65536, 2, 65536, 3})}});
  ASSERT_TRUE(out) << out.status().toString();
  // 3 * 65536 * 65536 wraps to 0 in 32 bits.
  EXPECT_EQ(valuesOf<int32_t>((*out)[0]), (std::vector<int32_t>{1, 2, 0, 24}));
}

TEST(TensorKernels, ScatterNDRefusesMisshapenUpdates) {
  expectError(R"(
    <ir_version: 10, opset_import: ["" : 18]>
    g (float[A,B] x, int64[C,D] i, float[E] u) => (float[A,B] y) { y = ScatterND(x, i, u) })",
              {{"x", floats({2, 2}, {1, 2, 3, 4})},
               {"i", int64s({1, 1}, {0})},
               {"u", floats({3}, {1, 2, 3})}},
              "updates' shape");
}

TEST(TensorKernels, TensorScatterWrapsInCircularMode) {
  Result<std::vector<EvalValue>> out = runText(R"(
    <ir_version: 11, opset_import: ["" : 24]>
    g (float[1,3,1] c, float[1,2,1] u, int64[1] w) => (float[1,3,1] y) {
      y = TensorScatter <mode = "circular", axis = 1> (c, u, w)
    })",
                                               {{"c", floats({1, 3, 1}, {0, 0, 0})},
                                                {"u", floats({1, 2, 1}, {7, 8})},
                                                {"w", int64s({1}, {2})}});
  ASSERT_TRUE(out) << out.status().toString();
  EXPECT_EQ(valuesOf<float>((*out)[0]), (std::vector<float>{8, 0, 7}));
}

// ---- Split, Squeeze, Unsqueeze, Flatten, Reshape ----------------------------------------

TEST(TensorKernels, SplitByNumOutputsMakesTheLastPartSmaller) {
  Result<std::vector<EvalValue>> out = runText(R"(
    <ir_version: 10, opset_import: ["" : 18]>
    g (int64[5] x) => (int64[A] a, int64[B] b) { a, b = Split <num_outputs = 2> (x) })",
                                               {{"x", int64s({5}, {1, 2, 3, 4, 5})}});
  ASSERT_TRUE(out) << out.status().toString();
  EXPECT_EQ(valuesOf<int64_t>((*out)[0]), (std::vector<int64_t>{1, 2, 3}));
  EXPECT_EQ(valuesOf<int64_t>((*out)[1]), (std::vector<int64_t>{4, 5}));
}

TEST(TensorKernels, SplitRefusesPartsThatDoNotAddUp) {
  expectError(R"(
    <ir_version: 10, opset_import: ["" : 18]>
    g (float[N] x, int64[2] s) => (float[A] a, float[B] b) { a, b = Split(x, s) })",
              {{"x", floats({3}, {1, 2, 3})}, {"s", int64s({2}, {1, 1})}}, "add up");
}

TEST(TensorKernels, SqueezeRefusesAnAxisThatIsNotOne) {
  expectError(R"(
    <ir_version: 10, opset_import: ["" : 21]>
    g (float[A,B] x, int64[1] axes) => (float[C] y) { y = Squeeze(x, axes) })",
              {{"x", floats({1, 2}, {1, 2})}, {"axes", int64s({1}, {-1})}}, "not 1");
}

TEST(TensorKernels, UnsqueezeWithNegativeAxesAndTheOldAttribute) {
  Result<std::vector<EvalValue>> out =
      runText(R"(
    <ir_version: 10, opset_import: ["" : 21]>
    g (float[2] x, int64[2] axes) => (float[1,2,1] y) { y = Unsqueeze(x, axes) })",
              {{"x", floats({2}, {1, 2})}, {"axes", int64s({2}, {-1, 0})}});
  ASSERT_TRUE(out) << out.status().toString();
  EXPECT_EQ((*out)[0].tensor.shape(), (std::vector<int64_t>{1, 2, 1}));
  Result<std::vector<EvalValue>> old = runText(R"(
    <ir_version: 6, opset_import: ["" : 11]>
    g (float[2] x) => (float[2,1] y) { y = Unsqueeze <axes = [1]> (x) })",
                                               {{"x", floats({2}, {1, 2})}});
  ASSERT_TRUE(old) << old.status().toString();
  EXPECT_EQ((*old)[0].tensor.shape(), (std::vector<int64_t>{2, 1}));
}

TEST(TensorKernels, FlattenAtAxisZeroAndReshapeAllowZero) {
  Result<std::vector<EvalValue>> out =
      runText(R"(
    <ir_version: 10, opset_import: ["" : 21]>
    g (float[2,0,3] x, int64[2] s) => (float[1,0] f, float[A,B] r) {
      f = Flatten <axis = 0> (x)
      r = Reshape <allowzero = 1> (x, s)
    })",
              {{"x", floats({2, 0, 3}, {})}, {"s", int64s({2}, {0, 5})}});
  ASSERT_TRUE(out) << out.status().toString();
  EXPECT_EQ((*out)[0].tensor.shape(), (std::vector<int64_t>{1, 0}));
  EXPECT_EQ((*out)[1].tensor.shape(), (std::vector<int64_t>{0, 5}));
}

TEST(TensorKernels, ReshapeRefusesAnOverflowingShape) {
  expectError(
      R"(
    <ir_version: 10, opset_import: ["" : 21]>
    g (float[N] x, int64[3] s) => (float[A,B,C] y) { y = Reshape(x, s) })",
      {{"x", floats({2}, {1, 2})}, {"s", int64s({3}, {int64_t{1} << 40, int64_t{1} << 40, 2})}},
      "more elements");
}

// ---- Pad, Tile, Trilu, ... ---------------------------------------------------------------

TEST(TensorKernels, PadReflectsAndCropsWithNegativePads) {
  Result<std::vector<EvalValue>> out =
      runText(R"(
    <ir_version: 10, opset_import: ["" : 21]>
    g (int32[1,3] x, int64[4] p) => (int32[A,B] y) { y = Pad <mode = "reflect"> (x, p) })",
              {{"x", int32s({1, 3}, {1, 2, 3})}, {"p", int64s({4}, {0, 4, 0, -1})}});
  ASSERT_TRUE(out) << out.status().toString();
  // Reflected twice over: ... 3 2 [1 2 3] minus the last column.
  EXPECT_EQ(valuesOf<int32_t>((*out)[0]), (std::vector<int32_t>{1, 2, 3, 2, 1, 2}));
}

TEST(TensorKernels, PadsStringsWithTheirConstant) {
  Result<std::vector<EvalValue>> out = runText(
      R"(
    <ir_version: 10, opset_import: ["" : 21]>
    g (string[2] x, int64[2] p, string v) => (string[4] y) { y = Pad(x, p, v) })",
      {{"x", strings({2}, {"a", "b"})}, {"p", int64s({2}, {1, 1})}, {"v", strings({}, {"-"})}});
  ASSERT_TRUE(out) << out.status().toString();
  EXPECT_EQ(stringsOf((*out)[0]), (std::vector<std::string>{"-", "a", "b", "-"}));
}

TEST(TensorKernels, PadRefusesEdgeModeOnAnEmptyAxis) {
  expectError(R"(
    <ir_version: 10, opset_import: ["" : 21]>
    g (float[N] x, int64[2] p) => (float[M] y) { y = Pad <mode = "edge"> (x, p) })",
              {{"x", floats({0}, {})}, {"p", int64s({2}, {1, 0})}}, "empty axis");
}

TEST(TensorKernels, TileRepeatsEveryAxis) {
  Result<std::vector<EvalValue>> out =
      runText(R"(
    <ir_version: 10, opset_import: ["" : 21]>
    g (int32[2,1,2] x, int64[3] r) => (int32[A,B,C] y) { y = Tile(x, r) })",
              {{"x", int32s({2, 1, 2}, {1, 2, 3, 4})}, {"r", int64s({3}, {1, 3, 2})}});
  ASSERT_TRUE(out) << out.status().toString();
  EXPECT_EQ((*out)[0].tensor.shape(), (std::vector<int64_t>{2, 3, 4}));
  EXPECT_EQ(valuesOf<int32_t>((*out)[0]),
            (std::vector<int32_t>{1, 2, 1, 2, 1, 2, 1, 2, 1, 2, 1, 2,
                                  3, 4, 3, 4, 3, 4, 3, 4, 3, 4, 3, 4}));
}

TEST(TensorKernels, TriluWithAFarDiagonalAndBatches) {
  Result<std::vector<EvalValue>> out =
      runText(R"(
    <ir_version: 10, opset_import: ["" : 21]>
    g (int64[2,1,2] x, int64 k) => (int64[2,1,2] y, int64[2,1,2] z) {
      y = Trilu(x, k)
      z = Trilu <upper = 0> (x, k)
    })",
              {{"x", int64s({2, 1, 2}, {1, 2, 3, 4})}, {"k", int64s({}, {INT64_MIN})}});
  ASSERT_TRUE(out) << out.status().toString();
  EXPECT_EQ(valuesOf<int64_t>((*out)[0]), (std::vector<int64_t>{1, 2, 3, 4}));
  EXPECT_EQ(valuesOf<int64_t>((*out)[1]), (std::vector<int64_t>{0, 0, 0, 0}));
}

TEST(TensorKernels, OneHotOfStringsAlongAxisZero) {
  Result<std::vector<EvalValue>> out = runText(
      R"(
    <ir_version: 10, opset_import: ["" : 11]>
    g (int64[2] i, float d, string[2] v) => (string[3,2] y) { y = OneHot <axis = 0> (i, d, v) })",
      {{"i", int64s({2}, {-1, 5})}, {"d", floats({}, {3})}, {"v", strings({2}, {"off", "on"})}});
  ASSERT_TRUE(out) << out.status().toString();
  EXPECT_EQ(stringsOf((*out)[0]),
            (std::vector<std::string>{"off", "off", "off", "off", "on", "off"}));
}

TEST(TensorKernels, UniqueUnsortedKeepsFirstOccurrenceOrder) {
  Result<std::vector<EvalValue>> out = runText(R"(
    <ir_version: 10, opset_import: ["" : 11]>
    g (string[5] x) => (string[A] y, int64[B] i, int64[C] inv, int64[D] c) {
      y, i, inv, c = Unique <sorted = 0> (x)
    })",
                                               {{"x", strings({5}, {"b", "a", "b", "c", "a"})}});
  ASSERT_TRUE(out) << out.status().toString();
  EXPECT_EQ(stringsOf((*out)[0]), (std::vector<std::string>{"b", "a", "c"}));
  EXPECT_EQ(valuesOf<int64_t>((*out)[1]), (std::vector<int64_t>{0, 1, 3}));
  EXPECT_EQ(valuesOf<int64_t>((*out)[2]), (std::vector<int64_t>{0, 1, 0, 2, 1}));
  EXPECT_EQ(valuesOf<int64_t>((*out)[3]), (std::vector<int64_t>{2, 2, 1}));
}

TEST(TensorKernels, CompressRefusesAConditionPastTheAxis) {
  expectError(R"(
    <ir_version: 10, opset_import: ["" : 11]>
    g (float[N] x, bool[M] c) => (float[K] y) { y = Compress <axis = 0> (x, c) })",
              {{"x", floats({2}, {1, 2})},
               {"c", tensorOf<bool>(ElementType::kBool, {3}, {false, false, true})}},
              "past the dimension");
}

TEST(TensorKernels, NonZeroOfBooleans) {
  Result<std::vector<EvalValue>> out =
      runText(R"(
    <ir_version: 10, opset_import: ["" : 13]>
    g (bool[2,2] x) => (int64[2,N] y) { y = NonZero(x) })",
              {{"x", tensorOf<bool>(ElementType::kBool, {2, 2}, {false, true, true, true})}});
  ASSERT_TRUE(out) << out.status().toString();
  EXPECT_EQ(valuesOf<int64_t>((*out)[0]), (std::vector<int64_t>{0, 1, 1, 1, 0, 1}));
}

TEST(TensorKernels, SpaceToDepthThenDepthToSpaceCrdRoundTripsInDcr) {
  std::vector<float> values(16);
  for (size_t i = 0; i < values.size(); ++i) values[i] = static_cast<float>(i);
  Result<std::vector<EvalValue>> out = runText(R"(
    <ir_version: 10, opset_import: ["" : 13]>
    g (float[1,1,4,4] x) => (float[1,1,4,4] y, float[1,1,4,4] z) {
      d = SpaceToDepth <blocksize = 2> (x)
      y = DepthToSpace <blocksize = 2> (d)
      z = DepthToSpace <blocksize = 2, mode = "CRD"> (d)
    })",
                                               {{"x", floats({1, 1, 4, 4}, values)}});
  ASSERT_TRUE(out) << out.status().toString();
  EXPECT_EQ(valuesOf<float>((*out)[0]), values);
  // With one channel CRD and DCR agree as well.
  EXPECT_EQ(valuesOf<float>((*out)[1]), values);
}

TEST(TensorKernels, ReverseSequenceRefusesALengthPastTheTimeAxis) {
  expectError(R"(
    <ir_version: 10, opset_import: ["" : 10]>
    g (float[T,B] x, int64[B] l) => (float[T,B] y) { y = ReverseSequence(x, l) })",
              {{"x", floats({2, 2}, {1, 2, 3, 4})}, {"l", int64s({2}, {1, 3})}}, "outside");
}

TEST(TensorKernels, TheFirstTileAndSplitTakeFloatCounts) {
  Result<std::vector<EvalValue>> out = runText(R"(
    <ir_version: 3, opset_import: ["" : 1]>
    g (float[2] x, float t, float a, float[2] s) => (float[4] y, float[1] p, float[1] q) {
      y = Tile(x, t, a)
      p, q = Split(x, s)
    })",
                                               {{"x", floats({2}, {1, 2})},
                                                {"t", floats({}, {2})},
                                                {"a", floats({}, {0})},
                                                {"s", floats({2}, {1, 1})}});
  ASSERT_TRUE(out) << out.status().toString();
  EXPECT_EQ(valuesOf<float>((*out)[0]), (std::vector<float>{1, 2, 1, 2}));
  EXPECT_EQ(valuesOf<float>((*out)[2]), (std::vector<float>{2}));
}

}  // namespace
}  // namespace onyx
