// Internal to the evaluator: float rows times weights quantized in blocks along their depth
// (DequantizeLinear of int4, uint4, int8 or uint8 weights, with opset 21's block_size, per
// column or per tensor), read as the model stores them: never widened to floats in memory.
//
// Widened once, as a DequantizeLinear of constants is, int4 weights take eight times their
// file's bytes, and a decoder reads every one of them for each token it makes: the product
// is then bound by memory at an eighth of the speed its packed weights allow.
//
// The codes, scales and zero points are laid out anew once, in tiles of 128 columns
// (tileBlockQuantizedWeights, shared by the sessions of a model through
// shared_preparation.h): row by row, as the model stores them, the rows of the columns a
// thread sweeps lie a row of codes apart, as many streams as a block has rows, and a
// decoder's one-token product ran at 5-8 GB/s of codes on one core; a tile is one stream
// (the 1.5B decoder's steps 1.3x as fast on an AMD EPYC).
//
// An element is w[k][n] = (q[k][n] - zero[k / block][n]) * scale[k / block][n], in float as
// DequantizeLinear computes it. Two ways, by the number of rows alone:
//   - a few rows (a decoder's one token): each block's codes are widened in registers and
//     multiplied into a sum per block, which is then scaled: sum_k a[k] * (q - zero), times
//     the scale. The same products as DequantizeLinear -> MatMul up to the order of the
//     rounding (docs/eval.md states the bound);
//   - more rows: tiles of the weights are dequantized exactly as DequantizeLinear does, into
//     a tile of floats per thread, and multiplied on sgemm.
// The columns are split over the threads in chunks fixed by the CPU tier, and each output
// element is one chunk's sum: the bits depend on the shapes and the tier, not on the thread
// count.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

#include "onyx/ops/kernel_context.h"

namespace onyx::eval_internal {

/// Weights [depth, columns], row-major, quantized in blocks of `block` rows (block == depth:
/// one scale per column).
struct BlockQuantizedWeights {
  /// The codes: one byte each for 8 bits; two a byte for 4 bits, the first in the low nibble
  /// (as ONNX stores INT4 and UINT4).
  const uint8_t* codes = nullptr;
  int bits = 8;               // 4 or 8
  bool signed_codes = false;  // two's complement codes (INT4, INT8)
  size_t depth = 0;
  size_t columns = 0;
  size_t block = 0;
  /// [ceil(depth / block), columns] scales.
  const float* scales = nullptr;
  /// The zero points as floats, [ceil(depth / block), columns], or null: all 0.
  const float* zeros = nullptr;
  /// Whether codes, scales and zero points lie in tiles of kBlockQuantizedTile columns
  /// (tileBlockQuantizedWeights), rather than row by row.
  bool tiled = false;
};

/// The columns of a tile: a product of few rows reads a tile's codes, scales and zero points
/// as one stream each, where row by row they are as many streams as the tile has rows.
inline constexpr size_t kBlockQuantizedTile = 128;

/// Weights laid out in tiles: tile t holds columns [128 t, 128 t + 128) (the last may be
/// narrower); its codes row after row, then the next tile's. The same for the scales and zero
/// points, a row per block.
struct TiledBlockQuantizedWeights {
  TiledBlockQuantizedWeights() = default;
  TiledBlockQuantizedWeights(TiledBlockQuantizedWeights&&) = default;  // the vectors keep
  TiledBlockQuantizedWeights& operator=(TiledBlockQuantizedWeights&&) = default;  // their bytes
  TiledBlockQuantizedWeights(const TiledBlockQuantizedWeights&) = delete;
  std::vector<uint8_t> codes;
  std::vector<float> scales;
  std::vector<float> zeros;      // empty: all 0
  BlockQuantizedWeights layout;  // points into the vectors
};

/// `b` in tiles: the same elements, so the same products to the bit.
TiledBlockQuantizedWeights tileBlockQuantizedWeights(const BlockQuantizedWeights& b);

/// Writes rows [k0, k1) (k0 a multiple of 256, and of 4) of columns [n0, n1) (a tile) of the
/// weights as DequantizeLinear gives them into `out`, row stride n1 - n0.
using DequantizeTile = std::function<void(size_t n0, size_t n1, size_t k0, size_t k1, float* out)>;

/// c = a ([rows, depth]) times the weights ([depth, columns]) a tile of floats at a time on
/// sgemm, the tiles split over ctx's threads: the way of more rows than a few.
void productOfDequantizedTiles(const KernelContext& ctx, const float* a, size_t rows, size_t depth,
                               size_t columns, const DequantizeTile& dequantize, float* c);

/// Where element (k, n) of the codes lies, counted in codes (two a byte for 4 bits).
inline size_t codeIndex(const BlockQuantizedWeights& b, size_t k, size_t n) {
  if (!b.tiled) return k * b.columns + n;
  const size_t first = n - n % kBlockQuantizedTile;
  const size_t width = std::min(kBlockQuantizedTile, b.columns - first);
  return first * b.depth + k * width + (n - first);
}

/// The codes are read unsigned: a two's complement code with its top bit flipped is the code
/// plus 2^(bits - 1), so a signed code's zero point moves up by that much (its place, zero +
/// codeOffset). Widening is then the same for both: the code u as a float less the place,
/// which is q - zero exactly (small integers).
inline float codeOffset(const BlockQuantizedWeights& b) {
  return b.signed_codes ? static_cast<float>(1 << (b.bits - 1)) : 0.0f;
}

inline uint32_t unsignedCode(const BlockQuantizedWeights& b, size_t k, size_t n) {
  const size_t i = codeIndex(b, k, n);
  uint32_t code = b.bits == 4 ? (b.codes[i >> 1] >> ((i & 1) * 4)) & 0xFu : b.codes[i];
  return b.signed_codes ? code ^ (1u << (b.bits - 1)) : code;
}

inline size_t blockCount(const BlockQuantizedWeights& b) {
  return (b.depth + b.block - 1) / b.block;
}

/// Lets go of the pages of rows [k0, k1) of `b`'s codes (row-major, as the model stores
/// them) where they lie in a mapped file (MappedFile::releasePagesOf): once laid out anew,
/// the model's pages and the new layout need not both be resident, not even for one matrix.
void releaseCodeRows(const BlockQuantizedWeights& b, size_t k0, size_t k1);

/// Where the scale (and zero point) of block `block`, column n lies.
inline size_t blockIndex(const BlockQuantizedWeights& b, size_t block, size_t n) {
  if (!b.tiled) return block * b.columns + n;
  const size_t blocks = (b.depth + b.block - 1) / b.block;
  const size_t first = n - n % kBlockQuantizedTile;
  const size_t width = std::min(kBlockQuantizedTile, b.columns - first);
  return first * blocks + block * width + (n - first);
}

/// The most rows the first way (widened in registers) takes; more go through tiles of floats.
inline constexpr size_t kBlockQuantizedFewRows = 4;

/// c[m][n] = sum over k of a[m][k] * w[k][n], for `rows` rows of a ([rows, depth]) into c
/// ([rows, columns]), on ctx's threads and at its CPU tier. `b` is tiled (b.tiled).
void blockQuantizedProduct(const KernelContext& ctx, const float* a, size_t rows,
                           const BlockQuantizedWeights& b, float* c);

}  // namespace onyx::eval_internal
