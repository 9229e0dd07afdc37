// Internal: what the rules of operators with subgraphs (If, Loop, Scan, SequenceMap) share.
#pragma once

#include <cstddef>
#include <memory>
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
/// the two, once (not in bodies nested more than four loops deep). Returns the body's output types;
/// `carried` gets each carried value's type after any number of iterations (the union of the
/// initial type and the body's output; the body's output when the two are of other kinds, such as
/// an optional carried in and its element carried out).
std::vector<InferredType> inferLoopBody(InferenceContext& ctx, const Graph& body,
                                        std::vector<InferredType> inputs, size_t first_input,
                                        size_t first_output, size_t count,
                                        std::vector<InferredType>& carried);

// ---- definitions (header-only: every .cc under src/ops/<family>/ defines an operator) ----

inline InferredType withoutShape(const InferredType& type) {
  InferredType stripped;
  stripped.kind = type.kind;
  stripped.elem_type = type.elem_type;
  if (type.elem != nullptr) {
    stripped.elem = std::make_shared<const InferredType>(withoutShape(*type.elem));
  }
  return stripped;
}

inline InferredType unionOfTypes(SymbolicDims& dims, const InferredType& a, const InferredType& b) {
  if (!a.isKnown()) return b.isKnown() ? withoutShape(b) : InferredType{};
  if (!b.isKnown()) return withoutShape(a);
  if (a.kind != b.kind) return {};
  InferredType merged;
  merged.kind = a.kind;
  if (a.elem_type != b.elem_type && a.elem_type != 0 && b.elem_type != 0) return {};
  merged.elem_type = a.elem_type != 0 && b.elem_type != 0 ? a.elem_type : 0;
  if (a.isTensorLike()) {
    if (a.has_shape && b.has_shape && a.dims.size() == b.dims.size()) {
      merged.has_shape = true;
      merged.dims.reserve(a.dims.size());
      for (size_t axis = 0; axis < a.dims.size(); ++axis) {
        merged.dims.push_back(a.dims[axis] == b.dims[axis] ? a.dims[axis] : dims.fresh());
      }
    }
    return merged;
  }
  if (a.elem != nullptr && b.elem != nullptr) {
    merged.elem = a.elem == b.elem
                      ? a.elem
                      : std::make_shared<const InferredType>(unionOfTypes(dims, *a.elem, *b.elem));
  }
  return merged;
}

inline InferredType withAxisInserted(const InferredType& type, size_t axis, DimValue dim) {
  if (!type.isTensor() || !type.has_shape || axis > type.dims.size()) return withoutShape(type);
  InferredType result = type;
  result.dims.insert(result.dims.begin() + static_cast<std::ptrdiff_t>(axis), dim);
  return result;
}

inline InferredType withAxisRemoved(const InferredType& type, size_t axis) {
  if (!type.isTensor() || !type.has_shape || axis >= type.dims.size()) return withoutShape(type);
  InferredType result = type;
  result.dims.erase(result.dims.begin() + static_cast<std::ptrdiff_t>(axis));
  return result;
}

inline std::vector<InferredType> inferLoopBody(InferenceContext& ctx, const Graph& body,
                                               std::vector<InferredType> inputs, size_t first_input,
                                               size_t first_output, size_t count,
                                               std::vector<InferredType>& carried) {
  std::vector<InferredType> initial(
      inputs.begin() + static_cast<std::ptrdiff_t>(first_input),
      inputs.begin() + static_cast<std::ptrdiff_t>(first_input + count));
  // Each nesting level may double the passes over the bodies inside it; beyond a few
  // levels the second pass is skipped (the carried values still get the union).
  static thread_local int nesting = 0;
  constexpr int kMaxNestingWithSecondPass = 4;
  struct Nest {
    Nest() { ++nesting; }
    ~Nest() { --nesting; }
  } nest;
  std::vector<InferredType> outputs = ctx.inferSubgraph(body, inputs);
  bool settled = true;
  for (size_t k = 0; k < count && first_output + k < outputs.size(); ++k) {
    const InferredType& before = inputs[first_input + k];
    const InferredType& after = outputs[first_output + k];
    if (before == after || !after.isKnown()) continue;
    InferredType both = unionOfTypes(ctx.dims(), before, after);
    // Other kinds (an optional carried in, its element carried out: Loop-16) are not
    // brought together; the body's declarations say what it takes.
    if (both == before || !both.isKnown()) continue;
    inputs[first_input + k] = std::move(both);
    settled = false;
  }
  if (!settled && nesting <= kMaxNestingWithSecondPass) outputs = ctx.inferSubgraph(body, inputs);
  carried.clear();
  carried.reserve(count);
  for (size_t k = 0; k < count; ++k) {
    const InferredType& out =
        first_output + k < outputs.size() ? outputs[first_output + k] : InferredType{};
    if (initial[k] == out) {
      carried.push_back(out);
    } else if (!out.isKnown()) {
      carried.push_back(withoutShape(initial[k]));
    } else {
      InferredType both = unionOfTypes(ctx.dims(), initial[k], out);
      // Of other kinds, the body's output is what the spec gives as the final value.
      carried.push_back(both.isKnown() || !initial[k].isKnown() || initial[k].kind == out.kind
                            ? std::move(both)
                            : out);
    }
  }
  return outputs;
}

}  // namespace onyx::ops
