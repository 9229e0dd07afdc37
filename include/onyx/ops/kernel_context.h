// onyx/ops/kernel_context.h — what an operator's kernel (its reference implementation)
// reads and writes.
//
// A kernel is a plain function beside the operator's signature (OpSchema::kernel):
//
//   Status runRelu(KernelContext& ctx) {
//     const Array* x = ctx.inputArray(0);
//     ... compute ...
//     ctx.setOutput(0, std::move(y));
//     return Status::ok();
//   }
//
// The evaluator has checked the node's inputs against its signature before the kernel runs
// (present where required, types allowed); a kernel still checks what the signature cannot
// say (shapes that must agree, attribute values) and returns an error naming it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "onyx/core/cpu_tier.h"
#include "onyx/core/status.h"
#include "onyx/ops/eval_value.h"
#include "onyx/ops/node_context.h"

// Exported from the shared libraries: the public API (see src/CMakeLists.txt).
#pragma GCC visibility push(default)

namespace onyx {

struct Graph;
struct NativeKernels;

/// The evaluator's side of a context: what needs the evaluator's state.
class KernelHost {
 public:
  virtual ~KernelHost() = default;
  /// Runs `graph` (a graph attribute of the node) with its formal inputs bound to `inputs`
  /// (outer-scope values visible); its outputs.
  virtual Result<std::vector<EvalValue>> runSubgraph(const Graph& graph,
                                                     std::vector<EvalValue> inputs) = 0;
  /// Threads a kernel may use (at least 1). Results must not depend on it.
  virtual int threads() const { return 1; }
  /// The run's seed for random operators; a node's own `seed` attribute takes precedence.
  virtual uint64_t seed() const { return 0; }
  /// A bound on loop iterations beyond what the model itself bounds.
  virtual int64_t maxIterations() const { return int64_t{1} << 31; }
  /// The CPU tier kernels may use (onyx/core/cpu_tier.h): the evaluator's session cap; by
  /// default the environment's. Results must not depend on it.
  virtual CpuTier cpuTier() const { return cappedCpuTierOrBaseline(); }
  /// Calls body(part) for each part in [0, parts), possibly on several threads at once;
  /// returns when all are done.
  virtual void runParts(size_t parts, const std::function<void(size_t part)>& body) {
    for (size_t part = 0; part < parts; ++part) body(part);
  }
  /// Kernels built on libraries only the evaluator links (oneDNN's sgemm, the image
  /// codecs); null from any other host, whose kernels then use portable code or say what
  /// is missing.
  virtual const NativeKernels* nativeKernels() const { return nullptr; }
};

class KernelContext : public NodeContext {
 public:
  KernelContext(const Node& node, const OpSchema& schema, int64_t opset, KernelHost& host)
      : NodeContext(node, schema, opset), host_(&host) {}

  size_t inputCount() const { return inputs_.size(); }
  bool hasInput(size_t i) const { return i < inputs_.size() && inputs_[i] != nullptr; }
  /// Input `i`; null when absent ("" or past the end).
  const EvalValue* input(size_t i) const { return hasInput(i) ? inputs_[i] : nullptr; }
  /// Input `i` as a tensor; null when absent or not a tensor.
  const Array* inputArray(size_t i) const {
    const EvalValue* value = input(i);
    return value != nullptr && value->isTensor() ? &value->tensor : nullptr;
  }

  size_t outputCount() const { return outputs_.size(); }
  bool hasOutput(size_t i) const { return i < outputs_.size() && wanted_[i]; }
  void setOutput(size_t i, EvalValue value) {
    if (i < outputs_.size()) outputs_[i] = std::move(value);
  }
  void setOutput(size_t i, Array array) { setOutput(i, EvalValue::of(std::move(array))); }

  /// The storage of input `i`, to write an output into, when no one reads that input after
  /// this node (the evaluator says so), nothing else holds its elements, and it has `type`
  /// and as many elements as `shape`: the output then costs no allocation. nullopt
  /// otherwise. Only for a kernel that reads element k of the input before it writes element
  /// k of the output, and no input element after that (an elementwise function).
  std::optional<Array> reusableInput(size_t i, ElementType type,
                                     const std::vector<int64_t>& shape) const;

  Result<std::vector<EvalValue>> runSubgraph(const Graph& graph, std::vector<EvalValue> inputs) {
    return host_->runSubgraph(graph, std::move(inputs));
  }
  int threads() const { return host_->threads(); }
  uint64_t seed() const { return host_->seed(); }
  int64_t maxIterations() const { return host_->maxIterations(); }
  CpuTier cpuTier() const { return host_->cpuTier(); }
  const NativeKernels* nativeKernels() const { return host_->nativeKernels(); }
  /// KernelHost::runParts; kernels use ops::parallelFor (src/ops/kernels.h).
  void runParts(size_t parts, const std::function<void(size_t part)>& body) const {
    host_->runParts(parts, body);
  }

  /// An error about this node's inputs or attributes (kInvalidArgument).
  Status fail(std::string message) const;

  // ---- for the evaluator ----------------------------------------------------------------
  std::vector<const EvalValue*> inputs_;
  std::vector<EvalValue> outputs_;
  std::vector<bool> wanted_;
  /// Per input: whether no one reads it after this node (reusableInput).
  std::vector<bool> last_read_;

 private:
  KernelHost* host_;
};

/// An operator version's kernel (OpSchema::kernel).
using Kernel = Status (*)(KernelContext&);

}  // namespace onyx

#pragma GCC visibility pop
