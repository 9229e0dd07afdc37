// One Evaluator run from two threads at once (src/eval/engine/executor.h, Executors): each
// call gets the results a call alone gets, through a model whose plan holds what keeps state
// between runs: a fused convolution (oneDNN's primitive and reordered weights), a QDQ
// convolution, float16 nodes whose weights are widened once, nodes that run once (a Constant
// -> Cast -> Reshape chain), a function call and an If.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <thread>
#include <vector>

#include "onyx/core/float_formats.h"
#include "onyx/eval/evaluator.h"
#include "onyx/text/parser.h"
#include "support/eval_testing.h"

namespace onyx {
namespace {

using testing::tensorOf;

std::string concurrentModel() {
  std::vector<int32_t> quantized, halves;
  for (float v : testing::randomFloats(8 * 8 * 9, 2)) {
    quantized.push_back(static_cast<int32_t>(std::lround(v * 127)));
  }
  for (float v : testing::randomFloats(9 * 4, 3)) halves.push_back(floatToFloat16(v));
  return R"(<ir_version: 10, opset_import: ["" : 21, "local" : 1]>
g (float[1,8,9,9] x, bool pick) => (float[1,8,9,9] y, float[2,3] r, uint8[1,8,9,9] q,
                                    float16[1,8,9,4] h, float[1,8,9,9] z)
  <float[8,8,3,3] w = {)" +
         testing::floatsText(testing::randomFloats(8 * 8 * 9, 1)) + R"(},
   int8[8,8,3,3] wq = {)" +
         testing::elementsText(quantized) + R"(}, float[8] ws = {0.004, 0.006, 0.005, 0.007,
   0.004, 0.006, 0.005, 0.007}, float xs = {0.0235}, uint8 xz = {128}, float cs = {0.05},
   uint8 cz = {120}, float16[9,4] m = {)" +
         testing::elementsText(halves) + R"(}> {
  c = Conv <pads = [1, 1, 1, 1]> (x, w)
  a = Relu (c)
  y = local.Twice (a)
  k = Constant <value = int64[6] {1, 2, 3, 4, 5, 6}> ()
  kf = Cast <to = 1> (k)
  shape = Constant <value = int64[2] {2, 3}> ()
  r = Reshape (kf, shape)
  xq = QuantizeLinear (x, xs, xz)
  xd = DequantizeLinear (xq, xs, xz)
  wd = DequantizeLinear <axis = 0> (wq, ws)
  cq = Conv <pads = [1, 1, 1, 1]> (xd, wd)
  q = QuantizeLinear (cq, cs, cz)
  xh = Cast <to = 10> (x)
  p = MatMul (xh, m)
  h = Relu (p)
  z = If (pick) <then_branch = t () => (float[1,8,9,9] o) { o = Neg (x) },
                 else_branch = e () => (float[1,8,9,9] o) { o = Abs (x) }>
}
<domain: "local", opset_import: ["" : 21]>
Twice (t) => (u) {
  u = Add (t, t)
})";
}

std::vector<NamedValue> inputsFor(uint32_t seed) {
  return {{"x",
           tensorOf<float>(ElementType::kFloat, {1, 8, 9, 9}, testing::randomFloats(8 * 81, seed))},
          {"pick", tensorOf<bool>(ElementType::kBool, {}, {seed % 2 == 0})}};
}

TEST(ConcurrentRuns, TwoThreadsOnOneEvaluatorGetWhatRunsAloneGet) {
  Result<Model> model = parseText(concurrentModel());
  ASSERT_TRUE(model) << model.status().toString();
  constexpr uint32_t kRuns = 12;
  // What each input gives, one run at a time, each on an Evaluator of its own.
  std::vector<std::vector<EvalValue>> expected;
  for (uint32_t run = 0; run < 2 * kRuns; ++run) {
    Result<std::vector<EvalValue>> out = evaluate(*model, inputsFor(100 + run));
    ASSERT_TRUE(out) << out.status().toString();
    expected.push_back(std::move(*out));
  }
  EvalOptions options;
  options.threads = 2;  // two runs at once, one thread each
  options.threads_per_run = 1;
  Evaluator evaluator(*model, options);
  std::vector<std::string> differences(2);
  auto work = [&](uint32_t thread) {
    for (uint32_t i = 0; i < kRuns; ++i) {
      uint32_t run = 2 * i + thread;
      Result<std::vector<EvalValue>> out = evaluator.run(inputsFor(100 + run));
      if (!out) {
        differences[thread] += "run " + std::to_string(run) + ": " + out.status().toString();
        continue;
      }
      for (size_t k = 0; k < out->size(); ++k) {
        const Array& got = (*out)[k].tensor;
        const Array& want = expected[run][k].tensor;
        if (got.type() != want.type() || got.shape() != want.shape() ||
            !std::equal(got.bytes().begin(), got.bytes().end(), want.bytes().begin())) {
          differences[thread] +=
              "run " + std::to_string(run) + " output " + std::to_string(k) + " differs; ";
        }
      }
    }
  };
  std::thread first(work, 0u), second(work, 1u);
  first.join();
  second.join();
  EXPECT_EQ(differences[0], "");
  EXPECT_EQ(differences[1], "");
}

}  // namespace
}  // namespace onyx
