// Clip (ai.onnx), versions 1, 6, 11, 12, 13.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/body_text.h"
#include "ops/schema_dsl.h"
#include "ops/shape_rules.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

constexpr Formals kInputs1 = {{"input", "T"}};
constexpr Formals kInputs11 = {{"input", "T"}, optional("min", "T"), optional("max", "T")};
constexpr Formals kOutputs1 = {{"output", "T"}};
constexpr Constraints kConstraints1 = {{"T", tensor("float16 float double")}};

namespace {

// Clip 13 as the spec defines it: Where against whichever bounds the node gives.
Result<std::string> buildClip13(const FunctionBodyContext& context) {
  bool has_min = context.hasInput(1);
  bool has_max = context.hasInput(2);
  body::BodyText out(context, "Clip");
  if (!has_min && !has_max) {
    out.add("output = Identity (input)");
  } else if (has_min && !has_max) {
    out.add("below = Less (input, min)").add("output = Where (below, min, input)");
  } else if (!has_min && has_max) {
    out.add("above = Less (max, input)").add("output = Where (above, max, input)");
  } else {
    out.add("below = Less (input, min)")
        .add("raised = Where (below, min, input)")
        .add("above = Less (max, raised)")
        .add("output = Where (above, max, raised)");
  }
  return out.finish();
}

}  // namespace

extern const Operator kClip;
constexpr Operator kClip{
    .domain = kOnnxDomain,
    .name = "Clip",
    .versions = {
        {.since_version = 1,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = {attr("consumed_inputs", kInts), attr("max", kFloat), attr("min", kFloat)},
         .constraints = kConstraints1,
         .infer = inferSameShape},
        {.since_version = 6,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = {attr("max", 3.40282347e+38f), attr("min", -3.40282347e+38f)},
         .constraints = kConstraints1,
         .infer = inferSameShape},
        {.since_version = 11,
         .inputs = kInputs11,
         .outputs = kOutputs1,
         .constraints = kConstraints1,
         .infer = inferSameShape},
        {.since_version = 12,
         .inputs = kInputs11,
         .outputs = kOutputs1,
         .constraints =
             {{"T",
               tensor("uint8 uint16 uint32 uint64 int8 int16 int32 int64 float16 float double")}},
         .infer = inferSameShape},
        {.since_version = 13,
         .inputs = kInputs11,
         .outputs = kOutputs1,
         .constraints = {{"T", tensor("uint8 uint16 uint32 uint64 int8 int16 int32 int64 float16 "
                                      "float double bfloat16")}},
         .build_function_body = buildClip13,
         .infer = inferSameShape},
    }};
static_assert(isWellFormed(kClip));

}  // namespace onyx::ops::ai_onnx
