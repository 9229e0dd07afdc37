// Internal: the evaluator's worker threads, started once per Evaluator and reused by every
// kernel that splits its work (ops::parallelFor), so a split costs a wake-up, not a thread.
//
// A model splits work at almost every node, a few microseconds apart, while a sleeping
// thread takes tens of microseconds to wake. So a worker that has finished, and the caller
// waiting for the workers, watch for the next event a short while (kSpin) before they sleep.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace onyx::eval_internal {

class ThreadPool {
 public:
  /// `threads` counts the calling thread: a pool of 1 starts no worker.
  explicit ThreadPool(int threads);
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  /// Calls body(part) for every part in [0, parts), on the workers and the calling thread;
  /// returns when all are done. A call from inside a body (a kernel nesting a split) runs its
  /// parts on the calling thread alone.
  void run(size_t parts, const std::function<void(size_t part)>& body);

 private:
  static constexpr std::chrono::microseconds kSpin{50};

  void work();
  void runParts();

  std::vector<std::thread> workers_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::condition_variable done_;
  const std::function<void(size_t)>* body_ = nullptr;
  size_t parts_ = 0;
  size_t next_ = 0;
  // Changed under mutex_, read without it while spinning.
  std::atomic<size_t> finished_ = 0;
  std::atomic<size_t> generation_ = 0;
  std::atomic<bool> stopping_ = false;
};

}  // namespace onyx::eval_internal
