// ConvInteger (ai.onnx), versions 10.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/nn/window_shape.h"
#include "ops/schema_dsl.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

void inferConvInteger(InferenceContext& ctx) { inferConvolution(ctx, 0, 1); }

}  // namespace

extern const Operator kConvInteger;
constexpr Operator kConvInteger{
    .domain = kOnnxDomain,
    .name = "ConvInteger",
    .versions = {
        {.since_version = 10,
         .inputs = {{"x", "T1"},
                    {"w", "T2"},
                    optional("x_zero_point", "T1"),
                    optional("w_zero_point", "T2")},
         .outputs = {{"y", "T3"}},
         .attributes = {attr("auto_pad", "NOTSET"), attr("dilations", kInts), attr("group", 1),
                        attr("kernel_shape", kInts), attr("pads", kInts), attr("strides", kInts)},
         .constraints = {{"T1", tensor("int8 uint8")},
                         {"T2", tensor("int8 uint8")},
                         {"T3", tensor("int32")}},
         .infer = inferConvInteger},
    }};
static_assert(isWellFormed(kConvInteger));

}  // namespace onyx::ops::ai_onnx
