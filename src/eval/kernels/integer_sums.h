// Internal to the evaluator: the layout steps of the int8 convolution (integer_convolution.h),
// in tiles that keep what is read and written in cache: its input put channels-last inside
// its padding, and oneDNN's channels-last int32 sums of x w turned into the spec's
// channels-first sums of (x - zx)(w - zw), each output channel plus a constant and less its
// weight zero point times the window's sum of x, in 32 bits with wrap-around.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>

namespace onyx::eval_internal {

struct ChannelTerms {
  size_t column = 0;         // the output channel's column among oneDNN's
  size_t window_column = 0;  // the column of its group's window sums, or kNoWindowSums
  uint32_t shift = 0;        // K zx zw - zx sum w
  uint32_t weight_zero = 0;  // zw (after the shift to int8)
};

inline constexpr size_t kNoWindowSums = std::numeric_limits<size_t>::max();

/// Rows [row_begin, row_end) of one image of bytes, (channels, height, width), written
/// channels-last into `to`, an image (padded_height, padded_width, channels) whose padding the
/// caller has filled, at row `top` and column `left`.
void bytesChannelsLast(const uint8_t* image, size_t channels, size_t height, size_t width,
                       size_t row_begin, size_t row_end, size_t top, size_t left,
                       size_t padded_width, uint8_t* to);

/// to[channel * pixels + p] = sums[p * columns + column] + shift - weight_zero * (window sum at
/// p), for each channel of `terms` and the pixels [pixel_begin, pixel_end) of one image of
/// `pixels`: its sums, `columns` per pixel.
void finishSums(const uint32_t* sums, size_t columns, size_t pixels, size_t pixel_begin,
                size_t pixel_end, std::span<const ChannelTerms> terms, uint32_t* to);

}  // namespace onyx::eval_internal
