// Internal: the evaluator's worker threads, started once per Evaluator and reused by every
// kernel that splits its work (ops::parallelFor), so a split costs a wake-up, not a thread.
#pragma once

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
  void work();
  void runParts();

  std::vector<std::thread> workers_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::condition_variable done_;
  const std::function<void(size_t)>* body_ = nullptr;
  size_t parts_ = 0;
  size_t next_ = 0;
  size_t finished_ = 0;
  size_t generation_ = 0;
  bool stopping_ = false;
};

}  // namespace onyx::eval_internal
