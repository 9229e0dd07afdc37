// Internal: what an operator's signature alone says about its outputs' types.
#pragma once

#include "onyx/ops/inference_context.h"

namespace onyx::infer {

/// Gives each output the type its type variable implies: the type of an input bound to
/// the same variable (its kind and element type; shapes are the rule's business), or the
/// one type the variable's constraint allows. Heterogeneous variadics bind nothing.
void applySignatureTypes(InferenceContext& ctx);

}  // namespace onyx::infer
