// MaxUnpool (ai.onnx), versions 9, 11, 22.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/schema_dsl.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

constexpr Formals kInputs9 = {{"X", "T1"}, {"I", "T2"}, optional("output_shape", "T2")};
constexpr Formals kOutputs9 = {{"output", "T1"}};
constexpr Attributes kAttributes9 = {required("kernel_shape", kInts), attr("pads", kInts),
                                     attr("strides", kInts)};
constexpr Constraints kConstraints9 = {{"T1", tensor("float16 float double")},
                                       {"T2", tensor("int64")}};

extern const Operator kMaxUnpool;
constexpr Operator kMaxUnpool{
    .domain = kOnnxDomain,
    .name = "MaxUnpool",
    .versions = {
        {.since_version = 9,
         .inputs = kInputs9,
         .outputs = kOutputs9,
         .attributes = kAttributes9,
         .constraints = kConstraints9},
        {.since_version = 11,
         .inputs = kInputs9,
         .outputs = kOutputs9,
         .attributes = kAttributes9,
         .constraints = kConstraints9},
        {.since_version = 22,
         .inputs = kInputs9,
         .outputs = kOutputs9,
         .attributes = kAttributes9,
         .constraints = {{"T1", tensor("bfloat16 float16 float double")}, {"T2", tensor("int64")}}},
    }};
static_assert(isWellFormed(kMaxUnpool));

}  // namespace onyx::ops::ai_onnx
