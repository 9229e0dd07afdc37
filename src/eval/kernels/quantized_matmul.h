// Internal to the evaluator: a quantized matrix product, uint8 or int8 in and out, through
// oneDNN's int8 matrix product with the requantization in its epilogue: what QLinearMatMul
// computes, and what a DequantizeLinear -> MatMul -> QuantizeLinear group means
// (fusions/qdq_matmul.cc).
//
// As for the quantized convolution (quantized_convolution.h, which says how it rounds): the
// products summed exactly in int32 (oneDNN's with VNNI or AMX, elsewhere onyx's own exact
// kernel with the same arithmetic after it, requantize.h), the sum scaled by
// a_scale * b_scale[n] / y_scale in float, rounded to nearest even, the output's zero point
// added, saturated. b is int8 weights (zero point 0, a scale per column or one), or a
// quantized activation with one scale and zero point (attention's products), uint8 b shifted
// to int8 by 128 first. The same on every thread count.
#pragma once

#include <memory>
#include <optional>
#include <span>

#include "onyx/core/array.h"
#include "onyx/core/cpu_tier.h"
#include "onyx/ops/kernel_context.h"

namespace onyx::eval_internal {

struct QuantizedMatMulCall {
  const Array* a = nullptr;  // UINT8 or INT8, [..., M, K]
  float a_scale = 1;
  int32_t a_zero = 0;
  /// UINT8 or INT8: [K, N], or [..., K, N] with a's leading dimensions.
  const Array* b = nullptr;
  bool b_fixed = false;             // the same elements on every run (a constant)
  std::span<const float> b_scales;  // one, or one per column
  int32_t b_zero = 0;
  float y_scale = 1;
  int32_t y_zero = 0;
  ElementType y_type = ElementType::kUint8;  // UINT8 or INT8
  int threads = 1;
  /// The session's CPU tier: below VNNI oneDNN's byte products saturate, and the products
  /// run through onyx's own exact kernel instead (ops::quant::integerMatMul).
  CpuTier tier = CpuTier::kBaseline;
  /// The MatMul node's context (its threads), for that kernel; null: decline below VNNI.
  const KernelContext* ctx = nullptr;
};

/// One group's primitive and prepared b, kept between runs.
class QuantizedMatMul {
 public:
  QuantizedMatMul();
  ~QuantizedMatMul();
  QuantizedMatMul(const QuantizedMatMul&) = delete;
  QuantizedMatMul& operator=(const QuantizedMatMul&) = delete;

  /// The quantized [..., M, N] result; nullopt when the call is outside what it handles,
  /// having done nothing.
  Result<std::optional<Array>> run(const QuantizedMatMulCall& call);

  struct Cache;

 private:
  std::unique_ptr<Cache> cache_;
};

}  // namespace onyx::eval_internal
