#include "onyx/core/cpu_tier.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdlib>
#include <string>

#include "onyx/core/quote.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <cpuid.h>
#define ONYX_X86_64 1
#endif

namespace onyx {

namespace {

constexpr std::array<std::string_view, 5> kTierNames = {"baseline", "avx2", "avx512", "avx512_vnni",
                                                        "amx"};

#ifdef ONYX_X86_64
// The registers the operating system saves on a context switch (XCR0); 0 without OSXSAVE.
uint64_t savedRegisterSets(uint32_t leaf1_ecx) {
  if ((leaf1_ecx & (1u << 27)) == 0) return 0;  // OSXSAVE
  uint32_t low = 0, high = 0;
  __asm__("xgetbv" : "=a"(low), "=d"(high) : "c"(0));
  return (uint64_t{high} << 32) | low;
}

CpuTier detect() {
  uint32_t a = 0, b = 0, c = 0, d = 0;
  if (__get_cpuid_max(0, nullptr) < 7) return CpuTier::kBaseline;
  __cpuid_count(1, 0, a, b, c, d);
  const bool fma = (c & (1u << 12)) != 0;
  const bool avx = (c & (1u << 28)) != 0;
  const uint64_t saved = savedRegisterSets(c);
  __cpuid_count(7, 0, a, b, c, d);
  const uint32_t leaf7_ebx = b, leaf7_ecx = c, leaf7_edx = d;
  auto bit = [](uint32_t word, int n) { return (word & (1u << n)) != 0; };
  // XMM and YMM state (bits 1, 2); opmask, upper ZMM and ZMM16-31 (5, 6, 7); tile
  // configuration and data (17, 18).
  const bool ymm_saved = (saved & 0x6) == 0x6;
  const bool zmm_saved = (saved & 0xe6) == 0xe6;
  const bool tiles_saved = (saved & 0x60000) == 0x60000;
  if (!(avx && fma && ymm_saved && bit(leaf7_ebx, 5))) return CpuTier::kBaseline;  // AVX2
  // AVX-512 F (16), DQ (17), BW (30), VL (31): what oneDNN calls avx512_core.
  if (!(zmm_saved && bit(leaf7_ebx, 16) && bit(leaf7_ebx, 17) && bit(leaf7_ebx, 30) &&
        bit(leaf7_ebx, 31))) {
    return CpuTier::kAvx2;
  }
  if (!bit(leaf7_ecx, 11)) return CpuTier::kAvx512;  // AVX512_VNNI
  // AMX-BF16 (22), AMX-TILE (24), AMX-INT8 (25).
  if (tiles_saved && bit(leaf7_edx, 22) && bit(leaf7_edx, 24) && bit(leaf7_edx, 25)) {
    return CpuTier::kAmx;
  }
  return CpuTier::kAvx512Vnni;
}
#else
CpuTier detect() { return CpuTier::kBaseline; }
#endif

}  // namespace

std::string_view cpuTierName(CpuTier tier) {
  size_t index = static_cast<size_t>(tier);
  return index < kTierNames.size() ? kTierNames[index] : "unknown";
}

std::optional<CpuTier> parseCpuTier(std::string_view name) {
  std::string lower(name);
  for (char& ch : lower) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  for (size_t i = 0; i < kTierNames.size(); ++i) {
    if (lower == kTierNames[i]) return static_cast<CpuTier>(i);
  }
  return std::nullopt;
}

CpuTier detectedCpuTier() {
  static const CpuTier tier = detect();
  return tier;
}

Result<std::optional<CpuTier>> environmentCpuTierCap() {
  static const Result<std::optional<CpuTier>> cap = []() -> Result<std::optional<CpuTier>> {
    const char* text = std::getenv("ONYX_MAX_ISA");
    if (text == nullptr || *text == '\0') return std::optional<CpuTier>();
    std::optional<CpuTier> tier = parseCpuTier(text);
    if (!tier) {
      return Status(ErrorCode::kInvalidArgument,
                    "ONYX_MAX_ISA is " + quoted(text) +
                        "; expected one of baseline, avx2, avx512, avx512_vnni, amx");
    }
    return tier;
  }();
  return cap;
}

Result<CpuTier> cappedCpuTier(std::optional<CpuTier> cap) {
  Result<std::optional<CpuTier>> from_environment = environmentCpuTierCap();
  if (!from_environment) return from_environment.status();
  CpuTier tier = detectedCpuTier();
  if (*from_environment) tier = std::min(tier, **from_environment);
  if (cap) tier = std::min(tier, *cap);
  return tier;
}

CpuTier cappedCpuTierOrBaseline(std::optional<CpuTier> cap) {
  Result<CpuTier> tier = cappedCpuTier(cap);
  return tier ? *tier : CpuTier::kBaseline;
}

}  // namespace onyx
