// The table of kernel providers, asked in this order (kernel_provider.h). A new provider is
// a file in this folder and a line here.
#include "eval/kernel_provider.h"

namespace onyx::eval_internal {

extern const KernelProvider& onednnProvider();

std::span<const KernelProvider* const> kernelProviders() {
  static const KernelProvider* const kProviders[] = {
      &onednnProvider(),
  };
  return kProviders;
}

}  // namespace onyx::eval_internal
