// Bernoulli (ai.onnx), versions 15, 22.
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

// The input's shape; the element type `dtype`, else the input's.
void inferRandomLike(InferenceContext& ctx) {
  std::optional<int64_t> dtype = ctx.intAttribute("dtype");
  int32_t elem_type = dtype && *dtype > 0 && *dtype < INT32_MAX ? static_cast<int32_t>(*dtype)
                                                                : ctx.inputElemType(0);
  if (elem_type != 0) ctx.setOutputElemType(0, elem_type);
  if (const Dims* in = ctx.inputShape(0)) ctx.setOutputShape(0, *in);
}

}  // namespace

constexpr Formals kInputs15 = {{"input", "T1"}};
constexpr Formals kOutputs15 = {{"output", "T2"}};
constexpr Attributes kAttributes15 = {attr("dtype", kInt), attr("seed", kFloat)};

extern const Operator kBernoulli;
constexpr Operator kBernoulli{
    .domain = kOnnxDomain,
    .name = "Bernoulli",
    .versions = {
        {.since_version = 15,
         .inputs = kInputs15,
         .outputs = kOutputs15,
         .attributes = kAttributes15,
         .constraints = {{"T1", tensor("float16 float double")},
                         {"T2", tensor("float16 float double bfloat16 uint8 uint16 uint32 uint64 "
                                       "int8 int16 int32 int64 bool")}},
         .infer = inferRandomLike},
        {.since_version = 22,
         .inputs = kInputs15,
         .outputs = kOutputs15,
         .attributes = kAttributes15,
         .constraints = {{"T1", tensor("bfloat16 float16 float double")},
                         {"T2", tensor("uint8 uint16 uint32 uint64 int8 int16 int32 int64 bfloat16 "
                                       "float16 float double bool")}},
         .infer = inferRandomLike},
    }};
static_assert(isWellFormed(kBernoulli));

}  // namespace onyx::ops::ai_onnx
