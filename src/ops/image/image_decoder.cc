// ImageDecoder (ai.onnx), versions 20.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/schema_dsl.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

extern const Operator kImageDecoder;
constexpr Operator kImageDecoder{
    .domain = kOnnxDomain,
    .name = "ImageDecoder",
    .versions = {
        {.since_version = 20,
         .inputs = {{"encoded_stream", "T1"}},
         .outputs = {{"image", "T2"}},
         .attributes = {attr("pixel_format", "RGB")},
         .constraints = {{"T1", tensor("uint8")}, {"T2", tensor("uint8")}}},
    }};
static_assert(isWellFormed(kImageDecoder));

}  // namespace onyx::ops::ai_onnx
