// DequantizeLinear (ai.onnx), versions 10, 13, 19, 21, 23, 24, 25.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/schema_dsl.h"
#include "ops/shape_rules.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

// y has x's shape; from version 23 its element type is output_dtype when set, else
// x_scale's.
void inferDequantizeLinear(InferenceContext& ctx) {
  inferSameShape(ctx);
  if (ctx.outputElemType(0) != 0) return;
  int64_t output_dtype = ctx.intAttribute("output_dtype").value_or(0);
  if (output_dtype > 0 && output_dtype <= 26) {
    ctx.setOutputElemType(0, static_cast<int32_t>(output_dtype));
  } else if (output_dtype == 0 && ctx.inputElemType(1) != 0) {
    ctx.setOutputElemType(0, ctx.inputElemType(1));
  }
}

}  // namespace

constexpr TypeSet kT1Types23 = tensor(
    "int8 uint8 int16 uint16 int32 float8e4m3fn float8e4m3fnuz float8e5m2 float8e5m2fnuz uint4 "
    "int4 float4e2m1");
constexpr TypeSet kT2Types24 = tensor("float float16 bfloat16 float8e8m0");
constexpr Formals kInputs10 = {
    {"x", "T"}, {"x_scale", "tensor(float)"}, optional("x_zero_point", "T")};
constexpr Formals kInputs19 = {{"x", "T1"}, {"x_scale", "T2"}, optional("x_zero_point", "T1")};
constexpr Formals kOutputs10 = {{"y", "tensor(float)"}};
constexpr Formals kOutputs19 = {{"y", "T2"}};
constexpr Formals kOutputs23 = {{"y", "T3"}};
constexpr Attributes kAttributes13 = {attr("axis", 1)};
constexpr Attributes kAttributes23 = {attr("axis", 1), attr("block_size", 0),
                                      attr("output_dtype", 0)};
constexpr Constraints kConstraints10 = {{"T", tensor("int8 uint8 int32")},
                                        {"tensor(float)", tensor("float")}};

extern const Operator kDequantizeLinear;
constexpr Operator kDequantizeLinear{
    .domain = kOnnxDomain,
    .name = "DequantizeLinear",
    .versions = {
        {.since_version = 10,
         .inputs = kInputs10,
         .outputs = kOutputs10,
         .constraints = kConstraints10,
         .infer = inferDequantizeLinear},
        {.since_version = 13,
         .inputs = kInputs10,
         .outputs = kOutputs10,
         .attributes = kAttributes13,
         .constraints = kConstraints10,
         .infer = inferDequantizeLinear},
        {.since_version = 19,
         .inputs = kInputs19,
         .outputs = kOutputs19,
         .attributes = kAttributes13,
         .constraints =
             {{"T1",
               tensor("int8 uint8 int32 float8e4m3fn float8e4m3fnuz float8e5m2 float8e5m2fnuz")},
              {"T2", tensor("float float16 bfloat16")}},
         .infer = inferDequantizeLinear},
        {.since_version = 21,
         .inputs = kInputs19,
         .outputs = kOutputs19,
         .attributes = {attr("axis", 1), attr("block_size", 0)},
         .constraints = {{"T1", tensor("int8 uint8 int16 uint16 int32 float8e4m3fn float8e4m3fnuz "
                                       "float8e5m2 float8e5m2fnuz uint4 int4")},
                         {"T2", tensor("float float16 bfloat16")}},
         .infer = inferDequantizeLinear},
        {.since_version = 23,
         .inputs = kInputs19,
         .outputs = kOutputs23,
         .attributes = kAttributes23,
         .constraints = {{"T1", kT1Types23},
                         {"T2", tensor("float float16 bfloat16")},
                         {"T3", tensor("float float16 bfloat16")}},
         .infer = inferDequantizeLinear},
        {.since_version = 24,
         .inputs = kInputs19,
         .outputs = kOutputs23,
         .attributes = kAttributes23,
         .constraints = {{"T1", kT1Types23},
                         {"T2", kT2Types24},
                         {"T3", tensor("float float16 bfloat16")}},
         .infer = inferDequantizeLinear},
        {.since_version = 25,
         .inputs = kInputs19,
         .outputs = kOutputs23,
         .attributes = kAttributes23,
         .constraints = {{"T1",
                          tensor("int8 uint8 int16 uint16 int32 float8e4m3fn float8e4m3fnuz "
                                 "float8e5m2 float8e5m2fnuz uint4 int4 float4e2m1 uint2 int2")},
                         {"T2", kT2Types24},
                         {"T3", tensor("float float16 bfloat16")}},
         .infer = inferDequantizeLinear},
    }};
static_assert(isWellFormed(kDequantizeLinear));

}  // namespace onyx::ops::ai_onnx
