// Transpose (ai.onnx), versions 1, 13, 21, 23, 24, 25.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/schema_dsl.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

constexpr Formals kInputs1 = {{"data", "T"}};
constexpr Formals kOutputs1 = {{"transposed", "T"}};
constexpr Attributes kAttributes1 = {attr("perm", kInts)};

extern const Operator kTranspose;
constexpr Operator kTranspose{.domain = kOnnxDomain,
                              .name = "Transpose",
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
                                  {.since_version = 21,
                                   .inputs = kInputs1,
                                   .outputs = kOutputs1,
                                   .attributes = kAttributes1,
                                   .constraints = {{"T", tensor(kIr10Types)}}},
                                  {.since_version = 23,
                                   .inputs = kInputs1,
                                   .outputs = kOutputs1,
                                   .attributes = kAttributes1,
                                   .constraints = {{"T", tensor(kIr11Types)}}},
                                  {.since_version = 24,
                                   .inputs = kInputs1,
                                   .outputs = kOutputs1,
                                   .attributes = kAttributes1,
                                   .constraints = {{"T", tensor(kIr12Types)}}},
                                  {.since_version = 25,
                                   .inputs = kInputs1,
                                   .outputs = kOutputs1,
                                   .attributes = kAttributes1,
                                   .constraints = {{"T", tensor(kIr13Types)}}},
                              }};
static_assert(isWellFormed(kTranspose));

}  // namespace onyx::ops::ai_onnx
