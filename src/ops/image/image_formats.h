// Internal: the image readers ImageDecoder uses. JPEG, PNG, TIFF, WebP and JPEG 2000 go
// through their reference libraries (libjpeg-turbo, libpng, libtiff, libwebp, OpenJPEG; see
// src/eval/kernels/image_codecs.cc); BMP (uncompressed 8, 24 and 32-bit) and binary PNM (P5, P6), simpler
// than any library for them, are read here. Each gives 8-bit pixels, row-major, 1 (gray) or
// 3 (RGB) channels, or an error message.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "onyx/core/array.h"

namespace onyx::ops::image {

struct Pixels {
  size_t height = 0;
  size_t width = 0;
  size_t channels = 0;  // 1 or 3
  Array data;           // uint8 [height, width, channels]
};

using Bytes = std::span<const uint8_t>;

// Images larger than this many pixels are refused: Pillow's limit (twice its
// MAX_IMAGE_PIXELS, where it raises DecompressionBombError instead of warning).
inline constexpr uint64_t kMaxPixels = 2 * (uint64_t{1} << 30) / 4 / 3;

inline bool sizeIsSane(uint64_t width, uint64_t height) {
  return width > 0 && height > 0 && width <= kMaxPixels && height <= kMaxPixels &&
         width * height <= kMaxPixels;
}

// Pixels of a sane size with room for their data, or nullopt and `error`.
inline std::optional<Pixels> allocatePixels(uint64_t width, uint64_t height, size_t channels,
                                            std::string& error) {
  if (!sizeIsSane(width, height)) {
    error =
        "the image's size " + std::to_string(width) + "x" + std::to_string(height) + " is not sane";
    return std::nullopt;
  }
  Result<Array> data = Array::allocate(
      ElementType::kUint8,
      {static_cast<int64_t>(height), static_cast<int64_t>(width), static_cast<int64_t>(channels)},
      kMaxPixels * 4);
  if (!data) {
    error = "the image is too large: " + data.status().message();
    return std::nullopt;
  }
  return Pixels{static_cast<size_t>(height), static_cast<size_t>(width), channels,
                std::move(*data)};
}

inline uint32_t little16(Bytes b, size_t at) { return b[at] | (uint32_t{b[at + 1]} << 8); }
inline uint32_t little32(Bytes b, size_t at) {
  return little16(b, at) | (little16(b, at + 2) << 16);
}

// ---- BMP ----------------------------------------------------------------------------------

inline std::optional<Pixels> decodeBmp(Bytes b, std::string& error) {
  if (b.size() < 54) {
    error = "the BMP is truncated";
    return std::nullopt;
  }
  uint32_t offset = little32(b, 10);
  uint32_t header = little32(b, 14);
  int32_t width = static_cast<int32_t>(little32(b, 18));
  int32_t height = static_cast<int32_t>(little32(b, 22));
  uint32_t bits = little16(b, 28);
  uint32_t compression = little32(b, 30);
  if (header < 40 || compression != 0 || (bits != 24 && bits != 32 && bits != 8)) {
    error = "only uncompressed 8, 24 and 32-bit BMPs are read";
    return std::nullopt;
  }
  bool top_down = height < 0;
  uint64_t rows = top_down ? -static_cast<int64_t>(height) : height;
  if (width <= 0 || !sizeIsSane(static_cast<uint64_t>(width), rows)) {
    error = "the BMP's size is not sane";
    return std::nullopt;
  }
  size_t w = static_cast<size_t>(width), h = static_cast<size_t>(rows);
  size_t stride = ((w * bits + 31) / 32) * 4;
  if (offset > b.size() || (b.size() - offset) / stride < h) {
    error = "the BMP's pixels are truncated";
    return std::nullopt;
  }
  std::vector<std::array<uint8_t, 3>> palette;
  if (bits == 8) {
    uint32_t colors = little32(b, 46);
    if (colors == 0) colors = 256;
    size_t table = 14 + header;
    if (colors > 256 || table + 4 * size_t{colors} > offset) {
      error = "the BMP's palette is bad";
      return std::nullopt;
    }
    for (uint32_t c = 0; c < colors; ++c) {
      size_t at = table + 4 * c;
      palette.push_back({b[at + 2], b[at + 1], b[at]});
    }
  }
  std::optional<Pixels> p = allocatePixels(w, h, 3, error);
  if (!p) return std::nullopt;
  for (size_t y = 0; y < h; ++y) {
    size_t source_row = top_down ? y : h - 1 - y;
    const uint8_t* row = b.data() + offset + source_row * stride;
    uint8_t* out = p->data.data<uint8_t>() + y * w * 3;
    for (size_t x = 0; x < w; ++x) {
      if (bits == 8) {
        if (row[x] >= palette.size()) {
          error = "a BMP pixel is outside the palette";
          return std::nullopt;
        }
        const std::array<uint8_t, 3>& color = palette[row[x]];
        out[3 * x] = color[0];
        out[3 * x + 1] = color[1];
        out[3 * x + 2] = color[2];
      } else {
        size_t step = bits / 8;
        out[3 * x] = row[x * step + 2];
        out[3 * x + 1] = row[x * step + 1];
        out[3 * x + 2] = row[x * step];
      }
    }
  }
  return p;
}

// ---- PNM ----------------------------------------------------------------------------------

inline std::optional<Pixels> decodePnm(Bytes b, std::string& error) {
  size_t at = 2;
  auto number = [&]() -> std::optional<uint64_t> {
    while (at < b.size()) {
      if (b[at] == '#') {
        while (at < b.size() && b[at] != '\n') ++at;
      } else if (b[at] == ' ' || b[at] == '\t' || b[at] == '\n' || b[at] == '\r') {
        ++at;
      } else {
        break;
      }
    }
    if (at >= b.size() || b[at] < '0' || b[at] > '9') return std::nullopt;
    uint64_t value = 0;
    while (at < b.size() && b[at] >= '0' && b[at] <= '9') {
      value = value * 10 + (b[at++] - '0');
      if (value > (uint64_t{1} << 32)) return std::nullopt;
    }
    return value;
  };
  bool color = b[1] == '6';
  std::optional<uint64_t> width = number(), height = number(), maxval = number();
  if (!width || !height || !maxval || !sizeIsSane(*width, *height) || *maxval == 0 ||
      *maxval > 255) {
    error = "only binary 8-bit PGM and PPM (P5, P6) are read";
    return std::nullopt;
  }
  ++at;  // the single whitespace after maxval
  size_t channels = color ? 3 : 1;
  size_t count = static_cast<size_t>(*width * *height) * channels;
  if (at > b.size() || b.size() - at < count) {
    error = "the PNM's pixels are truncated";
    return std::nullopt;
  }
  std::optional<Pixels> p = allocatePixels(*width, *height, channels, error);
  if (!p) return std::nullopt;
  uint8_t* out = p->data.data<uint8_t>();
  std::copy(b.begin() + static_cast<std::ptrdiff_t>(at),
            b.begin() + static_cast<std::ptrdiff_t>(at + count), out);
  if (*maxval != 255) {
    for (size_t i = 0; i < count; ++i) {
      out[i] = static_cast<uint8_t>((out[i] * 255 + *maxval / 2) / *maxval);
    }
  }
  return p;
}

// JPEG, PNG, TIFF, WebP and JPEG 2000 go through their libraries, which only the evaluator
// links: src/eval/kernels/image_codecs.cc, reached through NativeKernels (ops/native_kernels.h).

}  // namespace onyx::ops::image
