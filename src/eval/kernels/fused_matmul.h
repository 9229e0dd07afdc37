// Internal to the evaluator: a linear layer — a MatMul by a matrix, the Add of a bias row,
// maybe a Relu — as one matrix product that starts from the bias (fusions/linear_layer.cc).
//
// sgemm's C = A B + C with C holding the bias saves the Add its own pass over the result. The
// bias then enters the sum with the products instead of after them, a difference of float
// rounding alone; the result still depends on nothing but the operands (not the thread
// count). Wide fixed weights run on weights packed once instead (packed_linear_layer.h).
#pragma once

#include <optional>

#include "onyx/core/array.h"
#include "onyx/ops/kernel_context.h"

namespace onyx::eval_internal {

class PackedLinearLayer;

/// a * b + bias, then Relu when `relu`: a float (..., M, K), b float (K, N) (or (N, K) read
/// transposed, when `transposed_b`: a Gemm's transB), bias N floats of shape (N) or
/// (1, ..., 1, N), of rank at most a's. nullopt for anything else (the caller then runs the
/// nodes one by one). `packed`, given when b is fixed for the model's life, runs the shapes it
/// takes on weights packed once (packed_linear_layer.h).
std::optional<Array> multiplyAddBias(const KernelContext& ctx, const Array& a, const Array& b,
                                     const Array& bias, bool relu,
                                     PackedLinearLayer* packed = nullptr,
                                     bool transposed_b = false);

}  // namespace onyx::eval_internal
