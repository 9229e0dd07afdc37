// The CPU tiers (onyx/core/cpu_tier.h): their names, their order, and how a cap lowers the
// tier in force without ever raising it.
#include "onyx/core/cpu_tier.h"

#include <gtest/gtest.h>

#include <string>

namespace onyx {
namespace {

TEST(CpuTier, NamesReadBackAsTheirTiers) {
  for (CpuTier tier : {CpuTier::kBaseline, CpuTier::kAvx2, CpuTier::kAvx512, CpuTier::kAvx512Vnni,
                       CpuTier::kAmx}) {
    EXPECT_EQ(parseCpuTier(cpuTierName(tier)), tier) << cpuTierName(tier);
  }
  EXPECT_EQ(parseCpuTier("AVX512_VNNI"), CpuTier::kAvx512Vnni);
  EXPECT_EQ(parseCpuTier("avx-512"), std::nullopt);
  EXPECT_EQ(parseCpuTier(""), std::nullopt);
  EXPECT_EQ(parseCpuTier("sse4"), std::nullopt);
}

TEST(CpuTier, TiersAreOrderedLowestFirst) {
  EXPECT_LT(CpuTier::kBaseline, CpuTier::kAvx2);
  EXPECT_LT(CpuTier::kAvx2, CpuTier::kAvx512);
  EXPECT_LT(CpuTier::kAvx512, CpuTier::kAvx512Vnni);
  EXPECT_LT(CpuTier::kAvx512Vnni, CpuTier::kAmx);
}

TEST(CpuTier, ACapLowersTheTierAndNeverRaisesIt) {
  Result<CpuTier> uncapped = cappedCpuTier();
  ASSERT_TRUE(uncapped) << uncapped.status().toString();
  EXPECT_LE(*uncapped, detectedCpuTier());
  // Capped at the lowest tier, any CPU is at the baseline; capped at the highest, at its own.
  EXPECT_EQ(cappedCpuTier(CpuTier::kBaseline).value(), CpuTier::kBaseline);
  EXPECT_EQ(cappedCpuTier(CpuTier::kAmx).value(), *uncapped);
  for (CpuTier cap : {CpuTier::kAvx2, CpuTier::kAvx512, CpuTier::kAvx512Vnni}) {
    CpuTier tier = cappedCpuTier(cap).value();
    EXPECT_LE(tier, cap);
    EXPECT_EQ(tier, std::min(cap, *uncapped));
  }
  EXPECT_EQ(cappedCpuTierOrBaseline(CpuTier::kAvx2), std::min(CpuTier::kAvx2, *uncapped));
}

}  // namespace
}  // namespace onyx
