#include "eval/kernels/block_quantized_matmul.h"

#include <algorithm>
#include <array>
#include <cassert>
#include <vector>

#include "onyx/core/mapped_file.h"
#include "ops/kernels.h"
#include "ops/matrix_multiply.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define ONYX_BLOCK_QUANTIZED_X86 1
#endif

namespace onyx::eval_internal {

namespace {

float zeroPlace(const BlockQuantizedWeights& b, size_t block, size_t n, float offset) {
  return (b.zeros != nullptr ? b.zeros[blockIndex(b, block, n)] : 0.0f) + offset;
}

// ---- portable ------------------------------------------------------------------------------

// Columns [n0, n1) of every row, sums per block then scaled, as the vector kernels compute.
void fewRowsPortable(const float* a, size_t rows, const BlockQuantizedWeights& b, size_t n0,
                     size_t n1, float* c) {
  constexpr size_t kWidth = 64;
  const float offset = codeOffset(b);
  const size_t blocks = blockCount(b);
  std::array<float, kWidth> part{};
  for (size_t r = 0; r < rows; ++r) {
    const float* row = a + r * b.depth;
    float* out = c + r * b.columns;
    for (size_t first = n0; first < n1; first += kWidth) {
      const size_t width = std::min(kWidth, n1 - first);
      std::fill(out + first, out + first + width, 0.0f);
      for (size_t block = 0; block < blocks; ++block) {
        std::fill(part.begin(), part.begin() + width, 0.0f);
        const size_t k1 = std::min(b.depth, (block + 1) * b.block);
        for (size_t k = block * b.block; k < k1; ++k) {
          for (size_t j = 0; j < width; ++j) {
            const float w = static_cast<float>(unsignedCode(b, k, first + j)) -
                            zeroPlace(b, block, first + j, offset);
            part[j] += row[k] * w;
          }
        }
        for (size_t j = 0; j < width; ++j) {
          out[first + j] += part[j] * b.scales[blockIndex(b, block, first + j)];
        }
      }
    }
  }
}

// Rows [k0, k1) and columns [n0, n1) of the weights as DequantizeLinear gives them, into `out`
// (row stride n1 - n0).
void dequantizePortable(const BlockQuantizedWeights& b, size_t k0, size_t k1, size_t n0, size_t n1,
                        float* out) {
  const float offset = codeOffset(b);
  const size_t width = n1 - n0;
  for (size_t k = k0; k < k1; ++k) {
    const size_t block = k / b.block;
    float* to = out + (k - k0) * width;
    for (size_t n = n0; n < n1; ++n) {
      to[n - n0] = (static_cast<float>(unsignedCode(b, k, n)) - zeroPlace(b, block, n, offset)) *
                   b.scales[blockIndex(b, block, n)];
    }
  }
}

// Calls sweep(first, last, block) for columns [n0, n1) of tiled weights and every block, a
// tile at a time down all its blocks: the tile's codes, scales and zero points are one stream
// each, which the hardware prefetchers follow. (Row by row, a block's rows swept across all
// the columns were as many streams as the block has rows: a decoder's one-token products ran
// at 5-8 GB/s of codes on one core, a wide layer's rows far apart, and asking for the rows
// ahead in software helped; on tiles it made the 1.5B decoder's steps 4% slower.)
template <class Sweep>
void sweepBlocks(const BlockQuantizedWeights& b, size_t n0, size_t n1, Sweep&& sweep) {
  const size_t blocks = blockCount(b);
  for (size_t first = n0; first < n1;) {
    const size_t last = std::min(n1, first - first % kBlockQuantizedTile + kBlockQuantizedTile);
    for (size_t block = 0; block < blocks; ++block) sweep(first, last, block);
    first = last;
  }
}

#ifdef ONYX_BLOCK_QUANTIZED_X86

// The float 2^23 + u has the bits 0x4B000000 | u for a code u below 2^23: or-ing the widened
// codes into it and taking away 2^23 + c gives u - c with no conversion instruction.
constexpr int32_t kMagicBits = 0x4B000000;
constexpr float kMagic = 8388608.0f;

#define ONYX_AVX512_TARGET __attribute__((target("avx2,fma,avx512f,avx512bw,avx512vl")))
#define ONYX_AVX2_TARGET __attribute__((target("avx2,fma")))

// Sixteen unsigned codes from row k, columns n.. n + 15 (n even), as bytes in order.
ONYX_AVX512_TARGET inline __m128i sixteenCodes(const BlockQuantizedWeights& b, size_t k, size_t n) {
  const size_t i = codeIndex(b, k, n);
  if (b.bits == 8) {
    __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i*>(b.codes + i));
    return b.signed_codes ? _mm_xor_si128(bytes, _mm_set1_epi8(static_cast<char>(0x80))) : bytes;
  }
  __m128i packed = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(b.codes + i / 2));
  if (b.signed_codes) packed = _mm_xor_si128(packed, _mm_set1_epi8(static_cast<char>(0x88)));
  const __m128i low = _mm_and_si128(packed, _mm_set1_epi8(0x0F));
  const __m128i high = _mm_and_si128(_mm_srli_epi16(packed, 4), _mm_set1_epi8(0x0F));
  return _mm_unpacklo_epi8(low, high);
}

// Thirty-two unsigned codes from row k, columns n.. n + 31 (n even): two sets of sixteen.
ONYX_AVX512_TARGET inline void thirtyTwoCodes(const BlockQuantizedWeights& b, size_t k, size_t n,
                                              __m128i& first, __m128i& second) {
  const size_t i = codeIndex(b, k, n);
  if (b.bits == 8) {
    first = sixteenCodes(b, k, n);
    second = sixteenCodes(b, k, n + 16);
    return;
  }
  __m128i packed = _mm_loadu_si128(reinterpret_cast<const __m128i*>(b.codes + i / 2));
  if (b.signed_codes) packed = _mm_xor_si128(packed, _mm_set1_epi8(static_cast<char>(0x88)));
  const __m128i low = _mm_and_si128(packed, _mm_set1_epi8(0x0F));
  const __m128i high = _mm_and_si128(_mm_srli_epi16(packed, 4), _mm_set1_epi8(0x0F));
  first = _mm_unpacklo_epi8(low, high);
  second = _mm_unpackhi_epi8(low, high);
}

// (The masked form: GCC 12 takes the plain one's undefined start for an uninitialised read.)
ONYX_AVX512_TARGET inline __m512 widenAvx512(__m128i codes, __m512 place) {
  const __m512i ints =
      _mm512_or_si512(_mm512_maskz_cvtepu8_epi32(0xFFFF, codes), _mm512_set1_epi32(kMagicBits));
  return _mm512_sub_ps(_mm512_castsi512_ps(ints), place);
}

// kGroups x 16 columns from n of kRows rows: per block, the sums of a * (u - c) in registers,
// then scaled into c (zeroed first).
template <size_t kRows, size_t kGroups>
ONYX_AVX512_TARGET void fewRowsChunkAvx512(const float* a, const BlockQuantizedWeights& b, size_t n,
                                           size_t block, float* c) {
  static_assert(kGroups % 2 == 0 || kGroups == 1);
  const __m512 uniform_place = _mm512_set1_ps(kMagic + codeOffset(b));
  {
    __m512 place[kGroups];
#pragma GCC unroll 16
    for (size_t g = 0; g < kGroups; ++g) {
      place[g] = b.zeros == nullptr
                     ? uniform_place
                     : _mm512_add_ps(_mm512_loadu_ps(b.zeros + blockIndex(b, block, n + 16 * g)),
                                     uniform_place);
    }
    __m512 part[kRows][kGroups];
#pragma GCC unroll 16
    for (size_t r = 0; r < kRows; ++r) {
#pragma GCC unroll 16
      for (size_t g = 0; g < kGroups; ++g) part[r][g] = _mm512_setzero_ps();
    }
    const size_t k1 = std::min(b.depth, (block + 1) * b.block);
    for (size_t k = block * b.block; k < k1; ++k) {
      __m512 w[kGroups];
      if constexpr (kGroups == 1) {
        w[0] = widenAvx512(sixteenCodes(b, k, n), place[0]);
      } else {
#pragma GCC unroll 16
        for (size_t g = 0; g < kGroups; g += 2) {
          __m128i first, second;
          thirtyTwoCodes(b, k, n + 16 * g, first, second);
          w[g] = widenAvx512(first, place[g]);
          w[g + 1] = widenAvx512(second, place[g + 1]);
        }
      }
#pragma GCC unroll 16
      for (size_t r = 0; r < kRows; ++r) {
        const __m512 value = _mm512_set1_ps(a[r * b.depth + k]);
#pragma GCC unroll 16
        for (size_t g = 0; g < kGroups; ++g) part[r][g] = _mm512_fmadd_ps(value, w[g], part[r][g]);
      }
    }
#pragma GCC unroll 16
    for (size_t g = 0; g < kGroups; ++g) {
      const __m512 scale = _mm512_loadu_ps(b.scales + blockIndex(b, block, n + 16 * g));
#pragma GCC unroll 16
      for (size_t r = 0; r < kRows; ++r) {
        float* to = c + r * b.columns + n + 16 * g;
        _mm512_storeu_ps(to, _mm512_fmadd_ps(part[r][g], scale, _mm512_loadu_ps(to)));
      }
    }
  }
}

// 4-bit codes, kPairs x 32 columns from n of kRows rows, one block. Each 16 bytes of codes
// widen in one instruction into sixteen lanes of two codes each, whose low and high nibbles
// are the even and the odd columns: the sums run in that order, and the block's sums are put
// back in column order once, as they are scaled. (Widening each nibble into its own lane
// took four shuffles per 32 codes, and the shuffle port bounded the product.)
template <size_t kRows, size_t kPairs>
ONYX_AVX512_TARGET void fewRowsNibblesAvx512(const float* a, const BlockQuantizedWeights& b,
                                             size_t n, size_t block, float* c) {
  const __m512i evens =
      _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30);
  const __m512i odds = _mm512_setr_epi32(1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31);
  const __m512i low_half =
      _mm512_setr_epi32(0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23);
  const __m512i high_half =
      _mm512_setr_epi32(8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31);
  const __m512 uniform_place = _mm512_set1_ps(kMagic + codeOffset(b));
  const __m512i magic = _mm512_set1_epi32(kMagicBits);
  const __m512i nibble = _mm512_set1_epi32(0x0F);
  const __m128i flip = _mm_set1_epi8(static_cast<char>(b.signed_codes ? 0x88 : 0));
  __m512 even_place[kPairs], odd_place[kPairs];
#pragma GCC unroll 16
  for (size_t p = 0; p < kPairs; ++p) {
    if (b.zeros == nullptr) {
      even_place[p] = odd_place[p] = uniform_place;
    } else {
      const float* zeros = b.zeros + blockIndex(b, block, n + 32 * p);
      const __m512 first = _mm512_loadu_ps(zeros), second = _mm512_loadu_ps(zeros + 16);
      even_place[p] = _mm512_add_ps(_mm512_permutex2var_ps(first, evens, second), uniform_place);
      odd_place[p] = _mm512_add_ps(_mm512_permutex2var_ps(first, odds, second), uniform_place);
    }
  }
  __m512 even[kRows][kPairs], odd[kRows][kPairs];
#pragma GCC unroll 16
  for (size_t r = 0; r < kRows; ++r) {
#pragma GCC unroll 16
    for (size_t p = 0; p < kPairs; ++p) even[r][p] = odd[r][p] = _mm512_setzero_ps();
  }
  const size_t k1 = std::min(b.depth, (block + 1) * b.block);
  for (size_t k = block * b.block; k < k1; ++k) {
    const uint8_t* row = b.codes + codeIndex(b, k, n) / 2;
    __m512 w_even[kPairs], w_odd[kPairs];
#pragma GCC unroll 16
    for (size_t p = 0; p < kPairs; ++p) {
      const __m128i packed =
          _mm_xor_si128(_mm_loadu_si128(reinterpret_cast<const __m128i*>(row + 16 * p)), flip);
      const __m512i pairs = _mm512_maskz_cvtepu8_epi32(0xFFFF, packed);
      const __m512i low = _mm512_or_si512(_mm512_and_si512(pairs, nibble), magic);
      const __m512i high = _mm512_or_si512(_mm512_maskz_srli_epi32(0xFFFF, pairs, 4), magic);
      w_even[p] = _mm512_sub_ps(_mm512_castsi512_ps(low), even_place[p]);
      w_odd[p] = _mm512_sub_ps(_mm512_castsi512_ps(high), odd_place[p]);
    }
#pragma GCC unroll 16
    for (size_t r = 0; r < kRows; ++r) {
      const __m512 value = _mm512_set1_ps(a[r * b.depth + k]);
#pragma GCC unroll 16
      for (size_t p = 0; p < kPairs; ++p) {
        even[r][p] = _mm512_fmadd_ps(value, w_even[p], even[r][p]);
        odd[r][p] = _mm512_fmadd_ps(value, w_odd[p], odd[r][p]);
      }
    }
  }
#pragma GCC unroll 16
  for (size_t p = 0; p < kPairs; ++p) {
    const float* scales = b.scales + blockIndex(b, block, n + 32 * p);
    const __m512 first_scale = _mm512_loadu_ps(scales), second_scale = _mm512_loadu_ps(scales + 16);
#pragma GCC unroll 16
    for (size_t r = 0; r < kRows; ++r) {
      float* to = c + r * b.columns + n + 32 * p;
      const __m512 first = _mm512_permutex2var_ps(even[r][p], low_half, odd[r][p]);
      const __m512 second = _mm512_permutex2var_ps(even[r][p], high_half, odd[r][p]);
      _mm512_storeu_ps(to, _mm512_fmadd_ps(first, first_scale, _mm512_loadu_ps(to)));
      _mm512_storeu_ps(to + 16, _mm512_fmadd_ps(second, second_scale, _mm512_loadu_ps(to + 16)));
    }
  }
}

template <size_t kPairs>
ONYX_AVX512_TARGET void fewRowsNibbleColumnsAvx512(const float* a, size_t rows,
                                                   const BlockQuantizedWeights& b, size_t n,
                                                   size_t block, float* c) {
  size_t r = 0;
  for (; r + 2 <= rows; r += 2) {
    fewRowsNibblesAvx512<2, kPairs>(a + r * b.depth, b, n, block, c + r * b.columns);
  }
  if (r < rows) fewRowsNibblesAvx512<1, kPairs>(a + r * b.depth, b, n, block, c + r * b.columns);
}

template <size_t kGroups>
ONYX_AVX512_TARGET void fewRowsColumnsAvx512(const float* a, size_t rows,
                                             const BlockQuantizedWeights& b, size_t n, size_t block,
                                             float* c) {
  size_t r = 0;
  for (; r + 2 <= rows; r += 2) {
    fewRowsChunkAvx512<2, kGroups>(a + r * b.depth, b, n, block, c + r * b.columns);
  }
  if (r < rows) fewRowsChunkAvx512<1, kGroups>(a + r * b.depth, b, n, block, c + r * b.columns);
}

ONYX_AVX512_TARGET void fewRowsAvx512(const float* a, size_t rows, const BlockQuantizedWeights& b,
                                      size_t n0, size_t n1, float* c) {
  const size_t whole = n0 + (n1 - n0) / 16 * 16;
  for (size_t r = 0; r < rows; ++r)
    std::fill(c + r * b.columns + n0, c + r * b.columns + whole, 0.0f);
  sweepBlocks(b, n0, whole, [&](size_t first, size_t last, size_t block) {
    size_t n = first;
    if (b.bits == 4) {
      for (; n + 128 <= last; n += 128) fewRowsNibbleColumnsAvx512<4>(a, rows, b, n, block, c);
      for (; n + 32 <= last; n += 32) fewRowsNibbleColumnsAvx512<1>(a, rows, b, n, block, c);
    }
    for (; n + 128 <= last; n += 128) fewRowsColumnsAvx512<8>(a, rows, b, n, block, c);
    for (; n < last; n += 16) fewRowsColumnsAvx512<1>(a, rows, b, n, block, c);
  });
  if (whole < n1) fewRowsPortable(a, rows, b, whole, n1, c);
}

ONYX_AVX512_TARGET void dequantizeAvx512(const BlockQuantizedWeights& b, size_t k0, size_t k1,
                                         size_t n0, size_t n1, float* out) {
  const size_t width = n1 - n0;
  const size_t whole = n0 + (width / 16) * 16;
  const __m512 uniform_place = _mm512_set1_ps(kMagic + codeOffset(b));
  for (size_t k = k0; k < k1; ++k) {
    const size_t block = k / b.block;
    float* to = out + (k - k0) * width;
    for (size_t n = n0; n < whole; n += 16) {
      const __m512 place =
          b.zeros == nullptr
              ? uniform_place
              : _mm512_add_ps(_mm512_loadu_ps(b.zeros + blockIndex(b, block, n)), uniform_place);
      const __m512 w = widenAvx512(sixteenCodes(b, k, n), place);
      _mm512_storeu_ps(to + (n - n0),
                       _mm512_mul_ps(w, _mm512_loadu_ps(b.scales + blockIndex(b, block, n))));
    }
  }
  if (whole < n1) {
    // The last columns, row by row, where the tile's rows lie in `out`.
    std::vector<float> rest((k1 - k0) * (n1 - whole));
    dequantizePortable(b, k0, k1, whole, n1, rest.data());
    for (size_t k = k0; k < k1; ++k) {
      std::copy_n(rest.data() + (k - k0) * (n1 - whole), n1 - whole,
                  out + (k - k0) * width + (whole - n0));
    }
  }
}

// ---- AVX2 ------------------------------------------------------------------------------------

// Eight unsigned codes from row k, columns n.. n + 7 (n even), widened to u - c.
ONYX_AVX2_TARGET inline __m256 widenEightAvx2(const BlockQuantizedWeights& b, size_t k, size_t n,
                                              __m256 place) {
  const size_t i = codeIndex(b, k, n);
  __m128i bytes;
  if (b.bits == 8) {
    bytes = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(b.codes + i));
    if (b.signed_codes) bytes = _mm_xor_si128(bytes, _mm_set1_epi8(static_cast<char>(0x80)));
  } else {
    uint32_t four;
    __builtin_memcpy(&four, b.codes + i / 2, 4);
    __m128i packed = _mm_cvtsi32_si128(static_cast<int>(four));
    if (b.signed_codes) packed = _mm_xor_si128(packed, _mm_set1_epi8(static_cast<char>(0x88)));
    const __m128i low = _mm_and_si128(packed, _mm_set1_epi8(0x0F));
    const __m128i high = _mm_and_si128(_mm_srli_epi16(packed, 4), _mm_set1_epi8(0x0F));
    bytes = _mm_unpacklo_epi8(low, high);
  }
  const __m256i ints = _mm256_or_si256(_mm256_cvtepu8_epi32(bytes), _mm256_set1_epi32(kMagicBits));
  return _mm256_sub_ps(_mm256_castsi256_ps(ints), place);
}

// Thirty-two codes from row k, columns n.. n + 31 (n even), widened into four sets of eight.
ONYX_AVX2_TARGET inline void widenThirtyTwoAvx2(const BlockQuantizedWeights& b, size_t k, size_t n,
                                                const __m256* place, __m256* w) {
  if (b.bits == 8) {
#pragma GCC unroll 16
    for (size_t g = 0; g < 4; ++g) w[g] = widenEightAvx2(b, k, n + 8 * g, place[g]);
    return;
  }
  const size_t i = codeIndex(b, k, n);
  __m128i packed = _mm_loadu_si128(reinterpret_cast<const __m128i*>(b.codes + i / 2));
  if (b.signed_codes) packed = _mm_xor_si128(packed, _mm_set1_epi8(static_cast<char>(0x88)));
  const __m128i low = _mm_and_si128(packed, _mm_set1_epi8(0x0F));
  const __m128i high = _mm_and_si128(_mm_srli_epi16(packed, 4), _mm_set1_epi8(0x0F));
  const __m128i halves[2] = {_mm_unpacklo_epi8(low, high), _mm_unpackhi_epi8(low, high)};
  const __m256i magic = _mm256_set1_epi32(kMagicBits);
#pragma GCC unroll 16
  for (size_t h = 0; h < 2; ++h) {
    const __m256i first = _mm256_or_si256(_mm256_cvtepu8_epi32(halves[h]), magic);
    const __m256i second =
        _mm256_or_si256(_mm256_cvtepu8_epi32(_mm_srli_si128(halves[h], 8)), magic);
    w[2 * h] = _mm256_sub_ps(_mm256_castsi256_ps(first), place[2 * h]);
    w[2 * h + 1] = _mm256_sub_ps(_mm256_castsi256_ps(second), place[2 * h + 1]);
  }
}

template <size_t kRows, size_t kGroups>
ONYX_AVX2_TARGET void fewRowsChunkAvx2(const float* a, const BlockQuantizedWeights& b, size_t n,
                                       size_t block, float* c) {
  static_assert(kGroups == 4 || kGroups == 1);
  const __m256 uniform_place = _mm256_set1_ps(kMagic + codeOffset(b));
  {
    __m256 place[kGroups];
#pragma GCC unroll 16
    for (size_t g = 0; g < kGroups; ++g) {
      place[g] = b.zeros == nullptr
                     ? uniform_place
                     : _mm256_add_ps(_mm256_loadu_ps(b.zeros + blockIndex(b, block, n + 8 * g)),
                                     uniform_place);
    }
    __m256 part[kRows][kGroups];
#pragma GCC unroll 16
    for (size_t r = 0; r < kRows; ++r) {
#pragma GCC unroll 16
      for (size_t g = 0; g < kGroups; ++g) part[r][g] = _mm256_setzero_ps();
    }
    const size_t k1 = std::min(b.depth, (block + 1) * b.block);
    for (size_t k = block * b.block; k < k1; ++k) {
      __m256 w[kGroups];
      if constexpr (kGroups == 1) {
        w[0] = widenEightAvx2(b, k, n, place[0]);
      } else {
        widenThirtyTwoAvx2(b, k, n, place, w);
      }
#pragma GCC unroll 16
      for (size_t r = 0; r < kRows; ++r) {
        const __m256 value = _mm256_set1_ps(a[r * b.depth + k]);
#pragma GCC unroll 16
        for (size_t g = 0; g < kGroups; ++g) part[r][g] = _mm256_fmadd_ps(value, w[g], part[r][g]);
      }
    }
#pragma GCC unroll 16
    for (size_t g = 0; g < kGroups; ++g) {
      const __m256 scale = _mm256_loadu_ps(b.scales + blockIndex(b, block, n + 8 * g));
#pragma GCC unroll 16
      for (size_t r = 0; r < kRows; ++r) {
        float* to = c + r * b.columns + n + 8 * g;
        _mm256_storeu_ps(to, _mm256_fmadd_ps(part[r][g], scale, _mm256_loadu_ps(to)));
      }
    }
  }
}

// fewRowsNibblesAvx512 with eight lanes: kPairs x 16 columns from n, one block.
template <size_t kRows, size_t kPairs>
ONYX_AVX2_TARGET void fewRowsNibblesAvx2(const float* a, const BlockQuantizedWeights& b, size_t n,
                                         size_t block, float* c) {
  const __m256 uniform_place = _mm256_set1_ps(kMagic + codeOffset(b));
  const __m256i magic = _mm256_set1_epi32(kMagicBits);
  const __m256i nibble = _mm256_set1_epi32(0x0F);
  const __m128i flip = _mm_set1_epi8(static_cast<char>(b.signed_codes ? 0x88 : 0));
  // The lanes' columns in even and odd order: 0 2 4 6 8 10 12 14 from two sets of eight.
  const __m256i evens = _mm256_setr_epi32(0, 2, 4, 6, 0, 2, 4, 6);
  const __m256i odds = _mm256_setr_epi32(1, 3, 5, 7, 1, 3, 5, 7);
  __m256 even_place[kPairs], odd_place[kPairs];
#pragma GCC unroll 16
  for (size_t p = 0; p < kPairs; ++p) {
    if (b.zeros == nullptr) {
      even_place[p] = odd_place[p] = uniform_place;
    } else {
      const float* zeros = b.zeros + blockIndex(b, block, n + 16 * p);
      const __m256 first = _mm256_loadu_ps(zeros), second = _mm256_loadu_ps(zeros + 8);
      // Each permute orders one set; the blend takes the first set's half and the second's.
      even_place[p] = _mm256_add_ps(_mm256_blend_ps(_mm256_permutevar8x32_ps(first, evens),
                                                    _mm256_permutevar8x32_ps(second, evens), 0xF0),
                                    uniform_place);
      odd_place[p] = _mm256_add_ps(_mm256_blend_ps(_mm256_permutevar8x32_ps(first, odds),
                                                   _mm256_permutevar8x32_ps(second, odds), 0xF0),
                                   uniform_place);
    }
  }
  __m256 even[kRows][kPairs], odd[kRows][kPairs];
#pragma GCC unroll 16
  for (size_t r = 0; r < kRows; ++r) {
#pragma GCC unroll 16
    for (size_t p = 0; p < kPairs; ++p) even[r][p] = odd[r][p] = _mm256_setzero_ps();
  }
  const size_t k1 = std::min(b.depth, (block + 1) * b.block);
  for (size_t k = block * b.block; k < k1; ++k) {
    const uint8_t* row = b.codes + codeIndex(b, k, n) / 2;
    __m256 w_even[kPairs], w_odd[kPairs];
#pragma GCC unroll 16
    for (size_t p = 0; p < kPairs; ++p) {
      const __m128i packed =
          _mm_xor_si128(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(row + 8 * p)), flip);
      const __m256i pairs = _mm256_cvtepu8_epi32(packed);
      const __m256i low = _mm256_or_si256(_mm256_and_si256(pairs, nibble), magic);
      const __m256i high = _mm256_or_si256(_mm256_srli_epi32(pairs, 4), magic);
      w_even[p] = _mm256_sub_ps(_mm256_castsi256_ps(low), even_place[p]);
      w_odd[p] = _mm256_sub_ps(_mm256_castsi256_ps(high), odd_place[p]);
    }
#pragma GCC unroll 16
    for (size_t r = 0; r < kRows; ++r) {
      const __m256 value = _mm256_set1_ps(a[r * b.depth + k]);
#pragma GCC unroll 16
      for (size_t p = 0; p < kPairs; ++p) {
        even[r][p] = _mm256_fmadd_ps(value, w_even[p], even[r][p]);
        odd[r][p] = _mm256_fmadd_ps(value, w_odd[p], odd[r][p]);
      }
    }
  }
#pragma GCC unroll 16
  for (size_t p = 0; p < kPairs; ++p) {
    const float* scales = b.scales + blockIndex(b, block, n + 16 * p);
    const __m256 first_scale = _mm256_loadu_ps(scales), second_scale = _mm256_loadu_ps(scales + 8);
#pragma GCC unroll 16
    for (size_t r = 0; r < kRows; ++r) {
      float* to = c + r * b.columns + n + 16 * p;
      // unpack interleaves within 128-bit halves: columns 0-3 | 8-11 and 4-7 | 12-15.
      const __m256 low = _mm256_unpacklo_ps(even[r][p], odd[r][p]);
      const __m256 high = _mm256_unpackhi_ps(even[r][p], odd[r][p]);
      const __m256 first = _mm256_permute2f128_ps(low, high, 0x20);
      const __m256 second = _mm256_permute2f128_ps(low, high, 0x31);
      _mm256_storeu_ps(to, _mm256_fmadd_ps(first, first_scale, _mm256_loadu_ps(to)));
      _mm256_storeu_ps(to + 8, _mm256_fmadd_ps(second, second_scale, _mm256_loadu_ps(to + 8)));
    }
  }
}

template <size_t kPairs>
ONYX_AVX2_TARGET void fewRowsNibbleColumnsAvx2(const float* a, size_t rows,
                                               const BlockQuantizedWeights& b, size_t n,
                                               size_t block, float* c) {
  size_t r = 0;
  for (; r + 2 <= rows; r += 2) {
    fewRowsNibblesAvx2<2, kPairs>(a + r * b.depth, b, n, block, c + r * b.columns);
  }
  if (r < rows) fewRowsNibblesAvx2<1, kPairs>(a + r * b.depth, b, n, block, c + r * b.columns);
}

template <size_t kGroups>
ONYX_AVX2_TARGET void fewRowsColumnsAvx2(const float* a, size_t rows,
                                         const BlockQuantizedWeights& b, size_t n, size_t block,
                                         float* c) {
  size_t r = 0;
  for (; r + 2 <= rows; r += 2) {
    fewRowsChunkAvx2<2, kGroups>(a + r * b.depth, b, n, block, c + r * b.columns);
  }
  if (r < rows) fewRowsChunkAvx2<1, kGroups>(a + r * b.depth, b, n, block, c + r * b.columns);
}

ONYX_AVX2_TARGET void fewRowsAvx2(const float* a, size_t rows, const BlockQuantizedWeights& b,
                                  size_t n0, size_t n1, float* c) {
  const size_t whole = n0 + (n1 - n0) / 8 * 8;
  for (size_t r = 0; r < rows; ++r)
    std::fill(c + r * b.columns + n0, c + r * b.columns + whole, 0.0f);
  sweepBlocks(b, n0, whole, [&](size_t first, size_t last, size_t block) {
    size_t n = first;
    if (b.bits == 4) {
      for (; n + 32 <= last; n += 32) fewRowsNibbleColumnsAvx2<2>(a, rows, b, n, block, c);
      for (; n + 16 <= last; n += 16) fewRowsNibbleColumnsAvx2<1>(a, rows, b, n, block, c);
    }
    for (; n + 32 <= last; n += 32) fewRowsColumnsAvx2<4>(a, rows, b, n, block, c);
    for (; n < last; n += 8) fewRowsColumnsAvx2<1>(a, rows, b, n, block, c);
  });
  if (whole < n1) fewRowsPortable(a, rows, b, whole, n1, c);
}

ONYX_AVX2_TARGET void dequantizeAvx2(const BlockQuantizedWeights& b, size_t k0, size_t k1,
                                     size_t n0, size_t n1, float* out) {
  const size_t width = n1 - n0;
  const size_t whole = n0 + (width / 8) * 8;
  const __m256 uniform_place = _mm256_set1_ps(kMagic + codeOffset(b));
  for (size_t k = k0; k < k1; ++k) {
    const size_t block = k / b.block;
    float* to = out + (k - k0) * width;
    for (size_t n = n0; n < whole; n += 8) {
      const __m256 place =
          b.zeros == nullptr
              ? uniform_place
              : _mm256_add_ps(_mm256_loadu_ps(b.zeros + blockIndex(b, block, n)), uniform_place);
      const __m256 w = widenEightAvx2(b, k, n, place);
      _mm256_storeu_ps(to + (n - n0),
                       _mm256_mul_ps(w, _mm256_loadu_ps(b.scales + blockIndex(b, block, n))));
    }
  }
  if (whole < n1) {
    std::vector<float> rest((k1 - k0) * (n1 - whole));
    dequantizePortable(b, k0, k1, whole, n1, rest.data());
    for (size_t k = k0; k < k1; ++k) {
      std::copy_n(rest.data() + (k - k0) * (n1 - whole), n1 - whole,
                  out + (k - k0) * width + (whole - n0));
    }
  }
}

#endif  // ONYX_BLOCK_QUANTIZED_X86

using FewRows = void (*)(const float* a, size_t rows, const BlockQuantizedWeights& b, size_t n0,
                         size_t n1, float* c);
using Dequantize = void (*)(const BlockQuantizedWeights& b, size_t k0, size_t k1, size_t n0,
                            size_t n1, float* out);

// One tier's kernels, and the columns each thread's chunk holds (a multiple of its vectors).
struct Path {
  FewRows few_rows;
  Dequantize dequantize;
  size_t chunk;
};

Path pathFor(CpuTier tier, const BlockQuantizedWeights& b) {
  // Packed codes of an odd column count start rows mid-byte: the vector loads need even ones.
  const bool aligned_rows = b.bits == 8 || b.columns % 2 == 0;
#ifdef ONYX_BLOCK_QUANTIZED_X86
  if (aligned_rows && tier >= CpuTier::kAvx512) return {fewRowsAvx512, dequantizeAvx512, 128};
  if (aligned_rows && tier >= CpuTier::kAvx2) return {fewRowsAvx2, dequantizeAvx2, 32};
#else
  (void)tier;
  (void)aligned_rows;
#endif
  return {fewRowsPortable, dequantizePortable, 32};
}

}  // namespace

void blockQuantizedProduct(const KernelContext& ctx, const float* a, size_t rows,
                           const BlockQuantizedWeights& b, float* c) {
  assert(b.tiled);
  if (rows == 0 || b.columns == 0) return;
  if (b.depth == 0) {
    std::fill(c, c + rows * b.columns, 0.0f);
    return;
  }
  const Path path = pathFor(ctx.cpuTier(), b);
  if (rows <= kBlockQuantizedFewRows) {
    const size_t chunks = (b.columns + path.chunk - 1) / path.chunk;
    ops::parallelFor(ctx, chunks, 1, [&](size_t first, size_t last) {
      path.few_rows(a, rows, b, first * path.chunk, std::min(b.columns, last * path.chunk), c);
    });
    return;
  }
  productOfDequantizedTiles(
      ctx, a, rows, b.depth, b.columns,
      [&](size_t n0, size_t n1, size_t k0, size_t k1, float* out) {
        path.dequantize(b, k0, k1, n0, n1, out);
      },
      c);
}

void productOfDequantizedTiles(const KernelContext& ctx, const float* a, size_t rows, size_t depth,
                               size_t columns, const DequantizeTile& dequantize, float* c) {
  // Tiles of kBlockQuantizedTile columns, this many rows at a time.
  constexpr size_t kTileDepth = 256;
  const size_t tiles = (columns + kBlockQuantizedTile - 1) / kBlockQuantizedTile;
  ops::parallelFor(ctx, tiles, 1, [&](size_t first, size_t last) {
    std::vector<float> tile(kTileDepth * kBlockQuantizedTile);
    for (size_t t = first; t < last; ++t) {
      const size_t n0 = t * kBlockQuantizedTile;
      const size_t n1 = std::min(columns, n0 + kBlockQuantizedTile);
      for (size_t k0 = 0; k0 < depth; k0 += kTileDepth) {
        const size_t k1 = std::min(depth, k0 + kTileDepth);
        dequantize(n0, n1, k0, k1, tile.data());
        ops::multiplyFloatOnThisThread(ctx, false, false, rows, n1 - n0, k1 - k0, 1.0f, a + k0,
                                       depth, tile.data(), n1 - n0, k0 == 0 ? 0.0f : 1.0f, c + n0,
                                       columns);
      }
    }
  });
}

void releaseCodeRows(const BlockQuantizedWeights& b, size_t k0, size_t k1) {
  // Element counts to bytes, the last row's byte included when it is shared (odd 4-bit rows).
  const size_t shift = b.bits == 4 ? 1 : 0;
  const size_t elements = b.depth * b.columns;
  const size_t first = (k0 * b.columns) >> shift;
  const size_t last =
      k1 == b.depth ? (b.bits == 4 ? (elements + 1) / 2 : elements) : (k1 * b.columns) >> shift;
  MappedFile::releasePagesOf(
      std::string_view(reinterpret_cast<const char*>(b.codes) + first, last - first));
}

TiledBlockQuantizedWeights tileBlockQuantizedWeights(const BlockQuantizedWeights& b) {
  TiledBlockQuantizedWeights tiled;
  const size_t elements = b.depth * b.columns;
  const size_t block_elements = blockCount(b) * b.columns;
  tiled.codes.assign(b.bits == 4 ? (elements + 1) / 2 : elements, 0);
  tiled.scales.resize(block_elements);
  if (b.zeros != nullptr) tiled.zeros.resize(block_elements);
  tiled.layout = b;
  tiled.layout.tiled = true;
  tiled.layout.codes = tiled.codes.data();
  tiled.layout.scales = tiled.scales.data();
  tiled.layout.zeros = b.zeros != nullptr ? tiled.zeros.data() : nullptr;
  const bool whole_bytes = b.bits == 8 || b.columns % 2 == 0;
  // The model's rows of codes are let go of a band at a time, once copied.
  constexpr size_t kReleasedRows = 256;
  for (size_t k = 0; k < b.depth; ++k) {
    if (k % kReleasedRows == 0 && k > 0) releaseCodeRows(b, k - kReleasedRows, k);
    if (whole_bytes) {
      // Rows and tiles start on a byte: a tile's row is a run of bytes.
      const size_t shift = b.bits == 4 ? 1 : 0;
      for (size_t first = 0; first < b.columns; first += kBlockQuantizedTile) {
        const size_t width = std::min(kBlockQuantizedTile, b.columns - first);
        std::copy_n(b.codes + (codeIndex(b, k, first) >> shift), width >> shift,
                    tiled.codes.data() + (codeIndex(tiled.layout, k, first) >> shift));
      }
      continue;
    }
    for (size_t n = 0; n < b.columns; ++n) {
      const size_t from = codeIndex(b, k, n);
      const size_t to = codeIndex(tiled.layout, k, n);
      if (b.bits == 8) {
        tiled.codes[to] = b.codes[from];
      } else {
        const uint8_t code = (b.codes[from >> 1] >> ((from & 1) * 4)) & 0xFu;
        tiled.codes[to >> 1] = static_cast<uint8_t>(tiled.codes[to >> 1] | code << ((to & 1) * 4));
      }
    }
  }
  if (b.depth > 0) releaseCodeRows(b, (b.depth - 1) / kReleasedRows * kReleasedRows, b.depth);
  for (size_t block = 0; block < blockCount(b); ++block) {
    for (size_t n = 0; n < b.columns; ++n) {
      tiled.scales[blockIndex(tiled.layout, block, n)] = b.scales[blockIndex(b, block, n)];
      if (b.zeros != nullptr) {
        tiled.zeros[blockIndex(tiled.layout, block, n)] = b.zeros[blockIndex(b, block, n)];
      }
    }
  }
  return tiled;
}

}  // namespace onyx::eval_internal
