// Internal: the threads kernels split their work on (ops::parallelFor), which are OpenMP's.
//
// oneDNN's convolutions thread themselves with libgomp. A pool of onyx's own beside it meant
// two sets of threads that each spin a while after their work, waiting for the next: on two
// cores, three busy threads, and under load a run many times slower. So onyx's splits run on
// the same libgomp team as oneDNN's (GOMP_parallel, libgomp's entry point for a parallel
// region), whose workers then wait for whichever comes next.
#pragma once

#include <cstddef>
#include <functional>

namespace onyx::eval_internal {

class ThreadPool {
 public:
  /// `threads` counts the calling thread.
  explicit ThreadPool(int threads) : threads_(threads) {}
  void setThreads(int threads) { threads_ = threads; }

  /// Calls body(part) for every part in [0, parts), on the team's threads (the calling
  /// thread among them); returns when all are done. A call from inside a body (a kernel
  /// nesting a split) runs its parts on the calling thread alone.
  void run(size_t parts, const std::function<void(size_t part)>& body);

 private:
  int threads_;
};

}  // namespace onyx::eval_internal
