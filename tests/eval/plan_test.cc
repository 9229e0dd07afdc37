// The evaluator's plan (src/eval/plan.h): fused steps give what their nodes give one by one
// (fusions off), the observer sees the steps, unsorted nodes run in order with a warning,
// and the calling thread's OpenMP setting survives a run.
#include <gtest/gtest.h>

#include <cmath>
#include <sstream>
#include <string>
#include <vector>

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

std::string floatList(const std::vector<float>& values) {
  std::ostringstream text;
  text.precision(9);
  for (size_t i = 0; i < values.size(); ++i) text << (i ? ", " : "") << values[i];
  return text.str();
}

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
         floatList(weights) + "}, float[6] b = {" + floatList(bias) + "}, float[6] gamma = {" +
         floatList(gamma) + "}, float[6] beta = {" + floatList(beta) + "}, float[6] mean = {" +
         floatList(mean) + "}, float[6] var = {" + floatList(variance) + "}" + extra + R"(> {
      c = Conv <pads = [1, 1, 1, 1]> (x, w, b)
      bn = BatchNormalization <epsilon = 0.001> (c, gamma, beta, mean, var)
      )" +
         after + "\n    }";
}

// Records the steps of a run and its warnings.
class Recorder final : public EvalObserver {
 public:
  void stepRan(std::span<const Node* const> nodes, std::chrono::nanoseconds) override {
    std::string step;
    for (const Node* node : nodes) step += (step.empty() ? "" : "+") + std::string(node->opType());
    steps.push_back(step);
  }
  void fusionDeclined(std::span<const Node* const> nodes) override { declined += nodes.size(); }
  void warning(std::string_view message) override { warnings.emplace_back(message); }
  std::vector<std::string> steps;
  std::vector<std::string> warnings;
  size_t declined = 0;  // members of fused steps that ran one by one
};

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
TEST(Plan, WeightsAndStatisticsAsConstantNodesFuseAsInitializersDo) {
  Result<Model> model = parseText(convBatchNormModel("y = Relu (bn)"));
  ASSERT_TRUE(model) << model.status().toString();
  Result<std::unique_ptr<Pass>> to_constants = makePass("initializer-to-constant");
  ASSERT_TRUE(to_constants);
  PassContext context;
  ASSERT_TRUE((*to_constants)->run(*model, context));
  ASSERT_EQ(model->graph->initializers.size(), 0u);
  for (int threads : {1, 2}) {
    EvalOptions options;
    options.threads = threads;
    std::vector<NamedValue> inputs = {
        {"x", tensorOf<float>(ElementType::kFloat, {1, 8, 9, 9}, testing::randomFloats(648, 9))}};
    Recorder fused_steps;
    options.observer = &fused_steps;
    Result<std::vector<EvalValue>> fused = evaluate(*model, inputs, options);
    options.fusions = false;
    Recorder literal_steps;
    options.observer = &literal_steps;
    Result<std::vector<EvalValue>> literal = evaluate(*model, inputs, options);
    ASSERT_TRUE(fused && literal);
    std::vector<float> a = valuesOf<float>((*fused)[0]);
    std::vector<float> b = valuesOf<float>((*literal)[0]);
    ASSERT_EQ(a.size(), b.size());
    for (size_t i = 0; i < a.size(); ++i) {
      ASSERT_NEAR(a[i], b[i], 1e-4f * (1.0f + std::fabs(b[i]))) << "at " << i;
    }
    EXPECT_EQ(fused_steps.steps, std::vector<std::string>{"Conv+BatchNormalization+Relu"});
    EXPECT_EQ(fused_steps.declined, 0u) << "the fused step ran its nodes one by one";
    EXPECT_EQ(literal_steps.steps,
              (std::vector<std::string>{"Conv", "BatchNormalization", "Relu"}));
  }
}

// A 1-D Conv + Relu (a strided, padded Conv1d of `channels` inputs and 6 outputs, kernel 5)
// fused and unfused, at 1 and 2 threads. The fused step runs it as a 2-D convolution of
// height 1 when there are channels enough to vectorise over, and declines below that.
void expectConv1dFusedMatchesLiteral(int64_t channels, size_t declined) {
  std::vector<float> weights = testing::randomFloats(size_t(6 * channels * 5), 7);
  std::vector<float> bias = testing::randomFloats(6, 8);
  std::string c = std::to_string(channels);
  Result<Model> model = parseText(R"(<ir_version: 10, opset_import: ["" : 21]>
    g (float[2, )" + c + R"(, 40] x) => (float[2, 6, 13] y) <float[6, )" +
                                  c + ", 5] w = {" + floatList(weights) + "}, float[6] b = {" +
                                  floatList(bias) + R"(}> {
      conv = Conv <pads = [2, 1], strides = [3]> (x, w, b)
      y = Relu (conv)
    })");
  ASSERT_TRUE(model) << model.status().toString();
  std::vector<NamedValue> inputs = {
      {"x", tensorOf<float>(ElementType::kFloat, {2, channels, 40},
                            testing::randomFloats(size_t(80 * channels), 9))}};
  for (int threads : {1, 2}) {
    EvalOptions options;
    options.threads = threads;
    Recorder fused_steps;
    options.observer = &fused_steps;
    Result<std::vector<EvalValue>> fused = evaluate(*model, inputs, options);
    options.fusions = false;
    options.observer = nullptr;
    Result<std::vector<EvalValue>> literal = evaluate(*model, inputs, options);
    ASSERT_TRUE(fused && literal);
    std::vector<float> a = valuesOf<float>((*fused)[0]);
    std::vector<float> b = valuesOf<float>((*literal)[0]);
    ASSERT_EQ(a.size(), 2u * 6 * 13);
    ASSERT_EQ(a.size(), b.size());
    for (size_t i = 0; i < a.size(); ++i) {
      ASSERT_NEAR(a[i], b[i], 1e-4f * (1.0f + std::fabs(b[i]))) << "at " << i;
    }
    EXPECT_EQ(fused_steps.steps, std::vector<std::string>{"Conv+Relu"});
    EXPECT_EQ(fused_steps.declined, declined) << "at " << threads << " threads";
  }
}

TEST(Plan, Conv1dRunsFusedAsAConvolutionOfHeightOne) { expectConv1dFusedMatchesLiteral(16, 0); }

TEST(Plan, Conv1dOfFewChannelsDeclinesAndGivesWhatItsNodesGive) {
  expectConv1dFusedMatchesLiteral(1, 2);  // Conv and Relu, one by one
}

TEST(Plan, ConvBatchNormHardSwish) {
  expectFusedMatchesLiteral("y = HardSwish (bn)", {"Conv+BatchNormalization+HardSwish"});
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
  Result<Model> model =
      parseText(R"(<ir_version: 10, opset_import: ["" : 13]>
    g (float[1, 9, 9, 8] x, float[1, 9, 9, 6] skip) => (float[1, 9, 9, 6] y)
        <float[6, 8, 3, 3] w = {)" +
                floatList(weights) + "}, float[6] b = {" + floatList(bias) + R"(}> {
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
  std::string weights = ", float[3, 6, 1, 1] w1 = {" + floatList(w1) + "}, float[3] b1 = {" +
                        floatList(b1) + "}, float[6, 3, 1, 1] w2 = {" + floatList(w2) +
                        "}, float[6] b2 = {" + floatList(b2) + "}";
  expectFusedMatchesLiteral(
      "h = Relu (bn)\n      p = GlobalAveragePool (h)" + excite +
          "e = Mul (h, g)\n      y = Relu (e)",
      {"Conv+BatchNormalization+Relu", "GlobalAveragePool+Conv+Relu+Conv+HardSigmoid+Mul", "Relu"},
      weights);
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
