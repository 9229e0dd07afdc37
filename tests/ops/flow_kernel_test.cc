// Kernels of the control-flow, sequence, optional, recurrent, string, ai.onnx.ml and training
// operators: what the conformance cases leave out (bad inputs, edge cases, other attributes).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "onyx/core/array_elements.h"
#include "support/eval_testing.h"

namespace onyx {
namespace {

using testing::runText;
using testing::tensorOf;
using testing::valuesOf;

EvalValue stringsOf(std::vector<int64_t> shape, std::vector<std::string> values) {
  Array array(ElementType::kString, std::move(shape));
  array.strings() = std::move(values);
  return EvalValue::of(std::move(array));
}

EvalValue floats(std::vector<int64_t> shape, std::vector<float> values) {
  return tensorOf<float>(ElementType::kFloat, std::move(shape), values);
}

std::string messageOf(const Result<std::vector<EvalValue>>& out) {
  return out ? std::string() : out.status().toString();
}

// ---- control flow -------------------------------------------------------------------------

TEST(FlowKernels, LoopWithATripCountAndNoConditionCarriesAndStacks) {
  Result<std::vector<EvalValue>> out =
      runText(R"(
    <ir_version: 10, opset_import: ["" : 21]>
    g (int64 m, float[2] v) => (float[2] total, float[3,2] seen) {
      total, seen = Loop (m, "", v) <body = body (int64 i, bool c, float[2] vin) => (bool cout, float[2] vout, float[2] s) {
        cout = Identity(c)
        vout = Add(vin, vin)
        s = Identity(vin)
      }>
    })",
              {{"m", tensorOf<int64_t>(ElementType::kInt64, {}, {3})}, {"v", floats({2}, {1, 2})}});
  ASSERT_TRUE(out) << messageOf(out);
  EXPECT_EQ(valuesOf<float>((*out)[0]), (std::vector<float>{8, 16}));
  EXPECT_EQ((*out)[1].tensor.shape(), (std::vector<int64_t>{3, 2}));
  EXPECT_EQ(valuesOf<float>((*out)[1]), (std::vector<float>{1, 2, 2, 4, 4, 8}));
}

TEST(FlowKernels, AnEndlessLoopStopsAtTheIterationBound) {
  EvalOptions options;
  options.max_iterations = 5;
  Result<std::vector<EvalValue>> out = runText(
      R"(
    <ir_version: 10, opset_import: ["" : 21]>
    g (bool go, float[1] v) => (float[1] total) {
      total = Loop ("", go, v) <body = body (int64 i, bool c, float[1] vin) => (bool cout, float[1] vout) {
        cout = Identity(c)
        vout = Add(vin, vin)
      }>
    })",
      {{"go", tensorOf<bool>(ElementType::kBool, {}, {true})}, {"v", floats({1}, {1})}}, options);
  ASSERT_FALSE(out);
  EXPECT_NE(out.status().message().find("bound"), std::string::npos) << messageOf(out);
}

TEST(FlowKernels, ScanReversesInputsAndStacksAlongANegativeAxis) {
  Result<std::vector<EvalValue>> out =
      runText(R"(
    <ir_version: 10, opset_import: ["" : 21]>
    g (float[2] init, float[3,2] xs) => (float[2] last, float[2,3] sums) {
      last, sums = Scan (init, xs) <num_scan_inputs = 1, scan_input_directions = [1], scan_output_axes = [-1],
          body = body (float[2] acc, float[2] x) => (float[2] acc_out, float[2] s) {
        acc_out = Add(acc, x)
        s = Identity(acc_out)
      }>
    })",
              {{"init", floats({2}, {0, 0})}, {"xs", floats({3, 2}, {1, 10, 2, 20, 3, 30})}});
  ASSERT_TRUE(out) << messageOf(out);
  EXPECT_EQ(valuesOf<float>((*out)[0]), (std::vector<float>{6, 60}));
  // Reverse order: 3, 5, 6 (and 30, 50, 60), stacked along the last axis.
  EXPECT_EQ((*out)[1].tensor.shape(), (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(valuesOf<float>((*out)[1]), (std::vector<float>{3, 5, 6, 30, 50, 60}));
}

TEST(FlowKernels, Scan8StopsShortSequencesAndPadsTheirOutputsWithZeros) {
  Result<std::vector<EvalValue>> out =
      runText(R"(
    <ir_version: 10, opset_import: ["" : 8]>
    g (int64[2] lens, float[2,1] init, float[2,2,1] xs) => (float[2,1] last, float[2,2,1] sums) {
      last, sums = Scan (lens, init, xs) <num_scan_inputs = 1,
          body = body (float[1] acc, float[1] x) => (float[1] acc_out, float[1] s) {
        acc_out = Add(acc, x)
        s = Identity(acc_out)
      }>
    })",
              {{"lens", tensorOf<int64_t>(ElementType::kInt64, {2}, {1, 2})},
               {"init", floats({2, 1}, {0, 0})},
               {"xs", floats({2, 2, 1}, {1, 10, 2, 20})}});
  ASSERT_TRUE(out) << messageOf(out);
  EXPECT_EQ(valuesOf<float>((*out)[0]), (std::vector<float>{1, 22}));
  EXPECT_EQ(valuesOf<float>((*out)[1]), (std::vector<float>{1, 0, 2, 22}));
}

TEST(FlowKernels, IfRefusesAConditionOfSeveralElements) {
  Result<std::vector<EvalValue>> out = runText(
      R"(
    <ir_version: 10, opset_import: ["" : 21]>
    g (bool[2] c, float[1] x) => (float[1] y) {
      y = If (c) <then_branch = t () => (float[1] a) { a = Identity(x) },
                  else_branch = e () => (float[1] b) { b = Relu(x) }>
    })",
      {{"c", tensorOf<bool>(ElementType::kBool, {2}, {true, false})}, {"x", floats({1}, {-1})}});
  ASSERT_FALSE(out);
  EXPECT_NE(out.status().message().find("cond"), std::string::npos) << messageOf(out);
}

// ---- sequences and optionals --------------------------------------------------------------

TEST(FlowKernels, SequenceOperatorsTakeNegativePositions) {
  Result<std::vector<EvalValue>> out =
      runText(R"(
    <ir_version: 10, opset_import: ["" : 21]>
    g (float[1] a, float[1] b, float[1] c, int64 p) => (float[1] at, int64 n) {
      s = SequenceConstruct(a, b, c)
      e = SequenceErase(s, p)
      at = SequenceAt(e, p)
      n = SequenceLength(e)
    })",
              {{"a", floats({1}, {1})},
               {"b", floats({1}, {2})},
               {"c", floats({1}, {3})},
               {"p", tensorOf<int64_t>(ElementType::kInt64, {}, {-1})}});
  ASSERT_TRUE(out) << messageOf(out);
  EXPECT_EQ(valuesOf<float>((*out)[0]), (std::vector<float>{2}));
  EXPECT_EQ(valuesOf<int64_t>((*out)[1]), (std::vector<int64_t>{2}));
}

TEST(FlowKernels, SequenceAtOutsideTheSequenceIsAnError) {
  Result<std::vector<EvalValue>> out =
      runText(R"(
    <ir_version: 10, opset_import: ["" : 21]>
    g (float[1] a, int64 p) => (float[1] at) {
      s = SequenceConstruct(a)
      at = SequenceAt(s, p)
    })",
              {{"a", floats({1}, {1})}, {"p", tensorOf<int64_t>(ElementType::kInt64, {}, {-2})}});
  ASSERT_FALSE(out);
  EXPECT_NE(out.status().message().find("outside"), std::string::npos) << messageOf(out);
}

TEST(FlowKernels, SplitToSequenceWithAScalarSplitLeavesAShortLastChunk) {
  Result<std::vector<EvalValue>> out =
      runText(R"(
    <ir_version: 10, opset_import: ["" : 21]>
    g (float[5] x, int64 k) => (float[2,2] stacked, int64 n, float[1] tail) {
      minus_one = Constant <value = int64 {-1}> ()
      s = SplitToSequence(x, k)
      n = SequenceLength(s)
      tail = SequenceAt(s, minus_one)
      first = SequenceErase(s, minus_one)
      stacked = ConcatFromSequence <axis = -1, new_axis = 1> (first)
    })",
              {{"x", floats({5}, {1, 2, 3, 4, 5})},
               {"k", tensorOf<int64_t>(ElementType::kInt64, {}, {2})}});
  ASSERT_TRUE(out) << messageOf(out);
  EXPECT_EQ((*out)[0].tensor.shape(), (std::vector<int64_t>{2, 2}));
  // Two chunks [1, 2] and [3, 4] stacked along a new last axis.
  EXPECT_EQ(valuesOf<float>((*out)[0]), (std::vector<float>{1, 3, 2, 4}));
  EXPECT_EQ(valuesOf<int64_t>((*out)[1]), (std::vector<int64_t>{3}));
  EXPECT_EQ(valuesOf<float>((*out)[2]), (std::vector<float>{5}));
}

TEST(FlowKernels, ConcatFromSequenceRefusesMismatchedElements) {
  Result<std::vector<EvalValue>> out =
      runText(R"(
    <ir_version: 10, opset_import: ["" : 21]>
    g (float[1,2] a, float[1,3] b) => (float[2,2] y) {
      s = SequenceConstruct(a, b)
      y = ConcatFromSequence <axis = 0> (s)
    })",
              {{"a", floats({1, 2}, {1, 2})}, {"b", floats({1, 3}, {1, 2, 3})}});
  ASSERT_FALSE(out);
  EXPECT_NE(out.status().message().find("differs"), std::string::npos) << messageOf(out);
}

TEST(FlowKernels, AnEmptyOptionalHasNoElementAndGettingItFails) {
  Result<std::vector<EvalValue>> out = runText(R"(
    <ir_version: 10, opset_import: ["" : 18]>
    g (optional(float[2]) o) => (bool has) {
      has = OptionalHasElement(o)
    })",
                                               {{"o", EvalValue{}}});
  ASSERT_TRUE(out) << messageOf(out);
  EXPECT_EQ(valuesOf<bool>((*out)[0]), (std::vector<bool>{false}));
  out = runText(R"(
    <ir_version: 10, opset_import: ["" : 18]>
    g (optional(float[2]) o) => (float[2] y) {
      y = OptionalGetElement(o)
    })",
                {{"o", EvalValue{}}});
  ASSERT_FALSE(out);
  EXPECT_NE(out.status().message().find("no value"), std::string::npos) << messageOf(out);
}

// ---- recurrent ----------------------------------------------------------------------------

TEST(FlowKernels, RnnStopsEachBatchEntryAtItsSequenceLength) {
  // W = 1, R = 0, no bias: H_t = tanh(x_t). Entry 0 runs 1 step of 2, entry 1 both.
  Result<std::vector<EvalValue>> out =
      runText(R"(
    <ir_version: 10, opset_import: ["" : 22]>
    g (float[2,2,1] x, float[1,1,1] w, float[1,1,1] r, int32[2] lens) => (float[2,1,2,1] y, float[1,2,1] h) {
      y, h = RNN <hidden_size = 1> (x, w, r, "", lens)
    })",
              {{"x", floats({2, 2, 1}, {0.5f, 0.25f, 0.75f, 1.0f})},
               {"w", floats({1, 1, 1}, {1})},
               {"r", floats({1, 1, 1}, {0})},
               {"lens", tensorOf<int32_t>(ElementType::kInt32, {2}, {1, 2})}});
  ASSERT_TRUE(out) << messageOf(out);
  std::vector<float> y = valuesOf<float>((*out)[0]);
  ASSERT_EQ(y.size(), 4u);
  EXPECT_NEAR(y[0], std::tanh(0.5f), 1e-6);
  EXPECT_NEAR(y[1], std::tanh(0.25f), 1e-6);
  EXPECT_EQ(y[2], 0.0f);  // past entry 0's length
  EXPECT_NEAR(y[3], std::tanh(1.0f), 1e-6);
  std::vector<float> h = valuesOf<float>((*out)[1]);
  EXPECT_NEAR(h[0], std::tanh(0.5f), 1e-6);
  EXPECT_NEAR(h[1], std::tanh(1.0f), 1e-6);
}

TEST(FlowKernels, RnnComputesFloat16InFloatAndRoundsBack) {
  // float16 bits: 0.5 = 0x3800, 1 = 0x3C00, 0 = 0.
  Result<std::vector<EvalValue>> out =
      runText(R"(
    <ir_version: 10, opset_import: ["" : 22]>
    g (float16[1,1,1] x, float16[1,1,1] w, float16[1,1,1] r) => (float16[1,1,1] h) {
      y, h = RNN <hidden_size = 1> (x, w, r)
    })",
              {{"x", tensorOf<uint16_t>(ElementType::kFloat16, {1, 1, 1}, {0x3800})},
               {"w", tensorOf<uint16_t>(ElementType::kFloat16, {1, 1, 1}, {0x3C00})},
               {"r", tensorOf<uint16_t>(ElementType::kFloat16, {1, 1, 1}, {0})}});
  ASSERT_TRUE(out) << messageOf(out);
  ASSERT_EQ((*out)[0].tensor.type(), ElementType::kFloat16);
  EXPECT_NEAR(elementAsDouble((*out)[0].tensor, 0), std::tanh(0.5), 1e-3);
}

TEST(FlowKernels, LstmWithBatchFirstLayoutAndOnlyBias) {
  // W = R = 0: every gate is its bias; C = sigmoid(bi) * tanh(bc), H = sigmoid(bo) * tanh(C).
  Result<std::vector<EvalValue>> out =
      runText(R"(
    <ir_version: 10, opset_import: ["" : 22]>
    g (float[1,1,1] x, float[1,4,1] w, float[1,4,1] r, float[1,8] b) => (float[1,1,1] h, float[1,1,1] c) {
      y, h, c = LSTM <hidden_size = 1, layout = 1> (x, w, r, b)
    })",
              {{"x", floats({1, 1, 1}, {3})},
               {"w", floats({1, 4, 1}, {0, 0, 0, 0})},
               {"r", floats({1, 4, 1}, {0, 0, 0, 0})},
               {"b", floats({1, 8}, {0.5f, 1, 0, 2, 0, 0, 0, 0})}});
  ASSERT_TRUE(out) << messageOf(out);
  auto sigmoid = [](double v) { return 1 / (1 + std::exp(-v)); };
  double cell = sigmoid(0.5) * std::tanh(2.0);
  EXPECT_NEAR(valuesOf<float>((*out)[1])[0], cell, 1e-6);
  EXPECT_NEAR(valuesOf<float>((*out)[0])[0], sigmoid(1.0) * std::tanh(cell), 1e-6);
}

TEST(FlowKernels, GruRefusesAMisshapenRecurrenceWeight) {
  Result<std::vector<EvalValue>> out = runText(R"(
    <ir_version: 10, opset_import: ["" : 22]>
    g (float[1,1,1] x, float[1,3,1] w, float[1,2,1] r) => (float[1,1,1] h) {
      y, h = GRU <hidden_size = 1> (x, w, r)
    })",
                                               {{"x", floats({1, 1, 1}, {1})},
                                                {"w", floats({1, 3, 1}, {0, 0, 0})},
                                                {"r", floats({1, 2, 1}, {0, 0})}});
  ASSERT_FALSE(out);
  EXPECT_NE(out.status().message().find("R must be"), std::string::npos) << messageOf(out);
}

// ---- strings ------------------------------------------------------------------------------

TEST(FlowKernels, StringSplitOnWhitespaceWithMaxsplitKeepsTheRest) {
  Result<std::vector<EvalValue>> out = runText(R"(
    <ir_version: 10, opset_import: ["" : 21]>
    g (string[2] x) => (string[2,2] y, int64[2] n) {
      y, n = StringSplit <maxsplit = 1> (x)
    })",
                                               {{"x", stringsOf({2}, {"  a  b c ", "one"})}});
  ASSERT_TRUE(out) << messageOf(out);
  EXPECT_EQ((*out)[0].tensor.strings(), (std::vector<std::string>{"a", "b c ", "one", ""}));
  EXPECT_EQ(valuesOf<int64_t>((*out)[1]), (std::vector<int64_t>{2, 1}));
}

TEST(FlowKernels, StringNormalizerLeavesOneEmptyStringWhenAllAreStopwords) {
  Result<std::vector<EvalValue>> out = runText(R"(
    <ir_version: 10, opset_import: ["" : 21]>
    g (string[2] x) => (string[1] y) {
      y = StringNormalizer <stopwords = ["the", "A"], case_change_action = "UPPER"> (x)
    })",
                                               {{"x", stringsOf({2}, {"The", "a"})}});
  ASSERT_TRUE(out) << messageOf(out);
  EXPECT_EQ((*out)[0].tensor.strings(), (std::vector<std::string>{""}));
}

TEST(FlowKernels, StringNormalizerChangesCaseBeyondAscii) {
  Result<std::vector<EvalValue>> out =
      runText(R"(
    <ir_version: 10, opset_import: ["" : 21]>
    g (string[1] x) => (string[1] y) {
      y = StringNormalizer <case_change_action = "LOWER"> (x)
    })",
              {{"x", stringsOf({1}, {"\xC3\x89T\xC3\x89 \xD0\x96"})}});
  ASSERT_TRUE(out) << messageOf(out);
  EXPECT_EQ((*out)[0].tensor.strings(), (std::vector<std::string>{"\xC3\xA9t\xC3\xA9 \xD0\xB6"}));
}

TEST(FlowKernels, RegexFullMatchRefusesABadPattern) {
  Result<std::vector<EvalValue>> out = runText(R"(
    <ir_version: 10, opset_import: ["" : 21]>
    g (string[1] x) => (bool[1] y) {
      y = RegexFullMatch <pattern = "(a"> (x)
    })",
                                               {{"x", stringsOf({1}, {"a"})}});
  ASSERT_FALSE(out);
  EXPECT_NE(out.status().message().find("pattern"), std::string::npos) << messageOf(out);
}

TEST(FlowKernels, StringConcatBroadcastsAnEmptyTensor) {
  Result<std::vector<EvalValue>> out =
      runText(R"(
    <ir_version: 10, opset_import: ["" : 21]>
    g (string[0] x, string[1] y) => (string[0] z) {
      z = StringConcat(x, y)
    })",
              {{"x", stringsOf({0}, {})}, {"y", stringsOf({1}, {"!"})}});
  ASSERT_TRUE(out) << messageOf(out);
  EXPECT_EQ((*out)[0].tensor.shape(), (std::vector<int64_t>{0}));
}

// ---- ai.onnx.ml and training --------------------------------------------------------------

TEST(FlowKernels, LabelEncoderFallsBackToTheDefault) {
  Result<std::vector<EvalValue>> out =
      runText(R"(
    <ir_version: 10, opset_import: ["" : 21, "ai.onnx.ml" : 4]>
    g (int64[3] x) => (string[3] y) {
      y = ai.onnx.ml.LabelEncoder <keys_int64s = [1, 2], values_strings = ["one", "two"], default_string = "?"> (x)
    })",
              {{"x", tensorOf<int64_t>(ElementType::kInt64, {3}, {2, 7, 1})}});
  ASSERT_TRUE(out) << messageOf(out);
  EXPECT_EQ((*out)[0].tensor.strings(), (std::vector<std::string>{"two", "?", "one"}));
}

TEST(FlowKernels, ArrayFeatureExtractorRefusesAnIndexPastTheLastAxis) {
  Result<std::vector<EvalValue>> out =
      runText(R"(
    <ir_version: 10, opset_import: ["" : 21, "ai.onnx.ml" : 1]>
    g (float[2,3] x, int64[1] i) => (float[2,1] y) {
      y = ai.onnx.ml.ArrayFeatureExtractor(x, i)
    })",
              {{"x", floats({2, 3}, {1, 2, 3, 4, 5, 6})},
               {"i", tensorOf<int64_t>(ElementType::kInt64, {1}, {3})}});
  ASSERT_FALSE(out);
  EXPECT_NE(out.status().message().find("outside"), std::string::npos) << messageOf(out);
}

TEST(FlowKernels, TreeEnsembleAveragesTwoStumpsWithLogistic) {
  // Tree 0 splits feature 0 at 0.5 (x <= 0.5: leaf 0 = 1, else leaf 1 = 3); tree 1 is a
  // stump on feature 1 < 0 (leaf 2 = -1, else leaf 3 = 1). Average, then logistic.
  Result<std::vector<EvalValue>> out = runText(R"(
    <ir_version: 10, opset_import: ["" : 21, "ai.onnx.ml" : 5]>
    g (float[2,2] x) => (float[2,1] y) {
      y = ai.onnx.ml.TreeEnsemble <
        nodes_featureids = [0, 1], nodes_modes = uint8[2] {0, 1}, nodes_splits = float[2] {0.5, 0.0},
        nodes_truenodeids = [0, 2], nodes_trueleafs = [1, 1], nodes_falsenodeids = [1, 3],
        nodes_falseleafs = [1, 1], tree_roots = [0, 1], leaf_targetids = [0, 0, 0, 0],
        leaf_weights = float[4] {1, 3, -1, 1}, aggregate_function = 0, post_transform = 2> (x)
    })",
                                               {{"x", floats({2, 2}, {0.25f, -1, 0.75f, 2})}});
  ASSERT_TRUE(out) << messageOf(out);
  std::vector<float> y = valuesOf<float>((*out)[0]);
  ASSERT_EQ(y.size(), 2u);
  EXPECT_NEAR(y[0], 1 / (1 + std::exp(-0.0)), 1e-6);  // (1 + -1) / 2
  EXPECT_NEAR(y[1], 1 / (1 + std::exp(-2.0)), 1e-6);  // (3 + 1) / 2
}

TEST(FlowKernels, TreeEnsembleRefusesATreeWithACycle) {
  Result<std::vector<EvalValue>> out = runText(R"(
    <ir_version: 10, opset_import: ["" : 21, "ai.onnx.ml" : 5]>
    g (float[1,1] x) => (float[1,1] y) {
      y = ai.onnx.ml.TreeEnsemble <
        nodes_featureids = [0], nodes_modes = uint8[1] {0}, nodes_splits = float[1] {0.5},
        nodes_truenodeids = [0], nodes_trueleafs = [0], nodes_falsenodeids = [0],
        nodes_falseleafs = [1], tree_roots = [0], leaf_targetids = [0],
        leaf_weights = float[1] {1}> (x)
    })",
                                               {{"x", floats({1, 1}, {0.25f})}});
  ASSERT_FALSE(out);
  EXPECT_NE(out.status().message().find("cycle"), std::string::npos) << messageOf(out);
}

TEST(FlowKernels, AdagradTakesOneStepAndRefusesAnUnevenInputList) {
  Result<std::vector<EvalValue>> out =
      runText(R"(
    <ir_version: 10, opset_import: ["" : 21, "ai.onnx.preview.training" : 1]>
    g (float r, int64 t, float[1] x, float[1] g, float[1] h) => (float[1] x_new, float[1] h_new) {
      x_new, h_new = ai.onnx.preview.training.Adagrad <decay_factor = 0.5, epsilon = 0.0> (r, t, x, g, h)
    })",
              {{"r", floats({}, {0.1f})},
               {"t", tensorOf<int64_t>(ElementType::kInt64, {}, {2})},
               {"x", floats({1}, {1})},
               {"g", floats({1}, {3})},
               {"h", floats({1}, {16})}});
  ASSERT_TRUE(out) << messageOf(out);
  // rate = 0.1 / (1 + 2 * 0.5) = 0.05; h = 16 + 9 = 25; x = 1 - 0.05 * 3 / 5 = 0.97.
  EXPECT_NEAR(valuesOf<float>((*out)[0])[0], 0.97f, 1e-6);
  EXPECT_NEAR(valuesOf<float>((*out)[1])[0], 25.0f, 1e-6);
  out = runText(R"(
    <ir_version: 10, opset_import: ["" : 21, "ai.onnx.preview.training" : 1]>
    g (float r, int64 t, float[1] x, float[1] g) => (float[1] x_new) {
      x_new = ai.onnx.preview.training.Adagrad(r, t, x, g)
    })",
                {{"r", floats({}, {0.1f})},
                 {"t", tensorOf<int64_t>(ElementType::kInt64, {}, {2})},
                 {"x", floats({1}, {1})},
                 {"g", floats({1}, {3})}});
  ASSERT_FALSE(out);
  EXPECT_NE(out.status().message().find("groups"), std::string::npos) << messageOf(out);
}

// ---- images -------------------------------------------------------------------------------

EvalValue bytesOf(const std::string& bytes) {
  Array array(ElementType::kUint8, {static_cast<int64_t>(bytes.size())});
  std::copy(bytes.begin(), bytes.end(), array.data<uint8_t>());
  return EvalValue::of(std::move(array));
}

constexpr const char* kDecodeModel = R"(
    <ir_version: 10, opset_import: ["" : 21]>
    g (uint8[N] data) => (uint8[H,W,C] image) {
      image = ImageDecoder <pixel_format = "BGR"> (data)
    })";

TEST(FlowKernels, ImageDecoderReadsAPngWithAStoredDeflateBlock) {
  // A 1x1 RGB PNG: filter 0, pixel 10 20 30, in a stored deflate block.
  std::string header("\x89PNG\r\n\x1a\n", 8);
  std::string ihdr("\0\0\0\x0dIHDR\0\0\0\x01\0\0\0\x01\x08\x02\0\0\0\x90\x77\x53\xde", 25);
  std::string zlib("\x78\x01\x01\x04\0\xfb\xff\0\x0a\x14\x1e\x00\x68\x00\x3d", 15);
  std::string idat = std::string("\0\0\0\x0fIDAT", 8) + zlib + "\xe8\x0c\xbb\x83";
  std::string iend("\0\0\0\0IEND\xae\x42\x60\x82", 12);
  Result<std::vector<EvalValue>> out =
      runText(kDecodeModel, {{"data", bytesOf(header + ihdr + idat + iend)}});
  ASSERT_TRUE(out) << messageOf(out);
  EXPECT_EQ((*out)[0].tensor.shape(), (std::vector<int64_t>{1, 1, 3}));
  EXPECT_EQ(valuesOf<uint8_t>((*out)[0]), (std::vector<uint8_t>{30, 20, 10}));
  // A wrong chunk checksum is damage.
  std::string bad_ihdr = ihdr;
  bad_ihdr[24] = 'x';
  out = runText(kDecodeModel, {{"data", bytesOf(header + bad_ihdr + idat + iend)}});
  ASSERT_FALSE(out);
  EXPECT_NE(out.status().message().find("PNG"), std::string::npos) << messageOf(out);
}

TEST(FlowKernels, ImageDecoderRepeatsAGrayPnmIntoThreeChannels) {
  Result<std::vector<EvalValue>> out =
      runText(kDecodeModel, {{"data", bytesOf(std::string("P5\n# c\n2 1\n255\n\x07\x09", 17))}});
  ASSERT_TRUE(out) << messageOf(out);
  EXPECT_EQ(valuesOf<uint8_t>((*out)[0]), (std::vector<uint8_t>{7, 7, 7, 9, 9, 9}));
}

TEST(FlowKernels, ImageDecoderRefusesTruncatedImagesAndUnknownFormats) {
  Result<std::vector<EvalValue>> out = runText(kDecodeModel, {{"data", bytesOf("BM1234")}});
  ASSERT_FALSE(out);
  EXPECT_NE(out.status().message().find("truncated"), std::string::npos) << messageOf(out);
  out = runText(kDecodeModel, {{"data", bytesOf(std::string("\xff\xd8\xff\xd9", 4))}});
  ASSERT_FALSE(out);
  EXPECT_NE(out.status().message().find("no image"), std::string::npos) << messageOf(out);
  out = runText(kDecodeModel, {{"data", bytesOf("GIF89a")}});
  ASSERT_FALSE(out);
  EXPECT_NE(out.status().message().find("no image format"), std::string::npos) << messageOf(out);
}

// Small images written by each format's reference encoder: 4x2 RGB, pixel byte i is
// i * 37 mod 256 (the JPEG is lossy; the others are lossless).
std::string tinyJpeg() {
  return std::string(
      "\xff\xd8\xff\xe0\x00\x10\x4a\x46\x49\x46\x00\x01\x01\x00\x00\x01\x00\x01\x00\x00\xff\xdb\x00"
      "\x43"
      "\x00\x03\x02\x02\x03\x02\x02\x03\x03\x03\x03\x04\x03\x03\x04\x05\x08\x05\x05\x04\x04\x05\x0a"
      "\x07"
      "\x07\x06\x08\x0c\x0a\x0c\x0c\x0b\x0a\x0b\x0b\x0d\x0e\x12\x10\x0d\x0e\x11\x0e\x0b\x0b\x10\x16"
      "\x10"
      "\x11\x13\x14\x15\x15\x15\x0c\x0f\x17\x18\x16\x14\x18\x12\x14\x15\x14\xff\xdb\x00\x43\x01\x03"
      "\x04"
      "\x04\x05\x04\x05\x09\x05\x05\x09\x14\x0d\x0b\x0d\x14\x14\x14\x14\x14\x14\x14\x14\x14\x14\x14"
      "\x14"
      "\x14\x14\x14\x14\x14\x14\x14\x14\x14\x14\x14\x14\x14\x14\x14\x14\x14\x14\x14\x14\x14\x14\x14"
      "\x14"
      "\x14\x14\x14\x14\x14\x14\x14\x14\x14\x14\x14\x14\x14\x14\xff\xc0\x00\x11\x08\x00\x02\x00\x04"
      "\x03"
      "\x01\x22\x00\x02\x11\x01\x03\x11\x01\xff\xc4\x00\x15\x00\x01\x01\x00\x00\x00\x00\x00\x00\x00"
      "\x00"
      "\x00\x00\x00\x00\x00\x00\x00\x07\xff\xc4\x00\x20\x10\x00\x02\x02\x01\x03\x05\x00\x00\x00\x00"
      "\x00"
      "\x00\x00\x00\x00\x00\x01\x02\x03\x04\x00\x05\x06\x11\x08\x12\x21\x22\x51\xff\xc4\x00\x14\x01"
      "\x01"
      "\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x06\xff\xc4\x00\x1d\x11\x00\x01"
      "\x02"
      "\x07\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x01\x04\x02\x03\x33\x34\x71\x81\xb2"
      "\xff"
      "\xda\x00\x0c\x03\x01\x00\x02\x11\x03\x11\x00\x3f\x00\x82\xf5\x33\x72\xc6\xd7\xdf\x14\xe9\xe8"
      "\xd3"
      "\xc9\xa4\xd4\x10\x5a\x51\x05\x17\x30\xc7\xc2\x6a\x57\x62\x41\xda\xbc\x0f\x58\xe3\x8d\x07\xc5"
      "\x45"
      "\x51\xe0\x01\x8c\x63\x1a\x31\xb5\x97\x84\x08\xbb\xab\xa8\x79\x43\xff\xd9",
      354);
}
std::string tinyPng() {
  return std::string(
      "\x89\x50\x4e\x47\x0d\x0a\x1a\x0a\x00\x00\x00\x0d\x49\x48\x44\x52\x00\x00\x00\x04\x00\x00\x00"
      "\x02"
      "\x08\x02\x00\x00\x00\xf0\xca\xea\x34\x00\x00\x00\x23\x49\x44\x41\x54\x08\x99\x63\x60\x50\xf5"
      "\xca"
      "\x9f\xb2\xf3\x1e\xb3\x86\x6f\xd1\x74\x86\x3d\x0f\xd9\xb4\x03\x4a\x67\xed\x7f\xc2\xa9\x17\x0c"
      "\x00"
      "\x7b\x10\x09\xe5\x9b\x07\x7f\x8f\x00\x00\x00\x00\x49\x45\x4e\x44\xae\x42\x60\x82",
      92);
}
std::string tinyTiff() {  // LZW-compressed
  return std::string(
      "\x49\x49\x2a\x00\x26\x00\x00\x00\x80\x00\x04\xa4\xa3\x7a\x51\x72\xde\x01\x8a\x09\xa7\x24\xba"
      "\xf1"
      "\xc2\x06\x15\x94\x0e\xa9\xa5\xfb\x90\x12\x2e\x29\xc0\x40\x0a\x00\x00\x01\x03\x00\x01\x00\x00"
      "\x00"
      "\x04\x00\x00\x00\x01\x01\x03\x00\x01\x00\x00\x00\x02\x00\x00\x00\x02\x01\x03\x00\x03\x00\x00"
      "\x00"
      "\xa4\x00\x00\x00\x03\x01\x03\x00\x01\x00\x00\x00\x05\x00\x00\x00\x06\x01\x03\x00\x01\x00\x00"
      "\x00"
      "\x02\x00\x00\x00\x11\x01\x04\x00\x01\x00\x00\x00\x08\x00\x00\x00\x15\x01\x03\x00\x01\x00\x00"
      "\x00"
      "\x03\x00\x00\x00\x16\x01\x03\x00\x01\x00\x00\x00\x02\x00\x00\x00\x17\x01\x04\x00\x01\x00\x00"
      "\x00"
      "\x1e\x00\x00\x00\x1c\x01\x03\x00\x01\x00\x00\x00\x01\x00\x00\x00\x00\x00\x00\x00\x08\x00\x08"
      "\x00"
      "\x08\x00",
      170);
}
std::string tinyWebp() {  // lossless
  return std::string(
      "\x52\x49\x46\x46\x40\x00\x00\x00\x57\x45\x42\x50\x56\x50\x38\x4c\x34\x00\x00\x00\x2f\x03\x40"
      "\x00"
      "\x00\x3f\x40\x24\x40\x9a\xcb\xde\x00\x4d\x12\x69\xdb\xa6\x46\x6f\xa3\xf4\x44\xda\xb6\x31\x3c"
      "\x1b"
      "\xa5\x77\xf2\xf9\x8f\xf5\x59\x00\x00\xff\x00\x00\xa1\x00\x1a\xa3\x48\x21\x85\x6e\x11\xfd\x8f"
      "\x13",
      72);
}
std::string tinyJpeg2000() {  // a reversible J2K codestream
  return std::string(
      "\xff\x4f\xff\x51\x00\x2f\x00\x00\x00\x00\x00\x04\x00\x00\x00\x02\x00\x00\x00\x00\x00\x00\x00"
      "\x00"
      "\x00\x00\x00\x04\x00\x00\x00\x02\x00\x00\x00\x00\x00\x00\x00\x00\x00\x03\x07\x01\x01\x07\x01"
      "\x01"
      "\x07\x01\x01\xff\x52\x00\x0c\x00\x00\x00\x01\x00\x00\x04\x04\x00\x01\xff\x5c\x00\x04\x40\x40"
      "\xff"
      "\x64\x00\x25\x00\x01\x43\x72\x65\x61\x74\x65\x64\x20\x62\x79\x20\x4f\x70\x65\x6e\x4a\x50\x45"
      "\x47"
      "\x20\x76\x65\x72\x73\x69\x6f\x6e\x20\x32\x2e\x35\x2e\x30\xff\x90\x00\x0a\x00\x00\x00\x00\x00"
      "\x36"
      "\x00\x01\xff\x93\xdf\x80\x50\x07\xda\x63\x5f\xbe\x60\xa4\x1b\x57\xd3\xcf\xb4\x2c\x09\xc2\x15"
      "\x94"
      "\x26\xe8\x22\x9e\xf8\xff\x7f\xcf\xb4\x28\x0c\x1c\x14\x19\xdd\x6f\x92\xbe\xd6\xc7\xff\xd9",
      166);
}

constexpr const char* kDecodeRgbModel = R"(
    <ir_version: 10, opset_import: ["" : 21]>
    g (uint8[N] data) => (uint8[H,W,C] image) {
      image = ImageDecoder <pixel_format = "RGB"> (data)
    })";

std::vector<uint8_t> tinyPixels() {
  std::vector<uint8_t> pixels(4 * 2 * 3);
  for (size_t i = 0; i < pixels.size(); ++i) pixels[i] = static_cast<uint8_t>(i * 37 % 256);
  return pixels;
}

TEST(FlowKernels, ImageDecoderReadsEachLibraryFormat) {
  struct Case {
    const char* name;
    std::string bytes;
    bool exact;
  };
  for (const Case& c : {Case{"JPEG", tinyJpeg(), false}, Case{"PNG", tinyPng(), true},
                        Case{"TIFF", tinyTiff(), true}, Case{"WebP", tinyWebp(), true},
                        Case{"JPEG 2000", tinyJpeg2000(), true}}) {
    SCOPED_TRACE(c.name);
    Result<std::vector<EvalValue>> out = runText(kDecodeRgbModel, {{"data", bytesOf(c.bytes)}});
    ASSERT_TRUE(out) << messageOf(out);
    EXPECT_EQ((*out)[0].tensor.shape(), (std::vector<int64_t>{2, 4, 3}));
    if (c.exact) {
      EXPECT_EQ(valuesOf<uint8_t>((*out)[0]), tinyPixels());
    }
  }
}

TEST(FlowKernels, ImageDecoderGrayscaleRoundsAsPillow) {
  Result<std::vector<EvalValue>> out = runText(R"(
    <ir_version: 10, opset_import: ["" : 21]>
    g (uint8[N] data) => (uint8[H,W,C] image) {
      image = ImageDecoder <pixel_format = "Grayscale"> (data)
    })",
                                               {{"data", bytesOf(tinyPng())}});
  ASSERT_TRUE(out) << messageOf(out);
  EXPECT_EQ((*out)[0].tensor.shape(), (std::vector<int64_t>{2, 4, 1}));
  std::vector<uint8_t> rgb = tinyPixels(), expected;
  for (size_t i = 0; i < 8; ++i) {
    uint32_t l = rgb[3 * i] * 19595u + rgb[3 * i + 1] * 38470u + rgb[3 * i + 2] * 7471u + 0x8000;
    expected.push_back(static_cast<uint8_t>(l >> 16));
  }
  EXPECT_EQ(valuesOf<uint8_t>((*out)[0]), expected);
}

TEST(FlowKernels, ImageDecoderRefusesDamagedFilesOfEachFormat) {
  struct Case {
    const char* name;
    std::string bytes;
  };
  std::string bmp = std::string("BM", 2) + std::string(8, '\0') + std::string("\x36\0\0\0", 4) +
                    std::string("\x28\0\0\0\x04\0\0\0\x02\0\0\0\x01\0\x18\0", 16) +
                    std::string(24, '\0') + std::string(32, '\x07');
  for (const Case& c :
       {Case{"JPEG", tinyJpeg()}, Case{"PNG", tinyPng()}, Case{"TIFF", tinyTiff()},
        Case{"WebP", tinyWebp()}, Case{"JPEG 2000", tinyJpeg2000()}, Case{"BMP", bmp},
        Case{"PNM", std::string("P6\n4 2\n255\n") + std::string(24, '\x07')}}) {
    SCOPED_TRACE(c.name);
    // Whole, it decodes; its header cut short, then its pixel data cut short, it does not.
    ASSERT_TRUE(runText(kDecodeRgbModel, {{"data", bytesOf(c.bytes)}}));
    for (size_t keep : {size_t{12}, c.bytes.size() * 2 / 3}) {
      SCOPED_TRACE(keep);
      Result<std::vector<EvalValue>> out =
          runText(kDecodeRgbModel, {{"data", bytesOf(c.bytes.substr(0, keep))}});
      ASSERT_FALSE(out);
      EXPECT_NE(out.status().message().find(c.name), std::string::npos) << messageOf(out);
    }
  }
}

TEST(FlowKernels, ImageDecoderRefusesAnImageLargerThanPillowsLimit) {
  // A PNG header of 20000x10000 pixels (more than Pillow's 178956970), an empty IDAT: it
  // is refused for its size, before anything that size is allocated.
  std::string png =
      std::string("\x89PNG\r\n\x1a\n", 8) +
      std::string(
          "\x00\x00\x00\x0d\x49\x48\x44\x52\x00\x00\x4e\x20\x00\x00\x27\x10\x08\x02\x00"
          "\x00\x00\x76\x46\xdf\xf5",
          25) +
      std::string("\0\0\0\0IDAT\x35\xaf\x06\x1e", 12);
  Result<std::vector<EvalValue>> out = runText(kDecodeRgbModel, {{"data", bytesOf(png)}});
  ASSERT_FALSE(out);
  EXPECT_NE(out.status().message().find("not sane"), std::string::npos) << messageOf(out);
}

}  // namespace
}  // namespace onyx
