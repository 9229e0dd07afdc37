#include "core/development_checks.h"

#ifdef ONYX_DEVELOPMENT_CHECKS

#include <cstdio>
#include <cstdlib>

namespace onyx::core_internal {

void developmentCheckFailed(const char* condition, const char* file, int line) {
  std::fprintf(stderr, "onyx: development check failed at %s:%d: %s\n", file, line, condition);
  std::abort();
}

}  // namespace onyx::core_internal

#endif
