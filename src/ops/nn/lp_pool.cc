// LpPool (ai.onnx), versions 1, 2, 11, 18, 22.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/nn/window_shape.h"
#include "ops/schema_dsl.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

void inferLpPool(InferenceContext& ctx) { inferPooling(ctx, true); }

}  // namespace

constexpr Formals kInputs1 = {{"X", "T"}};
constexpr Formals kOutputs1 = {{"Y", "T"}};
constexpr Attributes kAttributes2 = {attr("auto_pad", "NOTSET"), required("kernel_shape", kInts),
                                     attr("p", 2), attr("pads", kInts), attr("strides", kInts)};
constexpr Attributes kAttributes18 = {
    attr("auto_pad", "NOTSET"),      attr("ceil_mode", 0), attr("dilations", kInts),
    required("kernel_shape", kInts), attr("p", 2),         attr("pads", kInts),
    attr("strides", kInts)};
constexpr Constraints kConstraints1 = {{"T", tensor("float16 float double")}};

extern const Operator kLpPool;
constexpr Operator kLpPool{
    .domain = kOnnxDomain,
    .name = "LpPool",
    .versions = {
        {.since_version = 1,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = {attr("auto_pad", "NOTSET"), attr("kernel_shape", kInts), attr("p", 2.0f),
                        attr("pads", kInts), attr("strides", kInts)},
         .constraints = kConstraints1,
         .infer = inferLpPool},
        {.since_version = 2,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = kAttributes2,
         .constraints = kConstraints1,
         .infer = inferLpPool},
        {.since_version = 11,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = kAttributes2,
         .constraints = kConstraints1,
         .infer = inferLpPool},
        {.since_version = 18,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = kAttributes18,
         .constraints = kConstraints1,
         .infer = inferLpPool},
        {.since_version = 22,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = kAttributes18,
         .constraints = {{"T", tensor("bfloat16 float16 float double")}},
         .infer = inferLpPool},
    }};
static_assert(isWellFormed(kLpPool));

}  // namespace onyx::ops::ai_onnx
