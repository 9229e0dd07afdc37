// Internal to the evaluator: MatMulInteger's product through oneDNN's int8 matrix product,
// exactly as the spec computes it.
//
// The spec sums (a - a_zero_point) * (b - b_zero_point) in int32. As for the integer
// convolution (integer_convolution.h, which says why), oneDNN gives the plain sums of uint8 or
// int8 rows by int8 b, and onyx takes the zero points out itself:
//   sum (a - za)(b - zb) = sum a b - za sum b - zb sum a + K za zb,
// uint8 b shifted to int8 by 128, the columns' sums of b kept with b, each row's sum of a one
// more column of ones when a zero point of b is not 0. Exact integers summed with
// wrap-around: the bits of the spec's int32 accumulator.
//
// Handled: a of any rank ([..., M, K], its leading dimensions folded into M), b a matrix
// [K, N], a_zero_point a single value, b_zero_point a single value or one per column. The
// rest (batched b, per-row zero points) and CPUs without VNNI or AMX decline to onyx's own
// kernel. The same on every thread count: oneDNN splits the work by output elements.
#pragma once

#include <memory>
#include <optional>

#include "onyx/core/array.h"
#include "onyx/core/cpu_tier.h"

namespace onyx::eval_internal {

struct IntegerMatMulCall {
  const Array* a = nullptr;       // UINT8 or INT8, [..., M, K]
  const Array* a_zero = nullptr;  // null (0), or one value of a's type
  const Array* b = nullptr;       // UINT8 or INT8, [K, N]
  bool b_fixed = false;           // the same elements on every run (an initializer)
  const Array* b_zero = nullptr;  // null (0), one value, or N values ([N] or [1, N])
  int threads = 1;
  /// The session's CPU tier: below VNNI oneDNN's byte products saturate, and the call declines.
  CpuTier tier = CpuTier::kBaseline;
};

/// One node's oneDNN primitive and prepared b, kept between runs.
class IntegerMatMul {
 public:
  IntegerMatMul();
  ~IntegerMatMul();
  IntegerMatMul(const IntegerMatMul&) = delete;
  IntegerMatMul& operator=(const IntegerMatMul&) = delete;

  /// The INT32 [..., M, N] result; nullopt when this call is outside what it handles,
  /// having done nothing.
  Result<std::optional<Array>> run(const IntegerMatMulCall& call);

  struct Cache;

 private:
  std::unique_ptr<Cache> cache_;
};

}  // namespace onyx::eval_internal
