// SequenceEmpty (ai.onnx), versions 11.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/schema_dsl.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

extern const Operator kSequenceEmpty;
constexpr Operator kSequenceEmpty{.domain = kOnnxDomain,
                                  .name = "SequenceEmpty",
                                  .versions = {
                                      {.since_version = 11,
                                       .outputs = {{"output", "S"}},
                                       .attributes = {attr("dtype", kInt)},
                                       .constraints = {{"S", sequence(kIr3Types)}}},
                                  }};
static_assert(isWellFormed(kSequenceEmpty));

}  // namespace onyx::ops::ai_onnx
