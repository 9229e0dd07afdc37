#include "eval/kernels/block_quantized_int8_matmul.h"

#include <algorithm>
#include <cmath>
#include <string_view>

#include "onyx/core/mapped_file.h"
#include "ops/kernels.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define ONYX_QUADS_X86 1
#endif

namespace onyx::eval_internal {

namespace {

constexpr size_t kGroup = 16;  // columns a vpdpbusd operand holds, a code each in 16 lanes

size_t blocksOf(const BlockQuantizedWeights& b) { return b.depth / b.block; }

// The first byte of the quad of rows 4q .. 4q + 3 in the tile whose first column is `first`.
size_t quadOffset(const BlockQuantizedWeights& b, size_t first, size_t q) {
  const size_t width = std::min(kBlockQuantizedTile, b.columns - first);
  return first * b.depth / 2 + q * width * 2;
}

// A row of a rounded to int8 per block: the codes q, each block's scale s and sum of q.
struct RoundedRow {
  std::vector<int8_t> codes;
  std::vector<float> scales;
  std::vector<int32_t> sums;
};

RoundedRow roundRow(const float* a, size_t depth, size_t block) {
  RoundedRow row;
  row.codes.resize(depth);
  row.scales.resize(depth / block);
  row.sums.resize(depth / block);
  for (size_t first = 0, index = 0; first < depth; first += block, ++index) {
    float largest = 0;
    for (size_t k = first; k < first + block; ++k) largest = std::max(largest, std::fabs(a[k]));
    const float inverse = largest > 0 ? 127.0f / largest : 0.0f;
    row.scales[index] = largest / 127.0f;
    int32_t sum = 0;
    for (size_t k = first; k < first + block; ++k) {
      const float rounded = std::clamp(std::nearbyint(a[k] * inverse), -127.0f, 127.0f);
      row.codes[k] = static_cast<int8_t>(rounded);
      sum += row.codes[k];
    }
    row.sums[index] = sum;
  }
  return row;
}

#ifdef ONYX_QUADS_X86

// (The masked forms of the intrinsics: GCC 12 takes the plain ones' undefined start for an
// uninitialised read.)
#define ONYX_VNNI_TARGET __attribute__((target("avx2,fma,avx512f,avx512bw,avx512vl,avx512vnni")))

// 32 bytes of a quad as one vpdpbusd operand: lanes 0-7 from the low nibbles, 8-15 from the
// high ones, a column's four codes in each lane.
ONYX_VNNI_TARGET inline __m512i quadCodes(const uint8_t* at) {
  const __m512i twice =
      _mm512_maskz_broadcast_i64x4(0xFF, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(at)));
  const __m512i halves =
      _mm512_mask_blend_epi64(0xF0, twice, _mm512_maskz_srli_epi16(0xFFFFFFFF, twice, 4));
  return _mm512_and_si512(halves, _mm512_set1_epi8(0x0F));
}

// The places of 16 columns from index `at` of the tiled blocks.
ONYX_VNNI_TARGET inline __m512 placeOf(const QuadBlockQuantizedWeights& w, size_t at) {
  return w.places.empty() ? _mm512_set1_ps(w.place) : _mm512_loadu_ps(w.places.data() + at);
}

// One row by the kGroups x 16 columns of the tile from `first`.
template <size_t kGroups>
ONYX_VNNI_TARGET void rowByTile(const RoundedRow& row, const QuadBlockQuantizedWeights& w,
                                size_t first, float* c) {
  const BlockQuantizedWeights& b = w.layout;
  __m512 sums[kGroups];
#pragma GCC unroll 8
  for (size_t g = 0; g < kGroups; ++g) sums[g] = _mm512_setzero_ps();
  const size_t quads_per_block = b.block / 4;
  for (size_t block = 0; block < blocksOf(b); ++block) {
    __m512i dots[kGroups];
#pragma GCC unroll 8
    for (size_t g = 0; g < kGroups; ++g) dots[g] = _mm512_setzero_si512();
    for (size_t q = block * quads_per_block; q < (block + 1) * quads_per_block; ++q) {
      int32_t four;
      __builtin_memcpy(&four, row.codes.data() + 4 * q, 4);
      const __m512i inputs = _mm512_set1_epi32(four);
      const uint8_t* quad = w.codes.data() + quadOffset(b, first, q);
#pragma GCC unroll 8
      for (size_t g = 0; g < kGroups; ++g) {
        dots[g] = _mm512_dpbusd_epi32(dots[g], quadCodes(quad + 32 * g), inputs);
      }
    }
    const __m512 row_scale = _mm512_set1_ps(row.scales[block]);
    const __m512 row_sum = _mm512_set1_ps(static_cast<float>(row.sums[block]));
    const size_t at = blockIndex(b, block, first);
#pragma GCC unroll 8
    for (size_t g = 0; g < kGroups; ++g) {
      // sum of (u - c) q, exact: sum of u q less c times the sum of q.
      const __m512 dot = _mm512_fnmadd_ps(placeOf(w, at + kGroup * g), row_sum,
                                          _mm512_maskz_cvtepi32_ps(0xFFFF, dots[g]));
      const __m512 scale =
          _mm512_mul_ps(_mm512_loadu_ps(w.scales.data() + at + kGroup * g), row_scale);
      sums[g] = _mm512_fmadd_ps(dot, scale, sums[g]);
    }
  }
#pragma GCC unroll 8
  for (size_t g = 0; g < kGroups; ++g) _mm512_storeu_ps(c + first + kGroup * g, sums[g]);
}

ONYX_VNNI_TARGET void rowByTile(const RoundedRow& row, const QuadBlockQuantizedWeights& w,
                                size_t first, size_t groups, float* c) {
  switch (groups) {
    case 1: return rowByTile<1>(row, w, first, c);
    case 2: return rowByTile<2>(row, w, first, c);
    case 3: return rowByTile<3>(row, w, first, c);
    case 4: return rowByTile<4>(row, w, first, c);
    case 5: return rowByTile<5>(row, w, first, c);
    case 6: return rowByTile<6>(row, w, first, c);
    case 7: return rowByTile<7>(row, w, first, c);
    default: return rowByTile<8>(row, w, first, c);
  }
}

// Rows [k0, k1) (multiples of 4) of the tile from `first` as DequantizeLinear gives them,
// into `out` (row stride: the tile's width).
ONYX_VNNI_TARGET void dequantizeQuads(const QuadBlockQuantizedWeights& w, size_t first, size_t k0,
                                      size_t k1, float* out) {
  const BlockQuantizedWeights& b = w.layout;
  const size_t width = std::min(kBlockQuantizedTile, b.columns - first);
  const __m512i byte = _mm512_set1_epi32(0xFF);
  for (size_t q = k0 / 4; q < k1 / 4; ++q) {
    const uint8_t* quad = w.codes.data() + quadOffset(b, first, q);
    const size_t at = blockIndex(b, 4 * q / b.block, first);
    for (size_t g = 0; g < width / kGroup; ++g) {
      const __m512i codes = quadCodes(quad + 32 * g);
      const __m512 place = placeOf(w, at + kGroup * g);
      const __m512 scale = _mm512_loadu_ps(w.scales.data() + at + kGroup * g);
#pragma GCC unroll 4
      for (size_t j = 0; j < 4; ++j) {
        const __m512i code = _mm512_and_si512(
            _mm512_maskz_srl_epi32(0xFFFF, codes, _mm_cvtsi32_si128(static_cast<int>(8 * j))),
            byte);
        const __m512 value =
            _mm512_mul_ps(_mm512_sub_ps(_mm512_maskz_cvtepi32_ps(0xFFFF, code), place), scale);
        _mm512_storeu_ps(out + (4 * q + j - k0) * width + kGroup * g, value);
      }
    }
  }
}

#endif  // ONYX_QUADS_X86

}  // namespace

bool quadsTake(const BlockQuantizedWeights& b, CpuTier tier) {
#ifdef ONYX_QUADS_X86
  return tier >= CpuTier::kAvx512Vnni && b.bits == 4 && b.block > 0 && b.block % 4 == 0 &&
         b.depth % b.block == 0 && b.columns % kGroup == 0;
#else
  (void)b;
  (void)tier;
  return false;
#endif
}

QuadBlockQuantizedWeights quadBlockQuantizedWeights(const BlockQuantizedWeights& b) {
  QuadBlockQuantizedWeights quads;
  quads.codes.assign(b.depth * b.columns / 2, 0);
  const size_t block_elements = blocksOf(b) * b.columns;
  quads.scales.resize(block_elements);
  if (b.zeros != nullptr) quads.places.resize(block_elements);
  quads.layout = b;
  quads.layout.tiled = true;
  quads.layout.codes = quads.codes.data();
  quads.layout.scales = quads.scales.data();
  quads.layout.zeros = nullptr;
  const uint32_t flip = b.signed_codes ? 8u : 0u;
  const auto code = [&](size_t k, size_t n) {
    const size_t index = codeIndex(b, k, n);
    return ((b.codes[index >> 1] >> ((index & 1) * 4)) & 0xFu) ^ flip;
  };
  // A band of rows at a time, whose bytes of the model's codes are then let go of.
  constexpr size_t kBand = 256;
  for (size_t k0 = 0; k0 < b.depth; k0 += kBand) {
    const size_t k1 = std::min(b.depth, k0 + kBand);
    for (size_t first = 0; first < b.columns; first += kBlockQuantizedTile) {
      const size_t width = std::min(kBlockQuantizedTile, b.columns - first);
      for (size_t q = k0 / 4; q < k1 / 4; ++q) {
        uint8_t* quad = quads.codes.data() + quadOffset(quads.layout, first, q);
        for (size_t g = 0; g < width / kGroup; ++g) {
          for (size_t p = 0; p < 32; ++p) {
            // Byte p: element p (lane p / 4, row p % 4) low, element p + 32 high.
            const size_t low_n = first + kGroup * g + p / 4, high_n = low_n + 8;
            const size_t k = 4 * q + p % 4;
            quad[32 * g + p] = static_cast<uint8_t>(code(k, low_n) | code(k, high_n) << 4);
          }
        }
      }
    }
    const size_t from = k0 * b.columns / 2, to = k1 * b.columns / 2;
    MappedFile::releasePagesOf(
        std::string_view(reinterpret_cast<const char*>(b.codes) + from, to - from));
  }
  quads.place = b.signed_codes ? 8.0f : 0.0f;
  for (size_t block = 0; block < blocksOf(b); ++block) {
    for (size_t n = 0; n < b.columns; ++n) {
      const size_t to = blockIndex(quads.layout, block, n), from = blockIndex(b, block, n);
      quads.scales[to] = b.scales[from];
      if (b.zeros != nullptr) quads.places[to] = b.zeros[from] + quads.place;
    }
  }
  return quads;
}

void int8InputProduct(const KernelContext& ctx, const float* a, size_t rows,
                      const QuadBlockQuantizedWeights& w, float* c) {
#ifdef ONYX_QUADS_X86
  const BlockQuantizedWeights& b = w.layout;
  const size_t tiles = (b.columns + kBlockQuantizedTile - 1) / kBlockQuantizedTile;
  if (rows <= kBlockQuantizedFewRows) {
    std::vector<RoundedRow> rounded;
    for (size_t r = 0; r < rows; ++r) {
      rounded.push_back(roundRow(a + r * b.depth, b.depth, b.block));
    }
    ops::parallelFor(ctx, tiles, 1, [&](size_t begin, size_t end) {
      for (size_t t = begin; t < end; ++t) {
        const size_t first = t * kBlockQuantizedTile;
        const size_t groups = std::min(kBlockQuantizedTile, b.columns - first) / kGroup;
        for (size_t r = 0; r < rows; ++r) {
          rowByTile(rounded[r], w, first, groups, c + r * b.columns);
        }
      }
    });
    return;
  }
  productOfDequantizedTiles(
      ctx, a, rows, b.depth, b.columns,
      [&](size_t n0, size_t, size_t k0, size_t k1, float* out) {
        dequantizeQuads(w, n0, k0, k1, out);
      },
      c);
#else
  (void)ctx;
  (void)a;
  (void)rows;
  (void)w;
  (void)c;
#endif
}

}  // namespace onyx::eval_internal
