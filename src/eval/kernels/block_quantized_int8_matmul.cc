#include "eval/kernels/block_quantized_int8_matmul.h"

#include <algorithm>
#include <cmath>

#include "ops/kernels.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define ONYX_QUADS_X86 1
#endif

namespace onyx::eval_internal {

namespace {

constexpr size_t kGroup = 16;  // columns a vpdpbusd operand holds, a code each in 16 lanes

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

// kRows rows (rows[0 .. kRows), their outputs `columns` apart from c) by the kGroups x 16
// columns from group `group` of the tile from column `first`. One row takes a whole tile
// (8 groups: each quad's 256 bytes read once); a prompt's rows four at a time by two groups,
// all its rows passing over the tile while it stays in cache.
template <size_t kRows, size_t kGroups>
ONYX_VNNI_TARGET void rowsByGroups(const RoundedRow* rows, const QuadBlockQuantizedWeights& w,
                                   size_t first, size_t group, size_t columns, float* c) {
  const BlockQuantizedWeights& b = w.layout;
  __m512 sums[kRows][kGroups];
#pragma GCC unroll 8
  for (size_t r = 0; r < kRows; ++r) {
#pragma GCC unroll 8
    for (size_t g = 0; g < kGroups; ++g) sums[r][g] = _mm512_setzero_ps();
  }
  const size_t quads_per_block = b.block / 4;
  for (size_t block = 0; block < blockCount(b); ++block) {
    __m512i dots[kRows][kGroups];
#pragma GCC unroll 8
    for (size_t r = 0; r < kRows; ++r) {
#pragma GCC unroll 8
      for (size_t g = 0; g < kGroups; ++g) dots[r][g] = _mm512_setzero_si512();
    }
    for (size_t q = block * quads_per_block; q < (block + 1) * quads_per_block; ++q) {
      const uint8_t* quad = w.codes.data() + quadOffset(b, first, q) + 32 * group;
      __m512i codes[kGroups];
#pragma GCC unroll 8
      for (size_t g = 0; g < kGroups; ++g) codes[g] = quadCodes(quad + 32 * g);
#pragma GCC unroll 8
      for (size_t r = 0; r < kRows; ++r) {
        int32_t four;
        __builtin_memcpy(&four, rows[r].codes.data() + 4 * q, 4);
        const __m512i inputs = _mm512_set1_epi32(four);
#pragma GCC unroll 8
        for (size_t g = 0; g < kGroups; ++g) {
          dots[r][g] = _mm512_dpbusd_epi32(dots[r][g], codes[g], inputs);
        }
      }
    }
    const size_t at = blockIndex(b, block, first) + kGroup * group;
#pragma GCC unroll 8
    for (size_t g = 0; g < kGroups; ++g) {
      const __m512 place = placeOf(w, at + kGroup * g);
      const __m512 weight_scale = _mm512_loadu_ps(w.scales.data() + at + kGroup * g);
#pragma GCC unroll 8
      for (size_t r = 0; r < kRows; ++r) {
        // sum of (u - c) q, exact: sum of u q less c times the sum of q.
        const __m512 dot =
            _mm512_fnmadd_ps(place, _mm512_set1_ps(static_cast<float>(rows[r].sums[block])),
                             _mm512_maskz_cvtepi32_ps(0xFFFF, dots[r][g]));
        const __m512 scale = _mm512_mul_ps(weight_scale, _mm512_set1_ps(rows[r].scales[block]));
        sums[r][g] = _mm512_fmadd_ps(dot, scale, sums[r][g]);
      }
    }
  }
#pragma GCC unroll 8
  for (size_t r = 0; r < kRows; ++r) {
#pragma GCC unroll 8
    for (size_t g = 0; g < kGroups; ++g) {
      _mm512_storeu_ps(c + r * columns + first + kGroup * (group + g), sums[r][g]);
    }
  }
}

// One row by the tile from `first`, its `groups` groups at once.
ONYX_VNNI_TARGET void rowByTile(const RoundedRow& row, const QuadBlockQuantizedWeights& w,
                                size_t first, size_t groups, float* c) {
  const size_t columns = w.layout.columns;
  switch (groups) {
    case 1: return rowsByGroups<1, 1>(&row, w, first, 0, columns, c);
    case 2: return rowsByGroups<1, 2>(&row, w, first, 0, columns, c);
    case 3: return rowsByGroups<1, 3>(&row, w, first, 0, columns, c);
    case 4: return rowsByGroups<1, 4>(&row, w, first, 0, columns, c);
    case 5: return rowsByGroups<1, 5>(&row, w, first, 0, columns, c);
    case 6: return rowsByGroups<1, 6>(&row, w, first, 0, columns, c);
    case 7: return rowsByGroups<1, 7>(&row, w, first, 0, columns, c);
    default: return rowsByGroups<1, 8>(&row, w, first, 0, columns, c);
  }
}

// Up to 4 rows from rows[0] by up to 2 groups from `group` of the tile from `first`.
template <size_t kRows>
ONYX_VNNI_TARGET void rowsByPair(const RoundedRow* rows, const QuadBlockQuantizedWeights& w,
                                 size_t first, size_t group, size_t groups, float* c) {
  const size_t columns = w.layout.columns;
  if (groups >= 2) return rowsByGroups<kRows, 2>(rows, w, first, group, columns, c);
  rowsByGroups<kRows, 1>(rows, w, first, group, columns, c);
}

// Every row by the tile from `first`: four rows by two groups at a time.
ONYX_VNNI_TARGET void allRowsByTile(const std::vector<RoundedRow>& rows,
                                    const QuadBlockQuantizedWeights& w, size_t first, float* c) {
  const size_t columns = w.layout.columns;
  const size_t groups = std::min(kBlockQuantizedTile, columns - first) / kGroup;
  for (size_t group = 0; group < groups; group += 2) {
    const size_t pair = std::min<size_t>(2, groups - group);
    size_t r = 0;
    for (; r + 4 <= rows.size(); r += 4) {
      rowsByPair<4>(rows.data() + r, w, first, group, pair, c + r * columns);
    }
    float* out = c + r * columns;
    switch (rows.size() - r) {
      case 3: rowsByPair<3>(rows.data() + r, w, first, group, pair, out); break;
      case 2: rowsByPair<2>(rows.data() + r, w, first, group, pair, out); break;
      case 1: rowsByPair<1>(rows.data() + r, w, first, group, pair, out); break;
      default: break;
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
  const size_t block_elements = blockCount(b) * b.columns;
  quads.scales.resize(block_elements);
  if (b.zeros != nullptr) quads.places.resize(block_elements);
  quads.layout = b;
  quads.layout.tiled = true;
  quads.layout.codes = quads.codes.data();
  quads.layout.scales = quads.scales.data();
  quads.layout.zeros = nullptr;
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
            quad[32 * g + p] =
                static_cast<uint8_t>(unsignedCode(b, k, low_n) | unsignedCode(b, k, high_n) << 4);
          }
        }
      }
    }
    releaseCodeRows(b, k0, k1);
  }
  quads.place = codeOffset(b);
  for (size_t block = 0; block < blockCount(b); ++block) {
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
  std::vector<RoundedRow> rounded;
  for (size_t r = 0; r < rows; ++r) {
    rounded.push_back(roundRow(a + r * b.depth, b.depth, b.block));
  }
  ops::parallelFor(ctx, tiles, 1, [&](size_t begin, size_t end) {
    for (size_t t = begin; t < end; ++t) {
      const size_t first = t * kBlockQuantizedTile;
      if (rows > kBlockQuantizedFewRows) {
        allRowsByTile(rounded, w, first, c);
        continue;
      }
      const size_t groups = std::min(kBlockQuantizedTile, b.columns - first) / kGroup;
      for (size_t r = 0; r < rows; ++r) rowByTile(rounded[r], w, first, groups, c + r * b.columns);
    }
  });
#else
  (void)ctx;
  (void)a;
  (void)rows;
  (void)w;
  (void)c;
#endif
}

}  // namespace onyx::eval_internal
