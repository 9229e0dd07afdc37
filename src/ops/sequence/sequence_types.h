// Internal: the element type of a sequence built from several tensors.
#pragma once

#include <string>
#include <string_view>

#include "onyx/core/element_type.h"
#include "onyx/ops/inference_context.h"
#include "ops/lib/subgraph_types.h"

namespace onyx::ops {

/// Widens `element` (a sequence's element type so far; unknown when nothing is) to also
/// cover `type`: dims equal in both are kept, others become fresh, differing ranks leave
/// the rank unknown. Fails the node (naming `what`) and returns false when both are
/// tensors of different element types, or not both tensors.
bool mergeElementInto(InferenceContext& ctx, InferredType& element, const InferredType& type,
                      std::string_view what);

// ---- definitions (header-only: every .cc under src/ops/<family>/ defines an operator) ----

namespace detail {

inline std::string elementName(int32_t code) {
  const ElementTypeInfo* info = elementTypeInfo(code);
  return info != nullptr ? std::string(info->shortName) : "type " + std::to_string(code);
}

}  // namespace detail

inline bool mergeElementInto(InferenceContext& ctx, InferredType& element, const InferredType& type,
                             std::string_view what) {
  if (!type.isKnown()) {
    element = withoutShape(element);
    return true;
  }
  if (!element.isKnown()) {
    element = type;
    return true;
  }
  if (element.kind != type.kind) {
    ctx.fail(std::string(what) + " is not of the sequence's kind of element");
    return false;
  }
  if (element.elem_type != 0 && type.elem_type != 0 && element.elem_type != type.elem_type) {
    ctx.fail(std::string(what) + " has elements of " + detail::elementName(type.elem_type) +
             ", the sequence " + detail::elementName(element.elem_type));
    return false;
  }
  element = unionOfTypes(ctx.dims(), element, type);
  return true;
}

}  // namespace onyx::ops
