// onyx/core/cpu_tier.h — the instruction-set tiers of x86-64 CPUs that onyx's kernels (and
// the oneDNN primitives the evaluator uses) choose between, detected once, and the one setting
// that caps them.
//
// A tier is a set of instructions a kernel may use, each tier containing the ones below it:
//   baseline      x86-64 without AVX2 (or another architecture): portable code only
//   avx2          AVX2 and FMA (Haswell, AMD Zen 1-3)
//   avx512        AVX-512 F, BW, DQ and VL (Skylake-X)
//   avx512_vnni   AVX-512 VNNI: bytes multiplied into int32 sums in one step (Cascade Lake,
//                 AMD Zen 4)
//   amx           AMX tiles with int8 and bfloat16 products (Sapphire Rapids)
// The cap comes from `ONYX_MAX_ISA` in the environment (one of these names) and from each
// session's own setting (EvalOptions::max_isa); the tier in force is the lowest of the
// CPU's, the environment's and the session's. A host with AMX so runs, tests and measures
// the AVX2 path as an AVX2-only CPU would. Integer kernels give the same bits at every tier.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "onyx/core/status.h"

// Exported from the shared libraries: the public API (see src/CMakeLists.txt).
#pragma GCC visibility push(default)

namespace onyx {

enum class CpuTier : uint8_t { kBaseline, kAvx2, kAvx512, kAvx512Vnni, kAmx };

/// "baseline", "avx2", "avx512", "avx512_vnni" or "amx".
std::string_view cpuTierName(CpuTier tier);

/// The tier a name gives (cpuTierName's names, any case); nullopt for any other text.
std::optional<CpuTier> parseCpuTier(std::string_view name);

/// The highest tier this CPU and its operating system support (the OS must save the wider
/// registers), detected on the first call.
CpuTier detectedCpuTier();

/// `ONYX_MAX_ISA` from the environment, read on the first call: nullopt when unset or empty;
/// an error (kInvalidArgument) naming the value when it is not a tier's name.
Result<std::optional<CpuTier>> environmentCpuTierCap();

/// The tier in force under `cap` (a session's own; nullopt: none): the lowest of the CPU's,
/// the environment's and `cap`. An error when ONYX_MAX_ISA is not a tier's name.
Result<CpuTier> cappedCpuTier(std::optional<CpuTier> cap = std::nullopt);

/// cappedCpuTier, or the baseline when ONYX_MAX_ISA is not a tier's name: for code that
/// reports no error itself (the evaluator's runs report it).
CpuTier cappedCpuTierOrBaseline(std::optional<CpuTier> cap = std::nullopt);

}  // namespace onyx

#pragma GCC visibility pop
