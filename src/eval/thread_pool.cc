#include "eval/thread_pool.h"

namespace onyx::eval_internal {

namespace {

// Set on the pool's workers and on a thread while it runs parts: a nested run() must not
// wait for workers that are busy with the outer one.
thread_local bool running_parts = false;

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
  std::unique_lock<std::mutex> lock(mutex_);
  done_.wait(lock, [this] { return finished_ == parts_; });
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
    if (++finished_ == parts_) done_.notify_all();
  }
}

void ThreadPool::work() {
  running_parts = true;
  size_t seen = 0;
  std::unique_lock<std::mutex> lock(mutex_);
  while (true) {
    wake_.wait(lock, [&] { return stopping_ || generation_ != seen; });
    if (stopping_) return;
    seen = generation_;
    lock.unlock();
    runParts();
    lock.lock();
  }
}

}  // namespace onyx::eval_internal
