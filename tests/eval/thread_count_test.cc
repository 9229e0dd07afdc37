// Evaluation results do not depend on the thread count: kernels split work by output
// element, never one accumulation, so 1, 2 and 5 threads give bit-identical outputs.
#include <gtest/gtest.h>

#include <random>

#include "onyx/eval/test_case.h"
#include "onyx/serde/model_io.h"
#include "onyx/text/parser.h"
#include "support/conformance.h"
#include "support/eval_testing.h"

namespace onyx {
namespace {

constexpr Tolerance kExact{0.0, 0.0};

std::vector<EvalValue> runWith(const Model& model, const std::vector<NamedValue>& inputs,
                               int threads) {
  EvalOptions options;
  options.threads = threads;
  Result<std::vector<EvalValue>> outputs = evaluate(model, inputs, options);
  EXPECT_TRUE(outputs) << outputs.status().toString();
  return outputs ? std::move(*outputs) : std::vector<EvalValue>{};
}

EvalValue randomTensor(std::vector<int64_t> shape, uint32_t seed) {
  size_t count = 1;
  for (int64_t d : shape) count *= static_cast<size_t>(d);
  return testing::tensorOf<float>(ElementType::kFloat, std::move(shape),
                                  testing::randomFloats(count, seed));
}

TEST(ThreadCount, ALargeModelGivesTheSameBitsOnOneTwoAndFiveThreads) {
  // Large enough that every kernel that splits its work does.
  Result<Model> model = parseText(R"(
    <ir_version: 10, opset_import: ["" : 21]>
    g (float[192, 256] a, float[256, 160] b, float[160] c) => (float[192, 160] y) {
      product = MatMul(a, b)
      shifted = Add(product, c)
      y = Relu(shifted)
    })");
  ASSERT_TRUE(model) << model.status().toString();
  std::vector<NamedValue> inputs = {{"a", randomTensor({192, 256}, 1)},
                                    {"b", randomTensor({256, 160}, 2)},
                                    {"c", randomTensor({160}, 3)}};
  std::vector<EvalValue> one = runWith(*model, inputs, 1);
  ASSERT_EQ(one.size(), 1u);
  for (int threads : {2, 5}) {
    std::vector<EvalValue> many = runWith(*model, inputs, threads);
    ASSERT_EQ(many.size(), 1u);
    EXPECT_EQ(compareValues(one[0], many[0], kExact), "") << threads << " threads";
  }
}

// The quantizations split their elements in pieces of 64K; DynamicQuantizeLinear takes the
// bounds of each piece, then of the pieces: 300K elements (five pieces, the last short), the
// smallest and the largest in different pieces, give the same scale, zero point and bytes on
// any thread count, and QuantizeLinear and DequantizeLinear per channel the same values.
TEST(ThreadCount, TheQuantizationsGiveTheSameBitsOnOneTwoAndFiveThreads) {
  Result<Model> model = parseText(R"(
    <ir_version: 10, opset_import: ["" : 21]>
    g (float[3, 100000] x) => (uint8[3, 100000] q, float s, uint8 z, float[3, 100000] d,
                               int8[3, 100000] p) <float[3] ps = {0.01, 0.02, 0.03},
                               int8[3] pz = {-3, 0, 5}> {
      q, s, z = DynamicQuantizeLinear(x)
      d = DequantizeLinear(q, s, z)
      p = QuantizeLinear <axis = 0> (d, ps, pz)
    })");
  ASSERT_TRUE(model) << model.status().toString();
  EvalValue x = randomTensor({3, 100000}, 7);
  x.tensor.data<float>()[5] = -4.0f;
  x.tensor.data<float>()[299990] = 6.0f;
  std::vector<NamedValue> inputs = {{"x", x}};
  std::vector<EvalValue> one = runWith(*model, inputs, 1);
  ASSERT_EQ(one.size(), 5u);
  EXPECT_EQ(one[1].tensor.data<float>()[0], 10.0f / 255.0f);  // the range [-4, 6]
  for (int threads : {2, 5}) {
    std::vector<EvalValue> many = runWith(*model, inputs, threads);
    ASSERT_EQ(many.size(), 5u);
    for (size_t i = 0; i < 5; ++i) {
      EXPECT_EQ(compareValues(one[i], many[i], kExact), "") << threads << " threads, output " << i;
    }
  }
}

TEST(ThreadCount, EveryConformanceCaseThatRunsGivesTheSameBitsOnOneAndTwoThreads) {
  auto cases = testing::conformanceCases();
  if (cases.empty()) GTEST_SKIP() << testing::conformanceMissingReason();
  size_t compared = 0;
  for (const auto& dir : cases) {
    Result<Model> model = loadModel((dir / "model.onnx").string());
    ASSERT_TRUE(model) << dir;
    std::vector<std::string> data_sets = testDataSets(dir.string());
    if (data_sets.empty()) continue;
    Result<std::vector<NamedValue>> inputs = loadTestInputs(*model, data_sets.front());
    if (!inputs) continue;
    EvalOptions one_thread;
    one_thread.threads = 1;
    Result<std::vector<EvalValue>> one = evaluate(*model, *inputs, one_thread);
    if (!one) continue;  // not runnable yet: EvalConformance reports why
    EvalOptions two_threads;
    two_threads.threads = 2;
    Result<std::vector<EvalValue>> two = evaluate(*model, *inputs, two_threads);
    ASSERT_TRUE(two) << dir.filename() << ": " << two.status().toString();
    ASSERT_EQ(one->size(), two->size());
    for (size_t k = 0; k < one->size(); ++k) {
      EXPECT_EQ(compareValues((*one)[k], (*two)[k], kExact), "")
          << dir.filename() << " output " << k;
    }
    ++compared;
  }
  std::printf("%zu cases compared\n", compared);
  EXPECT_GT(compared, 0u);
}

}  // namespace
}  // namespace onyx
