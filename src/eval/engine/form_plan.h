// Internal to the evaluator: where a compiled graph converts values back to their declared
// form (value_form.h).
//
// A step may write a value in another form than the declared one: channels-last where the
// layout plan keeps it so (layout_plan.h), held as floats for FLOAT16 where a node runs
// float16 on floats (ProvidedKernel::forms, a channels-last kernel, FusedStep::mayGive). Each step
// that reads such a value and cannot take it in that form gets the conversion in its plan
// (Conversions): a node alone converts what it reads, a fused step what it reads but not as
// floats for FLOAT16 (FusedStep::takes); a fused step that declines leaves it to its
// members. The executor only applies the lists; a slot already in the declared form costs a
// compare, so where a step before declined (and wrote the declared form) nothing is done.
#pragma once

#include "eval/engine/plan.h"

namespace onyx::eval_internal {

/// Fills BoundNode::alone and PlanStep::before for every step of `plan`, once its steps,
/// layouts and the values it keeps exact are planned.
void planConversions(GraphPlan& plan);

}  // namespace onyx::eval_internal
