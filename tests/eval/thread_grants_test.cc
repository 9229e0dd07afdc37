// The runs at once of one Evaluator (eval/engine/executors.h): at most runs_at_once execute,
// later calls queue and run in order; each run is granted the threads no other run holds,
// at most threads_per_run and at least one, and gives them back at its end.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "eval/engine/executors.h"
#include "onyx/text/parser.h"

namespace onyx::eval_internal {
namespace {

using Held = std::unique_ptr<Executors::Lease>;

Model reluModel() {
  Result<Model> model = parseText(R"(<ir_version: 10, opset_import: ["" : 21]>
g (float[2] x) => (float[2] y) { y = Relu (x) })");
  EXPECT_TRUE(model) << model.status().toString();
  return std::move(*model);
}

// A Lease neither copies nor moves: made in place, from the prvalue lease() gives.
Held leased(Executors& executors) { return Held(new Executors::Lease(executors.lease())); }

TEST(ThreadGrants, ConcurrentRunsShareTheConfiguredThreads) {
  Model model = reluModel();
  EvalOptions options{.threads = 4};
  Executors executors(model, options);
  Held first = leased(executors);
  EXPECT_EQ((*first)->threads(), 4);  // alone: all of them
  Held second = leased(executors);
  EXPECT_EQ((*second)->threads(), 1);  // none left: its caller's thread
  first.reset();
  Held third = leased(executors);
  EXPECT_EQ((*third)->threads(), 3);  // all but the one the second run holds
  second.reset();
  third.reset();
  Held alone = leased(executors);
  EXPECT_EQ((*alone)->threads(), 4);
}

TEST(ThreadGrants, ARunTakesAtMostThreadsPerRun) {
  Model model = reluModel();
  EvalOptions options{.threads = 4, .threads_per_run = 2};
  Executors executors(model, options);
  EXPECT_EQ(executors.runsAtOnce(), 4);  // 0: as many as threads
  Held first = leased(executors);
  Held second = leased(executors);
  Held third = leased(executors);
  EXPECT_EQ((*first)->threads(), 2);
  EXPECT_EQ((*second)->threads(), 2);
  EXPECT_EQ((*third)->threads(), 1);
}

// A run body that holds its turn until `release` is set.
struct Gate {
  std::atomic<bool> entered = false;
  std::atomic<bool> release = false;
  Executors::RunBody body() {
    return [this](Executor&) -> Executors::Outputs {
      entered = true;
      while (!release) std::this_thread::yield();
      return std::vector<EvalValue>{};
    };
  }
};

TEST(RunTurns, CallsPastRunsAtOnceQueueAndRunInTheOrderTheyCame) {
  Model model = reluModel();
  EvalOptions options{.threads = 1};
  Executors executors(model, options);
  EXPECT_EQ(executors.runsAtOnce(), 1);
  Gate holder;
  std::thread holding([&] { EXPECT_TRUE(executors.run({}, holder.body())); });
  while (!holder.entered) std::this_thread::yield();

  std::mutex order_mutex;
  std::vector<int> order;
  std::vector<std::thread> callers;
  for (int caller = 0; caller < 3; ++caller) {
    callers.emplace_back([&, caller] {
      Executors::Outputs outputs = executors.run({}, [&, caller](Executor&) {
        std::lock_guard<std::mutex> lock(order_mutex);
        order.push_back(caller);
        return Executors::Outputs(std::vector<EvalValue>{});
      });
      EXPECT_TRUE(outputs) << outputs.status().toString();
    });
    // The next caller comes only once this one is queued (none can run: the turn is held).
    while (executors.queuedRuns() <= static_cast<size_t>(caller)) std::this_thread::yield();
  }
  {
    std::lock_guard<std::mutex> lock(order_mutex);
    EXPECT_TRUE(order.empty()) << "a run started past runs_at_once";
  }
  holder.release = true;
  holding.join();
  for (std::thread& caller : callers) caller.join();
  EXPECT_EQ(order, (std::vector<int>{0, 1, 2}));
}

TEST(RunTurns, AQueuedRunStopsAtItsDeadlineOrCancellationWithoutRunningAndTheNextOneRuns) {
  Model model = reluModel();
  EvalOptions options{.threads = 2, .runs_at_once = 1};
  Executors executors(model, options);
  Gate holder;
  std::thread holding([&] { EXPECT_TRUE(executors.run({}, holder.body())); });
  while (!holder.entered) std::this_thread::yield();

  std::atomic<int> ran = 0;
  auto counted = [&](Executor&) {
    ++ran;
    return Executors::Outputs(std::vector<EvalValue>{});
  };
  RunOptions late{.deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(30)};
  Executors::Outputs timed_out = executors.run(late, counted);
  ASSERT_FALSE(timed_out);
  EXPECT_EQ(timed_out.status().code(), ErrorCode::kDeadlineExceeded);
  EXPECT_NE(timed_out.status().message().find("waited its turn"), std::string::npos);

  RunCancellation cancellation;
  std::thread canceller([&] {
    while (executors.queuedRuns() == 0) std::this_thread::yield();
    cancellation.cancel();
  });
  Executors::Outputs cancelled = executors.run({.cancellation = &cancellation}, counted);
  canceller.join();
  ASSERT_FALSE(cancelled);
  EXPECT_EQ(cancelled.status().code(), ErrorCode::kCancelled);
  EXPECT_EQ(ran.load(), 0);
  EXPECT_EQ(executors.queuedRuns(), 0u);

  holder.release = true;  // the runs that gave up hold no turn: the next one runs
  holding.join();
  EXPECT_TRUE(executors.run(late, counted));
  EXPECT_EQ(ran.load(), 1);
}

}  // namespace
}  // namespace onyx::eval_internal
