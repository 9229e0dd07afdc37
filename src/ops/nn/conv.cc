// Conv (ai.onnx), versions 1, 11, 22.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/nn/window_shape.h"
#include "ops/schema_dsl.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

void inferConv(InferenceContext& ctx) { inferConvolution(ctx, 0, 1); }

}  // namespace

constexpr Formals kInputs1 = {{"X", "T"}, {"W", "T"}, optional("B", "T")};
constexpr Formals kOutputs1 = {{"Y", "T"}};
constexpr Attributes kAttributes1 = {attr("auto_pad", "NOTSET"), attr("dilations", kInts),
                                     attr("group", 1),           attr("kernel_shape", kInts),
                                     attr("pads", kInts),        attr("strides", kInts)};
constexpr Constraints kConstraints1 = {{"T", tensor("float16 float double")}};

extern const Operator kConv;
constexpr Operator kConv{.domain = kOnnxDomain,
                         .name = "Conv",
                         .versions = {
                             {.since_version = 1,
                              .inputs = kInputs1,
                              .outputs = kOutputs1,
                              .attributes = kAttributes1,
                              .constraints = kConstraints1,
                              .infer = inferConv},
                             {.since_version = 11,
                              .inputs = kInputs1,
                              .outputs = kOutputs1,
                              .attributes = kAttributes1,
                              .constraints = kConstraints1,
                              .infer = inferConv},
                             {.since_version = 22,
                              .inputs = kInputs1,
                              .outputs = kOutputs1,
                              .attributes = kAttributes1,
                              .constraints = {{"T", tensor("bfloat16 float16 float double")}},
                              .infer = inferConv},
                         }};
static_assert(isWellFormed(kConv));

}  // namespace onyx::ops::ai_onnx
