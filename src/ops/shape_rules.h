// Internal: the pieces operators' shape-inference rules share (docs/inference.md).
//
// Rules live beside their signatures in src/ops/<family>/<op>.cc; what several families
// need (broadcasting, axes, products of dims, arithmetic on propagated data) is here.
#pragma once

#include <optional>
#include <span>
#include <string_view>

#include "onyx/ops/inference_context.h"

namespace onyx::ops {

/// `axis` in [-rank, rank) made non-negative; fails the node (naming `what`) and returns
/// nullopt when out of range.
std::optional<size_t> normalizeAxis(InferenceContext& ctx, int64_t axis, size_t rank,
                                    std::string_view what = "axis");

/// Whether input `i` has a rank in [least, most] (kAnyRank: no upper bound), an unknown
/// rank, or is absent; fails the node otherwise, naming the input as the signature does
/// ("ratio has rank 1; Dropout needs a scalar"). inputRankIs: exactly `rank`.
inline constexpr size_t kAnyRank = static_cast<size_t>(-1);
bool inputRankWithin(InferenceContext& ctx, size_t i, size_t least, size_t most);
inline bool inputRankIs(InferenceContext& ctx, size_t i, size_t rank) {
  return inputRankWithin(ctx, i, rank, rank);
}

/// The multidirectional (numpy) broadcast of `shapes`; fails the node and returns nullopt
/// when two known dimensions other than 1 differ. A symbolic dimension against 1 is kept;
/// against a number other than 1 it is taken to be that number; two different symbols
/// give a fresh one.
std::optional<Dims> broadcastShapes(InferenceContext& ctx, std::span<const Dims* const> shapes);

/// The product of `dims` (symbolic where a factor is).
DimValue productOf(InferenceContext& ctx, std::span<const DimValue> dims);

// ---- whole rules ---------------------------------------------------------------------------

/// Output 0 has input 0's shape (elementwise unary operators, activations, ...).
void inferSameShape(InferenceContext& ctx);
/// Output 0 has the broadcast shape of all present inputs (elementwise binary and variadic
/// operators). When every input's data is known and the operator is arithmetic on
/// integers, see inferBroadcastArithmetic.
void inferBroadcast(InferenceContext& ctx);

/// What an arithmetic operator computes on propagated integer data.
enum class Arithmetic { kAdd, kSubtract, kMultiply, kDivide };
/// inferBroadcast, and the data computed elementwise when both inputs' data are known (a
/// one-element input broadcasts).
void inferBroadcastArithmetic(InferenceContext& ctx, Arithmetic op);

/// Output 0 is the matrix product of inputs `a` and `b` (numpy matmul: 1-D operands are
/// promoted and the added axis removed, batch axes broadcast).
void inferMatMulShape(InferenceContext& ctx, size_t a = 0, size_t b = 1);

}  // namespace onyx::ops
