// Internal: the output shapes of the reductions (ReduceSum, ReduceMean, ..., ArgMax, ArgMin).
//
// A reduction over `axes` keeps each reduced axis as 1 (keepdims = 1) or drops it; with no
// axes it reduces all of them, unless noop_with_empty_axes (axes as an input) makes it the
// identity.
#pragma once

#include "onyx/ops/inference_context.h"

namespace onyx::ops {

/// Reductions with `axes` as an attribute (before version 18; ReduceSum before 13).
void inferReduceAxesAttribute(InferenceContext& ctx);
/// Reductions with `axes` as the optional input 1 and noop_with_empty_axes; the axes must be
/// known (a constant, or propagated) for the dims, else only the rank follows.
void inferReduceAxesInput(InferenceContext& ctx);
/// ArgMax and ArgMin: one `axis`, kept as 1 or dropped.
void inferArgReduce(InferenceContext& ctx);

}  // namespace onyx::ops
