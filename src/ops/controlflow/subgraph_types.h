// Internal: what the rules of operators with subgraphs (If, Loop, Scan, SequenceMap) share.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

#include "onyx/ir/graph.h"
#include "onyx/ops/inference_context.h"

namespace onyx::ops {

/// The type of a value that is either `a` or `b` (If's two branches, a Loop's initial and
/// final values): dims equal in both are kept, others become fresh symbols, differing ranks
/// leave the rank unknown. An unknown side leaves the other's kind and element type
/// without its shape; differing kinds or element types give an unknown type.
InferredType unionOfTypes(SymbolicDims& dims, const InferredType& a, const InferredType& b);

/// The type without its dimensions (nested element types too).
InferredType withoutShape(const InferredType& type);

/// `type` with `dim` inserted before axis `axis` (a tensor of known rank, axis <= rank);
/// `type` without its shape otherwise.
InferredType withAxisInserted(const InferredType& type, size_t axis, DimValue dim);

/// `type` with axis `axis` removed (a tensor of known rank); without its shape otherwise.
InferredType withAxisRemoved(const InferredType& type, size_t axis);

/// A loop body (Loop, Scan) inferred with `inputs`, of which `count` carried values start
/// at `first_input` in the body's inputs and at `first_output` in its outputs. When a
/// carried value's type changes in the body, the body is inferred again with the union of
/// the two, once. Returns the body's output types; `carried` gets each carried value's type
/// after any number of iterations (the union of the initial type and the body's output;
/// the body's output when the two are of other kinds, such as an optional carried in and
/// its element carried out).
std::vector<InferredType> inferLoopBody(InferenceContext& ctx, const Graph& body,
                                        std::vector<InferredType> inputs, size_t first_input,
                                        size_t first_output, size_t count,
                                        std::vector<InferredType>& carried);

}  // namespace onyx::ops
