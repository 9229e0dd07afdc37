// Internal: development checks, the asserts that guard misuse of the graph API (a node
// inserted twice, moved between graphs) and onyx's own invariants.
//
// They are on when the build defines ONYX_DEVELOPMENT_CHECKS (CMake option of that name; the
// sanitizer build of scripts/test.sh turns it on) and cost nothing otherwise, whatever NDEBUG
// says: release builds never pay for them, and CI runs them where the sanitizers run. A failed
// check names itself and its place on stderr and aborts.
#pragma once

#ifdef ONYX_DEVELOPMENT_CHECKS

namespace onyx::core_internal {
[[noreturn]] void developmentCheckFailed(const char* condition, const char* file, int line);
}  // namespace onyx::core_internal

#define ONYX_ASSERT(condition)        \
  ((condition) ? static_cast<void>(0) \
               : ::onyx::core_internal::developmentCheckFailed(#condition, __FILE__, __LINE__))

#else

// The condition is not evaluated, but still compiled, so that it cannot rot.
#define ONYX_ASSERT(condition) static_cast<void>(sizeof(static_cast<bool>(condition)))

#endif
