// The exact byte-quad product (byte_quad_gemm.h): the AVX512-VNNI kernel, the packing of B and
// the zero points taken off after.
//
// Blocking (panel_product.h): the depth in blocks of at most kMostBlockQuads steps and the
// columns in blocks of kBlockColumns; each block of B is packed (in L2), then each of its
// panels of 32 columns meets every panel of A (6 rows) in the kernel.
// A step of a packed panel is 128 bytes: for each of the 32 columns, its four bytes at the
// step's depth.
#include "ops/nn/byte_quad_gemm.h"

#include <algorithm>
#include <array>
#include <vector>

#include "ops/nn/panel_product.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define ONYX_BYTE_QUAD_VNNI 1
#endif

namespace onyx::ops::nn {

namespace {

// Columns in a packed panel of B: two zmm registers of sixteen 32-bit quads.
constexpr size_t kPanelColumns = 32;
// Bytes in a step of a packed panel.
constexpr size_t kStepBytes = 4 * kPanelColumns;
// At most this many steps in a block of depth: a packed panel of 192 steps is 24 KiB, so it
// stays in L1 while every panel of A passes over it; a 3x3 convolution of 64 channels (depth
// 576, 144 steps) takes one block.
constexpr size_t kMostBlockQuads = 192;
// Columns in a block of B, packed together (at most 96 KiB, in L2).
constexpr size_t kBlockColumns = 128;
using Blocking = PanelBlocking<ByteQuadLeft::kPanelRows, kPanelColumns, kMostBlockQuads,
                               kBlockColumns, kStepBytes>;

uint32_t quadOf(const int8_t* row, size_t k, size_t depth) {
  uint32_t word = 0;
  for (size_t i = 0; i < 4 && k + i < depth; ++i) {
    word |= static_cast<uint32_t>(static_cast<uint8_t>(row[k + i])) << (8 * i);
  }
  return word;
}

// The scalar packing of one panel's steps [from, quads) (a panel cut short by the columns, or
// the last step of a depth that is not a multiple of four): missing rows and columns read as
// zero. Adds each column's bytes to column_sums.
void packPanelSteps(const uint8_t* b, size_t ldb, size_t depth, size_t first, size_t from,
                    size_t quads, size_t columns, uint8_t* panel, uint32_t* column_sums) {
  for (size_t q = from; q < quads; ++q) {
    uint8_t* out = panel + q * kStepBytes;
    for (size_t j = 0; j < kPanelColumns; ++j) {
      for (size_t i = 0; i < 4; ++i) {
        const size_t k = first + 4 * q + i;
        const uint8_t value = j < columns && k < depth ? b[k * ldb + j] : uint8_t{0};
        out[4 * j + i] = value;
        if (j < columns) column_sums[j] += value;
      }
    }
  }
}

// The panels of B for columns [0, columns) (at most kBlockColumns), one after another, each
// `quads` steps; adds each column's bytes to column_sums.
void packBlockPortable(const uint8_t* b, size_t ldb, size_t depth, size_t first, size_t quads,
                       size_t columns, uint8_t* block, uint32_t* column_sums) {
  for (size_t j0 = 0; j0 < columns; j0 += kPanelColumns) {
    packPanelSteps(b + j0, ldb, depth, first, 0, quads, std::min(kPanelColumns, columns - j0),
                   block + j0 / kPanelColumns * quads * kStepBytes, column_sums + j0);
  }
}

// c (kRows x 32, rows ldc apart) = (or += when `accumulate`) the panel of A (`quads` steps of
// kRows words) times the panel of B, in wrapping 32-bit sums, as vpdpbusd forms them.
template <size_t kRows>
void kernelPortable(size_t quads, const uint32_t* a, const uint8_t* b, int32_t* c, size_t ldc,
                    bool accumulate) {
  uint32_t sums[kRows][kPanelColumns] = {};
  for (size_t q = 0; q < quads; ++q) {
    const uint8_t* step = b + q * kStepBytes;
    for (size_t r = 0; r < kRows; ++r) {
      const uint32_t word = a[q * kRows + r];
      for (size_t i = 0; i < 4; ++i) {
        const int32_t weight = static_cast<int8_t>(static_cast<uint8_t>(word >> (8 * i)));
        for (size_t j = 0; j < kPanelColumns; ++j) {
          sums[r][j] += static_cast<uint32_t>(weight * int32_t{step[4 * j + i]});
        }
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

using Kernel = void (*)(size_t quads, const uint32_t* a, const uint8_t* b, int32_t* c, size_t ldc,
                        bool accumulate);
using PackBlock = void (*)(const uint8_t* b, size_t ldb, size_t depth, size_t first, size_t quads,
                           size_t columns, uint8_t* block, uint32_t* column_sums);

// One path's packing and kernels, by the rows of a panel (1 to kPanelRows).
struct Path {
  PackBlock pack;
  std::array<Kernel, ByteQuadLeft::kPanelRows> kernels;
};

static_assert(ByteQuadLeft::kPanelRows == 6, "the kernel tables list six row counts");

constexpr Path kPortablePath = {packBlockPortable,
                                {kernelPortable<1>, kernelPortable<2>, kernelPortable<3>,
                                 kernelPortable<4>, kernelPortable<5>, kernelPortable<6>}};

#ifdef ONYX_BYTE_QUAD_VNNI

#define ONYX_VNNI_TARGET __attribute__((target("avx2,avx512f,avx512bw,avx512vl,avx512vnni")))

// The panels of B for columns [0, columns) (at most kBlockColumns) and steps [0, quads) from
// depth row `first`, one panel after another; adds each column's bytes to column_sums. Four
// rows at a time are interleaved in registers (rows read in order, 32 columns at a time).
ONYX_VNNI_TARGET void packBlockVnni(const uint8_t* b, size_t ldb, size_t depth, size_t first,
                                    size_t quads, size_t columns, uint8_t* block,
                                    uint32_t* column_sums) {
  const size_t panel_bytes = quads * kStepBytes;
  const size_t whole_columns = columns / kPanelColumns * kPanelColumns;
  const size_t whole_quads = std::min(quads, (depth - first) / 4);  // all four rows exist
  const __m256i ones = _mm256_set1_epi8(1);
  for (size_t j0 = 0; j0 < whole_columns; j0 += kPanelColumns) {
    auto* sums = reinterpret_cast<__m256i*>(column_sums + j0);
    __m256i s0 = _mm256_loadu_si256(sums), s1 = _mm256_loadu_si256(sums + 1);
    __m256i s2 = _mm256_loadu_si256(sums + 2), s3 = _mm256_loadu_si256(sums + 3);
    uint8_t* panel = block + j0 / kPanelColumns * panel_bytes;
    for (size_t q = 0; q < whole_quads; ++q) {
      const uint8_t* row = b + (first + 4 * q) * ldb + j0;
      const __m256i r0 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(row));
      const __m256i r1 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(row + ldb));
      const __m256i r2 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(row + 2 * ldb));
      const __m256i r3 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(row + 3 * ldb));
      // unpack works within 128-bit lanes: the low lane holds columns 0-15, the high 16-31.
      const __m256i pairs01_low = _mm256_unpacklo_epi8(r0, r1);   // columns 0-7, 16-23
      const __m256i pairs01_high = _mm256_unpackhi_epi8(r0, r1);  // 8-15, 24-31
      const __m256i pairs23_low = _mm256_unpacklo_epi8(r2, r3);
      const __m256i pairs23_high = _mm256_unpackhi_epi8(r2, r3);
      const __m256i q0 = _mm256_unpacklo_epi16(pairs01_low, pairs23_low);    // 0-3, 16-19
      const __m256i q1 = _mm256_unpackhi_epi16(pairs01_low, pairs23_low);    // 4-7, 20-23
      const __m256i q2 = _mm256_unpacklo_epi16(pairs01_high, pairs23_high);  // 8-11, 24-27
      const __m256i q3 = _mm256_unpackhi_epi16(pairs01_high, pairs23_high);  // 12-15, 28-31
      const __m256i c0 = _mm256_permute2x128_si256(q0, q1, 0x20);            // columns 0-7
      const __m256i c1 = _mm256_permute2x128_si256(q2, q3, 0x20);            // 8-15
      const __m256i c2 = _mm256_permute2x128_si256(q0, q1, 0x31);            // 16-23
      const __m256i c3 = _mm256_permute2x128_si256(q2, q3, 0x31);            // 24-31
      auto* out = reinterpret_cast<__m256i*>(panel + q * kStepBytes);
      _mm256_storeu_si256(out, c0);
      _mm256_storeu_si256(out + 1, c1);
      _mm256_storeu_si256(out + 2, c2);
      _mm256_storeu_si256(out + 3, c3);
      s0 = _mm256_dpbusd_epi32(s0, c0, ones);
      s1 = _mm256_dpbusd_epi32(s1, c1, ones);
      s2 = _mm256_dpbusd_epi32(s2, c2, ones);
      s3 = _mm256_dpbusd_epi32(s3, c3, ones);
    }
    _mm256_storeu_si256(sums, s0);
    _mm256_storeu_si256(sums + 1, s1);
    _mm256_storeu_si256(sums + 2, s2);
    _mm256_storeu_si256(sums + 3, s3);
    packPanelSteps(b + j0, ldb, depth, first, whole_quads, quads, kPanelColumns, panel,
                   column_sums + j0);
  }
  if (whole_columns < columns) {
    packPanelSteps(b + whole_columns, ldb, depth, first, 0, quads, columns - whole_columns,
                   block + whole_columns / kPanelColumns * panel_bytes,
                   column_sums + whole_columns);
  }
}

// c (kRows x 32, rows ldc apart) = (or += when `accumulate`) the panel of A (`quads` steps of
// kRows words) times the panel of B: kRows x 2 accumulators of sixteen int32 sums, one
// broadcast word of A and two loads of B a step.
template <size_t kRows>
ONYX_VNNI_TARGET void kernelVnni(size_t quads, const uint32_t* a, const uint8_t* b, int32_t* c,
                                 size_t ldc, bool accumulate) {
  __m512i sums[kRows][2];
#pragma GCC unroll 8
  for (size_t r = 0; r < kRows; ++r) sums[r][0] = sums[r][1] = _mm512_setzero_si512();
  for (size_t q = 0; q < quads; ++q) {
    const uint8_t* step = b + q * kStepBytes;
    const __m512i b0 = _mm512_loadu_si512(step);
    const __m512i b1 = _mm512_loadu_si512(step + 64);
#pragma GCC unroll 8
    for (size_t r = 0; r < kRows; ++r) {
      const __m512i word = _mm512_set1_epi32(static_cast<int32_t>(a[q * kRows + r]));
      sums[r][0] = _mm512_dpbusd_epi32(sums[r][0], b0, word);
      sums[r][1] = _mm512_dpbusd_epi32(sums[r][1], b1, word);
    }
  }
#pragma GCC unroll 8
  for (size_t r = 0; r < kRows; ++r) {
    int32_t* row = c + r * ldc;
    __m512i s0 = sums[r][0], s1 = sums[r][1];
    if (accumulate) {
      s0 = _mm512_add_epi32(s0, _mm512_loadu_si512(row));
      s1 = _mm512_add_epi32(s1, _mm512_loadu_si512(row + 16));
    }
    _mm512_storeu_si512(row, s0);
    _mm512_storeu_si512(row + 16, s1);
  }
}

constexpr Path kVnniPath = {
    packBlockVnni,
    {kernelVnni<1>, kernelVnni<2>, kernelVnni<3>, kernelVnni<4>, kernelVnni<5>, kernelVnni<6>}};

#endif  // ONYX_BYTE_QUAD_VNNI

// The raw sums and column sums in place, c[i][j] = sum a b, less the zero points' terms.
void takeOffZeroPoints(const ByteQuadLeft& a, size_t columns, int32_t b_zero,
                       const uint32_t* column_sums, int32_t* c, size_t ldc) {
  const uint32_t zb = static_cast<uint32_t>(b_zero);
  const uint32_t depth = static_cast<uint32_t>(a.depth());
  for (size_t i = 0; i < a.rows(); ++i) {
    const uint32_t za = static_cast<uint32_t>(a.zero(i));
    const uint32_t shift = depth * za * zb - zb * a.sum(i);
    if (shift == 0 && za == 0) continue;
    uint32_t* __restrict row = reinterpret_cast<uint32_t*>(c + i * ldc);
    for (size_t j = 0; j < columns; ++j) row[j] = row[j] - za * column_sums[j] + shift;
  }
}

}  // namespace

ByteQuadLeft::ByteQuadLeft(size_t rows, size_t depth, const int8_t* a, size_t lda,
                           const int32_t* zeros)
    : rows_(rows),
      depth_(depth),
      quads_((depth + 3) / 4),
      data_(rows * quads_),
      zeros_(zeros, zeros + rows),
      sums_(rows, 0) {
  for (size_t panel = 0; panel < panels(); ++panel) {
    const size_t first = panel * kPanelRows;
    const size_t count = panelRows(panel);
    uint32_t* out = data_.data() + first * quads_;
    for (size_t q = 0; q < quads_; ++q) {
      for (size_t r = 0; r < count; ++r)
        out[q * count + r] = quadOf(a + (first + r) * lda, 4 * q, depth);
    }
  }
  for (size_t r = 0; r < rows; ++r) {
    uint32_t sum = 0;
    for (size_t k = 0; k < depth; ++k) sum += static_cast<uint32_t>(int32_t{a[r * lda + k]});
    sums_[r] = sum;
  }
}

size_t ByteQuadLeft::panelRows(size_t panel) const {
  return std::min(kPanelRows, rows_ - panel * kPanelRows);
}

void byteQuadGemm(const ByteQuadLeft& a, size_t columns, const uint8_t* b, size_t ldb,
                  int32_t b_zero, int32_t* c, size_t ldc, bool vnni) {
  const size_t rows = a.rows(), quads = a.quads();
  if (rows == 0 || columns == 0) return;
  if (quads == 0) {
    for (size_t i = 0; i < rows; ++i) std::fill(c + i * ldc, c + i * ldc + columns, 0);
    return;
  }
  const Path* path = &kPortablePath;
#ifdef ONYX_BYTE_QUAD_VNNI
  if (vnni) path = &kVnniPath;
#else
  (void)vnni;
#endif
  // Kept from call to call on each thread: a convolution calls once per column tile.
  thread_local std::vector<uint8_t> block;
  thread_local std::vector<uint32_t> column_sums;
  column_sums.assign(columns, 0);
  panelProduct<Blocking>(
      a, quads, columns, c, ldc, block,
      [&](size_t first_quad, size_t steps, size_t c0, size_t block_columns, uint8_t* to) {
        path->pack(b + c0, ldb, a.depth(), 4 * first_quad, steps, block_columns, to,
                   column_sums.data() + c0);
      },
      [&](size_t count) { return path->kernels[count - 1]; });
  takeOffZeroPoints(a, columns, b_zero, column_sums.data(), c, ldc);
}

}  // namespace onyx::ops::nn
