// ImageDecoder (ai.onnx), versions 20.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "onyx/ops/inference_context.h"
#include "ops/schema_dsl.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

// (height, width, channels): the size is in the encoded bytes; RGB and BGR have 3 channels,
// Grayscale 1.
void inferImageDecoder(InferenceContext& ctx) {
  std::string_view format = ctx.stringAttribute("pixel_format").value_or("RGB");
  DimValue channels = format == "Grayscale"                  ? DimValue::known(1)
                      : (format == "RGB" || format == "BGR") ? DimValue::known(3)
                                                             : ctx.dims().fresh();
  ctx.setOutputShape(0, {ctx.dims().fresh(), ctx.dims().fresh(), channels});
}

}  // namespace

extern const Operator kImageDecoder;
constexpr Operator kImageDecoder{
    .domain = kOnnxDomain,
    .name = "ImageDecoder",
    .versions = {
        {.since_version = 20,
         .inputs = {{"encoded_stream", "T1"}},
         .outputs = {{"image", "T2"}},
         .attributes = {attr("pixel_format", "RGB")},
         .constraints = {{"T1", tensor("uint8")}, {"T2", tensor("uint8")}},
         .infer = inferImageDecoder},
    }};
static_assert(isWellFormed(kImageDecoder));

}  // namespace onyx::ops::ai_onnx
