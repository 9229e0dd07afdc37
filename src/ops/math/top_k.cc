// TopK (ai.onnx), versions 1, 10, 11, 24.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/schema_dsl.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

constexpr Formals kInputs10 = {{"X", "T"}, {"K", "tensor(int64)"}};
constexpr Formals kOutputs1 = {{"Values", "T"}, {"Indices", "I"}};
constexpr Attributes kAttributes11 = {attr("axis", -1), attr("largest", 1), attr("sorted", 1)};

extern const Operator kTopK;
constexpr Operator kTopK{
    .domain = kOnnxDomain,
    .name = "TopK",
    .versions = {
        {.since_version = 1,
         .inputs = {{"X", "T"}},
         .outputs = kOutputs1,
         .attributes = {attr("axis", -1), required("k", kInt)},
         .constraints = {{"T", tensor("float16 float double")}, {"I", tensor("int64")}}},
        {.since_version = 10,
         .inputs = kInputs10,
         .outputs = kOutputs1,
         .attributes = {attr("axis", -1)},
         .constraints = {{"T", tensor("float16 float double")},
                         {"I", tensor("int64")},
                         {"tensor(int64)", tensor("int64")}}},
        {.since_version = 11,
         .inputs = kInputs10,
         .outputs = kOutputs1,
         .attributes = kAttributes11,
         .constraints =
             {{"T",
               tensor("uint8 uint16 uint32 uint64 int8 int16 int32 int64 float16 float double")},
              {"I", tensor("int64")},
              {"tensor(int64)", tensor("int64")}}},
        {.since_version = 24,
         .inputs = kInputs10,
         .outputs = kOutputs1,
         .attributes = kAttributes11,
         .constraints = {{"T", tensor("uint8 uint16 uint32 uint64 int8 int16 int32 int64 float16 "
                                      "float double bfloat16")},
                         {"I", tensor("int64")},
                         {"tensor(int64)", tensor("int64")}}},
    }};
static_assert(isWellFormed(kTopK));

}  // namespace onyx::ops::ai_onnx
