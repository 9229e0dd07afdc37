// Internal to the evaluator: the executors (executor.h) of one Evaluator over its one
// PlanStore, so that calls on several threads run at once, each on an executor of its own.
#pragma once

#include <memory>
#include <mutex>
#include <vector>

#include "eval/engine/executor.h"
#include "eval/engine/plan_store.h"
#include "onyx/eval/evaluator.h"

namespace onyx::eval_internal {

/// The executors of one Evaluator over its one PlanStore: a run takes an idle one, or makes
/// one when every one is running, and gives it back after.
///
/// The runs at once share the threads EvalOptions::threads configures: a run is granted
/// those no other run holds, at least one (its caller's own thread), so that concurrent
/// runs keep at most max(threads, runs) threads busy instead of threads times runs. A run
/// keeps its grant to its end; an idle executor last granted as many is preferred, since
/// the kernels' kept primitives are made for a thread count.
class Executors {
 public:
  Executors(const Model& model, const EvalOptions& options);
  ~Executors();

  /// An executor to run on, given back when the lease ends.
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

 private:
  void giveBack(std::unique_ptr<Executor> executor);

  const EvalOptions& options_;
  PlanStore plans_;
  const int threads_;  // configuredThreads()
  std::mutex mutex_;
  std::vector<std::unique_ptr<Executor>> idle_;
  int granted_ = 0;  // threads the running executors hold
};

}  // namespace onyx::eval_internal
