// Internal: the element type of a sequence built from several tensors.
#pragma once

#include <string_view>

#include "onyx/ops/inference_context.h"

namespace onyx::ops {

/// Widens `element` (a sequence's element type so far; unknown when nothing is) to also
/// cover `type`: dims equal in both are kept, others become fresh, differing ranks leave
/// the rank unknown. Fails the node (naming `what`) and returns false when both are
/// tensors of different element types, or not both tensors.
bool mergeElementInto(InferenceContext& ctx, InferredType& element, const InferredType& type,
                      std::string_view what);

}  // namespace onyx::ops
