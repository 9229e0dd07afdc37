// LabelEncoder (ai.onnx.ml), versions 1, 2, 4.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "onyx/ir/attribute.h"
#include "onyx/ir/tensor.h"
#include "ops/ml/ml_shapes.h"
#include "ops/schema_dsl.h"

namespace onyx::ops::ai_onnx_ml {
using namespace dsl;

namespace {

// Version 1 maps strings to integers and back.
void inferLabelEncoder1(InferenceContext& ctx) {
  int32_t in = ctx.inputElemType(0);
  if (in == kMlString) ctx.setOutputElemType(0, kMlInt64);
  if (in == kMlInt64) ctx.setOutputElemType(0, kMlString);
  if (const Dims* shape = ctx.inputShape(0)) ctx.setOutputShape(0, *shape);
}

// Versions 2 and 4: the output type is that of the values_* attribute that is set.
void inferLabelEncoder(InferenceContext& ctx) {
  int32_t out = 0;
  if (attributeLength(ctx, "values_strings") > 0) out = kMlString;
  if (attributeLength(ctx, "values_int64s") > 0) out = kMlInt64;
  if (attributeLength(ctx, "values_floats") > 0) out = kMlFloat;
  if (const Tensor* values = ctx.tensorAttribute("values_tensor")) {
    out = values->data_type.value_or(0);
  }
  if (out == 0) {
    ctx.fail("none of the values_* attributes is set");
    return;
  }
  ctx.setOutputElemType(0, out);
  if (const Dims* shape = ctx.inputShape(0)) ctx.setOutputShape(0, *shape);
}

}  // namespace

constexpr TypeSet kT1Types4 = tensor("string int64 float int32 int16 double");
constexpr Formals kInputs1 = {{"X", "T1"}};
constexpr Formals kOutputs1 = {{"Y", "T2"}};

extern const Operator kLabelEncoder;
constexpr Operator kLabelEncoder{
    .domain = kMlDomain,
    .name = "LabelEncoder",
    .versions = {
        {.since_version = 1,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = {attr("classes_strings", kStrings), attr("default_int64", -1),
                        attr("default_string", "_Unused")},
         .constraints = {{"T1", tensor("string int64")}, {"T2", tensor("string int64")}},
         .infer = inferLabelEncoder1},
        {.since_version = 2,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = {attr("default_float", -0.0f), attr("default_int64", -1),
                        attr("default_string", "_Unused"), attr("keys_floats", kFloats),
                        attr("keys_int64s", kInts), attr("keys_strings", kStrings),
                        attr("values_floats", kFloats), attr("values_int64s", kInts),
                        attr("values_strings", kStrings)},
         .constraints = {{"T1", tensor("string int64 float")},
                         {"T2", tensor("string int64 float")}},
         .infer = inferLabelEncoder},
        {.since_version = 4,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = {attr("default_float", -0.0f), attr("default_int64", -1),
                        attr("default_string", "_Unused"), attr("default_tensor", kTensor),
                        attr("keys_floats", kFloats), attr("keys_int64s", kInts),
                        attr("keys_strings", kStrings), attr("keys_tensor", kTensor),
                        attr("values_floats", kFloats), attr("values_int64s", kInts),
                        attr("values_strings", kStrings), attr("values_tensor", kTensor)},
         .constraints = {{"T1", kT1Types4}, {"T2", kT1Types4}},
         .infer = inferLabelEncoder},
    }};
static_assert(isWellFormed(kLabelEncoder));

}  // namespace onyx::ops::ai_onnx_ml
