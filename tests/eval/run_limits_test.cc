// A run's bounds (RunOptions): a deadline, a cancellation from another thread and a memory
// limit each stop the run between two steps with their own error code, naming the node it
// stopped at, while other runs of the same Evaluator finish, and the next run succeeds.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <span>
#include <string>
#include <thread>
#include <vector>

#include "onyx/eval/evaluator.h"
#include "onyx/text/parser.h"
#include "support/eval_testing.h"

namespace onyx {
namespace {

using testing::tensorOf;
using testing::valuesOf;

// A Loop that adds one to x `m` times: as long a run as a test wants.
constexpr const char* kCounting = R"(<ir_version: 10, opset_import: ["" : 21]>
g (int64 m, float[4] x) => (float[4] y) {
  cond = Constant <value = bool {1}> ()
  [count] y = Loop (m, cond, x) <body = body (int64 i, bool c, float[4] v) => (bool co, float[4] vo) {
    one = Constant <value = float {1}> ()
    co = Identity (c)
    vo = Add (v, one)
  }>
})";

std::vector<NamedValue> countingInputs(int64_t times) {
  return {{"m", tensorOf<int64_t>(ElementType::kInt64, {}, {times})},
          {"x", tensorOf<float>(ElementType::kFloat, {4}, {0, 1, 2, 3})}};
}

Model countingModel() {
  Result<Model> model = parseText(kCounting);
  EXPECT_TRUE(model) << model.status().toString();
  return std::move(*model);
}

TEST(RunLimits, APassedDeadlineStopsTheRunAndTheNextRunSucceeds) {
  Model model = countingModel();
  Evaluator evaluator(model, {.threads = 1});
  RunOptions limits{.deadline = std::chrono::steady_clock::now()};
  Result<std::vector<EvalValue>> stopped = evaluator.run(countingInputs(5), limits);
  ASSERT_FALSE(stopped);
  EXPECT_EQ(stopped.status().code(), ErrorCode::kDeadlineExceeded);
  EXPECT_EQ(errorCodeName(ErrorCode::kDeadlineExceeded), "deadline-exceeded");
  Result<std::vector<EvalValue>> next = evaluator.run(countingInputs(5));
  ASSERT_TRUE(next) << next.status().toString();
  EXPECT_EQ(valuesOf<float>((*next)[0]), (std::vector<float>{5, 6, 7, 8}));
}

TEST(RunLimits, ADeadlineStopsALongLoopInsideItsBody) {
  Model model = countingModel();
  Evaluator evaluator(model, {.threads = 1});
  RunOptions limits{.deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(20)};
  // Ten million iterations take seconds: the deadline comes first.
  Result<std::vector<EvalValue>> stopped = evaluator.run(countingInputs(10'000'000), limits);
  ASSERT_FALSE(stopped);
  EXPECT_EQ(stopped.status().code(), ErrorCode::kDeadlineExceeded);
  // Stopped inside the body: the path names the Loop, then the body's node.
  EXPECT_NE(stopped.status().path().find("(count)"), std::string::npos)
      << stopped.status().toString();
}

// Tells when a run has reached the Loop's body.
class BodyReached final : public EvalObserver {
 public:
  void innerStepRan(std::span<const Node* const>, std::chrono::nanoseconds, int) override {
    reached = true;
  }
  std::atomic<bool> reached = false;
};

TEST(RunLimits, ACancelledRunStopsWhileAnotherRunOfTheEvaluatorFinishes) {
  Model model = countingModel();
  BodyReached body;
  Evaluator evaluator(model, {.threads = 2, .threads_per_run = 1, .observer = &body});
  RunCancellation cancellation;
  Result<std::vector<EvalValue>> long_run = Status(ErrorCode::kInternal, "not run");
  std::thread runner([&] {
    long_run = evaluator.run(countingInputs(10'000'000), {.cancellation = &cancellation});
  });
  // Cancelled inside the loop, not before it.
  while (!body.reached) std::this_thread::yield();
  // A short run beside it, uncancelled, gets its result.
  Result<std::vector<EvalValue>> short_run = evaluator.run(countingInputs(3));
  ASSERT_TRUE(short_run) << short_run.status().toString();
  EXPECT_EQ(valuesOf<float>((*short_run)[0]), (std::vector<float>{3, 4, 5, 6}));
  cancellation.cancel();
  runner.join();
  ASSERT_FALSE(long_run);
  EXPECT_EQ(long_run.status().code(), ErrorCode::kCancelled);
  EXPECT_NE(long_run.status().path().find("(count)"), std::string::npos);
  // A cancelled token stops a run before its first step; a run without it succeeds.
  Result<std::vector<EvalValue>> again =
      evaluator.run(countingInputs(3), {.cancellation = &cancellation});
  ASSERT_FALSE(again);
  EXPECT_EQ(again.status().code(), ErrorCode::kCancelled);
  EXPECT_TRUE(evaluator.run(countingInputs(3)));
}

// Values of 4 MiB: x + x, then that times itself.
constexpr const char* kLarge = R"(<ir_version: 10, opset_import: ["" : 21]>
g (float[1048576] x) => (float[1048576] y) {
  d = Add (x, x)
  y = Mul (d, d)
})";

TEST(RunLimits, ARunPastItsMemoryLimitFailsAndTheNextRunSucceeds) {
  Result<Model> model = parseText(kLarge);
  ASSERT_TRUE(model) << model.status().toString();
  Evaluator evaluator(*model, {.threads = 1});
  std::vector<NamedValue> inputs = {
      {"x", tensorOf<float>(ElementType::kFloat, {1 << 20}, std::vector<float>(1 << 20, 1.5F))}};
  // No room for a 4 MiB value.
  Result<std::vector<EvalValue>> refused = evaluator.run(inputs, {.memory_limit = 2 << 20});
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.status().code(), ErrorCode::kLimitExceeded);
  EXPECT_NE(refused.status().toString().find("memory limit"), std::string::npos)
      << refused.status().toString();
  Result<std::vector<EvalValue>> roomy = evaluator.run(inputs, {.memory_limit = 16 << 20});
  ASSERT_TRUE(roomy) << roomy.status().toString();
  EXPECT_EQ(valuesOf<float>((*roomy)[0])[0], 9.0F);
  Result<std::vector<EvalValue>> unbounded = evaluator.run(inputs);
  ASSERT_TRUE(unbounded) << unbounded.status().toString();
}

}  // namespace
}  // namespace onyx
