// Internal to the evaluator: float rows times 4-bit weights quantized in blocks along their
// depth, with each row rounded to int8 per block first (EvalOptions::int8_activations), as
// onnxruntime's MatMulNBits does at accuracy level 4: integer dot products of the codes and
// the rounded row (AVX-512 VNNI's vpdpbusd, 64 products an instruction), where the exact way
// (block_quantized_matmul.h) widens every code to a float.
//
// A row's block k0 .. k0 + block is rounded by its largest magnitude m: x ~ s q with s = m /
// 127 and q = round-to-nearest-even(x * (127 / m)), in [-127, 127] (a block of zeros: s = 0).
// A column's block then adds (sum of (u - c) q) * (w_scale * s) into the output, the sum an
// exact integer (u the unsigned code, c its zero point's place: zero + 8 for int4), one fused
// multiply-add a block in block order: the bits depend on the shapes alone.
//
// The codes are laid out once in quads: tiles of 128 columns as tileBlockQuantizedWeights
// lays them, and in a tile four rows at a time, each group of 16 columns' four codes a
// column in one 32-bit lane (packed two a byte: the 32 low nibbles are lanes 0-7, the 32
// high ones lanes 8-15), so that 32 bytes widen to one vpdpbusd operand in three
// instructions. One row reads a tile's quads once; a prompt's rows go four at a time by 32
// columns over the tile while it stays in cache (its products at 64 a vpdpbusd, where sgemm's
// float ones are 16 an FMA: the exact way's prompt runs at the core's float peak).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "eval/kernels/block_quantized_matmul.h"
#include "onyx/ops/kernel_context.h"

namespace onyx::eval_internal {

/// Weights in quads (above). `layout` describes them as tiles (its `tiled` set): its scales
/// and `places` lie as tileBlockQuantizedWeights lays scales; its `codes` are the quads.
struct QuadBlockQuantizedWeights {
  QuadBlockQuantizedWeights() = default;
  QuadBlockQuantizedWeights(QuadBlockQuantizedWeights&&) = default;             // the vectors keep
  QuadBlockQuantizedWeights& operator=(QuadBlockQuantizedWeights&&) = default;  // their bytes
  QuadBlockQuantizedWeights(const QuadBlockQuantizedWeights&) = delete;
  std::vector<uint8_t> codes;  // unsigned: int4 codes + 8
  std::vector<float> scales;
  /// zero + 8 for int4, zero for uint4, per block and column; empty without zero points:
  /// all `place`.
  std::vector<float> places;
  float place = 0;
  BlockQuantizedWeights layout;
};

/// Whether the quads take `b`: 4-bit codes, blocks of a multiple of 4 rows that divide the
/// depth, columns a multiple of 16; and the CPU tier has VNNI.
bool quadsTake(const BlockQuantizedWeights& b, CpuTier tier);

/// `b` in quads. The pages of `b`'s codes that lie in a mapped file are let go of as they
/// are read (MappedFile::releasePagesOf).
QuadBlockQuantizedWeights quadBlockQuantizedWeights(const BlockQuantizedWeights& b);

/// c[m][n] = the products above for `rows` rows of a ([rows, depth]) into c ([rows,
/// columns]), on ctx's threads. Only where quadsTake held.
void int8InputProduct(const KernelContext& ctx, const float* a, size_t rows,
                      const QuadBlockQuantizedWeights& w, float* c);

}  // namespace onyx::eval_internal
