// Optional (ai.onnx), versions 15.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/schema_dsl.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

extern const Operator kOptional;
constexpr Operator kOptional{
    .domain = kOnnxDomain,
    .name = "Optional",
    .versions = {
        {.since_version = 15,
         .inputs = {optional("input", "V")},
         .outputs = {{"output", "O"}},
         .attributes = {attr("type", kTypeProto)},
         .constraints = {{"V", tensor(kIr3Types) | sequence(kIr3Types)},
                         {"O", optionalTensor(kIr3Types) | optionalSequence(kIr3Types)}}},
    }};
static_assert(isWellFormed(kOptional));

}  // namespace onyx::ops::ai_onnx
