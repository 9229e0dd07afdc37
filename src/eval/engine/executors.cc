#include "eval/engine/executors.h"

#include <algorithm>
#include <chrono>
#include <string>
#include <utility>

namespace onyx::eval_internal {
namespace {

// How often a queued run looks at its deadline and cancellation, which nothing signals.
constexpr std::chrono::milliseconds kQueuedPoll{5};

int threadsPerRun(const EvalOptions& options, int threads) {
  return options.threads_per_run > 0 ? std::min(options.threads_per_run, threads) : threads;
}

int configuredRunsAtOnce(const EvalOptions& options, int threads) {
  return options.runs_at_once > 0 ? options.runs_at_once : threads;
}

Status stoppedWhileQueued(const RunOptions& limits, int runs_at_once) {
  if (limits.cancellation != nullptr && limits.cancellation->cancelled()) {
    return Status(ErrorCode::kCancelled, "the run was cancelled while it waited its turn");
  }
  if (limits.deadline && std::chrono::steady_clock::now() >= *limits.deadline) {
    return Status(ErrorCode::kDeadlineExceeded,
                  "the run passed its deadline while it waited its turn (" +
                      std::to_string(runs_at_once) + " runs at once)");
  }
  return Status::ok();
}

}  // namespace

Executors::Executors(const Model& model, const EvalOptions& options)
    : options_(options),
      plans_(model, options),
      threads_(configuredThreads(options)),
      threads_per_run_(threadsPerRun(options, threads_)),
      runs_at_once_(configuredRunsAtOnce(options, threads_)) {}

Executors::~Executors() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  queue_changed_.notify_all();
  for (std::thread& runner : runners_) runner.join();
}

Executors::Outputs Executors::runOnThisThread(const RunBody& body) {
  Lease executor = lease();
  return body(*executor);
}

Executors::Outputs Executors::run(const RunOptions& limits, const RunBody& body) {
  std::unique_lock<std::mutex> lock(mutex_);
  // While a runner runs, calls queue: one that ran here would wake a runner to take its turn
  // when it ends (the hand-over the runners are for).
  if (turns_taken_ < runs_at_once_ && queued_.empty() && runners_running_ == 0) {
    ++turns_taken_;
    lock.unlock();
    Outputs outputs = runOnThisThread(body);
    lock.lock();
    --turns_taken_;
    // The turn is free: a runner takes it for the first queued run.
    if (!queued_.empty()) queue_changed_.notify_one();
    return outputs;
  }
  QueuedRun queued;
  queued.body = &body;
  queued_.push_back(&queued);
  if (runners_.empty()) {
    for (int i = 0; i < runs_at_once_; ++i) runners_.emplace_back([this] { serveQueue(); });
  }
  queue_changed_.notify_one();
  while (!queued.outputs) {
    if (!queued.started) {
      if (Status stopped = stoppedWhileQueued(limits, runs_at_once_); !stopped) {
        queued_.erase(std::find(queued_.begin(), queued_.end(), &queued));
        return stopped;
      }
      auto until = std::chrono::steady_clock::now() + kQueuedPoll;
      if (limits.deadline) until = std::min(until, *limits.deadline);
      queued.done.wait_until(lock, until);
    } else {
      queued.done.wait(lock);  // the run checks its bounds itself
    }
  }
  return std::move(*queued.outputs);
}

void Executors::serveQueue() {
  std::unique_lock<std::mutex> lock(mutex_);
  for (;;) {
    queue_changed_.wait(
        lock, [this] { return stopping_ || (!queued_.empty() && turns_taken_ < runs_at_once_); });
    if (stopping_) return;
    QueuedRun* queued = queued_.front();
    queued_.pop_front();
    queued->started = true;
    ++turns_taken_;
    ++runners_running_;
    lock.unlock();
    Outputs outputs = runOnThisThread(*queued->body);
    lock.lock();
    --turns_taken_;
    --runners_running_;
    queued->outputs = std::move(outputs);
    queued->done.notify_one();
    // Loops straight to the next queued run, if any: no thread is woken to take the turn.
  }
}

size_t Executors::queuedRuns() {
  std::lock_guard<std::mutex> lock(mutex_);
  return queued_.size();
}

Executors::Lease Executors::lease() {
  std::unique_ptr<Executor> executor;
  int grant = 1;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    grant = std::clamp(threads_ - granted_, 1, threads_per_run_);
    granted_ += grant;
    auto fitting = std::find_if(idle_.begin(), idle_.end(),
                                [grant](const auto& idle) { return idle->threads() == grant; });
    if (fitting == idle_.end() && !idle_.empty()) fitting = idle_.end() - 1;
    if (fitting != idle_.end()) {
      executor = std::move(*fitting);
      idle_.erase(fitting);
    }
  }
  if (executor == nullptr) executor = std::make_unique<Executor>(plans_, options_);
  if (executor->threads() != grant) executor->setThreads(grant);
  return Lease(*this, std::move(executor));
}

void Executors::giveBack(std::unique_ptr<Executor> executor) {
  std::lock_guard<std::mutex> lock(mutex_);
  granted_ -= executor->threads();
  idle_.push_back(std::move(executor));
}

}  // namespace onyx::eval_internal
