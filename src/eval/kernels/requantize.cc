#include "eval/kernels/requantize.h"

namespace onyx::eval_internal {

namespace {

template <class Byte>
void requantizeRows(const int32_t* sums, size_t sums_stride, size_t rows, size_t width,
                    size_t first_channel, const Requantization& how, Byte* to, size_t to_stride) {
  const float low = how.low(), high = how.high();
  for (size_t r = 0; r < rows; ++r) {
    const float scale = how.scales[how.scales.size() == 1 ? 0 : first_channel + r];
    const int32_t* __restrict from = sums + r * sums_stride;
    Byte* __restrict out = to + r * to_stride;
    for (size_t p = 0; p < width; ++p) {
      out[p] = static_cast<Byte>(
          static_cast<int32_t>(Requantization::scaled(from[p], scale, low, high)) + how.zero);
    }
  }
}

template <class Byte>
void requantizeColumns(const int32_t* sums, size_t rows, size_t width, const Requantization& how,
                       Byte* to) {
  const float low = how.low(), high = how.high();
  if (how.scales.size() == 1) {
    requantizeRows(sums, width, rows, width, 0, how, to, width);
    return;
  }
  const float* __restrict scales = how.scales.data();
  for (size_t r = 0; r < rows; ++r) {
    const int32_t* __restrict from = sums + r * width;
    Byte* __restrict out = to + r * width;
    for (size_t j = 0; j < width; ++j) {
      out[j] = static_cast<Byte>(
          static_cast<int32_t>(Requantization::scaled(from[j], scales[j], low, high)) + how.zero);
    }
  }
}

}  // namespace

void requantizeByColumn(const int32_t* sums, size_t rows, size_t width, const Requantization& how,
                        void* to) {
  if (how.type == ElementType::kInt8) {
    requantizeColumns(sums, rows, width, how, static_cast<int8_t*>(to));
  } else {
    requantizeColumns(sums, rows, width, how, static_cast<uint8_t*>(to));
  }
}

void requantize(const int32_t* sums, size_t sums_stride, size_t rows, size_t width,
                size_t first_channel, const Requantization& how, void* to, size_t to_stride) {
  if (how.type == ElementType::kInt8) {
    requantizeRows(sums, sums_stride, rows, width, first_channel, how, static_cast<int8_t*>(to),
                   to_stride);
  } else {
    requantizeRows(sums, sums_stride, rows, width, first_channel, how, static_cast<uint8_t*>(to),
                   to_stride);
  }
}

}  // namespace onyx::eval_internal
