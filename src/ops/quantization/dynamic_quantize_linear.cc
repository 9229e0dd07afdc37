// DynamicQuantizeLinear (ai.onnx), versions 11.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/schema_dsl.h"
#include "ops/shape_rules.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

// y has x's shape; y_scale and y_zero_point are scalars.
void inferDynamicQuantizeLinear(InferenceContext& ctx) {
  inferSameShape(ctx);
  if (ctx.hasOutput(1)) ctx.setOutputShape(1, {});
  if (ctx.hasOutput(2)) ctx.setOutputShape(2, {});
}

}  // namespace

extern const Operator kDynamicQuantizeLinear;
constexpr Operator kDynamicQuantizeLinear{
    .domain = kOnnxDomain,
    .name = "DynamicQuantizeLinear",
    .versions = {
        {.since_version = 11,
         .inputs = {{"x", "T1"}},
         .outputs = {{"y", "T2"}, {"y_scale", "tensor(float)"}, {"y_zero_point", "T2"}},
         .constraints = {{"T1", tensor("float")},
                         {"T2", tensor("uint8")},
                         {"tensor(float)", tensor("float")}},
         .infer = inferDynamicQuantizeLinear},
    }};
static_assert(isWellFormed(kDynamicQuantizeLinear));

}  // namespace onyx::ops::ai_onnx
