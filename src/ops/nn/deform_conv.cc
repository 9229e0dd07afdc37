// DeformConv (ai.onnx), versions 19, 22.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/nn/window_shape.h"
#include "ops/schema_dsl.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

// DeformConv's output has Conv's shape: the offsets move the sampling points, not the grid.
void inferDeformConv(InferenceContext& ctx) { inferConvolution(ctx, 0, 1); }

}  // namespace

constexpr Formals kInputs19 = {
    {"X", "T"}, {"W", "T"}, {"offset", "T"}, optional("B", "T"), optional("mask", "T")};
constexpr Formals kOutputs19 = {{"Y", "T"}};
constexpr Attributes kAttributes19 = {attr("dilations", kInts),    attr("group", 1),
                                      attr("kernel_shape", kInts), attr("offset_group", 1),
                                      attr("pads", kInts),         attr("strides", kInts)};

extern const Operator kDeformConv;
constexpr Operator kDeformConv{.domain = kOnnxDomain,
                               .name = "DeformConv",
                               .versions = {
                                   {.since_version = 19,
                                    .inputs = kInputs19,
                                    .outputs = kOutputs19,
                                    .attributes = kAttributes19,
                                    .constraints = {{"T", tensor("float16 float double")}},
                                    .infer = inferDeformConv},
                                   {.since_version = 22,
                                    .inputs = kInputs19,
                                    .outputs = kOutputs19,
                                    .attributes = kAttributes19,
                                    .constraints = {{"T", tensor("bfloat16 float16 float double")}},
                                    .infer = inferDeformConv},
                               }};
static_assert(isWellFormed(kDeformConv));

}  // namespace onyx::ops::ai_onnx
