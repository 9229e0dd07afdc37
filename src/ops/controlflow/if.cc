// If (ai.onnx), versions 1, 11, 13, 16, 19, 21, 23, 24, 25.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/schema_dsl.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

constexpr Formals kInputs1 = {{"cond", "B"}};
constexpr Formals kOutputs1 = {heterogeneous("outputs", "V", 1)};
constexpr Attributes kAttributes1 = {required("else_branch", kGraph),
                                     required("then_branch", kGraph)};
constexpr Constraints kConstraints1 = {{"V", tensor(kIr3Types)}, {"B", tensor("bool")}};

extern const Operator kIf;
constexpr Operator kIf{
    .domain = kOnnxDomain,
    .name = "If",
    .versions = {
        {.since_version = 1,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = kAttributes1,
         .constraints = kConstraints1},
        {.since_version = 11,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = kAttributes1,
         .constraints = kConstraints1},
        {.since_version = 13,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = kAttributes1,
         .constraints = {{"V", tensor(kIr3Types) | sequence(kIr3Types)}, {"B", tensor("bool")}}},
        {.since_version = 16,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = kAttributes1,
         .constraints = {{"V", tensor(kIr4Types) | sequence(kIr4Types) | optionalTensor(kIr4Types) |
                                   optionalSequence(kIr4Types)},
                         {"B", tensor("bool")}}},
        {.since_version = 19,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = kAttributes1,
         .constraints = {{"V", tensor(kIr9Types) | sequence(kIr9Types) | optionalTensor(kIr9Types) |
                                   optionalSequence(kIr4Types)},
                         {"B", tensor("bool")}}},
        {.since_version = 21,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = kAttributes1,
         .constraints = {{"V", tensor(kIr10Types) | sequence(kIr10Types) |
                                   optionalTensor(kIr10Types) | optionalSequence(kIr4Types)},
                         {"B", tensor("bool")}}},
        {.since_version = 23,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = kAttributes1,
         .constraints = {{"V", tensor(kIr11Types) | sequence(kIr11Types) |
                                   optionalTensor(kIr11Types) | optionalSequence(kIr4Types)},
                         {"B", tensor("bool")}}},
        {.since_version = 24,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = kAttributes1,
         .constraints = {{"V", tensor(kIr12Types) | sequence(kIr12Types) |
                                   optionalTensor(kIr12Types) | optionalSequence(kIr4Types)},
                         {"B", tensor("bool")}}},
        {.since_version = 25,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = kAttributes1,
         .constraints = {{"V", tensor(kIr13Types) | sequence(kIr13Types) |
                                   optionalTensor(kIr13Types) | optionalSequence(kIr4Types)},
                         {"B", tensor("bool")}}},
    }};
static_assert(isWellFormed(kIf));

}  // namespace onyx::ops::ai_onnx
