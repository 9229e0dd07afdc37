// The per-channel map that folds a normalization into weights: a slice computed alone (as the
// writer asks for weights computed on demand, one buffer at a time) is the same bytes as the
// same elements of the whole, for every layout.
#include "ops/nn/batch_norm_folding.h"

#include <gtest/gtest.h>

#include <cstring>
#include <vector>

namespace onyx::ops::nn {
namespace {

std::vector<float> values(size_t count) {
  std::vector<float> out(count);
  for (size_t i = 0; i < count; ++i) out[i] = static_cast<float>(i % 97) * 0.25f - 11.0f;
  return out;
}

std::span<const std::byte> bytesOf(const std::vector<float>& v) {
  return std::as_bytes(std::span<const float>(v));
}

TEST(ChannelMap, SlicesMapAsTheWholeDoesInEveryLayout) {
  std::vector<ChannelLayout> layouts;
  layouts.push_back(*convWeightsLayout(std::vector<int64_t>{6, 4, 3, 3}));
  layouts.push_back(*convTransposeWeightsLayout(std::vector<int64_t>{4, 3, 2, 2}, 2));
  layouts.push_back(*gemmWeightsLayout(std::vector<int64_t>{20, 7}, false));
  layouts.push_back(*gemmWeightsLayout(std::vector<int64_t>{7, 20}, true));
  for (const ChannelLayout& layout : layouts) {
    auto size = static_cast<size_t>(layout.size());
    auto channels = static_cast<size_t>(layout.outputChannels());
    std::vector<double> scale(channels), shift(channels);
    for (size_t c = 0; c < channels; ++c) {
      scale[c] = 0.5 + static_cast<double>(c) * 0.125;
      shift[c] = static_cast<double>(c) - 2.0;
    }
    std::vector<float> source = values(size);
    std::vector<float> whole(size);
    ASSERT_TRUE(mapChannelBytes(ElementType::kFloat, bytesOf(source),
                                std::as_writable_bytes(std::span<float>(whole)), layout, scale,
                                shift));
    for (size_t first : {size_t{0}, size_t{1}, size_t{5}, size / 3}) {
      for (size_t count : {size_t{1}, size_t{7}, size - first}) {
        if (first + count > size) continue;
        // In place, as a computed tensor maps a slice it computed from another.
        std::vector<float> slice(source.begin() + static_cast<ptrdiff_t>(first),
                                 source.begin() + static_cast<ptrdiff_t>(first + count));
        auto span = std::as_writable_bytes(std::span<float>(slice));
        ASSERT_TRUE(mapChannelRange(ElementType::kFloat, span, span, layout, first, scale, shift));
        EXPECT_EQ(std::memcmp(slice.data(), whole.data() + first, count * sizeof(float)), 0)
            << "layout of " << channels << " channels, elements " << first << "+" << count;
      }
    }
    // Past the end, or a size that is not whole elements: refused.
    std::vector<float> two(2);
    auto out = std::as_writable_bytes(std::span<float>(two));
    EXPECT_FALSE(mapChannelRange(ElementType::kFloat, out, out, layout, size - 1, scale, shift));
    EXPECT_FALSE(
        mapChannelRange(ElementType::kFloat, out.first(6), out.first(6), layout, 0, scale, shift));
  }
}

}  // namespace
}  // namespace onyx::ops::nn
