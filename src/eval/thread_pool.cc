#include "eval/thread_pool.h"

namespace onyx::eval_internal {

namespace {

// Set on the pool's workers and on a thread while it runs parts: a nested run() must not
// wait for workers that are busy with the outer one.
thread_local bool running_parts = false;

// Whether `ready()` became true within `limit`, checked between CPU pause hints.
template <class Ready>
bool spinFor(std::chrono::microseconds limit, Ready&& ready) {
  auto deadline = std::chrono::steady_clock::now() + limit;
  while (true) {
    for (int i = 0; i < 64; ++i) {
      if (ready()) return true;
#if defined(__x86_64__) || defined(__i386__)
      __builtin_ia32_pause();
#endif
    }
    if (std::chrono::steady_clock::now() >= deadline) return ready();
  }
}

}  // namespace

ThreadPool::ThreadPool(int threads) {
  for (int i = 1; i < threads; ++i) workers_.emplace_back([this] { work(); });
}

ThreadPool::~ThreadPool() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  for (std::thread& worker : workers_) worker.join();
}

void ThreadPool::run(size_t parts, const std::function<void(size_t part)>& body) {
  if (parts == 0) return;
  if (workers_.empty() || parts == 1 || running_parts) {
    for (size_t part = 0; part < parts; ++part) body(part);
    return;
  }
  {
    std::lock_guard<std::mutex> lock(mutex_);
    body_ = &body;
    parts_ = parts;
    next_ = 0;
    finished_ = 0;
    ++generation_;
  }
  wake_.notify_all();
  running_parts = true;
  runParts();
  running_parts = false;
  auto all_done = [this, parts] { return finished_.load(std::memory_order_acquire) == parts; };
  if (!spinFor(kSpin, all_done)) {
    std::unique_lock<std::mutex> lock(mutex_);
    done_.wait(lock, all_done);
  }
  std::lock_guard<std::mutex> lock(mutex_);
  body_ = nullptr;
}

// Takes parts until none is left; each taken part counts as finished once its body returns.
void ThreadPool::runParts() {
  std::unique_lock<std::mutex> lock(mutex_);
  while (body_ != nullptr && next_ < parts_) {
    size_t part = next_++;
    const std::function<void(size_t)>* body = body_;
    lock.unlock();
    (*body)(part);
    lock.lock();
    if (finished_.fetch_add(1, std::memory_order_release) + 1 == parts_) done_.notify_all();
  }
}

void ThreadPool::work() {
  running_parts = true;
  size_t seen = 0;
  auto called = [&] { return stopping_ || generation_.load(std::memory_order_acquire) != seen; };
  while (true) {
    if (!spinFor(kSpin, called)) {
      std::unique_lock<std::mutex> lock(mutex_);
      wake_.wait(lock, called);
    }
    if (stopping_) return;
    seen = generation_;
    runParts();
  }
}

}  // namespace onyx::eval_internal
