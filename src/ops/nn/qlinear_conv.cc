// QLinearConv (ai.onnx), versions 10.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/nn/window_shape.h"
#include "ops/schema_dsl.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

// The quantized data is input 0 and the quantized weight input 3.
void inferQLinearConv(InferenceContext& ctx) { inferConvolution(ctx, 0, 3); }

}  // namespace

extern const Operator kQLinearConv;
constexpr Operator kQLinearConv{
    .domain = kOnnxDomain,
    .name = "QLinearConv",
    .versions = {
        {.since_version = 10,
         .inputs = {{"x", "T1"},
                    {"x_scale", "tensor(float)"},
                    {"x_zero_point", "T1"},
                    {"w", "T2"},
                    {"w_scale", "tensor(float)"},
                    {"w_zero_point", "T2"},
                    {"y_scale", "tensor(float)"},
                    {"y_zero_point", "T3"},
                    optional("B", "T4")},
         .outputs = {{"y", "T3"}},
         .attributes = {attr("auto_pad", "NOTSET"), attr("dilations", kInts), attr("group", 1),
                        attr("kernel_shape", kInts), attr("pads", kInts), attr("strides", kInts)},
         .constraints = {{"T1", tensor("int8 uint8")},
                         {"T2", tensor("int8 uint8")},
                         {"T3", tensor("int8 uint8")},
                         {"T4", tensor("int32")},
                         {"tensor(float)", tensor("float")}},
         .infer = inferQLinearConv},
    }};
static_assert(isWellFormed(kQLinearConv));

}  // namespace onyx::ops::ai_onnx
