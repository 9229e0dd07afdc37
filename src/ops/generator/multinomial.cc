// Multinomial (ai.onnx), versions 7, 22.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "onyx/core/element_type.h"
#include "onyx/ir/tensor.h"
#include "ops/schema_dsl.h"
#include "ops/shape_rules.h"
#include "ops/tensor/tensor_rules.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

// [batch, classes] → [batch, sample_size] of `dtype` (int32 by default).
void inferMultinomial(InferenceContext& ctx) {
  int64_t dtype = ctx.intAttribute("dtype").value_or(6);
  if (dtype > 0 && dtype < INT32_MAX) ctx.setOutputElemType(0, static_cast<int32_t>(dtype));
  const Dims* in = ctx.inputShape(0);
  if (in == nullptr) return;
  if (in->size() != 2) {
    ctx.fail("Multinomial needs an input of rank 2, not " + std::to_string(in->size()));
    return;
  }
  int64_t samples = ctx.intAttribute("sample_size").value_or(1);
  if (samples < 0) {
    ctx.fail("Multinomial's sample_size is negative (" + std::to_string(samples) + ")");
    return;
  }
  ctx.setOutputShape(0, {(*in)[0], DimValue::known(samples)});
}

}  // namespace

constexpr Formals kInputs7 = {{"input", "T1"}};
constexpr Formals kOutputs7 = {{"output", "T2"}};
constexpr Attributes kAttributes7 = {attr("dtype", 6), attr("sample_size", 1),
                                     attr("seed", kFloat)};

extern const Operator kMultinomial;
constexpr Operator kMultinomial{
    .domain = kOnnxDomain,
    .name = "Multinomial",
    .versions = {
        {.since_version = 7,
         .inputs = kInputs7,
         .outputs = kOutputs7,
         .attributes = kAttributes7,
         .constraints = {{"T1", tensor("float16 float double")}, {"T2", tensor("int32 int64")}},
         .infer = inferMultinomial},
        {.since_version = 22,
         .inputs = kInputs7,
         .outputs = kOutputs7,
         .attributes = kAttributes7,
         .constraints = {{"T1", tensor("bfloat16 float16 float double")},
                         {"T2", tensor("int32 int64")}},
         .infer = inferMultinomial},
    }};
static_assert(isWellFormed(kMultinomial));

}  // namespace onyx::ops::ai_onnx
