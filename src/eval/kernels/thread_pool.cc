#include "eval/kernels/thread_pool.h"

#include <algorithm>
#include <atomic>

#if defined(__SANITIZE_THREAD__)
#define ONYX_UNDER_THREAD_SANITIZER 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define ONYX_UNDER_THREAD_SANITIZER 1
#endif
#endif
#ifdef ONYX_UNDER_THREAD_SANITIZER
#include <sanitizer/tsan_interface.h>
#endif

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
  // What ThreadSanitizer keys the region's two orderings on (beginRegion ...).
  char start = 0;
  char end = 0;
};

// ThreadSanitizer sees none of libgomp's own synchronisation (the system's libgomp is not
// instrumented), so it is told what GOMP_parallel promises: what the calling thread did before
// the region happens before every part, and every part before the region's end; the parts
// are not ordered among themselves (two orderings, each on its own address).
void beginRegion([[maybe_unused]] Region& region) {
#ifdef ONYX_UNDER_THREAD_SANITIZER
  __tsan_release(&region.start);
#endif
}
void beginParts([[maybe_unused]] Region& region) {
#ifdef ONYX_UNDER_THREAD_SANITIZER
  __tsan_acquire(&region.start);
#endif
}
void endParts([[maybe_unused]] Region& region) {
#ifdef ONYX_UNDER_THREAD_SANITIZER
  __tsan_release(&region.end);
#endif
}
void endRegion([[maybe_unused]] Region& region) {
#ifdef ONYX_UNDER_THREAD_SANITIZER
  __tsan_acquire(&region.end);
#endif
}

// Each thread of the team takes parts until none is left.
void runRegion(void* data) {
  Region& region = *static_cast<Region*>(data);
  beginParts(region);
  bool outer = running_parts;
  running_parts = true;
  for (size_t part = region.next.fetch_add(1, std::memory_order_relaxed); part < region.parts;
       part = region.next.fetch_add(1, std::memory_order_relaxed)) {
    (*region.body)(part);
  }
  running_parts = outer;
  endParts(region);
}

}  // namespace

void ThreadPool::run(size_t parts, const std::function<void(size_t part)>& body) {
  if (parts == 0) return;
  if (threads_ <= 1 || parts == 1 || running_parts) {
    for (size_t part = 0; part < parts; ++part) body(part);
    return;
  }
  Region region{&body, parts};
  beginRegion(region);
  GOMP_parallel(runRegion, &region,
                static_cast<unsigned>(std::min<size_t>(static_cast<size_t>(threads_), parts)), 0);
  endRegion(region);
}

}  // namespace onyx::eval_internal
