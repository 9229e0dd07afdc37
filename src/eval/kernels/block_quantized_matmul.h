// Internal to the evaluator: float rows times weights quantized in blocks along their depth
// (DequantizeLinear of int4, uint4, int8 or uint8 weights, with opset 21's block_size, per
// column or per tensor), read as the model stores them: never widened to floats in memory.
//
// Widened once, as a DequantizeLinear of constants is, int4 weights take eight times their
// file's bytes, and a decoder reads every one of them for each token it makes: the product
// is then bound by memory at an eighth of the speed its packed weights allow.
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

#include <cstddef>
#include <cstdint>

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
};

/// The most rows the first way (widened in registers) takes; more go through tiles of floats.
inline constexpr size_t kBlockQuantizedFewRows = 4;

/// c[m][n] = sum over k of a[m][k] * w[k][n], for `rows` rows of a ([rows, depth]) into c
/// ([rows, columns]), on ctx's threads and at its CPU tier.
void blockQuantizedProduct(const KernelContext& ctx, const float* a, size_t rows,
                           const BlockQuantizedWeights& b, float* c);

}  // namespace onyx::eval_internal
