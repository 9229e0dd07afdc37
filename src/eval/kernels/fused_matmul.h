// Internal to the evaluator: a linear layer — a MatMul by a matrix, the Add of a bias row,
// maybe a Relu — as one matrix product that starts from the bias (fusions/linear_layer.cc).
//
// sgemm's C = A B + C with C holding the bias saves the Add its own pass over the result. The
// bias then enters the sum with the products instead of after them, a difference of float
// rounding alone; the result still depends on nothing but the operands (not the thread
// count).
#pragma once

#include <optional>

#include "onyx/core/array.h"
#include "onyx/ops/kernel_context.h"

namespace onyx::eval_internal {

/// a * b + bias, then Relu when `relu`: a float (..., M, K), b float (K, N), bias N floats
/// of shape (N) or (1, ..., 1, N), of rank at most a's. nullopt for anything else (the
/// caller then runs the nodes one by one).
std::optional<Array> multiplyAddBias(const KernelContext& ctx, const Array& a, const Array& b,
                                     const Array& bias, bool relu);

}  // namespace onyx::eval_internal
