// QuantizeLinear (ai.onnx), versions 10, 13, 19, 21, 23, 24, 25.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "onyx/core/element_type.h"
#include "ops/schema_dsl.h"
#include "ops/shape_rules.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

// y has x's shape. Its element type is y_zero_point's (the signature gives it), else
// output_dtype (version 21 on) when set, else uint8.
void inferQuantizeLinear(InferenceContext& ctx) {
  inferSameShape(ctx);
  if (ctx.hasInput(2) && ctx.inputElemType(2) != 0) return;
  int64_t output_dtype = ctx.intAttribute("output_dtype").value_or(0);
  if (ctx.hasInput(2) && output_dtype == 0) return;  // the zero point's type is unknown
  if (output_dtype < 0 || output_dtype > 26) return;
  ctx.setOutputElemType(0, output_dtype != 0 ? static_cast<int32_t>(output_dtype)
                                             : static_cast<int32_t>(ElementType::kUint8));
}

}  // namespace

constexpr TypeSet kT3Types23 = tensor(
    "int8 uint8 int16 uint16 float8e4m3fn float8e4m3fnuz float8e5m2 float8e5m2fnuz uint4 int4 "
    "float4e2m1");
constexpr TypeSet kT2Types24 = tensor("float float16 bfloat16 int32 float8e8m0");
constexpr Formals kInputs10 = {
    {"x", "T1"}, {"y_scale", "tensor(float)"}, optional("y_zero_point", "T2")};
constexpr Formals kInputs19 = {{"x", "T1"}, {"y_scale", "T1"}, optional("y_zero_point", "T2")};
constexpr Formals kInputs23 = {{"x", "T1"}, {"y_scale", "T2"}, optional("y_zero_point", "T3")};
constexpr Formals kOutputs10 = {{"y", "T2"}};
constexpr Formals kOutputs23 = {{"y", "T3"}};
constexpr Attributes kAttributes23 = {attr("axis", 1), attr("block_size", 0),
                                      attr("output_dtype", 0), attr("precision", 0),
                                      attr("saturate", 1)};
constexpr Constraints kConstraints10 = {{"T1", tensor("float int32")},
                                        {"T2", tensor("int8 uint8")},
                                        {"tensor(float)", tensor("float")}};

extern const Operator kQuantizeLinear;
constexpr Operator kQuantizeLinear{
    .domain = kOnnxDomain,
    .name = "QuantizeLinear",
    .versions = {
        {.since_version = 10,
         .inputs = kInputs10,
         .outputs = kOutputs10,
         .constraints = kConstraints10,
         .infer = inferQuantizeLinear},
        {.since_version = 13,
         .inputs = kInputs10,
         .outputs = kOutputs10,
         .attributes = {attr("axis", 1)},
         .constraints = kConstraints10,
         .infer = inferQuantizeLinear},
        {.since_version = 19,
         .inputs = kInputs19,
         .outputs = kOutputs10,
         .attributes = {attr("axis", 1), attr("saturate", 1)},
         .constraints =
             {{"T1", tensor("float float16 bfloat16 int32")},
              {"T2", tensor("int8 uint8 float8e4m3fn float8e4m3fnuz float8e5m2 float8e5m2fnuz")}},
         .infer = inferQuantizeLinear},
        {.since_version = 21,
         .inputs = kInputs19,
         .outputs = kOutputs10,
         .attributes = {attr("axis", 1), attr("block_size", 0), attr("output_dtype", 0),
                        attr("saturate", 1)},
         .constraints = {{"T1", tensor("float float16 bfloat16 int32")},
                         {"T2", tensor("int8 uint8 int16 uint16 float8e4m3fn float8e4m3fnuz "
                                       "float8e5m2 float8e5m2fnuz uint4 int4")}},
         .infer = inferQuantizeLinear},
        {.since_version = 23,
         .inputs = kInputs23,
         .outputs = kOutputs23,
         .attributes = kAttributes23,
         .constraints = {{"T1", tensor("float float16 bfloat16 int32")},
                         {"T2", tensor("float float16 bfloat16 int32")},
                         {"T3", kT3Types23}},
         .infer = inferQuantizeLinear},
        {.since_version = 24,
         .inputs = kInputs23,
         .outputs = kOutputs23,
         .attributes = kAttributes23,
         .constraints = {{"T1", tensor("float float16 bfloat16 int32")},
                         {"T2", kT2Types24},
                         {"T3", kT3Types23}},
         .infer = inferQuantizeLinear},
        {.since_version = 25,
         .inputs = kInputs23,
         .outputs = kOutputs23,
         .attributes = kAttributes23,
         .constraints = {{"T1", tensor("float float16 bfloat16 int32")},
                         {"T2", kT2Types24},
                         {"T3",
                          tensor("int8 uint8 int16 uint16 float8e4m3fn float8e4m3fnuz float8e5m2 "
                                 "float8e5m2fnuz uint4 int4 float4e2m1 uint2 int2")}},
         .infer = inferQuantizeLinear},
    }};
static_assert(isWellFormed(kQuantizeLinear));

}  // namespace onyx::ops::ai_onnx
