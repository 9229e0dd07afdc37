// Internal to the evaluator: the walk over compiled plans (plan.h), and the kernel host the
// kernels of one run share (threads, seed, subgraph calls). The plans come from a PlanStore
// (plan_store.h), which compiles them; the walk only runs them. What one run changes (the
// kernels' contexts, the frames, the thread pool) is its executor's, so that executors over
// one PlanStore run on several threads at once (executors.h).
#pragma once

#include <memory>
#include <span>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "eval/engine/frame.h"
#include "eval/engine/plan.h"
#include "eval/engine/plan_store.h"
#include "eval/kernels/thread_pool.h"
#include "onyx/core/buffer_pool.h"
#include "onyx/eval/evaluator.h"
#include "onyx/ops/kernel_context.h"

namespace onyx::eval_internal {

/// The threads EvalOptions::threads stands for: 0 is all the machine has.
int configuredThreads(const EvalOptions& options);

class Executor final : public KernelHost {
 public:
  /// Over `plans`, which other executors may share (executors.h).
  Executor(PlanStore& plans, const EvalOptions& options);
  ~Executor() override;

  /// The main graph's plan, compiled on first use (an error names the node).
  Result<const GraphPlan*> mainPlan() { return plans_.mainPlan(); }
  /// Runs `plan` in `frame`, whose input slots are set; the plan's outputs.
  Result<std::vector<EvalValue>> runPlan(const GraphPlan& plan, Frame& frame);
  BufferPool& buffers() { return buffers_; }
  /// Bounds the runs that follow by `limits` (null: no bounds), until called again; a
  /// memory limit counts from the bytes the pool has out now.
  void limitRun(const RunOptions* limits);
  PlanStore& plans() { return plans_; }
  /// The threads its kernels use from now on (Executors grants them run by run).
  void setThreads(int threads);
  /// Where `plan`'s steps write the values of `slots`, until called again: `arrays[i]` (the
  /// caller's memory) for slot `slots[i]`, taken when the kernel that makes it allocates an
  /// array of its type and shape (ArrayDestinationScope).
  void destineOutputs(const GraphPlan* plan, std::vector<uint32_t> slots,
                      std::vector<Array> arrays);

  // KernelHost
  Result<std::vector<EvalValue>> runSubgraph(const Graph& graph,
                                             std::vector<EvalValue> inputs) override;
  int threads() const override;
  uint64_t seed() const override { return options_.seed; }
  void runParts(size_t parts, const std::function<void(size_t part)>& body) override {
    pool_.run(parts, body);
  }
  int64_t maxIterations() const override { return options_.max_iterations; }
  CpuTier cpuTier() const override { return plans_.cpuTier(); }
  const NativeKernels* nativeKernels() const override;

 private:
  // Where the walk is: the frame and plan of the node running, and the function call it is
  // in (for attribute references). Set for a node's run and restored after it.
  struct Position {
    const GraphPlan* plan = nullptr;
    Frame* frame = nullptr;
    const Node* caller = nullptr;
    const Function* callee = nullptr;
  };
  class Enter;

  Status runStep(const GraphPlan& plan, const PlanStep& step, Frame& frame);
  /// Why the run must stop now (a bound of limits_ passed), or ok.
  Status stopped() const;
  /// Runs a node; given `declined`, on channels-last values through its channels-last kernel
  /// (its outputs channels-last), and sets *declined when that declines, having done nothing.
  Status runNode(const BoundNode& bound, Frame& frame, bool* declined = nullptr);
  // runNode's parts: the outputs an earlier run kept; the node's context on this executor;
  // its kernel (a function's body, its channels-last kernel, its provider's, its own), `by`
  // set to what ran it; its outputs into their slots (dropped when it failed); its outputs
  // kept for later runs.
  void takeKeptOutputs(const BoundNode& bound, Frame& frame);
  KernelContext& contextFor(const BoundNode& bound);
  ProvidedKernel& providedFor(const BoundNode& bound);
  FusedStep& fusedFor(const PlanStep& step);
  Status runKernel(const BoundNode& bound, KernelContext& ctx, bool* declined,
                   std::string_view& by);
  void storeOutputs(const BoundNode& bound, Frame& frame, KernelContext& ctx, bool ran,
                    bool channels_last, bool on_floats);
  void keepOutputs(const BoundNode& bound, const Frame& frame);
  /// Whether each image `bound` reads (channels_last_kernels.h) is channels-last here, or a
  /// tensor of one element, and one at least is channels-last.
  bool imagesChannelsLast(const BoundNode& bound, const Frame& frame) const;
  Result<std::vector<EvalValue>> callFunction(const BoundNode& bound, KernelContext& ctx);
  // The plan of `graph`, run by the node running now.
  Result<const GraphPlan*> subgraphPlan(const Graph& graph);

  const EvalOptions& options_;
  PlanStore& plans_;
  int threads_;
  ThreadPool pool_;
  /// Each node's kernel context (by BoundNode::run_index), made at its first run here and
  /// reused by later ones.
  std::vector<std::unique_ptr<KernelContext>> contexts_;
  /// This executor's copies of the plans' provided kernels (by BoundNode::run_index) and
  /// fused steps (by PlanStep::run_index), made at their first run here: what they keep
  /// between runs (primitives, scratch) is then this executor's alone, and runs on several
  /// executors take no lock.
  std::vector<std::unique_ptr<ProvidedKernel>> provided_;
  std::vector<std::unique_ptr<FusedStep>> fused_;
  BufferPool buffers_ = BufferPool::sharingFreedBlocks();
  Position at_;
  int depth_ = 0;
  // What ran the last node or step (EvalObserver::stepRanBy): a provider's name, a fused
  // step's, or one of the executor's own words; storage the plans own, or literals.
  std::string_view ran_by_;
  const RunOptions* limits_ = nullptr;
  size_t live_at_start_ = 0;  // the pool's bytes out when limitRun was called
  // destineOutputs()'s.
  const GraphPlan* destined_plan_ = nullptr;
  std::vector<uint32_t> destined_slots_;
  std::vector<Array> destinations_;
};

}  // namespace onyx::eval_internal
