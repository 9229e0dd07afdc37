// AveragePool (ai.onnx), versions 1, 7, 10, 11, 19, 22.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/nn/window_shape.h"
#include "ops/schema_dsl.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

// Dilations exist from version 19; earlier versions have none.
void inferAveragePool(InferenceContext& ctx) { inferPooling(ctx, false); }
void inferAveragePool19(InferenceContext& ctx) { inferPooling(ctx, true); }

}  // namespace

constexpr Formals kInputs1 = {{"X", "T"}};
constexpr Formals kOutputs1 = {{"Y", "T"}};
constexpr Attributes kAttributes10 = {attr("auto_pad", "NOTSET"),   attr("ceil_mode", 0),
                                      attr("count_include_pad", 0), required("kernel_shape", kInts),
                                      attr("pads", kInts),          attr("strides", kInts)};
constexpr Attributes kAttributes19 = {attr("auto_pad", "NOTSET"),      attr("ceil_mode", 0),
                                      attr("count_include_pad", 0),    attr("dilations", kInts),
                                      required("kernel_shape", kInts), attr("pads", kInts),
                                      attr("strides", kInts)};
constexpr Constraints kConstraints1 = {{"T", tensor("float16 float double")}};

extern const Operator kAveragePool;
constexpr Operator kAveragePool{
    .domain = kOnnxDomain,
    .name = "AveragePool",
    .versions = {
        {.since_version = 1,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = {attr("auto_pad", "NOTSET"), required("kernel_shape", kInts),
                        attr("pads", kInts), attr("strides", kInts)},
         .constraints = kConstraints1,
         .infer = inferAveragePool},
        {.since_version = 7,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = {attr("auto_pad", "NOTSET"), attr("count_include_pad", 0),
                        required("kernel_shape", kInts), attr("pads", kInts),
                        attr("strides", kInts)},
         .constraints = kConstraints1,
         .infer = inferAveragePool},
        {.since_version = 10,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = kAttributes10,
         .constraints = kConstraints1,
         .infer = inferAveragePool},
        {.since_version = 11,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = kAttributes10,
         .constraints = kConstraints1,
         .infer = inferAveragePool},
        {.since_version = 19,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = kAttributes19,
         .constraints = kConstraints1,
         .infer = inferAveragePool19},
        {.since_version = 22,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = kAttributes19,
         .constraints = {{"T", tensor("bfloat16 float16 float double")}},
         .infer = inferAveragePool19},
    }};
static_assert(isWellFormed(kAveragePool));

}  // namespace onyx::ops::ai_onnx
