// Internal to the evaluator: the one way to extend it. A provider offers what runs a node
// faster than onyx's built-in kernel, in three forms, each of which may decline a call and
// leave the node to what comes after it:
//   - a kernel for a node alone (`kernel`), asked before the built-in kernel;
//   - groups of nodes run as one step (`fusions`, fusions/fusion_pattern.h), when fusions are
//     on: at each node not yet fused, every provider's patterns are tried, in order;
//   - a kernel that runs a node alone on channels-last values (`channelsLast`,
//     layout/channels_last_kernels.h), so that a value between two convolutions keeps
//     oneDNN's layout.
// The plan asks the providers of providers() (providers.cc) in order, and the first that
// offers something for a node gets it. A new provider is a file in this folder and a line in
// that table; a new fusion or kernel is a file and a line in its provider's list. Results
// must not depend on the thread count, as for every kernel. Providers are stateless: what a
// kernel or a fused step keeps between runs (primitives, scratch) is its own, and each
// executor runs its own copy (fresh()), so that runs on several threads never share one;
// what is made once from constant weights is shared through kernels/prepared_weights.h.
#pragma once

#include <memory>
#include <optional>
#include <span>
#include <string_view>
#include <utility>

#include "eval/layout/value_form.h"
#include "onyx/ir/constant_value.h"
#include "onyx/ops/kernel_context.h"

namespace onyx::eval_internal {

class FusionPattern;
struct ChannelsLastKernel;

class ProvidedKernel {
 public:
  virtual ~ProvidedKernel() = default;
  /// Runs the node: true when it did (its outputs set in `ctx`); false when it declines
  /// this call, having written nothing.
  virtual Result<bool> run(KernelContext& ctx) = 0;
  /// A kernel for the same node with nothing kept from runs: the one an executor runs
  /// (engine/executor.h), while the plan keeps the first, which never runs.
  virtual std::unique_ptr<ProvidedKernel> fresh() const = 0;
  /// The forms besides the declared one (layout/value_form.h) its node takes for every input
  /// and may give for every output: floats for FLOAT16 for a kernel that runs float16 on
  /// floats and leaves its float outputs for the plan to round; the node then takes them
  /// through this kernel or the built-in float one.
  virtual FormSet forms() const { return 0; }
};

/// What a provided kernel returns for a result of one output: true, with output 0 set, when
/// `result` holds an array; false when it is nullopt (the kernel declined).
inline Result<bool> tookResult(KernelContext& ctx, Result<std::optional<Array>> result) {
  if (!result) return result.status();
  if (!*result) return false;
  ctx.setOutput(0, std::move(**result));
  return true;
}

class Provider {
 public:
  virtual ~Provider() = default;
  virtual std::string_view name() const = 0;
  /// A kernel for `node` at this operator version, or null when the provider has none.
  /// `initializer_inputs` says whether the initializers listed as graph inputs are constants
  /// (what a kernel may prepare once, as weights).
  virtual std::unique_ptr<ProvidedKernel> kernel(const Node& node, const OpSchema& schema,
                                                 int64_t opset,
                                                 InitializerInputs initializer_inputs) const {
    (void)node, (void)schema, (void)opset, (void)initializer_inputs;
    return nullptr;
  }
  /// The patterns of the groups it runs as one step, in the order they are tried.
  virtual std::span<const FusionPattern* const> fusions() const { return {}; }
  /// A kernel that runs `node` (bound to `schema`, or null) on channels-last values, or null.
  virtual const ChannelsLastKernel* channelsLast(const Node& node, const OpSchema* schema) const {
    (void)node, (void)schema;
    return nullptr;
  }
};

/// The providers, in the order they are asked (providers.cc).
std::span<const Provider* const> providers();

}  // namespace onyx::eval_internal
