// Internal to the evaluator: the executors (executor.h) of one Evaluator over its one
// PlanStore, so that calls on several threads run at once, each on an executor of its own,
// and the turns that bound how many runs execute at once.
#pragma once

#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include "eval/engine/executor.h"
#include "eval/engine/plan_store.h"
#include "onyx/core/status.h"
#include "onyx/eval/evaluator.h"

namespace onyx::eval_internal {

/// The executors of one Evaluator over its one PlanStore: a run takes an idle one, or makes
/// one when every one is running, and gives it back after.
///
/// Turns: at most EvalOptions::runs_at_once runs execute at once. A call that finds a turn
/// free and nobody waiting runs on its own thread. Past that, the call queues its run and
/// waits: the Evaluator's runner threads (as many as turns, started the first time a run
/// queues) take the queued runs in order, each one straight after its last while any wait.
/// So with more callers than turns the cores run whole runs back to back, and a caller that
/// is woken only returns its result: if the callers' own threads took turns from each other
/// instead, each hand-over would wake a thread to run a whole run, which the system
/// scheduler often queues behind a busy core while another core idles (milliseconds of tail
/// latency, measured in bench/README.md).
///
/// Threads: the runs at once share the threads EvalOptions::threads configures: a run is
/// granted those no other run holds, at most threads_per_run and at least one (its own
/// thread). It keeps its grant to its end; an idle executor last granted as many is
/// preferred, since the kernels' kept primitives are made for a thread count.
class Executors {
 public:
  Executors(const Model& model, const EvalOptions& options);
  ~Executors();  // joins the runner threads; no call may be in progress

  using Outputs = Result<std::vector<EvalValue>>;
  using RunBody = std::function<Outputs(Executor&)>;
  /// Runs `body` on an executor when its turn comes: on this thread, or on a runner thread
  /// while this one waits. A run still queued when `limits`' deadline passes or its
  /// cancellation comes fails without running; once started, the run checks them itself.
  Outputs run(const RunOptions& limits, const RunBody& body);

  /// An executor to run on, with the run's threads, given back when the lease ends. It
  /// takes no turn: run() does.
  class Lease {
   public:
    Lease(Executors& owner, std::unique_ptr<Executor> executor)
        : owner_(owner), executor_(std::move(executor)) {}
    ~Lease() { owner_.giveBack(std::move(executor_)); }
    Lease(const Lease&) = delete;
    Lease& operator=(const Lease&) = delete;
    Executor& operator*() { return *executor_; }
    Executor* operator->() { return executor_.get(); }

   private:
    Executors& owner_;
    std::unique_ptr<Executor> executor_;
  };
  Lease lease();

  int runsAtOnce() const { return runs_at_once_; }
  /// The runs queued and not yet started.
  size_t queuedRuns();

 private:
  struct QueuedRun {
    const RunBody* body = nullptr;
    bool started = false;
    std::optional<Outputs> outputs;  // set when it is done
    std::condition_variable done;
  };
  Outputs runOnThisThread(const RunBody& body);
  void serveQueue();  // a runner thread's loop
  void giveBack(std::unique_ptr<Executor> executor);

  const EvalOptions& options_;
  PlanStore plans_;
  const int threads_;          // configuredThreads()
  const int threads_per_run_;  // at most threads_
  const int runs_at_once_;
  std::mutex mutex_;
  std::vector<std::unique_ptr<Executor>> idle_;
  int granted_ = 0;  // threads the running executors hold
  int turns_taken_ = 0;
  int runners_running_ = 0;  // of turns_taken_
  std::deque<QueuedRun*> queued_;
  std::condition_variable queue_changed_;  // what the runner threads wait on
  std::vector<std::thread> runners_;
  bool stopping_ = false;
};

}  // namespace onyx::eval_internal
