// Internal: what an operator's signature alone says about its outputs' types.
#pragma once

#include <string>
#include <vector>

#include "onyx/ops/inference_context.h"

namespace onyx::infer {

/// Gives each output the type its type variable implies: the type of an input bound to
/// the same variable (its kind and element type; shapes are the rule's business), or the
/// one type the variable's constraint allows. Heterogeneous variadics bind nothing.
void applySignatureTypes(InferenceContext& ctx);

/// For strict inference (as onnx's check_type): one message per input whose inferred tensor
/// type its formal parameter's constraint does not allow, e.g. `input 0 (input) has type
/// tensor(int32), which ConstantOfShape-9 does not accept: it takes tensor(int64)`. The
/// checker's R51 judges declared types only; this judges every inferred one.
std::vector<std::string> disallowedInputTypes(const InferenceContext& ctx);

}  // namespace onyx::infer
