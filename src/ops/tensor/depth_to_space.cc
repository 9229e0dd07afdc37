// DepthToSpace (ai.onnx), versions 1, 11, 13.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/schema_dsl.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

constexpr Formals kInputs1 = {{"input", "T"}};
constexpr Formals kOutputs1 = {{"output", "T"}};
constexpr Attributes kAttributes11 = {required("blocksize", kInt), attr("mode", "DCR")};
constexpr Constraints kConstraints1 = {{"T", tensor(kIr3Types)}};

extern const Operator kDepthToSpace;
constexpr Operator kDepthToSpace{.domain = kOnnxDomain,
                                 .name = "DepthToSpace",
                                 .versions = {
                                     {.since_version = 1,
                                      .inputs = kInputs1,
                                      .outputs = kOutputs1,
                                      .attributes = {required("blocksize", kInt)},
                                      .constraints = kConstraints1},
                                     {.since_version = 11,
                                      .inputs = kInputs1,
                                      .outputs = kOutputs1,
                                      .attributes = kAttributes11,
                                      .constraints = kConstraints1},
                                     {.since_version = 13,
                                      .inputs = kInputs1,
                                      .outputs = kOutputs1,
                                      .attributes = kAttributes11,
                                      .constraints = {{"T", tensor(kIr4Types)}}},
                                 }};
static_assert(isWellFormed(kDepthToSpace));

}  // namespace onyx::ops::ai_onnx
