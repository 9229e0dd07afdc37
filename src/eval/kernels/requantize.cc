#include "eval/kernels/requantize.h"

namespace onyx::eval_internal {

namespace {

template <class Byte>
void requantizeChannels(const int32_t* sums, size_t pixels, size_t begin, size_t end,
                        const Requantization& how, Byte* to) {
  const float low = how.low(), high = how.high();
  for (size_t channel = begin; channel < end; ++channel) {
    const float scale = how.scales[how.scales.size() == 1 ? 0 : channel];
    const int32_t* from = sums + channel * pixels;
    Byte* out = to + channel * pixels;
    for (size_t p = 0; p < pixels; ++p) {
      out[p] = static_cast<Byte>(
          static_cast<int32_t>(Requantization::scaled(from[p], scale, low, high)) + how.zero);
    }
  }
}

}  // namespace

void requantize(const int32_t* sums, size_t pixels, size_t channel_begin, size_t channel_end,
                const Requantization& how, void* to) {
  if (how.type == ElementType::kInt8) {
    requantizeChannels(sums, pixels, channel_begin, channel_end, how, static_cast<int8_t*>(to));
  } else {
    requantizeChannels(sums, pixels, channel_begin, channel_end, how, static_cast<uint8_t*>(to));
  }
}

}  // namespace onyx::eval_internal
