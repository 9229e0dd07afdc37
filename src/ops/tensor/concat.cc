// Concat (ai.onnx), versions 1, 4, 11, 13.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/schema_dsl.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

constexpr Formals kInputs1 = {variadic("inputs", "T", 1)};
constexpr Formals kOutputs1 = {{"concat_result", "T"}};
constexpr Attributes kAttributes4 = {required("axis", kInt)};
constexpr Constraints kConstraints4 = {{"T", tensor(kIr3Types)}};

extern const Operator kConcat;
constexpr Operator kConcat{.domain = kOnnxDomain,
                           .name = "Concat",
                           .versions = {
                               {.since_version = 1,
                                .inputs = kInputs1,
                                .outputs = kOutputs1,
                                .attributes = {attr("axis", kInt)},
                                .constraints = {{"T", tensor("float16 float double")}}},
                               {.since_version = 4,
                                .inputs = kInputs1,
                                .outputs = kOutputs1,
                                .attributes = kAttributes4,
                                .constraints = kConstraints4},
                               {.since_version = 11,
                                .inputs = kInputs1,
                                .outputs = kOutputs1,
                                .attributes = kAttributes4,
                                .constraints = kConstraints4},
                               {.since_version = 13,
                                .inputs = kInputs1,
                                .outputs = kOutputs1,
                                .attributes = kAttributes4,
                                .constraints = {{"T", tensor(kIr4Types)}}},
                           }};
static_assert(isWellFormed(kConcat));

}  // namespace onyx::ops::ai_onnx
