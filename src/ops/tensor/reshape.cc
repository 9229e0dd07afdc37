// Reshape (ai.onnx), versions 1, 5, 13, 14, 19, 21, 23, 24, 25.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/schema_dsl.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

constexpr Formals kInputs5 = {{"data", "T"}, {"shape", "tensor(int64)"}};
constexpr Formals kOutputs1 = {{"reshaped", "T"}};
constexpr Attributes kAttributes14 = {attr("allowzero", 0)};
constexpr Constraints kConstraints13 = {{"T", tensor(kIr4Types)},
                                        {"tensor(int64)", tensor("int64")}};

extern const Operator kReshape;
constexpr Operator kReshape{
    .domain = kOnnxDomain,
    .name = "Reshape",
    .versions = {
        {.since_version = 1,
         .inputs = {{"data", "T"}},
         .outputs = kOutputs1,
         .attributes = {attr("consumed_inputs", kInts), attr("shape", kInts)},
         .constraints = {{"T", tensor("float16 float double")}}},
        {.since_version = 5,
         .inputs = kInputs5,
         .outputs = kOutputs1,
         .constraints = {{"T", tensor(kIr3Types)}, {"tensor(int64)", tensor("int64")}}},
        {.since_version = 13,
         .inputs = kInputs5,
         .outputs = kOutputs1,
         .constraints = kConstraints13},
        {.since_version = 14,
         .inputs = kInputs5,
         .outputs = kOutputs1,
         .attributes = kAttributes14,
         .constraints = kConstraints13},
        {.since_version = 19,
         .inputs = kInputs5,
         .outputs = kOutputs1,
         .attributes = kAttributes14,
         .constraints = {{"T", tensor(kIr9Types)}, {"tensor(int64)", tensor("int64")}}},
        {.since_version = 21,
         .inputs = kInputs5,
         .outputs = kOutputs1,
         .attributes = kAttributes14,
         .constraints = {{"T", tensor(kIr10Types)}, {"tensor(int64)", tensor("int64")}}},
        {.since_version = 23,
         .inputs = kInputs5,
         .outputs = kOutputs1,
         .attributes = kAttributes14,
         .constraints = {{"T", tensor(kIr11Types)}, {"tensor(int64)", tensor("int64")}}},
        {.since_version = 24,
         .inputs = kInputs5,
         .outputs = kOutputs1,
         .attributes = kAttributes14,
         .constraints = {{"T", tensor(kIr12Types)}, {"tensor(int64)", tensor("int64")}}},
        {.since_version = 25,
         .inputs = kInputs5,
         .outputs = kOutputs1,
         .attributes = kAttributes14,
         .constraints = {{"T", tensor(kIr13Types)}, {"tensor(int64)", tensor("int64")}}},
    }};
static_assert(isWellFormed(kReshape));

}  // namespace onyx::ops::ai_onnx
