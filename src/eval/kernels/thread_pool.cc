#include "eval/kernels/thread_pool.h"

#include <algorithm>
#include <atomic>

// libgomp's entry point for a parallel region (what `#pragma omp parallel` compiles to with
// g++), declared here because clang has no <omp.h> without libomp: `fn(data)` runs on
// `threads` threads, the calling one among them, and returns when all have returned.
extern "C" void GOMP_parallel(void (*fn)(void*), void* data, unsigned threads, unsigned flags);

namespace onyx::eval_internal {

namespace {

// Set on a thread while it runs parts: a nested run() runs inline.
thread_local bool running_parts = false;

struct Region {
  const std::function<void(size_t)>* body;
  size_t parts;
  std::atomic<size_t> next{0};
};

// Each thread of the team takes parts until none is left.
void runRegion(void* data) {
  Region& region = *static_cast<Region*>(data);
  bool outer = running_parts;
  running_parts = true;
  for (size_t part = region.next.fetch_add(1, std::memory_order_relaxed); part < region.parts;
       part = region.next.fetch_add(1, std::memory_order_relaxed)) {
    (*region.body)(part);
  }
  running_parts = outer;
}

}  // namespace

void ThreadPool::run(size_t parts, const std::function<void(size_t part)>& body) {
  if (parts == 0) return;
  if (threads_ <= 1 || parts == 1 || running_parts) {
    for (size_t part = 0; part < parts; ++part) body(part);
    return;
  }
  Region region{&body, parts};
  GOMP_parallel(runRegion, &region,
                static_cast<unsigned>(std::min<size_t>(static_cast<size_t>(threads_), parts)), 0);
}

}  // namespace onyx::eval_internal
