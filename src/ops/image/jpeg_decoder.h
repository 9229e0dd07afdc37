// Internal: a baseline JPEG decoder (Huffman, 8-bit, one interleaved scan or a single
// gray component, restart intervals) for ImageDecoder. It computes as libjpeg does by
// default, so that its pixels match: the accurate integer IDCT, "fancy" (triangular)
// upsampling of 2x1 and 2x2 subsampled chroma, and libjpeg's YCbCr to RGB tables.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ops/image/image_formats.h"

namespace onyx::ops::image {

namespace jpeg_detail {

inline constexpr std::array<uint8_t, 64> kNaturalOrder = {
    0,  1,  8,  16, 9,  2,  3,  10, 17, 24, 32, 25, 18, 11, 4,  5,  12, 19, 26, 33, 40, 48,
    41, 34, 27, 20, 13, 6,  7,  14, 21, 28, 35, 42, 49, 56, 57, 50, 43, 36, 29, 22, 15, 23,
    30, 37, 44, 51, 58, 59, 52, 45, 38, 31, 39, 46, 53, 60, 61, 54, 47, 55, 62, 63};

struct HuffmanTable {
  bool defined = false;
  std::array<uint8_t, 17> counts{};  // counts[length], length 1..16
  std::vector<uint8_t> symbols;
};

struct Component {
  int id = 0;
  int h = 1, v = 1;
  int quant = 0;
  int dc_table = 0, ac_table = 0;
  int32_t predictor = 0;
  size_t plane_width = 0, plane_height = 0;  // in samples, whole blocks
  std::vector<uint8_t> plane;
};

// The sample an IDCT output value (centred on 0) becomes, as libjpeg's range-limit table
// maps it (wrapping beyond 10 bits).
inline uint8_t idctSample(int64_t value) {
  int m = static_cast<int>(value & 1023);
  if (m >= 512) m -= 1024;
  return static_cast<uint8_t>(std::clamp(m + 128, 0, 255));
}

// libjpeg's jpeg_idct_islow: `in` holds dequantized coefficients in natural order.
inline void idctIslow(const int64_t* in, uint8_t* out, size_t stride) {
  constexpr int kConstBits = 13, kPass1Bits = 2;
  auto descale = [](int64_t x, int n) { return (x + (int64_t{1} << (n - 1))) >> n; };
  constexpr int64_t k0298 = 2446, k0390 = 3196, k0541 = 4433, k0765 = 6270, k0899 = 7373,
                    k1175 = 9633, k1501 = 12299, k1847 = 15137, k1961 = 16069, k2053 = 16819,
                    k2562 = 20995, k3072 = 25172;
  std::array<int64_t, 64> ws{};
  for (int col = 0; col < 8; ++col) {
    const int64_t* c = in + col;
    if (c[8] == 0 && c[16] == 0 && c[24] == 0 && c[32] == 0 && c[40] == 0 && c[48] == 0 &&
        c[56] == 0) {
      int64_t dc = c[0] * (1 << kPass1Bits);
      for (int k = 0; k < 8; ++k) ws[static_cast<size_t>(col + 8 * k)] = dc;
      continue;
    }
    int64_t z2 = c[16], z3 = c[48];
    int64_t z1 = (z2 + z3) * k0541;
    int64_t tmp2 = z1 + z3 * -k1847;
    int64_t tmp3 = z1 + z2 * k0765;
    z2 = c[0];
    z3 = c[32];
    int64_t tmp0 = (z2 + z3) * (1 << kConstBits);
    int64_t tmp1 = (z2 - z3) * (1 << kConstBits);
    int64_t tmp10 = tmp0 + tmp3, tmp13 = tmp0 - tmp3, tmp11 = tmp1 + tmp2, tmp12 = tmp1 - tmp2;
    tmp0 = c[56];
    tmp1 = c[40];
    tmp2 = c[24];
    tmp3 = c[8];
    z1 = tmp0 + tmp3;
    z2 = tmp1 + tmp2;
    z3 = tmp0 + tmp2;
    int64_t z4 = tmp1 + tmp3;
    int64_t z5 = (z3 + z4) * k1175;
    tmp0 *= k0298;
    tmp1 *= k2053;
    tmp2 *= k3072;
    tmp3 *= k1501;
    z1 *= -k0899;
    z2 *= -k2562;
    z3 *= -k1961;
    z4 *= -k0390;
    z3 += z5;
    z4 += z5;
    tmp0 += z1 + z3;
    tmp1 += z2 + z4;
    tmp2 += z2 + z3;
    tmp3 += z1 + z4;
    constexpr int kShift = kConstBits - kPass1Bits;
    ws[static_cast<size_t>(col)] = descale(tmp10 + tmp3, kShift);
    ws[static_cast<size_t>(col + 56)] = descale(tmp10 - tmp3, kShift);
    ws[static_cast<size_t>(col + 8)] = descale(tmp11 + tmp2, kShift);
    ws[static_cast<size_t>(col + 48)] = descale(tmp11 - tmp2, kShift);
    ws[static_cast<size_t>(col + 16)] = descale(tmp12 + tmp1, kShift);
    ws[static_cast<size_t>(col + 40)] = descale(tmp12 - tmp1, kShift);
    ws[static_cast<size_t>(col + 24)] = descale(tmp13 + tmp0, kShift);
    ws[static_cast<size_t>(col + 32)] = descale(tmp13 - tmp0, kShift);
  }
  constexpr int kShift = kConstBits + kPass1Bits + 3;
  for (int row = 0; row < 8; ++row) {
    const int64_t* w = ws.data() + 8 * row;
    uint8_t* o = out + static_cast<size_t>(row) * stride;
    int64_t z2 = w[2], z3 = w[6];
    int64_t z1 = (z2 + z3) * k0541;
    int64_t tmp2 = z1 + z3 * -k1847;
    int64_t tmp3 = z1 + z2 * k0765;
    int64_t tmp0 = (w[0] + w[4]) * (1 << kConstBits);
    int64_t tmp1 = (w[0] - w[4]) * (1 << kConstBits);
    int64_t tmp10 = tmp0 + tmp3, tmp13 = tmp0 - tmp3, tmp11 = tmp1 + tmp2, tmp12 = tmp1 - tmp2;
    tmp0 = w[7];
    tmp1 = w[5];
    tmp2 = w[3];
    tmp3 = w[1];
    z1 = tmp0 + tmp3;
    z2 = tmp1 + tmp2;
    z3 = tmp0 + tmp2;
    int64_t z4 = tmp1 + tmp3;
    int64_t z5 = (z3 + z4) * k1175;
    tmp0 *= k0298;
    tmp1 *= k2053;
    tmp2 *= k3072;
    tmp3 *= k1501;
    z1 *= -k0899;
    z2 *= -k2562;
    z3 *= -k1961;
    z4 *= -k0390;
    z3 += z5;
    z4 += z5;
    tmp0 += z1 + z3;
    tmp1 += z2 + z4;
    tmp2 += z2 + z3;
    tmp3 += z1 + z4;
    o[0] = idctSample(descale(tmp10 + tmp3, kShift));
    o[7] = idctSample(descale(tmp10 - tmp3, kShift));
    o[1] = idctSample(descale(tmp11 + tmp2, kShift));
    o[6] = idctSample(descale(tmp11 - tmp2, kShift));
    o[2] = idctSample(descale(tmp12 + tmp1, kShift));
    o[5] = idctSample(descale(tmp12 - tmp1, kShift));
    o[3] = idctSample(descale(tmp13 + tmp0, kShift));
    o[4] = idctSample(descale(tmp13 - tmp0, kShift));
  }
}

class BitReader {
 public:
  BitReader(Bytes data, size_t pos) : data_(data), pos_(pos) {}

  int bit() {
    if (count_ == 0) {
      if (pos_ >= data_.size()) {
        failed_ = true;  // past the data: libjpeg pads with zeros; a bad stream ends here
        return 0;
      }
      uint8_t b = data_[pos_];
      if (b == 0xFF) {
        uint8_t next = pos_ + 1 < data_.size() ? data_[pos_ + 1] : 0;
        if (next == 0x00) {
          pos_ += 2;
        } else {
          // A marker: feed zeros, as libjpeg does.
          b = 0;
          marker_hit_ = true;
        }
      } else {
        ++pos_;
      }
      byte_ = b;
      count_ = 8;
    }
    --count_;
    return (byte_ >> count_) & 1;
  }

  int bits(int n) {
    int value = 0;
    for (int i = 0; i < n; ++i) value = (value << 1) | bit();
    return value;
  }

  // Skips to the next RSTn marker after the current byte.
  bool restart() {
    count_ = 0;
    marker_hit_ = false;
    while (pos_ + 1 < data_.size() &&
           !(data_[pos_] == 0xFF && data_[pos_ + 1] >= 0xD0 && data_[pos_ + 1] <= 0xD7)) {
      ++pos_;
    }
    if (pos_ + 1 >= data_.size()) return false;
    pos_ += 2;
    return true;
  }

  bool failed() const { return failed_; }

 private:
  Bytes data_;
  size_t pos_;
  uint32_t byte_ = 0;
  int count_ = 0;
  bool failed_ = false;
  bool marker_hit_ = false;
};

inline int decodeSymbol(BitReader& reader, const HuffmanTable& table) {
  int code = 0, first = 0, index = 0;
  for (int length = 1; length <= 16; ++length) {
    code |= reader.bit();
    int count = table.counts[static_cast<size_t>(length)];
    if (code - count < first) {
      size_t at = static_cast<size_t>(index + (code - first));
      return at < table.symbols.size() ? table.symbols[at] : -1;
    }
    index += count;
    first += count;
    first <<= 1;
    code <<= 1;
  }
  return -1;
}

inline int extend(int value, int size) {
  return size == 0 ? 0 : value < (1 << (size - 1)) ? value - (1 << size) + 1 : value;
}

}  // namespace jpeg_detail

inline std::optional<Pixels> decodeJpeg(Bytes b, std::string& error) {
  using namespace jpeg_detail;
  std::array<std::array<uint16_t, 64>, 4> quant{};
  std::array<HuffmanTable, 4> dc_tables, ac_tables;
  std::vector<Component> components;
  size_t width = 0, height = 0;
  int restart_interval = 0;
  bool frame = false;
  size_t at = 2;
  auto fail = [&](const char* message) -> std::optional<Pixels> {
    error = message;
    return std::nullopt;
  };
  while (true) {
    while (at < b.size() && b[at] != 0xFF) ++at;
    while (at < b.size() && b[at] == 0xFF) ++at;
    if (at >= b.size()) return fail("the JPEG ends before its scan");
    uint8_t marker = b[at++];
    if (marker == 0xD8 || (marker >= 0xD0 && marker <= 0xD7) || marker == 0x01) continue;
    if (marker == 0xD9) return fail("the JPEG has no scan");
    if (at + 2 > b.size()) return fail("a JPEG segment is truncated");
    size_t length = (size_t{b[at]} << 8) | b[at + 1];
    if (length < 2 || at + length > b.size()) return fail("a JPEG segment is truncated");
    Bytes seg = b.subspan(at + 2, length - 2);
    at += length;
    if (marker == 0xDB) {  // DQT
      size_t p = 0;
      while (p < seg.size()) {
        int precision = seg[p] >> 4, id = seg[p] & 15;
        ++p;
        if (id > 3 || p + 64 * (precision ? 2 : 1) > seg.size()) return fail("a JPEG DQT is bad");
        for (size_t k = 0; k < 64; ++k) {
          uint16_t q = precision ? static_cast<uint16_t>((seg[p + 2 * k] << 8) | seg[p + 2 * k + 1])
                                 : seg[p + k];
          quant[static_cast<size_t>(id)][kNaturalOrder[k]] = q;
        }
        p += 64 * (precision ? 2 : 1);
      }
    } else if (marker == 0xC4) {  // DHT
      size_t p = 0;
      while (p < seg.size()) {
        int cls = seg[p] >> 4, id = seg[p] & 15;
        if (cls > 1 || id > 3 || p + 17 > seg.size()) return fail("a JPEG DHT is bad");
        HuffmanTable table;
        table.defined = true;
        size_t total = 0;
        for (size_t k = 1; k <= 16; ++k) total += table.counts[k] = seg[p + k];
        p += 17;
        if (p + total > seg.size()) return fail("a JPEG DHT is truncated");
        table.symbols.assign(seg.begin() + static_cast<std::ptrdiff_t>(p),
                             seg.begin() + static_cast<std::ptrdiff_t>(p + total));
        p += total;
        (cls == 0 ? dc_tables : ac_tables)[static_cast<size_t>(id)] = std::move(table);
      }
    } else if (marker == 0xDD) {  // DRI
      if (seg.size() < 2) return fail("a JPEG DRI is bad");
      restart_interval = (seg[0] << 8) | seg[1];
    } else if (marker == 0xC0 || marker == 0xC1) {  // baseline / extended sequential
      if (seg.size() < 6 || seg[0] != 8) return fail("only 8-bit JPEGs are decoded");
      height = (size_t{seg[1]} << 8) | seg[2];
      width = (size_t{seg[3]} << 8) | seg[4];
      size_t count = seg[5];
      if ((count != 1 && count != 3) || seg.size() < 6 + 3 * count) {
        return fail("only gray and three-component JPEGs are decoded");
      }
      if (!sizeIsSane(width, height)) return fail("the JPEG's size is not sane");
      for (size_t k = 0; k < count; ++k) {
        Component c;
        c.id = seg[6 + 3 * k];
        c.h = seg[7 + 3 * k] >> 4;
        c.v = seg[7 + 3 * k] & 15;
        c.quant = seg[8 + 3 * k];
        if (c.h < 1 || c.h > 2 || c.v < 1 || c.v > 2 || c.quant > 3) {
          return fail("the JPEG's sampling factors are not decoded");
        }
        components.push_back(c);
      }
      frame = true;
    } else if (marker >= 0xC2 && marker <= 0xCF && marker != 0xC4 && marker != 0xC8 &&
               marker != 0xCC) {
      return fail("progressive, lossless and arithmetic-coded JPEGs are not decoded");
    } else if (marker == 0xDA) {  // SOS
      if (!frame) return fail("the JPEG's scan comes before its frame");
      if (seg.empty() || seg[0] != components.size() || seg.size() < 1 + 2 * components.size()) {
        return fail("only single-scan JPEGs with all components interleaved are decoded");
      }
      for (size_t k = 0; k < components.size(); ++k) {
        int id = seg[1 + 2 * k];
        auto found = std::find_if(components.begin(), components.end(),
                                  [&](const Component& c) { return c.id == id; });
        if (found == components.end()) return fail("the JPEG's scan names an unknown component");
        found->dc_table = seg[2 + 2 * k] >> 4;
        found->ac_table = seg[2 + 2 * k] & 15;
        if (found->dc_table > 3 || found->ac_table > 3 ||
            !dc_tables[static_cast<size_t>(found->dc_table)].defined ||
            !ac_tables[static_cast<size_t>(found->ac_table)].defined) {
          return fail("the JPEG's scan uses an undefined Huffman table");
        }
      }
      break;
    }
  }
  int hmax = 1, vmax = 1;
  for (const Component& c : components) {
    hmax = std::max(hmax, c.h);
    vmax = std::max(vmax, c.v);
  }
  if (components.size() == 1) {
    components[0].h = components[0].v = hmax = vmax = 1;
  }
  size_t mcu_w = 8 * static_cast<size_t>(hmax), mcu_h = 8 * static_cast<size_t>(vmax);
  size_t mcus_x = (width + mcu_w - 1) / mcu_w, mcus_y = (height + mcu_h - 1) / mcu_h;
  for (Component& c : components) {
    c.plane_width = mcus_x * static_cast<size_t>(c.h) * 8;
    c.plane_height = mcus_y * static_cast<size_t>(c.v) * 8;
    c.plane.assign(c.plane_width * c.plane_height, 0);
  }
  BitReader reader(b, at);
  std::array<int64_t, 64> coefficients{};
  size_t mcus = mcus_x * mcus_y;
  for (size_t m = 0; m < mcus; ++m) {
    if (restart_interval > 0 && m > 0 && m % static_cast<size_t>(restart_interval) == 0) {
      if (!reader.restart()) return fail("the JPEG's restart marker is missing");
      for (Component& c : components) c.predictor = 0;
    }
    size_t mx = m % mcus_x, my = m / mcus_x;
    for (Component& c : components) {
      const HuffmanTable& dc = dc_tables[static_cast<size_t>(c.dc_table)];
      const HuffmanTable& ac = ac_tables[static_cast<size_t>(c.ac_table)];
      const std::array<uint16_t, 64>& q = quant[static_cast<size_t>(c.quant)];
      for (int by = 0; by < c.v; ++by) {
        for (int bx = 0; bx < c.h; ++bx) {
          coefficients.fill(0);
          int size = decodeSymbol(reader, dc);
          if (size < 0 || size > 11) return fail("the JPEG's data is corrupt");
          // As libjpeg: the predictor wraps, coefficients are kept in 16 bits.
          c.predictor =
              static_cast<int32_t>(static_cast<uint32_t>(c.predictor) +
                                   static_cast<uint32_t>(extend(reader.bits(size), size)));
          coefficients[0] = int64_t{static_cast<int16_t>(c.predictor)} * q[0];
          for (int k = 1; k < 64;) {
            int symbol = decodeSymbol(reader, ac);
            if (symbol < 0) return fail("the JPEG's data is corrupt");
            int run = symbol >> 4, s = symbol & 15;
            if (s == 0) {
              if (run != 15) break;
              k += 16;
              continue;
            }
            k += run;
            if (k > 63) return fail("the JPEG's data is corrupt");
            size_t natural = kNaturalOrder[static_cast<size_t>(k)];
            coefficients[natural] =
                int64_t{static_cast<int16_t>(extend(reader.bits(s), s))} * q[natural];
            ++k;
          }
          size_t x0 = (mx * static_cast<size_t>(c.h) + static_cast<size_t>(bx)) * 8;
          size_t y0 = (my * static_cast<size_t>(c.v) + static_cast<size_t>(by)) * 8;
          idctIslow(coefficients.data(), c.plane.data() + y0 * c.plane_width + x0, c.plane_width);
        }
      }
    }
  }
  Pixels p{height, width, components.size() == 1 ? size_t{1} : size_t{3},
           std::vector<uint8_t>(width * height * (components.size() == 1 ? 1 : 3))};
  if (components.size() == 1) {
    for (size_t y = 0; y < height; ++y) {
      std::copy_n(components[0].plane.data() + y * components[0].plane_width, width,
                  p.data.data() + y * width);
    }
    return p;
  }
  // Each component at full size: fancy upsampling of subsampled chroma, with edge rows and
  // columns repeated as libjpeg's context rows are.
  std::vector<std::vector<uint8_t>> full(3);
  for (size_t k = 0; k < 3; ++k) {
    const Component& c = components[k];
    size_t sh = static_cast<size_t>(hmax / c.h), sv = static_cast<size_t>(vmax / c.v);
    if (sh == 1 && sv == 1) {
      full[k].resize(width * height);
      for (size_t y = 0; y < height; ++y) {
        std::copy_n(c.plane.data() + y * c.plane_width, width, full[k].data() + y * width);
      }
      continue;
    }
    size_t dw = (width * static_cast<size_t>(c.h) + static_cast<size_t>(hmax) - 1) /
                static_cast<size_t>(hmax);
    size_t dh = (height * static_cast<size_t>(c.v) + static_cast<size_t>(vmax) - 1) /
                static_cast<size_t>(vmax);
    size_t ow = dw * sh, oh = dh * sv;
    std::vector<uint8_t> up(ow * oh);
    auto sample = [&](size_t x, size_t y) -> int { return c.plane[y * c.plane_width + x]; };
    for (size_t y = 0; y < dh; ++y) {
      for (size_t v = 0; v < sv; ++v) {
        // Vertical weights: 3 * this row + the nearer neighbour row (2x2), or this row (2x1).
        size_t other = y;
        if (sv == 2) other = v == 0 ? (y == 0 ? 0 : y - 1) : (y + 1 < dh ? y + 1 : y);
        auto colsum = [&](size_t x) {
          return sv == 2 ? sample(x, y) * 3 + sample(x, other) : sample(x, y);
        };
        uint8_t* out = up.data() + (y * sv + v) * ow;
        if (sh == 1) {
          // libjpeg's h1v2 fancy upsampling.
          for (size_t x = 0; x < dw; ++x) {
            out[x] = static_cast<uint8_t>((colsum(x) + (v == 0 ? 1 : 2)) >> 2);
          }
          continue;
        }
        if (dw <= 2) {
          // libjpeg replicates samples when the row is too short for the triangle filter.
          for (size_t x = 0; x < dw; ++x)
            out[2 * x] = out[2 * x + 1] = static_cast<uint8_t>(sample(x, y));
          continue;
        }
        for (size_t x = 0; x < dw; ++x) {
          int here = colsum(x);
          int left = colsum(x == 0 ? 0 : x - 1), right = colsum(x + 1 < dw ? x + 1 : x);
          if (sv == 2) {
            out[2 * x] =
                static_cast<uint8_t>(x == 0 ? (here * 4 + 8) >> 4 : (here * 3 + left + 8) >> 4);
            out[2 * x + 1] = static_cast<uint8_t>(x + 1 == dw ? (here * 4 + 7) >> 4
                                                              : (here * 3 + right + 7) >> 4);
          } else {
            out[2 * x] = static_cast<uint8_t>(x == 0 ? here : (here * 3 + left + 1) >> 2);
            out[2 * x + 1] = static_cast<uint8_t>(x + 1 == dw ? here : (here * 3 + right + 2) >> 2);
          }
        }
      }
    }
    full[k].resize(width * height);
    for (size_t y = 0; y < height; ++y) {
      std::copy_n(up.data() + y * ow, width, full[k].data() + y * width);
    }
  }
  // libjpeg's YCbCr to RGB (jdcolor.c), 16-bit fixed point.
  auto fix = [](double x) { return static_cast<int64_t>(x * 65536 + 0.5); };
  constexpr int64_t kHalf = int64_t{1} << 15;
  for (size_t i = 0; i < width * height; ++i) {
    int64_t y = full[0][i], cb = int64_t{full[1][i]} - 128, cr = int64_t{full[2][i]} - 128;
    int64_t r = y + ((fix(1.40200) * cr + kHalf) >> 16);
    int64_t g = y + ((-fix(0.34414) * cb + kHalf - fix(0.71414) * cr) >> 16);
    int64_t bl = y + ((fix(1.77200) * cb + kHalf) >> 16);
    p.data[3 * i] = static_cast<uint8_t>(std::clamp<int64_t>(r, 0, 255));
    p.data[3 * i + 1] = static_cast<uint8_t>(std::clamp<int64_t>(g, 0, 255));
    p.data[3 * i + 2] = static_cast<uint8_t>(std::clamp<int64_t>(bl, 0, 255));
  }
  return p;
}

}  // namespace onyx::ops::image
