// The exact byte-pair product (byte_pair_gemm.h): the AVX2 kernel, the portable one and the
// blocking they share.
//
// Blocking (panel_product.h): the depth in blocks of at most kMostBlockPairs steps (pairs of
// depth) and the columns in blocks of kBlockColumns; each block of B is packed (in L2), then
// each of its panels of 16 columns meets every panel of A (6 rows) in the kernel. A step of a
// packed panel is 32 int16: the 16 columns' values at the step's even and odd depth, interleaved in
// (even, odd) pairs for vpmaddwd, or the 16 even values then the 16 odd ones for the portable
// kernel, which compilers vectorize as widening 16-bit multiplies.
#include "ops/nn/byte_pair_gemm.h"

#include <algorithm>
#include <array>
#include <vector>

#include "ops/nn/panel_product.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define ONYX_BYTE_PAIR_AVX2 1
#endif

namespace onyx::ops::nn {

namespace {

// Columns in a packed panel of B: two ymm registers of eight 32-bit pairs.
constexpr size_t kPanelColumns = 16;
// int16 values in a step of a packed panel of B.
constexpr size_t kStepValues = 2 * kPanelColumns;
// At most this many steps in a block of depth: a packed panel of 384 steps is 24 KiB, so it
// stays in L1 while every panel of A passes over it; a 3x3 convolution of 64 channels (depth
// 576) takes one block, and so writes its sums once instead of adding to them.
constexpr size_t kMostBlockPairs = 384;
// Columns in a block of B, packed together (at most 192 KiB, in L2): taking 128 columns of each
// row of B at once, the packing reads B in runs the prefetchers follow even when its rows are
// far apart (an image read in place by a 1x1 convolution).
constexpr size_t kBlockColumns = 128;
using Blocking = PanelBlocking<BytePairLeft::kPanelRows, kPanelColumns, kMostBlockPairs,
                               kBlockColumns, kStepValues>;

uint32_t pairOf(int16_t even, int16_t odd) {
  return static_cast<uint32_t>(static_cast<uint16_t>(even)) |
         (static_cast<uint32_t>(static_cast<uint16_t>(odd)) << 16);
}

int16_t evenOf(uint32_t pair) { return static_cast<int16_t>(static_cast<uint16_t>(pair)); }
int16_t oddOf(uint32_t pair) { return static_cast<int16_t>(static_cast<uint16_t>(pair >> 16)); }

// The portable panel of B for columns [0, columns) of `b` (at most 16; the rest zero) and
// steps [0, pairs) from depth row `first` (even); a missing odd row (past `depth`) reads as
// zero.
void packPanelPortable(const int16_t* b, size_t ldb, size_t depth, size_t first, size_t pairs,
                       size_t columns, int16_t* panel) {
  for (size_t p = 0; p < pairs; ++p) {
    const size_t k = first + 2 * p;
    const int16_t* even = b + k * ldb;
    const int16_t* odd = k + 1 < depth ? even + ldb : nullptr;
    int16_t* out = panel + p * kStepValues;
    for (size_t j = 0; j < kPanelColumns; ++j) {
      out[j] = j < columns ? even[j] : int16_t{0};
      out[kPanelColumns + j] = j < columns && odd != nullptr ? odd[j] : int16_t{0};
    }
  }
}

// The panels of B for columns [0, columns) (at most kBlockColumns), one after another, each
// `pairs` steps.
void packBlockPortable(const int16_t* b, size_t ldb, size_t depth, size_t first, size_t pairs,
                       size_t columns, int16_t* block) {
  for (size_t j0 = 0; j0 < columns; j0 += kPanelColumns) {
    packPanelPortable(b + j0, ldb, depth, first, pairs, std::min(kPanelColumns, columns - j0),
                      block + j0 / kPanelColumns * pairs * kStepValues);
  }
}

// c (kRows x 16, rows ldc apart) = (or += when `accumulate`) the panel of A (`pairs` steps of
// kRows pairs) times the portable panel of B, in wrapping 32-bit sums. Each product of two
// int16 is exact in int32, as vpmaddwd forms it.
template <size_t kRows>
void kernelPortable(size_t pairs, const uint32_t* a, const int16_t* b, int32_t* c, size_t ldc,
                    bool accumulate) {
  uint32_t sums[kRows][kPanelColumns] = {};
  for (size_t p = 0; p < pairs; ++p) {
    const int16_t* even = b + p * kStepValues;
    const int16_t* odd = even + kPanelColumns;
    for (size_t r = 0; r < kRows; ++r) {
      // int16 factors, so that the compiler multiplies 16 bits by 16 into 32.
      const int16_t a0 = evenOf(a[p * kRows + r]), a1 = oddOf(a[p * kRows + r]);
      for (size_t j = 0; j < kPanelColumns; ++j) {
        sums[r][j] += static_cast<uint32_t>(int32_t{a0} * int32_t{even[j]}) +
                      static_cast<uint32_t>(int32_t{a1} * int32_t{odd[j]});
      }
    }
  }
  for (size_t r = 0; r < kRows; ++r) {
    int32_t* row = c + r * ldc;
    for (size_t j = 0; j < kPanelColumns; ++j) {
      const uint32_t before = accumulate ? static_cast<uint32_t>(row[j]) : 0;
      row[j] = static_cast<int32_t>(before + sums[r][j]);
    }
  }
}

#ifdef ONYX_BYTE_PAIR_AVX2

#define ONYX_AVX2_TARGET __attribute__((target("avx2,fma")))

// packBlockPortable's panels in the AVX2 layout: two rows of B at a time, interleaved in
// registers (rows read in order, each along the block's columns). The columns past the last
// whole panel, and the last step of an odd depth, take the scalar way.
ONYX_AVX2_TARGET void packBlockAvx2(const int16_t* b, size_t ldb, size_t depth, size_t first,
                                    size_t pairs, size_t columns, int16_t* block) {
  const size_t panel_values = pairs * kStepValues;
  const size_t whole_columns = columns / kPanelColumns * kPanelColumns;
  const size_t whole_pairs = std::min(pairs, (depth - first) / 2);  // the odd row exists
  for (size_t p = 0; p < whole_pairs; ++p) {
    const int16_t* even = b + (first + 2 * p) * ldb;
    for (size_t j0 = 0; j0 < whole_columns; j0 += kPanelColumns) {
      const __m256i r0 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(even + j0));
      const __m256i r1 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(even + ldb + j0));
      // unpack works within 128-bit lanes: low holds columns 0-3 and 8-11, high 4-7, 12-15.
      const __m256i low = _mm256_unpacklo_epi16(r0, r1);
      const __m256i high = _mm256_unpackhi_epi16(r0, r1);
      auto* out =
          reinterpret_cast<__m256i*>(block + j0 / kPanelColumns * panel_values + p * kStepValues);
      _mm256_storeu_si256(out, _mm256_permute2x128_si256(low, high, 0x20));
      _mm256_storeu_si256(out + 1, _mm256_permute2x128_si256(low, high, 0x31));
    }
  }
  for (size_t j0 = 0; j0 < columns; j0 += kPanelColumns) {
    const bool whole_panel = j0 < whole_columns;
    const size_t from = whole_panel ? whole_pairs : 0;
    const size_t width = std::min(kPanelColumns, columns - j0);
    int16_t* panel = block + j0 / kPanelColumns * panel_values;
    for (size_t p = from; p < pairs; ++p) {
      const size_t k = first + 2 * p;
      const int16_t* even = b + k * ldb + j0;
      const int16_t* odd = k + 1 < depth ? even + ldb : nullptr;
      int16_t* out = panel + p * kStepValues;
      for (size_t j = 0; j < kPanelColumns; ++j) {
        out[2 * j] = j < width ? even[j] : int16_t{0};
        out[2 * j + 1] = j < width && odd != nullptr ? odd[j] : int16_t{0};
      }
    }
  }
}

// kernelPortable with vpmaddwd on the AVX2 panel: kRows x 2 accumulators of eight int32 sums
// (12 of the 16 ymm registers for six rows), one broadcast pair of A and two loads of B a
// step.
template <size_t kRows>
ONYX_AVX2_TARGET void kernelAvx2(size_t pairs, const uint32_t* a, const int16_t* b, int32_t* c,
                                 size_t ldc, bool accumulate) {
  __m256i sums[kRows][2];
#pragma GCC unroll 8
  for (size_t r = 0; r < kRows; ++r) sums[r][0] = sums[r][1] = _mm256_setzero_si256();
  for (size_t p = 0; p < pairs; ++p) {
    const auto* step = reinterpret_cast<const __m256i*>(b + p * kStepValues);
    const __m256i b0 = _mm256_loadu_si256(step);
    const __m256i b1 = _mm256_loadu_si256(step + 1);
#pragma GCC unroll 8
    for (size_t r = 0; r < kRows; ++r) {
      const __m256i pair = _mm256_set1_epi32(static_cast<int32_t>(a[p * kRows + r]));
      sums[r][0] = _mm256_add_epi32(sums[r][0], _mm256_madd_epi16(pair, b0));
      sums[r][1] = _mm256_add_epi32(sums[r][1], _mm256_madd_epi16(pair, b1));
    }
  }
#pragma GCC unroll 8
  for (size_t r = 0; r < kRows; ++r) {
    auto* row = reinterpret_cast<__m256i*>(c + r * ldc);
    __m256i s0 = sums[r][0], s1 = sums[r][1];
    if (accumulate) {
      s0 = _mm256_add_epi32(s0, _mm256_loadu_si256(row));
      s1 = _mm256_add_epi32(s1, _mm256_loadu_si256(row + 1));
    }
    _mm256_storeu_si256(row, s0);
    _mm256_storeu_si256(row + 1, s1);
  }
}

#endif  // ONYX_BYTE_PAIR_AVX2

using Kernel = void (*)(size_t pairs, const uint32_t* a, const int16_t* b, int32_t* c, size_t ldc,
                        bool accumulate);
using PackBlock = void (*)(const int16_t* b, size_t ldb, size_t depth, size_t first, size_t pairs,
                           size_t columns, int16_t* block);

// One path's packing and kernels, by the rows of a panel (1 to kPanelRows).
struct Path {
  PackBlock pack;
  std::array<Kernel, BytePairLeft::kPanelRows> kernels;
};

static_assert(BytePairLeft::kPanelRows == 6, "the kernel tables list six row counts");

constexpr Path kPortablePath = {packBlockPortable,
                                {kernelPortable<1>, kernelPortable<2>, kernelPortable<3>,
                                 kernelPortable<4>, kernelPortable<5>, kernelPortable<6>}};

#ifdef ONYX_BYTE_PAIR_AVX2
constexpr Path kAvx2Path = {
    packBlockAvx2,
    {kernelAvx2<1>, kernelAvx2<2>, kernelAvx2<3>, kernelAvx2<4>, kernelAvx2<5>, kernelAvx2<6>}};
#endif

}  // namespace

BytePairLeft::BytePairLeft(size_t rows, size_t depth, const int16_t* a, size_t lda)
    : rows_(rows), depth_(depth), pairs_((depth + 1) / 2), data_(rows * pairs_) {
  for (size_t panel = 0; panel < panels(); ++panel) {
    const size_t first = panel * kPanelRows;
    const size_t count = panelRows(panel);
    uint32_t* out = data_.data() + first * pairs_;
    for (size_t p = 0; p < pairs_; ++p) {
      const size_t k = 2 * p;
      for (size_t r = 0; r < count; ++r) {
        const int16_t* row = a + (first + r) * lda;
        out[p * count + r] = pairOf(row[k], k + 1 < depth ? row[k + 1] : int16_t{0});
      }
    }
  }
}

size_t BytePairLeft::panelRows(size_t panel) const {
  return std::min(kPanelRows, rows_ - panel * kPanelRows);
}

void bytePairGemm(const BytePairLeft& a, size_t columns, const int16_t* b, size_t ldb, int32_t* c,
                  size_t ldc, bool avx2) {
  const size_t rows = a.rows(), depth = a.depth(), pairs = a.pairs();
  if (rows == 0 || columns == 0) return;
  if (pairs == 0) {
    for (size_t i = 0; i < rows; ++i) std::fill(c + i * ldc, c + i * ldc + columns, 0);
    return;
  }
  const Path* path = &kPortablePath;
#ifdef ONYX_BYTE_PAIR_AVX2
  if (avx2) path = &kAvx2Path;
#else
  (void)avx2;
#endif
  // Kept from call to call on each thread: a convolution calls once per column tile.
  thread_local std::vector<int16_t> block;
  panelProduct<Blocking>(
      a, pairs, columns, c, ldc, block,
      [&](size_t first_pair, size_t steps, size_t c0, size_t block_columns, int16_t* to) {
        path->pack(b + c0, ldb, depth, 2 * first_pair, steps, block_columns, to);
      },
      [&](size_t count) { return path->kernels[count - 1]; });
}

}  // namespace onyx::ops::nn
