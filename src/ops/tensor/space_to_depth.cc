// SpaceToDepth (ai.onnx), versions 1, 13.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/schema_dsl.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

constexpr Formals kInputs1 = {{"input", "T"}};
constexpr Formals kOutputs1 = {{"output", "T"}};
constexpr Attributes kAttributes1 = {required("blocksize", kInt)};

extern const Operator kSpaceToDepth;
constexpr Operator kSpaceToDepth{.domain = kOnnxDomain,
                                 .name = "SpaceToDepth",
                                 .versions = {
                                     {.since_version = 1,
                                      .inputs = kInputs1,
                                      .outputs = kOutputs1,
                                      .attributes = kAttributes1,
                                      .constraints = {{"T", tensor(kIr3Types)}}},
                                     {.since_version = 13,
                                      .inputs = kInputs1,
                                      .outputs = kOutputs1,
                                      .attributes = kAttributes1,
                                      .constraints = {{"T", tensor(kIr4Types)}}},
                                 }};
static_assert(isWellFormed(kSpaceToDepth));

}  // namespace onyx::ops::ai_onnx
