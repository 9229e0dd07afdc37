// ConstantOfShape (ai.onnx), versions 9, 20, 21, 23, 24, 25.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/schema_dsl.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

constexpr Formals kInputs9 = {{"input", "T1"}};
constexpr Formals kOutputs9 = {{"output", "T2"}};
constexpr Attributes kAttributes9 = {attr("value", kTensor)};

extern const Operator kConstantOfShape;
constexpr Operator kConstantOfShape{
    .domain = kOnnxDomain,
    .name = "ConstantOfShape",
    .versions = {
        {.since_version = 9,
         .inputs = kInputs9,
         .outputs = kOutputs9,
         .attributes = kAttributes9,
         .constraints = {{"T1", tensor("int64")},
                         {"T2", tensor("float16 float double int8 int16 int32 int64 uint8 uint16 "
                                       "uint32 uint64 bool")}}},
        {.since_version = 20,
         .inputs = kInputs9,
         .outputs = kOutputs9,
         .attributes = kAttributes9,
         .constraints =
             {{"T1", tensor("int64")},
              {"T2",
               tensor("float16 float double int8 int16 int32 int64 uint8 uint16 uint32 uint64 bool "
                      "bfloat16 float8e4m3fn float8e4m3fnuz float8e5m2 float8e5m2fnuz")}}},
        {.since_version = 21,
         .inputs = kInputs9,
         .outputs = kOutputs9,
         .attributes = kAttributes9,
         .constraints =
             {{"T1", tensor("int64")},
              {"T2",
               tensor(
                   "float16 float double int8 int16 int32 int64 uint8 uint16 uint32 uint64 uint4 "
                   "int4 bool bfloat16 float8e4m3fn float8e4m3fnuz float8e5m2 float8e5m2fnuz")}}},
        {.since_version = 23,
         .inputs = kInputs9,
         .outputs = kOutputs9,
         .attributes = kAttributes9,
         .constraints = {{"T1", tensor("int64")},
                         {"T2", tensor("float16 float double int8 int16 int32 int64 uint8 uint16 "
                                       "uint32 uint64 uint4 int4 bool bfloat16 float8e4m3fn "
                                       "float8e4m3fnuz float8e5m2 float8e5m2fnuz float4e2m1")}}},
        {.since_version = 24,
         .inputs = kInputs9,
         .outputs = kOutputs9,
         .attributes = kAttributes9,
         .constraints = {{"T1", tensor("int64")},
                         {"T2",
                          tensor("float16 float double int8 int16 int32 int64 uint8 uint16 uint32 "
                                 "uint64 uint4 int4 bool bfloat16 float8e4m3fn float8e4m3fnuz "
                                 "float8e5m2 float8e5m2fnuz float4e2m1 float8e8m0")}}},
        {.since_version = 25,
         .inputs = kInputs9,
         .outputs = kOutputs9,
         .attributes = kAttributes9,
         .constraints = {{"T1", tensor("int64")},
                         {"T2",
                          tensor("float16 float double int8 int16 int32 int64 uint8 uint16 uint32 "
                                 "uint64 uint4 int4 bool bfloat16 float8e4m3fn float8e4m3fnuz "
                                 "float8e5m2 float8e5m2fnuz float4e2m1 float8e8m0 uint2 int2")}}},
    }};
static_assert(isWellFormed(kConstantOfShape));

}  // namespace onyx::ops::ai_onnx
