#include "eval/kernels/integer_sums.h"

#include <algorithm>

#include "ops/wider_vectors.h"

namespace onyx::eval_internal {

ONYX_WIDER_VECTORS void bytesChannelsLast(const uint8_t* image, size_t channels, size_t height,
                                          size_t width, size_t row_begin, size_t row_end,
                                          size_t top, size_t left, size_t padded_width,
                                          uint8_t* to) {
  // A tile of 64 channels by 64 pixels of a row: 64 runs of 64 bytes read, 64 written.
  constexpr size_t kTile = 64;
  for (size_t i = row_begin; i < row_end; ++i) {
    uint8_t* line = to + ((i + top) * padded_width + left) * channels;
    for (size_t first = 0; first < width; first += kTile) {
      const size_t last = std::min(width, first + kTile);
      for (size_t c0 = 0; c0 < channels; c0 += kTile) {
        const size_t c1 = std::min(channels, c0 + kTile);
        for (size_t j = first; j < last; ++j) {
          uint8_t* pixel = line + j * channels;
          for (size_t c = c0; c < c1; ++c) pixel[c] = image[(c * height + i) * width + j];
        }
      }
    }
  }
}

ONYX_WIDER_VECTORS void finishSums(const uint32_t* sums, size_t columns, size_t pixels,
                                   size_t pixel_begin, size_t pixel_end,
                                   std::span<const ChannelTerms> terms, uint32_t* to) {
  // A tile of 32 pixels by 32 channels: 32 rows of 128 bytes read, 32 runs of 128 bytes
  // written.
  constexpr size_t kTile = 32;
  uint32_t window[kTile];
  for (size_t first = pixel_begin; first < pixel_end; first += kTile) {
    const size_t count = std::min(kTile, pixel_end - first);
    const uint32_t* rows = sums + first * columns;
    size_t window_column = kNoWindowSums;
    for (size_t top = 0; top < terms.size(); top += kTile) {
      const size_t bottom = std::min(terms.size(), top + kTile);
      for (size_t channel = top; channel < bottom; ++channel) {
        const ChannelTerms& term = terms[channel];
        if (term.window_column != window_column) {
          window_column = term.window_column;
          for (size_t p = 0; p < count; ++p) {
            window[p] = window_column == kNoWindowSums ? 0 : rows[p * columns + window_column];
          }
        }
        uint32_t* run = to + channel * pixels + first;
        const uint32_t* column = rows + term.column;
        for (size_t p = 0; p < count; ++p) {
          run[p] = column[p * columns] + term.shift - term.weight_zero * window[p];
        }
      }
    }
  }
}

}  // namespace onyx::eval_internal
