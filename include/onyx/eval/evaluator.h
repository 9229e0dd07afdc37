// onyx/eval/evaluator.h — running a model: the reference evaluator.
//
// evaluate() runs the main graph in order with each operator's kernel (OpSchema::kernel),
// model-local functions through their bodies, control flow through the kernels' subgraph
// calls. Before anything runs it checks that every node has a kernel and that the inputs
// fit the graph's declared inputs; an error names the node or the input. Values are freed
// after their last use.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "onyx/core/cpu_tier.h"
#include "onyx/core/status.h"
#include "onyx/ir/model.h"
#include "onyx/ops/eval_value.h"

namespace onyx::eval_internal {
class Executors;  // internal: not exported
}

// Exported from the shared libraries: the public API (see src/CMakeLists.txt).
#pragma GCC visibility push(default)

namespace onyx {

/// What a caller may watch of a run (`onyx run --profile` and its warnings). Called on the
/// thread that runs the model.
class EvalObserver {
 public:
  virtual ~EvalObserver() = default;
  /// A step of the main graph ran: one node, or the nodes one fused step stands for (a node
  /// with subgraphs counts the time of everything inside them).
  virtual void stepRan(std::span<const Node* const> nodes, std::chrono::nanoseconds elapsed) {
    (void)nodes;
    (void)elapsed;
  }
  /// As stepRan, with what ran the step: the provider whose kernel ran a node ("oneDNN"),
  /// with its fusion's name for a fused step ("oneDNN: QDQ convolution"), "built-in" for the
  /// operator's own kernel, "onyx (channels-last)" for a provider's kernel on channels-last
  /// values, "kept" for a node whose outputs an earlier run kept, "function" for a call, "one
  /// by one" for a fused step that declined this run. The evaluator calls this one; by
  /// default it calls stepRan.
  virtual void stepRanBy(std::span<const Node* const> nodes, std::chrono::nanoseconds elapsed,
                         std::string_view kernel) {
    (void)kernel;
    stepRan(nodes, elapsed);
  }
  /// A step inside a graph a node holds (an If branch, a Loop or Scan body) or inside a
  /// function body ran, `depth` graphs down from the main graph (1: a graph of a main-graph
  /// node, or the body a main-graph node calls). Its time is also in the step that holds it.
  virtual void innerStepRan(std::span<const Node* const> nodes, std::chrono::nanoseconds elapsed,
                            int depth) {
    (void)nodes;
    (void)elapsed;
    (void)depth;
  }
  /// A fused step declined this run (a type, shape or attribute its kernel does not take),
  /// so its nodes ran one by one, at the speed of the unfused path; the step's time is theirs.
  virtual void fusionDeclined(std::span<const Node* const> nodes) { (void)nodes; }
  /// Something the model does that the spec forbids but the evaluator runs anyway (nodes
  /// out of topological order). Without an observer, warnings go to stderr.
  virtual void warning(std::string_view message);
};

struct EvalOptions {
  /// Threads kernels may use, in total, across the runs of one Evaluator at once; 0: all
  /// the machine has. A run is granted those no other run holds, at least one.
  int threads = 0;
  /// The most threads one run takes (onnxruntime's intra-op threads); 0: `threads`. A server
  /// whose callers are its parallelism sets 1.
  int threads_per_run = 0;
  /// The most runs of one Evaluator that execute at once; a call past them is queued, and
  /// the Evaluator's runner threads run the queued ones first come first served while their
  /// callers wait (a deadline or a cancellation that comes first stops a queued run before it
  /// starts). 0: `threads`, so that with threads_per_run * runs_at_once <= threads at most
  /// `threads` threads are busy however many callers there are (docs/eval.md, "Threads").
  int runs_at_once = 0;
  /// The seed of random operators: the same seed gives the same results.
  uint64_t seed = 0;
  /// A bound on Loop iterations, beyond the trip count a model gives.
  int64_t max_iterations = int64_t{1} << 31;
  /// A bound on how deeply function calls and subgraphs nest.
  int max_depth = 256;
  /// Whether nodes may run fused (a Conv with the BatchNormalization, Add and activation
  /// after it as one convolution, a MatMul with its bias): the same values up to float
  /// rounding. Off, every node runs alone and gives its kernel's literal result.
  bool fusions = true;
  /// Whether a product by int4 weights quantized in blocks (DequantizeLinear -> MatMul) may
  /// round its input to int8 per block, as onnxruntime's MatMulNBits does at accuracy level
  /// 4 (its default on such a model): integer dot products where the CPU has them (AVX-512
  /// VNNI), a decoder's one-token steps faster, but not the model's function: each product's
  /// input is off by up to half of max|x| / 127 of its block. Off, the products are those of
  /// the dequantized weights up to float rounding (docs/eval.md).
  bool int8_activations = false;
  /// Take the initializers listed as graph inputs for constants, as in a model before IR 4
  /// (onyx/ir/constant_value.h), where it is so whatever this says: their inputs take no
  /// value from the caller.
  bool constant_initializers = false;
  /// The highest CPU tier the kernels may use (onyx/core/cpu_tier.h), below the CPU's own and
  /// ONYX_MAX_ISA's; nullopt: no cap of its own. Results are the same at every tier (integer
  /// kernels exactly, float ones up to rounding); only speed differs. oneDNN's float
  /// primitives follow ONYX_MAX_ISA alone, which is process-wide.
  std::optional<CpuTier> max_isa = std::nullopt;
  /// Told of each step and of warnings; not owned, may be null.
  EvalObserver* observer = nullptr;
};

/// What lets a caller stop runs from another thread: cancel() makes every run given this
/// token stop at its next step with kCancelled, and every later run given it stop before its
/// first. One token may serve many runs; it cannot be reset (make a new one).
class RunCancellation {
 public:
  void cancel() { cancelled_.store(true, std::memory_order_relaxed); }
  bool cancelled() const { return cancelled_.load(std::memory_order_relaxed); }

 private:
  std::atomic<bool> cancelled_ = false;
};

/// Bounds on one run. A run checks them before each step (a node, or a fused group; inside a
/// Loop or an If too), so that it stops within one step's time of the bound: a kernel that
/// has started finishes. A run stopped so fails with kDeadlineExceeded, kCancelled or
/// kLimitExceeded, its error's path naming the node it stopped at; nothing it held is kept,
/// and other runs and the next one are not affected.
struct RunOptions {
  /// The time after which the run stops.
  std::optional<std::chrono::steady_clock::time_point> deadline = std::nullopt;
  /// Stops the run when cancelled; not owned, may be null; must outlive the run.
  const RunCancellation* cancellation = nullptr;
  /// The most bytes the run's values may hold at once (those of 64 KiB and more, which the
  /// run allocates; the caller's inputs and the model's constants do not count). An
  /// allocation past it fails, and so does a step after which the run holds more.
  std::optional<size_t> memory_limit = std::nullopt;
};

struct NamedValue {
  std::string name;
  EvalValue value;
};

/// A graph output the caller gives memory for (IO binding): `array`, over the caller's
/// memory (Array::over), receives the output's elements, and is what the run returns for that
/// output. The kernel that makes the output writes it there in place when it allocates an
/// array of its type and shape; otherwise (a kernel that returns an input, an output kept in
/// another form, an array that lies where an input does) the elements are copied in after
/// the run. The output must come out of `array`'s type and shape, else the run fails naming
/// it. It may lie where an input's elements do (a recurrent state, a cache carried from run to
/// run): it is written after every input was read. Bound outputs may not overlap each other.
struct BoundOutput {
  std::string name;
  Array array;
};

/// A model prepared to run many times: the operator check is done once, initializers are
/// converted once and kept, function-operator bodies are built once per node. The arrays of
/// large constants are shared by every Evaluator in the process that reads the same bytes (of
/// one Model, or of one file loaded again), and read in place from the mapped file where they
/// lie aligned (src/eval/engine/constant_arrays.h). `run` may be
/// called from several threads at once: each run executes on an executor of its own (its
/// kernel threads and contexts) over the plans compiled once and shared, on its caller's
/// thread or, past EvalOptions::runs_at_once, on a runner thread of the Evaluator while the
/// caller waits; an observer is then told from those threads. The model must outlive the Evaluator
/// and not change while it lives.
class Evaluator {
 public:
  explicit Evaluator(const Model& model, EvalOptions options = {});
  ~Evaluator();
  Evaluator(const Evaluator&) = delete;
  Evaluator& operator=(const Evaluator&) = delete;

  /// As evaluate(), within `limits`. An output may be a constant of the model (an
  /// initializer given back, or what a node that changes nothing made of one): its array is
  /// then borrowed (Array::borrowing), read-only and shared; clone() it to change it.
  Result<std::vector<EvalValue>> run(std::span<const NamedValue> inputs,
                                     const RunOptions& limits = {});
  /// As above, with outputs written where the caller bound them (BoundOutput).
  Result<std::vector<EvalValue>> run(std::span<const NamedValue> inputs,
                                     std::span<const BoundOutput> outputs,
                                     const RunOptions& limits = {});

 private:
  const Model& model_;
  std::unique_ptr<EvalOptions> options_;  // the executors hold a reference
  std::unique_ptr<eval_internal::Executors> executors_;
};

/// Runs `model`'s main graph with `inputs` (by graph input name; an input with an
/// initializer may be left out); the graph outputs, in order.
Result<std::vector<EvalValue>> evaluate(const Model& model, std::span<const NamedValue> inputs,
                                        const EvalOptions& options = {});

}  // namespace onyx

#pragma GCC visibility pop
