// InstanceNormalization (ai.onnx), versions 1, 6, 22.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "onyx/ir/type.h"
#include "ops/lib/real_kernels.h"
#include "ops/node_draft.h"
#include "ops/schema_dsl.h"
#include "ops/shape_rules.h"
#include "ops/version_adapters.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

void inferInstanceNormalization(InferenceContext& ctx) { inferSameShape(ctx); }

// Each (n, c) plane normalized over its spatial elements, then scaled and shifted by c's.
Status runInstanceNormalization(KernelContext& ctx) {
  const Array* x = ctx.inputArray(0);
  const Array* scale = ctx.inputArray(1);
  const Array* bias = ctx.inputArray(2);
  if (x == nullptr || scale == nullptr || bias == nullptr) {
    return ctx.fail("needs input, scale and B tensors");
  }
  if (x->rank() < 2) return ctx.fail("input must have rank 2 or more");
  return groupNormalization(ctx, *x, *scale, *bias, static_cast<size_t>(x->dim(1)), false,
                            ctx.floatAttribute("epsilon").value_or(1e-5f));
}

// Version 1 takes a 4-D input (N, C, H, W) only.
Status refuseInputNot4d(NodeDraft& draft) {
  const Type* input = draft.inputType(0);
  if (input != nullptr && input->shape != nullptr && input->shape->rank() != 4) {
    return draft.refuse("the input is not 4-D, as version 1 requires");
  }
  return Status::ok();
}

}  // namespace

constexpr Formals kInputs1 = {{"input", "T"}, {"scale", "T"}, {"B", "T"}};
constexpr Formals kOutputs1 = {{"output", "T"}};
constexpr Attributes kAttributes6 = {attr("epsilon", 1e-05f)};
constexpr Constraints kConstraints1 = {{"T", tensor("float16 float double")}};

extern const Operator kInstanceNormalization;
constexpr Operator kInstanceNormalization{
    .domain = kOnnxDomain,
    .name = "InstanceNormalization",
    .versions = {
        {.since_version = 1,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = {attr("consumed_inputs", kInts), attr("epsilon", 1e-05f)},
         .constraints = kConstraints1,
         .infer = inferInstanceNormalization,
         .kernel = runInstanceNormalization},
        {.since_version = 6,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = kAttributes6,
         .constraints = kConstraints1,
         .infer = inferInstanceNormalization,
         .kernel = runInstanceNormalization,
         .step = {.reviewed = true,
                  .change = "consumed_inputs removed; input of any rank (was 4-D)",
                  .up = dropConsumedInputs,
                  .down = refuseInputNot4d,
                  .down_refuses = "an input known not to be 4-D"}},
        {.since_version = 22,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = kAttributes6,
         .constraints = {{"T", tensor("bfloat16 float16 float double")}},
         .infer = inferInstanceNormalization,
         .kernel = runInstanceNormalization,
         .step = typesOnly("bfloat16 added")},
    }};
static_assert(isWellFormed(kInstanceNormalization));

}  // namespace onyx::ops::ai_onnx
