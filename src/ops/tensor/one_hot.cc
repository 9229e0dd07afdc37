// OneHot (ai.onnx), versions 9, 11.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/schema_dsl.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

constexpr TypeSet kT1Types9 =
    tensor("uint8 uint16 uint32 uint64 int8 int16 int32 int64 float16 float double");
constexpr Formals kInputs9 = {{"indices", "T1"}, {"depth", "T2"}, {"values", "T3"}};
constexpr Formals kOutputs9 = {{"output", "T3"}};
constexpr Attributes kAttributes9 = {attr("axis", -1)};
constexpr Constraints kConstraints9 = {
    {"T1", kT1Types9}, {"T2", kT1Types9}, {"T3", tensor(kIr3Types)}};

extern const Operator kOneHot;
constexpr Operator kOneHot{.domain = kOnnxDomain,
                           .name = "OneHot",
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
                           }};
static_assert(isWellFormed(kOneHot));

}  // namespace onyx::ops::ai_onnx
