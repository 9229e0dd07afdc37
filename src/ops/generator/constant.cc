// Constant (ai.onnx), versions 1, 9, 11, 12, 13, 19, 21, 23, 24, 25.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/schema_dsl.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

constexpr Formals kOutputs1 = {{"output", "T"}};
constexpr Attributes kAttributes1 = {required("value", kTensor)};
constexpr Attributes kAttributes12 = {attr("sparse_value", kSparseTensor),
                                      attr("value", kTensor),
                                      attr("value_float", kFloat),
                                      attr("value_floats", kFloats),
                                      attr("value_int", kInt),
                                      attr("value_ints", kInts),
                                      attr("value_string", kString),
                                      attr("value_strings", kStrings)};
constexpr Constraints kConstraints9 = {{"T", tensor(kIr3Types)}};

extern const Operator kConstant;
constexpr Operator kConstant{
    .domain = kOnnxDomain,
    .name = "Constant",
    .versions = {
        {.since_version = 1,
         .outputs = kOutputs1,
         .attributes = kAttributes1,
         .constraints = {{"T", tensor("float16 float double")}}},
        {.since_version = 9,
         .outputs = kOutputs1,
         .attributes = kAttributes1,
         .constraints = kConstraints9},
        {.since_version = 11,
         .outputs = kOutputs1,
         .attributes = {attr("sparse_value", kSparseTensor), attr("value", kTensor)},
         .constraints = kConstraints9},
        {.since_version = 12,
         .outputs = kOutputs1,
         .attributes = kAttributes12,
         .constraints = kConstraints9},
        {.since_version = 13,
         .outputs = kOutputs1,
         .attributes = kAttributes12,
         .constraints = {{"T", tensor(kIr4Types)}}},
        {.since_version = 19,
         .outputs = kOutputs1,
         .attributes = kAttributes12,
         .constraints = {{"T", tensor(kIr9Types)}}},
        {.since_version = 21,
         .outputs = kOutputs1,
         .attributes = kAttributes12,
         .constraints = {{"T", tensor(kIr10Types)}}},
        {.since_version = 23,
         .outputs = kOutputs1,
         .attributes = kAttributes12,
         .constraints = {{"T", tensor(kIr11Types)}}},
        {.since_version = 24,
         .outputs = kOutputs1,
         .attributes = kAttributes12,
         .constraints = {{"T", tensor(kIr12Types)}}},
        {.since_version = 25,
         .outputs = kOutputs1,
         .attributes = kAttributes12,
         .constraints = {{"T", tensor(kIr13Types)}}},
    }};
static_assert(isWellFormed(kConstant));

}  // namespace onyx::ops::ai_onnx
