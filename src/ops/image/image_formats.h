// Internal: decoders for the image formats ImageDecoder reads without an image library:
// BMP (uncompressed 24/32-bit and 8-bit palette), PNM (P5, P6), TIFF (uncompressed 8-bit
// strips) and PNG (8-bit, not interlaced, with its own inflate). Each gives 8-bit pixels,
// row-major, 1 (gray) or 3 (RGB) channels, or an error message.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace onyx::ops::image {

struct Pixels {
  size_t height = 0;
  size_t width = 0;
  size_t channels = 0;  // 1 or 3
  std::vector<uint8_t> data;
};

using Bytes = std::span<const uint8_t>;

// Images larger than this many pixels are refused.
inline constexpr uint64_t kMaxPixels = uint64_t{1} << 28;

inline bool sizeIsSane(uint64_t width, uint64_t height) {
  return width > 0 && height > 0 && width <= kMaxPixels && height <= kMaxPixels &&
         width * height <= kMaxPixels;
}

inline uint32_t little16(Bytes b, size_t at) { return b[at] | (uint32_t{b[at + 1]} << 8); }
inline uint32_t little32(Bytes b, size_t at) {
  return little16(b, at) | (little16(b, at + 2) << 16);
}
inline uint32_t big32(Bytes b, size_t at) {
  return (uint32_t{b[at]} << 24) | (uint32_t{b[at + 1]} << 16) | (uint32_t{b[at + 2]} << 8) |
         b[at + 3];
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
  Pixels p{h, w, 3, std::vector<uint8_t>(w * h * 3)};
  for (size_t y = 0; y < h; ++y) {
    size_t source_row = top_down ? y : h - 1 - y;
    const uint8_t* row = b.data() + offset + source_row * stride;
    uint8_t* out = p.data.data() + y * w * 3;
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
  Pixels p{static_cast<size_t>(*height), static_cast<size_t>(*width), channels,
           std::vector<uint8_t>(b.begin() + static_cast<std::ptrdiff_t>(at),
                                b.begin() + static_cast<std::ptrdiff_t>(at + count))};
  if (*maxval != 255) {
    for (uint8_t& v : p.data) v = static_cast<uint8_t>((v * 255 + *maxval / 2) / *maxval);
  }
  return p;
}

// ---- TIFF ---------------------------------------------------------------------------------

inline std::optional<Pixels> decodeTiff(Bytes b, std::string& error) {
  bool little = b[0] == 'I';
  auto u16 = [&](size_t at) -> uint32_t {
    return little ? little16(b, at) : (uint32_t{b[at]} << 8) | b[at + 1];
  };
  auto u32 = [&](size_t at) -> uint32_t { return little ? little32(b, at) : big32(b, at); };
  if (b.size() < 8) {
    error = "the TIFF is truncated";
    return std::nullopt;
  }
  size_t ifd = u32(4);
  if (ifd > b.size() || b.size() - ifd < 2) {
    error = "the TIFF's directory is outside the file";
    return std::nullopt;
  }
  size_t entries = u16(ifd);
  if ((b.size() - ifd - 2) / 12 < entries) {
    error = "the TIFF's directory is truncated";
    return std::nullopt;
  }
  uint64_t width = 0, height = 0, compression = 1, photometric = 2, samples = 1, planar = 1;
  uint64_t rows_per_strip = UINT32_MAX;
  std::vector<uint64_t> bits, offsets, counts;
  bool bad = false;
  auto values = [&](size_t entry) {
    std::vector<uint64_t> out;
    uint32_t type = u16(entry + 2), count = u32(entry + 4);
    size_t size = type == 3 ? 2 : type == 4 ? 4 : 0;
    if (size == 0 || count > (1u << 24)) {
      bad = true;
      return out;
    }
    size_t at = size * count <= 4 ? entry + 8 : u32(entry + 8);
    if (at > b.size() || (b.size() - at) / size < count) {
      bad = true;
      return out;
    }
    for (uint32_t i = 0; i < count; ++i)
      out.push_back(size == 2 ? u16(at + 2 * i) : u32(at + 4 * i));
    return out;
  };
  for (size_t i = 0; i < entries; ++i) {
    size_t entry = ifd + 2 + 12 * i;
    uint32_t tag = u16(entry);
    if (tag != 256 && tag != 257 && tag != 258 && tag != 259 && tag != 262 && tag != 273 &&
        tag != 277 && tag != 278 && tag != 279 && tag != 284) {
      continue;
    }
    std::vector<uint64_t> v = values(entry);
    if (bad || v.empty()) {
      error = "the TIFF has a bad tag " + std::to_string(tag);
      return std::nullopt;
    }
    switch (tag) {
      case 256: width = v[0]; break;
      case 257: height = v[0]; break;
      case 258: bits = v; break;
      case 259: compression = v[0]; break;
      case 262: photometric = v[0]; break;
      case 273: offsets = v; break;
      case 277: samples = v[0]; break;
      case 278: rows_per_strip = v[0]; break;
      case 279: counts = v; break;
      default: planar = v[0];
    }
  }
  for (uint64_t bit : bits) {
    if (bit != 8) {
      error = "only 8-bit TIFF samples are read";
      return std::nullopt;
    }
  }
  bool gray = (photometric == 0 || photometric == 1) && samples == 1;
  bool rgb = photometric == 2 && (samples == 3 || samples == 4);
  if (compression != 1 || planar != 1 || (!gray && !rgb) || offsets.empty() ||
      offsets.size() != counts.size() || !sizeIsSane(width, height)) {
    error = "only uncompressed, interleaved 8-bit RGB or gray TIFFs are read";
    return std::nullopt;
  }
  size_t row_bytes = static_cast<size_t>(width * samples);
  std::vector<uint8_t> raw;
  raw.reserve(row_bytes * height);
  for (size_t s = 0; s < offsets.size() && raw.size() < row_bytes * height; ++s) {
    if (offsets[s] > b.size() || b.size() - offsets[s] < counts[s]) {
      error = "a TIFF strip is outside the file";
      return std::nullopt;
    }
    raw.insert(raw.end(), b.begin() + static_cast<std::ptrdiff_t>(offsets[s]),
               b.begin() + static_cast<std::ptrdiff_t>(offsets[s] + counts[s]));
  }
  (void)rows_per_strip;
  if (raw.size() < row_bytes * height) {
    error = "the TIFF's strips hold too few pixels";
    return std::nullopt;
  }
  size_t channels = gray ? 1 : 3;
  Pixels p{static_cast<size_t>(height), static_cast<size_t>(width), channels,
           std::vector<uint8_t>(static_cast<size_t>(width * height) * channels)};
  for (size_t i = 0; i < static_cast<size_t>(width * height); ++i) {
    for (size_t c = 0; c < channels; ++c) {
      uint8_t v = raw[i * samples + c];
      p.data[i * channels + c] = photometric == 0 ? static_cast<uint8_t>(255 - v) : v;
    }
  }
  return p;
}

// ---- inflate (RFC 1951) -------------------------------------------------------------------

class Inflater {
 public:
  explicit Inflater(Bytes in) : in_(in) {}

  // Appends the decompressed stream to `out` (at most `limit` bytes); false on bad data.
  bool run(std::vector<uint8_t>& out, size_t limit) {
    bool last = false;
    while (!last) {
      last = bits(1) == 1;
      uint32_t type = bits(2);
      if (failed_) return false;
      if (type == 0) {
        bit_count_ = 0;  // to a byte boundary
        if (pos_ + 4 > in_.size()) return false;
        uint32_t length = in_[pos_] | (uint32_t{in_[pos_ + 1]} << 8);
        uint32_t check = in_[pos_ + 2] | (uint32_t{in_[pos_ + 3]} << 8);
        pos_ += 4;
        if ((length ^ 0xFFFF) != check || in_.size() - pos_ < length) return false;
        if (out.size() + length > limit) return false;
        out.insert(out.end(), in_.begin() + static_cast<std::ptrdiff_t>(pos_),
                   in_.begin() + static_cast<std::ptrdiff_t>(pos_ + length));
        pos_ += length;
      } else if (type == 1 || type == 2) {
        Huffman lit, dist;
        if (type == 1) {
          std::array<uint8_t, 288> l{};
          for (size_t i = 0; i < 288; ++i) l[i] = i < 144 ? 8 : i < 256 ? 9 : i < 280 ? 7 : 8;
          std::array<uint8_t, 30> d{};
          d.fill(5);
          if (!lit.build(l.data(), 288) || !dist.build(d.data(), 30)) return false;
        } else if (!readTables(lit, dist)) {
          return false;
        }
        if (!block(lit, dist, out, limit)) return false;
      } else {
        return false;
      }
    }
    return !failed_;
  }

 private:
  struct Huffman {
    std::array<uint16_t, 16> counts{};
    std::vector<uint16_t> symbols;
    bool build(const uint8_t* lengths, size_t n) {
      counts.fill(0);
      for (size_t i = 0; i < n; ++i) ++counts[lengths[i]];
      counts[0] = 0;
      std::array<uint16_t, 16> offsets{};
      for (size_t i = 1; i < 16; ++i)
        offsets[i] = static_cast<uint16_t>(offsets[i - 1] + counts[i - 1]);
      symbols.assign(n, 0);
      for (size_t i = 0; i < n; ++i) {
        if (lengths[i] != 0) symbols[offsets[lengths[i]]++] = static_cast<uint16_t>(i);
      }
      return true;
    }
  };

  uint32_t bits(int need) {
    uint32_t value = 0;
    for (int i = 0; i < need; ++i) {
      if (bit_count_ == 0) {
        if (pos_ >= in_.size()) {
          failed_ = true;
          return 0;
        }
        byte_ = in_[pos_++];
        bit_count_ = 8;
      }
      value |= static_cast<uint32_t>(byte_ & 1) << i;
      byte_ >>= 1;
      --bit_count_;
    }
    return value;
  }

  int decode(const Huffman& h) {
    int code = 0, first = 0, index = 0;
    for (int length = 1; length < 16; ++length) {
      code |= static_cast<int>(bits(1));
      if (failed_) return -1;
      int count = h.counts[static_cast<size_t>(length)];
      if (code - count < first) return h.symbols[static_cast<size_t>(index + (code - first))];
      index += count;
      first += count;
      first <<= 1;
      code <<= 1;
    }
    return -1;
  }

  bool readTables(Huffman& lit, Huffman& dist) {
    static constexpr uint8_t kOrder[19] = {16, 17, 18, 0, 8,  7, 9,  6, 10, 5,
                                           11, 4,  12, 3, 13, 2, 14, 1, 15};
    uint32_t nlen = bits(5) + 257, ndist = bits(5) + 1, ncode = bits(4) + 4;
    if (failed_ || nlen > 286 || ndist > 30) return false;
    std::array<uint8_t, 19> code_lengths{};
    for (uint32_t i = 0; i < ncode; ++i) code_lengths[kOrder[i]] = static_cast<uint8_t>(bits(3));
    Huffman codes;
    codes.build(code_lengths.data(), 19);
    std::array<uint8_t, 320> lengths{};
    uint32_t i = 0;
    while (i < nlen + ndist) {
      int symbol = decode(codes);
      if (symbol < 0) return false;
      if (symbol < 16) {
        lengths[i++] = static_cast<uint8_t>(symbol);
        continue;
      }
      uint8_t repeat_value = 0;
      uint32_t repeat = 0;
      if (symbol == 16) {
        if (i == 0) return false;
        repeat_value = lengths[i - 1];
        repeat = 3 + bits(2);
      } else if (symbol == 17) {
        repeat = 3 + bits(3);
      } else {
        repeat = 11 + bits(7);
      }
      if (failed_ || i + repeat > nlen + ndist) return false;
      while (repeat-- > 0) lengths[i++] = repeat_value;
    }
    if (lengths[256] == 0) return false;
    return lit.build(lengths.data(), nlen) && dist.build(lengths.data() + nlen, ndist);
  }

  bool block(const Huffman& lit, const Huffman& dist, std::vector<uint8_t>& out, size_t limit) {
    static constexpr uint16_t kLengthBase[29] = {3,  4,  5,  6,   7,   8,   9,   10,  11, 13,
                                                 15, 17, 19, 23,  27,  31,  35,  43,  51, 59,
                                                 67, 83, 99, 115, 131, 163, 195, 227, 258};
    static constexpr uint8_t kLengthExtra[29] = {0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2,
                                                 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0};
    static constexpr uint16_t kDistBase[30] = {
        1,   2,   3,   4,   5,   7,    9,    13,   17,   25,   33,   49,   65,    97,    129,
        193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577};
    static constexpr uint8_t kDistExtra[30] = {0, 0, 0, 0, 1, 1, 2, 2,  3,  3,  4,  4,  5,  5,  6,
                                               6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13};
    while (true) {
      int symbol = decode(lit);
      if (symbol < 0) return false;
      if (symbol < 256) {
        if (out.size() >= limit) return false;
        out.push_back(static_cast<uint8_t>(symbol));
      } else if (symbol == 256) {
        return true;
      } else {
        size_t s = static_cast<size_t>(symbol - 257);
        if (s >= 29) return false;
        size_t length = kLengthBase[s] + bits(kLengthExtra[s]);
        int d = decode(dist);
        if (d < 0 || d >= 30) return false;
        size_t distance = kDistBase[d] + bits(kDistExtra[d]);
        if (failed_ || distance > out.size() || out.size() + length > limit) return false;
        size_t from = out.size() - distance;
        for (size_t k = 0; k < length; ++k) out.push_back(out[from + k]);
      }
    }
  }

  Bytes in_;
  size_t pos_ = 0;
  uint32_t byte_ = 0;
  int bit_count_ = 0;
  bool failed_ = false;
};

// ---- PNG ----------------------------------------------------------------------------------

inline std::optional<Pixels> decodePng(Bytes b, std::string& error) {
  size_t at = 8;
  uint64_t width = 0, height = 0;
  uint32_t depth = 0, color = 0, interlace = 0;
  std::vector<uint8_t> compressed;
  std::vector<std::array<uint8_t, 3>> palette;
  bool seen_header = false;
  while (at + 8 <= b.size()) {
    uint32_t length = big32(b, at);
    uint32_t type = big32(b, at + 4);
    if (b.size() - at - 8 < uint64_t{length} + 4) {
      error = "a PNG chunk is truncated";
      return std::nullopt;
    }
    Bytes data = b.subspan(at + 8, length);
    if (type == 0x49484452 && length >= 13) {  // IHDR
      width = big32(data, 0);
      height = big32(data, 4);
      depth = data[8];
      color = data[9];
      interlace = data[12];
      seen_header = true;
    } else if (type == 0x504C5445) {  // PLTE
      for (size_t i = 0; i + 2 < data.size(); i += 3)
        palette.push_back({data[i], data[i + 1], data[i + 2]});
    } else if (type == 0x49444154) {  // IDAT
      compressed.insert(compressed.end(), data.begin(), data.end());
    } else if (type == 0x49454E44) {  // IEND
      break;
    }
    at += 12 + length;
  }
  size_t samples = color == 0   ? 1
                   : color == 2 ? 3
                   : color == 3 ? 1
                   : color == 4 ? 2
                   : color == 6 ? 4
                                : 0;
  if (!seen_header || depth != 8 || samples == 0 || interlace != 0 || !sizeIsSane(width, height)) {
    error = "only 8-bit, non-interlaced PNGs are read";
    return std::nullopt;
  }
  if (compressed.size() < 2) {
    error = "the PNG has no image data";
    return std::nullopt;
  }
  size_t w = static_cast<size_t>(width), h = static_cast<size_t>(height);
  size_t stride = w * samples;
  std::vector<uint8_t> raw;
  Inflater inflater(Bytes(compressed).subspan(2));
  if (!inflater.run(raw, (stride + 1) * h) || raw.size() != (stride + 1) * h) {
    error = "the PNG's image data does not inflate to its size";
    return std::nullopt;
  }
  std::vector<uint8_t> image(stride * h);
  for (size_t y = 0; y < h; ++y) {
    uint8_t filter = raw[y * (stride + 1)];
    const uint8_t* in = raw.data() + y * (stride + 1) + 1;
    uint8_t* out = image.data() + y * stride;
    const uint8_t* up = y > 0 ? out - stride : nullptr;
    for (size_t i = 0; i < stride; ++i) {
      int a = i >= samples ? out[i - samples] : 0;
      int u = up != nullptr ? up[i] : 0;
      int c = (up != nullptr && i >= samples) ? up[i - samples] : 0;
      int predicted = 0;
      switch (filter) {
        case 0: predicted = 0; break;
        case 1: predicted = a; break;
        case 2: predicted = u; break;
        case 3: predicted = (a + u) / 2; break;
        case 4: {
          int p = a + u - c;
          int pa = p > a ? p - a : a - p, pb = p > u ? p - u : u - p, pc = p > c ? p - c : c - p;
          predicted = (pa <= pb && pa <= pc) ? a : pb <= pc ? u : c;
          break;
        }
        default: error = "a PNG row has an unknown filter"; return std::nullopt;
      }
      out[i] = static_cast<uint8_t>(in[i] + predicted);
    }
  }
  bool gray = color == 0 || color == 4;
  size_t channels = gray ? 1 : 3;
  Pixels p{h, w, channels, std::vector<uint8_t>(w * h * channels)};
  for (size_t i = 0; i < w * h; ++i) {
    const uint8_t* px = image.data() + i * samples;
    if (color == 3) {
      if (px[0] >= palette.size()) {
        error = "a PNG pixel is outside the palette";
        return std::nullopt;
      }
      for (size_t c = 0; c < 3; ++c) p.data[i * 3 + c] = palette[px[0]][c];
    } else {
      for (size_t c = 0; c < channels; ++c) p.data[i * channels + c] = px[c];
    }
  }
  return p;
}

}  // namespace onyx::ops::image
