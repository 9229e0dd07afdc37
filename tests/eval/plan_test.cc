// The evaluator's plan (src/eval/engine/plan.h): fused steps give what their nodes give one by one
// (fusions off), the observer sees the steps, unsorted nodes run in order with a warning,
// and the calling thread's OpenMP setting survives a run.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "eval/engine/executor.h"
#include "eval/engine/frame.h"
#include "onyx/eval/evaluator.h"
#include "onyx/ir/node.h"
#include "onyx/passes/pass.h"
#include "onyx/passes/pass_manager.h"
#include "onyx/text/parser.h"
#include "support/eval_testing.h"

extern "C" {
int omp_get_max_threads(void);
void omp_set_num_threads(int count);
}

namespace onyx {
namespace {

using testing::tensorOf;
using testing::valuesOf;

// A Conv (8 -> 6 channels, 3x3, pads 1) with a BatchNormalization, then `after` (nodes
// reading `bn` and writing `y`), on a [1, 8, 9, 9] input.
std::string convBatchNormModel(const std::string& after, const std::string& extra = "") {
  std::vector<float> weights = testing::randomFloats(6 * 8 * 3 * 3, 1);
  std::vector<float> bias = testing::randomFloats(6, 2);
  std::vector<float> gamma = testing::randomFloats(6, 3);
  std::vector<float> beta = testing::randomFloats(6, 4);
  std::vector<float> mean = testing::randomFloats(6, 5);
  std::vector<float> variance = testing::randomFloats(6, 6);
  for (float& v : variance) v = std::fabs(v) + 0.5f;
  return R"(<ir_version: 10, opset_import: ["" : 21]>
    g (float[1, 8, 9, 9] x) => (float[1, 6, 9, 9] y) <float[6, 8, 3, 3] w = {)" +
         testing::floatsText(weights) + "}, float[6] b = {" + testing::floatsText(bias) +
         "}, float[6] gamma = {" + testing::floatsText(gamma) + "}, float[6] beta = {" +
         testing::floatsText(beta) + "}, float[6] mean = {" + testing::floatsText(mean) +
         "}, float[6] var = {" + testing::floatsText(variance) + "}" + extra + R"(> {
      c = Conv <pads = [1, 1, 1, 1]> (x, w, b)
      bn = BatchNormalization <epsilon = 0.001> (c, gamma, beta, mean, var)
      )" +
         after + "\n    }";
}

using Recorder = testing::StepRecorder;

// Runs `model` on `inputs` at `threads` threads with fusions on (its steps recorded in
// `fused_steps`) and off (in `literal_steps` when given), expects the first outputs within
// float rounding of each other, and returns the fused one's values.
std::vector<float> fusedWithinRoundingOfLiteral(const Model& model,
                                                const std::vector<NamedValue>& inputs, int threads,
                                                Recorder& fused_steps,
                                                Recorder* literal_steps = nullptr) {
  EvalOptions options;
  options.threads = threads;
  options.observer = &fused_steps;
  Result<std::vector<EvalValue>> fused = evaluate(model, inputs, options);
  options.fusions = false;
  options.observer = literal_steps;
  Result<std::vector<EvalValue>> literal = evaluate(model, inputs, options);
  EXPECT_TRUE(fused) << fused.status().toString();
  EXPECT_TRUE(literal) << literal.status().toString();
  if (!fused || !literal) return {};
  std::vector<float> a = valuesOf<float>((*fused)[0]);
  std::vector<float> b = valuesOf<float>((*literal)[0]);
  EXPECT_EQ(a.size(), b.size());
  for (size_t i = 0; i < std::min(a.size(), b.size()); ++i) {
    if (std::fabs(a[i] - b[i]) > 1e-4f * (1.0f + std::fabs(b[i]))) {
      ADD_FAILURE() << "at " << i << ": fused " << a[i] << ", node by node " << b[i] << " ("
                    << threads << " threads)";
      break;
    }
  }
  return a;
}

std::vector<float> run(const Model& model, bool fusions, Recorder* recorder = nullptr) {
  EvalOptions options;
  options.fusions = fusions;
  options.observer = recorder;
  std::vector<NamedValue> inputs = {
      {"x", tensorOf<float>(ElementType::kFloat, {1, 8, 9, 9}, testing::randomFloats(648, 9))}};
  Result<std::vector<EvalValue>> out = evaluate(model, inputs, options);
  EXPECT_TRUE(out) << out.status().toString();
  return out ? valuesOf<float>((*out)[0]) : std::vector<float>{};
}

void expectFusedMatchesLiteral(const std::string& after, const std::vector<std::string>& steps,
                               const std::string& extra = "") {
  Result<Model> model = parseText(convBatchNormModel(after, extra));
  ASSERT_TRUE(model) << model.status().toString();
  Recorder fused_steps, literal_steps;
  std::vector<float> fused = run(*model, true, &fused_steps);
  std::vector<float> literal = run(*model, false, &literal_steps);
  ASSERT_EQ(fused.size(), literal.size());
  ASSERT_EQ(fused.size(), 6u * 9 * 9);
  for (size_t i = 0; i < fused.size(); ++i) {
    ASSERT_NEAR(fused[i], literal[i], 1e-4f * (1.0f + std::fabs(literal[i]))) << "at " << i;
  }
  EXPECT_EQ(fused_steps.steps, steps);
  EXPECT_EQ(fused_steps.declined, 0u) << "a fused step ran its nodes one by one";
  EXPECT_GE(literal_steps.steps.size(), 3u);
}

TEST(Plan, ConvBatchNormReluRunsAsOneStepAndGivesWhatItsNodesGive) {
  expectFusedMatchesLiteral("y = Relu (bn)", {"Conv+BatchNormalization+Relu"});
}

// Paddle2ONNX and others write weights and statistics as Constant nodes: the plan reads them
// as it reads initializers, so the same fusion happens, no Constant runs as a step, and the
// result is the literal one's within rounding, at one thread and at two.
// convBatchNormModel(after, extra) with every initializer turned into a Constant node, as
// Paddle2ONNX writes them: fused as with initializers, at 1 and 2 threads, none declining.
void expectConstantNodesFuse(const std::string& after, const std::vector<std::string>& steps,
                             const std::string& extra = "") {
  Result<Model> model = parseText(convBatchNormModel(after, extra));
  ASSERT_TRUE(model) << model.status().toString();
  Result<std::unique_ptr<Pass>> to_constants = makePass("initializer-to-constant");
  ASSERT_TRUE(to_constants);
  PassContext context;
  ASSERT_TRUE((*to_constants)->run(*model, context));
  ASSERT_EQ(model->graph->initializers.size(), 0u);
  std::vector<NamedValue> inputs = {
      {"x", tensorOf<float>(ElementType::kFloat, {1, 8, 9, 9}, testing::randomFloats(648, 9))}};
  for (int threads : {1, 2}) {
    Recorder fused_steps, literal_steps;
    std::vector<float> fused =
        fusedWithinRoundingOfLiteral(*model, inputs, threads, fused_steps, &literal_steps);
    EXPECT_EQ(fused.size(), 6u * 9 * 9);
    EXPECT_EQ(fused_steps.steps, steps);
    EXPECT_EQ(fused_steps.declined, 0u) << "the fused step ran its nodes one by one";
    EXPECT_GE(literal_steps.steps.size(), steps.size());
  }
}

TEST(Plan, WeightsAndStatisticsAsConstantNodesFuseAsInitializersDo) {
  expectConstantNodesFuse("y = Relu (bn)", {"Conv+BatchNormalization+Relu"});
}

TEST(Plan, ClipBoundsAsConstantNodesFuseIntoTheConvolution) {
  expectConstantNodesFuse("y = Clip (bn, low, high)", {"Conv+BatchNormalization+Clip"},
                          ", float low = {0}, float high = {6}");
}

// A 1-D Conv + Relu (a padded Conv1d of `channels` inputs and 6 outputs, kernel 5, over 40
// samples) fused and unfused, at 1 and 2 threads. The fused step runs it as a 2-D
// convolution of height 1, and declines one over few channels and many columns.
void expectConv1dFusedMatchesLiteral(int64_t channels, int64_t stride, size_t declined) {
  int64_t columns = (40 + 2 + 1 - 5) / stride + 1;
  std::vector<float> weights = testing::randomFloats(size_t(6 * channels * 5), 7);
  std::vector<float> bias = testing::randomFloats(6, 8);
  std::string c = std::to_string(channels);
  Result<Model> model = parseText(R"(<ir_version: 10, opset_import: ["" : 21]>
    g (float[2, )" + c + R"(, 40] x) => (float[2, 6, )" +
                                  std::to_string(columns) + R"(] y) <float[6, )" + c +
                                  ", 5] w = {" + testing::floatsText(weights) +
                                  "}, float[6] b = {" + testing::floatsText(bias) + R"(}> {
      conv = Conv <pads = [2, 1], strides = [)" +
                                  std::to_string(stride) +
                                  R"(]> (x, w, b)
      y = Relu (conv)
    })");
  ASSERT_TRUE(model) << model.status().toString();
  std::vector<NamedValue> inputs = {
      {"x", tensorOf<float>(ElementType::kFloat, {2, channels, 40},
                            testing::randomFloats(size_t(80 * channels), 9))}};
  for (int threads : {1, 2}) {
    Recorder fused_steps;
    EXPECT_EQ(fusedWithinRoundingOfLiteral(*model, inputs, threads, fused_steps).size(),
              size_t(2 * 6 * columns));
    EXPECT_EQ(fused_steps.steps, std::vector<std::string>{"Conv+Relu"});
    EXPECT_EQ(fused_steps.declined, declined) << "at " << threads << " threads";
  }
}

TEST(Plan, Conv1dRunsFusedAsAConvolutionOfHeightOne) {
  expectConv1dFusedMatchesLiteral(16, 3, 0);
  expectConv1dFusedMatchesLiteral(1, 3, 0);  // one channel, 13 columns
}

TEST(Plan, Conv1dOfFewChannelsOverManyColumnsDeclinesAndGivesWhatItsNodesGive) {
  expectConv1dFusedMatchesLiteral(1, 1, 2);  // 39 columns: Conv and Relu, one by one
}

// A MobileNetV3 block as Paddle2ONNX writes it: every weight and statistic a Constant node,
// HardSwish spelled Add(x, 3), Clip(0, 6), Div(6), Mul(x, ...), a depthwise Conv, a
// squeeze-excitation, a projection with a residual Add. Fused, every step runs fused (none
// declines), gives the same bits on 1 and 2 threads, and what the nodes give one by one
// within float rounding (BatchNormalization folded into the weights reorders arithmetic).
TEST(Plan, AnExportedBlockWithConstantNodesRunsFusedOnOneAndTwoThreads) {
  uint32_t seed = 20;
  auto constant = [&seed](const std::string& name, const std::string& dims, size_t count,
                          bool positive = false) {
    std::vector<float> values = testing::randomFloats(count, ++seed);
    if (positive) {
      for (float& v : values) v = std::fabs(v) + 0.5f;
    }
    return name + " = Constant <value = float[" + dims + "] {" + testing::floatsText(values) +
           "}> ()\n";
  };
  auto batchNorm = [&](const std::string& tag, int64_t channels) {
    std::string c = std::to_string(channels);
    size_t n = size_t(channels);
    return constant("gamma" + tag, c, n, true) + constant("beta" + tag, c, n) +
           constant("mean" + tag, c, n) + constant("var" + tag, c, n, true);
  };
  std::string text = R"(<ir_version: 7, opset_import: ["" : 11]>
    g (float[1, 8, 12, 12] x) => (float[1, 8, 12, 12] y) {
      three = Constant <value = float {3}> ()
      zero = Constant <value = float {0}> ()
      six = Constant <value = float {6}> ()
)" + constant("w1", "16, 8, 1, 1", 128) +
                     batchNorm("1", 16) + R"(
      c1 = Conv <kernel_shape = [1, 1]> (x, w1)
      b1 = BatchNormalization <epsilon = 0.00001> (c1, gamma1, beta1, mean1, var1)
      a1 = Add (b1, three)
      k1 = Clip (a1, zero, six)
      d1 = Div (k1, six)
      h1 = Mul (b1, d1)
)" + constant("w2", "16, 1, 3, 3", 144) +
                     batchNorm("2", 16) + R"(
      c2 = Conv <group = 16, kernel_shape = [3, 3], pads = [1, 1, 1, 1]> (h1, w2)
      b2 = BatchNormalization <epsilon = 0.00001> (c2, gamma2, beta2, mean2, var2)
      r2 = Relu (b2)
      pooled = GlobalAveragePool (r2)
)" + constant("ws1", "4, 16, 1, 1", 64) +
                     constant("bs1", "4", 4) + constant("ws2", "16, 4, 1, 1", 64) +
                     constant("bs2", "16", 16) + R"(
      s1 = Conv (pooled, ws1, bs1)
      s2 = Relu (s1)
      s3 = Conv (s2, ws2, bs2)
      gate = HardSigmoid <alpha = 0.2, beta = 0.5> (s3)
      excited = Mul (r2, gate)
)" + constant("w3", "8, 16, 1, 1", 128) +
                     batchNorm("3", 8) + R"(
      c3 = Conv (excited, w3)
      b3 = BatchNormalization <epsilon = 0.00001> (c3, gamma3, beta3, mean3, var3)
      y = Add (b3, x)
    })";
  Result<Model> model = parseText(text);
  ASSERT_TRUE(model) << model.status().toString();
  std::vector<NamedValue> inputs = {
      {"x", tensorOf<float>(ElementType::kFloat, {1, 8, 12, 12}, testing::randomFloats(1152, 40))}};
  std::vector<float> fused_one_thread;
  for (int threads : {1, 2}) {
    Recorder fused_steps;
    std::vector<float> a = fusedWithinRoundingOfLiteral(*model, inputs, threads, fused_steps);
    EXPECT_EQ(a.size(), 1152u);
    if (threads == 1) fused_one_thread = a;
    EXPECT_EQ(a, fused_one_thread) << "fused, at " << threads << " threads";
    EXPECT_EQ(fused_steps.declined, 0u) << "at " << threads << " threads";
    std::vector<std::string> expected = {
        "Conv+BatchNormalization+Add+Clip+Div+Mul", "Conv+BatchNormalization+Relu",
        "GlobalAveragePool+Conv+Relu+Conv+HardSigmoid+Mul", "Conv+BatchNormalization+Add"};
    EXPECT_EQ(fused_steps.steps, expected);
  }
}

TEST(Plan, ConvBatchNormHardSwish) {
  expectFusedMatchesLiteral("y = HardSwish (bn)", {"Conv+BatchNormalization+HardSwish"});
}

// HardSwish and SiLU as exporters spell them, fused into the convolution's epilogue.
constexpr const char* kSpellingConstants =
    ", float three = {3}, float two = {2}, float zero = {0}, float six = {6}, "
    "float sixth = {0.16666667}";

TEST(Plan, HardSwishSpelledAsKerasWritesItFusesIntoTheConvolution) {
  expectFusedMatchesLiteral(R"(a = Add (three, bn)
      k = Clip (a, zero, six)
      m = Mul (k, bn)
      y = Mul (m, sixth))",
                            {"Conv+BatchNormalization+Add+Clip+Mul+Mul"}, kSpellingConstants);
}

TEST(Plan, HardSwishAsHardSigmoidTimesXFusesIntoTheConvolution) {
  expectFusedMatchesLiteral(R"(h = HardSigmoid <alpha = 0.16666667, beta = 0.5> (bn)
      y = Mul (h, bn))",
                            {"Conv+BatchNormalization+HardSigmoid+Mul"});
}

TEST(Plan, SiluSpelledAsSigmoidTimesXFusesIntoTheConvolution) {
  expectFusedMatchesLiteral(R"(s = Sigmoid (bn)
      y = Mul (bn, s))",
                            {"Conv+BatchNormalization+Sigmoid+Mul"});
}

TEST(Plan, ASpellingWithOtherConstantsIsLeftToItsNodes) {
  // x * clip(x + 2, 0, 6) / 6 is not HardSwish.
  expectFusedMatchesLiteral(R"(a = Add (bn, two)
      k = Clip (a, zero, six)
      d = Div (k, six)
      y = Mul (bn, d))",
                            {"Conv+BatchNormalization", "Add", "Clip", "Div", "Mul"},
                            kSpellingConstants);
}

TEST(Plan, ConvBatchNormHardSigmoidWithItsOwnAlphaAndBeta) {
  expectFusedMatchesLiteral("y = HardSigmoid <alpha = 0.25, beta = 0.4> (bn)",
                            {"Conv+BatchNormalization+HardSigmoid"});
}

TEST(Plan, ConvBatchNormClipWithConstantBounds) {
  expectFusedMatchesLiteral("y = Clip (bn, low, high)", {"Conv+BatchNormalization+Clip"},
                            ", float low = {0.0}, float high = {0.5}");
}

TEST(Plan, ConvBatchNormLeakyReluSigmoidTanh) {
  expectFusedMatchesLiteral(R"(l = LeakyRelu <alpha = 0.2> (bn)
      s = Sigmoid (l)
      y = Tanh (s))",
                            {"Conv+BatchNormalization+LeakyRelu+Sigmoid+Tanh"});
}

// tf2onnx's NHWC idiom: a Transpose to channels-first before each Conv and back after it.
TEST(Plan, TheTransposesAroundAConvInAChannelsLastModelRunWithIt) {
  std::vector<float> weights = testing::randomFloats(6 * 8 * 3 * 3, 1);
  std::vector<float> bias = testing::randomFloats(6, 2);
  Result<Model> model = parseText(R"(<ir_version: 10, opset_import: ["" : 13]>
    g (float[1, 9, 9, 8] x, float[1, 9, 9, 6] skip) => (float[1, 9, 9, 6] y)
        <float[6, 8, 3, 3] w = {)" +
                                  testing::floatsText(weights) + "}, float[6] b = {" +
                                  testing::floatsText(bias) + R"(}> {
      t = Transpose <perm = [0, 3, 1, 2]> (x)
      c = Conv <pads = [1, 1, 1, 1]> (t, w, b)
      back = Transpose <perm = [0, 2, 3, 1]> (c)
      sum = Add (back, skip)
      y = Relu (sum)
    })");
  ASSERT_TRUE(model) << model.status().toString();
  std::vector<NamedValue> inputs = {
      {"x", tensorOf<float>(ElementType::kFloat, {1, 9, 9, 8}, testing::randomFloats(648, 7))},
      {"skip", tensorOf<float>(ElementType::kFloat, {1, 9, 9, 6}, testing::randomFloats(486, 8))}};
  std::vector<std::vector<float>> results;
  for (bool fusions : {true, false}) {
    Recorder recorder;
    EvalOptions options;
    options.fusions = fusions;
    options.observer = &recorder;
    Result<std::vector<EvalValue>> out = evaluate(*model, inputs, options);
    ASSERT_TRUE(out) << out.status().toString();
    results.push_back(valuesOf<float>((*out)[0]));
    EXPECT_EQ(recorder.steps.size(), fusions ? 1u : 5u);
    if (fusions) {
      EXPECT_EQ(recorder.steps[0], "Transpose+Conv+Transpose+Add+Relu");
    }
  }
  ASSERT_EQ(results[0].size(), results[1].size());
  for (size_t i = 0; i < results[0].size(); ++i) {
    ASSERT_NEAR(results[0][i], results[1][i], 1e-4f * (1.0f + std::fabs(results[1][i])));
  }
}

// MobileNetV3's squeeze-excitation after a convolution, whose result stays channels-last
// for it; the step writes channels-first for the Relu after it.
TEST(Plan, SqueezeExcitationAfterAConvolutionRunsAsOneStep) {
  std::vector<float> w1 = testing::randomFloats(3 * 6, 11), b1 = testing::randomFloats(3, 12);
  std::vector<float> w2 = testing::randomFloats(6 * 3, 13), b2 = testing::randomFloats(6, 14);
  std::string excite = R"(
      c1 = Conv (p, w1, b1)
      r = Relu (c1)
      c2 = Conv (r, w2, b2)
      g = HardSigmoid <alpha = 0.1666667, beta = 0.5> (c2)
      )";
  std::string weights = ", float[3, 6, 1, 1] w1 = {" + testing::floatsText(w1) +
                        "}, float[3] b1 = {" + testing::floatsText(b1) +
                        "}, float[6, 3, 1, 1] w2 = {" + testing::floatsText(w2) +
                        "}, float[6] b2 = {" + testing::floatsText(b2) + "}";
  expectFusedMatchesLiteral(
      "h = Relu (bn)\n      p = GlobalAveragePool (h)" + excite +
          "e = Mul (h, g)\n      y = Relu (e)",
      {"Conv+BatchNormalization+Relu", "GlobalAveragePool+Conv+Relu+Conv+HardSigmoid+Mul", "Relu"},
      weights);
}

// SiLU spelled Mul(x, Sigmoid(x)), and a SwiGLU MLP's gate Mul(SiLU(gate), up), each one step
// whose bits are the nodes' own, at 1 and 2 threads (70,000 elements: split); an up that
// broadcasts declines, and the nodes give the same values one by one.
TEST(Plan, SiluAndItsGatedFormRunAsOneStepWithTheNodesBits) {
  constexpr size_t kCount = 2 * 35000;
  auto silu_model = [](const std::string& up_dims, bool gated) {
    return std::string(R"(<ir_version: 10, opset_import: ["" : 21]>
      g (float[2, 35000] x, float[)") +
           up_dims + R"(] up) => (float[2, 35000] y) {
        s = Sigmoid (x)
        h = Mul (s, x)
        )" +
           (gated ? "y = Mul (h, up)" : "r = Relu (h)\n        y = Add (r, up)") + "\n      }";
  };
  std::vector<float> x = testing::randomFloats(kCount, 31);
  for (float& v : x) v *= 12.0f;  // both tails of the sigmoid
  const std::vector<float> up = testing::randomFloats(kCount, 32);
  const std::vector<NamedValue> inputs = {
      {"x", tensorOf<float>(ElementType::kFloat, {2, 35000}, x)},
      {"up", tensorOf<float>(ElementType::kFloat, {2, 35000}, up)}};
  for (bool gated : {true, false}) {
    Result<Model> model = parseText(silu_model("2, 35000", gated));
    ASSERT_TRUE(model) << model.status().toString();
    for (int threads : {1, 2}) {
      Recorder fused_steps, literal_steps;
      std::vector<float> fused =
          fusedWithinRoundingOfLiteral(*model, inputs, threads, fused_steps, &literal_steps);
      EvalOptions literal_options;
      literal_options.fusions = false;
      Result<std::vector<EvalValue>> literal = evaluate(*model, inputs, literal_options);
      ASSERT_TRUE(literal) << literal.status().toString();
      EXPECT_EQ(fused, valuesOf<float>((*literal)[0])) << "the nodes' own bits";
      const std::vector<std::string> steps =
          gated ? std::vector<std::string>{"Sigmoid+Mul+Mul"}
                : std::vector<std::string>{"Sigmoid+Mul", "Relu", "Add"};
      EXPECT_EQ(fused_steps.steps, steps);
      EXPECT_EQ(fused_steps.declined, 0u);
    }
  }
  Result<Model> broadcast = parseText(silu_model("35000", true));
  ASSERT_TRUE(broadcast) << broadcast.status().toString();
  const std::vector<NamedValue> row_inputs = {
      inputs[0],
      {"up", tensorOf<float>(ElementType::kFloat, {35000}, testing::randomFloats(35000, 33))}};
  Recorder fused_steps;
  fusedWithinRoundingOfLiteral(*broadcast, row_inputs, 1, fused_steps);
  EXPECT_EQ(fused_steps.declined, 3u) << "an up that broadcasts runs the nodes one by one";
}

// A function whose If takes its branches from the caller's graph attributes: the graphs run
// belong to the calling node, not to the If.
TEST(Plan, AGraphPassedToAFunctionThroughAReferenceRuns) {
  Result<Model> model = parseText(R"(<ir_version: 10, opset_import: ["" : 21, "local" : 1]>
    g (bool c, float[2] x) => (float[2] y) {
      y = local.Choose <yes = t () => (float[2] a) {
          two = Constant <value = float[2] {2, 2}> ()
          a = Identity (two)
        }, no = e () => (float[2] b) {
          three = Constant <value = float[2] {3, 3}> ()
          b = Identity (three)
        }> (c, x)
    }
    <domain: "local", opset_import: ["" : 21]>
    Choose <yes, no> (c, x) => (y) {
      picked = If (c) <then_branch: graph = @yes, else_branch: graph = @no>
      y = Mul (picked, x)
    })");
  ASSERT_TRUE(model) << model.status().toString();
  for (bool c : {true, false}) {
    std::vector<NamedValue> inputs = {{"c", tensorOf<bool>(ElementType::kBool, {}, {c})},
                                      {"x", tensorOf<float>(ElementType::kFloat, {2}, {1, 2})}};
    Result<std::vector<EvalValue>> out = evaluate(*model, inputs);
    ASSERT_TRUE(out) << out.status().toString();
    EXPECT_EQ(valuesOf<float>((*out)[0]),
              c ? (std::vector<float>{2, 4}) : (std::vector<float>{3, 6}));
  }
}

TEST(Plan, StatisticsThatAreInputsAreNotFolded) {
  Result<Model> model = parseText(R"(<ir_version: 10, opset_import: ["" : 21]>
    g (float[1, 2, 3, 3] x, float[2] gamma, float[2] beta, float[2] mean, float[2] var)
        => (float[1, 2, 3, 3] y) <float[2, 2, 1, 1] w = {1, 0, 0, 1}> {
      c = Conv (x, w)
      y = BatchNormalization (c, gamma, beta, mean, var)
    })");
  ASSERT_TRUE(model) << model.status().toString();
  Recorder recorder;
  EvalOptions options;
  options.observer = &recorder;
  auto vector = [](std::vector<float> v) { return tensorOf<float>(ElementType::kFloat, {2}, v); };
  std::vector<NamedValue> inputs = {
      {"x", tensorOf<float>(ElementType::kFloat, {1, 2, 3, 3}, testing::randomFloats(18, 1))},
      {"gamma", vector({1, 2})},
      {"beta", vector({0, 1})},
      {"mean", vector({0, 0})},
      {"var", vector({1, 1})}};
  Result<std::vector<EvalValue>> out = evaluate(*model, inputs, options);
  ASSERT_TRUE(out) << out.status().toString();
  // The statistics are inputs, not constants: nothing to fold.
  EXPECT_EQ(recorder.steps, (std::vector<std::string>{"Conv", "BatchNormalization"}));
}

// Weights behind a Constant -> Cast chain (as PyTorch writes a double constant) are the same
// on every run: the convolution fuses with its BatchNormalization as with initializers.
TEST(Plan, WeightsBehindACastOfAConstantFoldABatchNormalization) {
  std::vector<float> statistics = testing::randomFloats(6, 31);
  std::vector<float> variance = testing::randomFloats(6, 32);
  for (float& v : variance) v = std::fabs(v) + 0.5f;
  Result<Model> model = parseText(
      R"(<ir_version: 10, opset_import: ["" : 21]>
    g (float[1, 8, 9, 9] x) => (float[1, 6, 9, 9] y) <float[6] gamma = {)" +
      testing::floatsText(statistics) + "}, float[6] var = {" + testing::floatsText(variance) +
      R"(}> {
      wide = Constant <value = double[6, 8, 3, 3] {)" +
      testing::floatsText(testing::randomFloats(6 * 8 * 9, 33)) + R"(}> ()
      w = Cast <to = 1> (wide)
      c = Conv <pads = [1, 1, 1, 1]> (x, w)
      bn = BatchNormalization (c, gamma, gamma, gamma, var)
      y = Relu (bn)
    })");
  ASSERT_TRUE(model) << model.status().toString();
  std::vector<NamedValue> inputs = {
      {"x", tensorOf<float>(ElementType::kFloat, {1, 8, 9, 9}, testing::randomFloats(648, 34))}};
  for (int threads : {1, 2}) {
    Recorder fused_steps;
    EXPECT_EQ(fusedWithinRoundingOfLiteral(*model, inputs, threads, fused_steps).size(), 486u);
    EXPECT_EQ(fused_steps.steps,
              (std::vector<std::string>{"Cast", "Conv+BatchNormalization+Relu"}));
    EXPECT_EQ(fused_steps.declined, 0u) << "at " << threads << " threads";
  }
}

// A node that reads only constants, or what such nodes give (PyTorch's Constant -> Cast,
// a Reshape of a constant), gives the same outputs on every run: it runs once, and later
// runs read what it gave. Not a node that draws random numbers, nor one whose output goes
// to the caller, who may change it.
TEST(Plan, NodesOfConstantsRunOnceAndLaterRunsReadWhatTheyGave) {
  Result<Model> model = parseText(R"(<ir_version: 10, opset_import: ["" : 21]>
    g (float[2, 3] x) => (float[2, 3] y, float[6] z, float[2, 3] noise) {
      c = Constant <value = double[6] {1, 2, 3, 4, 5, 6}> ()
      shape = Constant <value = int64[2] {2, 3}> ()
      f = Cast <to = 1> (c)
      r = Reshape (f, shape)
      y = Mul (x, r)
      z = Cast <to = 1> (c)
      noise = RandomNormal <shape = [2, 3], seed = 1.0> ()
    })");
  ASSERT_TRUE(model) << model.status().toString();
  EvalOptions options;
  options.threads = 1;
  eval_internal::PlanStore plans(*model, options);
  eval_internal::Executor executor(plans, options);
  Result<const eval_internal::GraphPlan*> plan = executor.mainPlan();
  ASSERT_TRUE(plan) << plan.status().toString();
  std::map<std::string, const eval_internal::BoundNode*> by_output;
  for (const eval_internal::BoundNode& bound : (*plan)->nodes) {
    by_output[std::string(bound.node->output(0)->name())] = &bound;
  }
  ASSERT_EQ(by_output.size(), 5u) << "the Constant nodes run no step";
  EXPECT_TRUE(by_output.at("f")->repeats);
  EXPECT_TRUE(by_output.at("r")->repeats);
  EXPECT_FALSE(by_output.at("y")->repeats) << "it reads x";
  EXPECT_FALSE(by_output.at("z")->repeats) << "the caller's";
  EXPECT_FALSE(by_output.at("noise")->repeats) << "random";

  const void* first_reshape = nullptr;
  for (int run = 0; run < 3; ++run) {
    eval_internal::Frame frame(**plan, nullptr);
    ASSERT_GE((*plan)->input_slots[0], 0);
    frame.slots[size_t((*plan)->input_slots[0])] =
        tensorOf<float>(ElementType::kFloat, {2, 3}, {1, 1, 1, 2, 2, 2});
    Result<std::vector<EvalValue>> outputs = executor.runPlan(**plan, frame);
    ASSERT_TRUE(outputs) << outputs.status().toString();
    EXPECT_EQ(valuesOf<float>((*outputs)[0]), (std::vector<float>{1, 2, 3, 8, 10, 12}));
    EXPECT_EQ(valuesOf<float>((*outputs)[1]), (std::vector<float>{1, 2, 3, 4, 5, 6}));
    const eval_internal::KeptOutputs& kept = *by_output.at("r")->kept;
    ASSERT_TRUE(kept.ready) << "after run " << run;
    if (run == 0) first_reshape = kept.values[0].tensor.bytes().data();
    EXPECT_EQ(kept.values[0].tensor.bytes().data(), first_reshape)
        << "computed again in run " << run;
  }
}

TEST(Plan, NodesOutOfOrderRunInTopologicalOrderWithAWarning) {
  Result<Model> model = parseText(R"(<ir_version: 10, opset_import: ["" : 21]>
    g (float[2] x) => (float[2] y) {
      y = Mul (t, t)
      t = Add (x, x)
    })");
  ASSERT_TRUE(model) << model.status().toString();
  Recorder recorder;
  EvalOptions options;
  options.observer = &recorder;
  Evaluator evaluator(*model, options);
  std::vector<NamedValue> inputs = {{"x", tensorOf<float>(ElementType::kFloat, {2}, {1, 2})}};
  for (int round = 0; round < 2; ++round) {
    Result<std::vector<EvalValue>> out = evaluator.run(inputs);
    ASSERT_TRUE(out) << out.status().toString();
    EXPECT_EQ(valuesOf<float>((*out)[0]), (std::vector<float>{4, 16}));
  }
  ASSERT_EQ(recorder.warnings.size(), 1u) << "once per Evaluator, not per run";
  EXPECT_NE(recorder.warnings[0].find("topological order"), std::string::npos);
  EXPECT_NE(recorder.warnings[0].find("onyx convert --sort"), std::string::npos);
  EXPECT_EQ(recorder.steps, (std::vector<std::string>{"Add", "Mul", "Add", "Mul"}));
}

TEST(Plan, NodesOnACycleAreAnErrorNamingThem) {
  Result<Model> model = parseText(R"(<ir_version: 10, opset_import: ["" : 21]>
    g (float[2] x) => (float[2] y) {
      a = Add (x, b)
      b = Neg (a)
      y = Identity (b)
    })");
  ASSERT_TRUE(model) << model.status().toString();
  std::vector<NamedValue> inputs = {{"x", tensorOf<float>(ElementType::kFloat, {2}, {1, 2})}};
  Result<std::vector<EvalValue>> out = evaluate(*model, inputs);
  ASSERT_FALSE(out);
  EXPECT_NE(out.status().toString().find("cycle"), std::string::npos) << out.status().toString();
  EXPECT_NE(out.status().toString().find("(Neg)"), std::string::npos) << out.status().toString();
}

TEST(Plan, AnUnsortedSubgraphRunsToo) {
  Result<Model> model = parseText(R"(<ir_version: 10, opset_import: ["" : 21]>
    g (bool c, float[2] x) => (float[2] y) {
      y = If (c) <then_branch = t () => (float[2] r) {
          r = Mul (s, s)
          s = Add (x, x)
        }, else_branch = e () => (float[2] r) {
          r = Identity (x)
        }>
    })");
  ASSERT_TRUE(model) << model.status().toString();
  Recorder recorder;
  EvalOptions options;
  options.observer = &recorder;
  std::vector<NamedValue> inputs = {{"c", tensorOf<bool>(ElementType::kBool, {}, {true})},
                                    {"x", tensorOf<float>(ElementType::kFloat, {2}, {1, 2})}};
  Result<std::vector<EvalValue>> out = evaluate(*model, inputs, options);
  ASSERT_TRUE(out) << out.status().toString();
  EXPECT_EQ(valuesOf<float>((*out)[0]), (std::vector<float>{4, 16}));
  ASSERT_EQ(recorder.warnings.size(), 1u);
  EXPECT_NE(recorder.warnings[0].find("then_branch"), std::string::npos) << recorder.warnings[0];
}

TEST(Plan, TheCallingThreadKeepsItsOpenMpTeamSize) {
  Result<Model> model = parseText(convBatchNormModel("y = Relu (bn)"));
  ASSERT_TRUE(model) << model.status().toString();
  omp_set_num_threads(3);
  for (bool fusions : {true, false}) {
    EvalOptions options;
    options.threads = 1;
    options.fusions = fusions;
    std::vector<NamedValue> inputs = {
        {"x", tensorOf<float>(ElementType::kFloat, {1, 8, 9, 9}, testing::randomFloats(648, 9))}};
    Result<std::vector<EvalValue>> out = evaluate(*model, inputs, options);
    ASSERT_TRUE(out) << out.status().toString();
    EXPECT_EQ(omp_get_max_threads(), 3);
  }
}

TEST(Plan, TheDepthBoundIsAnOption) {
  Result<Model> model = parseText(R"(<ir_version: 10, opset_import: ["" : 21]>
    g (bool c, float[2] x) => (float[2] y) {
      y = If (c) <then_branch = t () => (float[2] r) {
          r = If (c) <then_branch = t2 () => (float[2] r2) { r2 = Identity (x) },
                      else_branch = e2 () => (float[2] r2) { r2 = Identity (x) }>
        }, else_branch = e () => (float[2] r) {
          r = Identity (x)
        }>
    })");
  ASSERT_TRUE(model) << model.status().toString();
  std::vector<NamedValue> inputs = {{"c", tensorOf<bool>(ElementType::kBool, {}, {true})},
                                    {"x", tensorOf<float>(ElementType::kFloat, {2}, {1, 2})}};
  EvalOptions options;
  options.max_depth = 1;
  Result<std::vector<EvalValue>> out = evaluate(*model, inputs, options);
  ASSERT_FALSE(out);
  EXPECT_NE(out.status().toString().find("deeper than 1"), std::string::npos)
      << out.status().toString();
  options.max_depth = 2;
  EXPECT_TRUE(evaluate(*model, inputs, options));
}

}  // namespace
}  // namespace onyx
