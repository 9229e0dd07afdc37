// The evaluator's worker threads: every part runs exactly once, runs follow one another, and
// a split nested inside a part runs on its thread instead of waiting for busy workers.
#include "eval/kernels/thread_pool.h"

#include <gtest/gtest.h>

#include <atomic>
#include <vector>

namespace onyx::eval_internal {
namespace {

TEST(ThreadPool, EveryPartRunsExactlyOnce) {
  for (int threads : {1, 2, 4}) {
    ThreadPool pool(threads);
    for (size_t parts : {1u, 2u, 7u, 100u}) {
      std::vector<std::atomic<int>> runs(parts);
      pool.run(parts, [&](size_t part) { runs[part]++; });
      for (size_t part = 0; part < parts; ++part) {
        EXPECT_EQ(runs[part].load(), 1) << threads << " threads, part " << part << "/" << parts;
      }
    }
  }
}

TEST(ThreadPool, ManyRunsInARowAllComplete) {
  ThreadPool pool(3);
  std::atomic<long> total{0};
  for (int run = 0; run < 2000; ++run) {
    pool.run(5, [&](size_t part) { total += static_cast<long>(part) + 1; });
  }
  EXPECT_EQ(total.load(), 2000L * 15);
}

TEST(ThreadPool, ANestedSplitRunsInline) {
  ThreadPool pool(2);
  std::atomic<int> inner{0};
  pool.run(4, [&](size_t) { pool.run(3, [&](size_t) { inner++; }); });
  EXPECT_EQ(inner.load(), 12);
}

}  // namespace
}  // namespace onyx::eval_internal
