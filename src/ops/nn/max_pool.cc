// MaxPool (ai.onnx), versions 1, 8, 10, 11, 12, 22.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/nn/window_shape.h"
#include "ops/schema_dsl.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

// Indices (version 8 on) has Y's shape.
void inferMaxPool(InferenceContext& ctx) { inferPooling(ctx, true); }

}  // namespace

constexpr Formals kInputs1 = {{"X", "T"}};
constexpr Formals kOutputs8 = {{"Y", "T"}, optional("Indices", "I")};
constexpr Attributes kAttributes10 = {attr("auto_pad", "NOTSET"), attr("ceil_mode", 0),
                                      attr("dilations", kInts),   required("kernel_shape", kInts),
                                      attr("pads", kInts),        attr("storage_order", 0),
                                      attr("strides", kInts)};
constexpr Constraints kConstraints8 = {{"T", tensor("float16 float double")},
                                       {"I", tensor("int64")}};

extern const Operator kMaxPool;
constexpr Operator kMaxPool{
    .domain = kOnnxDomain,
    .name = "MaxPool",
    .versions = {
        {.since_version = 1,
         .inputs = kInputs1,
         .outputs = {{"Y", "T"}},
         .attributes = {attr("auto_pad", "NOTSET"), required("kernel_shape", kInts),
                        attr("pads", kInts), attr("strides", kInts)},
         .constraints = {{"T", tensor("float16 float double")}},
         .infer = inferMaxPool},
        {.since_version = 8,
         .inputs = kInputs1,
         .outputs = kOutputs8,
         .attributes = {attr("auto_pad", "NOTSET"), required("kernel_shape", kInts),
                        attr("pads", kInts), attr("storage_order", 0), attr("strides", kInts)},
         .constraints = kConstraints8,
         .infer = inferMaxPool},
        {.since_version = 10,
         .inputs = kInputs1,
         .outputs = kOutputs8,
         .attributes = kAttributes10,
         .constraints = kConstraints8,
         .infer = inferMaxPool},
        {.since_version = 11,
         .inputs = kInputs1,
         .outputs = kOutputs8,
         .attributes = kAttributes10,
         .constraints = kConstraints8,
         .infer = inferMaxPool},
        {.since_version = 12,
         .inputs = kInputs1,
         .outputs = kOutputs8,
         .attributes = kAttributes10,
         .constraints = {{"T", tensor("float16 float double int8 uint8")}, {"I", tensor("int64")}},
         .infer = inferMaxPool},
        {.since_version = 22,
         .inputs = kInputs1,
         .outputs = kOutputs8,
         .attributes = kAttributes10,
         .constraints = {{"T", tensor("bfloat16 float16 float double int8 uint8")},
                         {"I", tensor("int64")}},
         .infer = inferMaxPool},
    }};
static_assert(isWellFormed(kMaxPool));

}  // namespace onyx::ops::ai_onnx
