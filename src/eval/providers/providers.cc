// The table of providers, asked in this order (provider.h). A new provider is a file in this
// folder and a line here.
#include "eval/providers/provider.h"

namespace onyx::eval_internal {

extern const Provider& onednnProvider();
extern const Provider& onyxProvider();

std::span<const Provider* const> providers() {
  static const Provider* const kProviders[] = {
      &onednnProvider(),
      &onyxProvider(),
  };
  return kProviders;
}

}  // namespace onyx::eval_internal
