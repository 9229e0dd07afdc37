// Internal to the evaluator: kernels from elsewhere than onyx's own (a library tuned for the
// machine), asked before the built-in kernel.
//
// When a plan binds a node it asks each provider of kernelProviders() in order; the first
// that has a kernel for the node's operator version gets it. A provided kernel may still
// decline a call (an element type or shape it does not handle): the built-in kernel then
// runs, so a provider covers what it does well and nothing else. Results must not depend on
// the thread count, as for every kernel.
#pragma once

#include <memory>
#include <span>
#include <string_view>

#include "onyx/ops/kernel_context.h"

namespace onyx::eval_internal {

class ProvidedKernel {
 public:
  virtual ~ProvidedKernel() = default;
  /// Runs the node: true when it did (its outputs set in `ctx`); false when it declines
  /// this call, having written nothing.
  virtual Result<bool> run(KernelContext& ctx) = 0;
};

class KernelProvider {
 public:
  virtual ~KernelProvider() = default;
  virtual std::string_view name() const = 0;
  /// A kernel for `node` at this operator version, or null when the provider has none.
  virtual std::unique_ptr<ProvidedKernel> bind(const Node& node, const OpSchema& schema,
                                               int64_t opset) const = 0;
};

/// The providers, in the order they are asked (kernel_providers.cc).
std::span<const KernelProvider* const> kernelProviders();

}  // namespace onyx::eval_internal
