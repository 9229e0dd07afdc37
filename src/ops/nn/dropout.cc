// Dropout (ai.onnx), versions 1, 6, 7, 10, 12, 13, 22.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/schema_dsl.h"
#include "ops/shape_rules.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

// The mask has the data's shape.
void inferDropout(InferenceContext& ctx) {
  const Dims* input = ctx.inputShape(0);
  if (input == nullptr) return;
  if (ctx.hasOutput(1)) ctx.setOutputShape(1, *input);
  ctx.setOutputShape(0, *input);
}

}  // namespace

constexpr TypeSet kTTypes22 =
    tensor("bfloat16 float16 float double float8e4m3fn float8e4m3fnuz float8e5m2 float8e5m2fnuz");
constexpr Formals kInputs1 = {{"data", "T"}};
constexpr Formals kInputs12 = {
    {"data", "T"}, optional("ratio", "T1"), optional("training_mode", "T2")};
constexpr Formals kOutputs1 = {{"output", "T"}, optional("mask", "T")};
constexpr Formals kOutputs12 = {{"output", "T"}, optional("mask", "T2")};
constexpr Attributes kAttributes7 = {attr("ratio", 0.5f)};
constexpr Attributes kAttributes12 = {attr("seed", kInt)};
constexpr Constraints kConstraints1 = {{"T", tensor("float16 float double")}};

extern const Operator kDropout;
constexpr Operator kDropout{
    .domain = kOnnxDomain,
    .name = "Dropout",
    .versions = {
        {.since_version = 1,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = {attr("consumed_inputs", kInts), attr("is_test", 0), attr("ratio", 0.5f)},
         .constraints = kConstraints1,
         .infer = inferDropout},
        {.since_version = 6,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = {attr("is_test", 0), attr("ratio", 0.5f)},
         .constraints = kConstraints1,
         .infer = inferDropout},
        {.since_version = 7,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = kAttributes7,
         .constraints = kConstraints1,
         .infer = inferDropout},
        {.since_version = 10,
         .inputs = kInputs1,
         .outputs = {{"output", "T"}, optional("mask", "T1")},
         .attributes = kAttributes7,
         .constraints = {{"T", tensor("float16 float double")}, {"T1", tensor("bool")}},
         .infer = inferDropout},
        {.since_version = 12,
         .inputs = kInputs12,
         .outputs = kOutputs12,
         .attributes = kAttributes12,
         .constraints = {{"T", tensor("float16 float double")},
                         {"T1", tensor("float16 float double")},
                         {"T2", tensor("bool")}},
         .infer = inferDropout},
        {.since_version = 13,
         .inputs = kInputs12,
         .outputs = kOutputs12,
         .attributes = kAttributes12,
         .constraints = {{"T", tensor("float16 float double bfloat16")},
                         {"T1", tensor("float16 float double")},
                         {"T2", tensor("bool")}},
         .infer = inferDropout},
        {.since_version = 22,
         .inputs = kInputs12,
         .outputs = kOutputs12,
         .attributes = kAttributes12,
         .constraints = {{"T", kTTypes22}, {"T1", kTTypes22}, {"T2", tensor("bool")}},
         .infer = inferDropout},
    }};
static_assert(isWellFormed(kDropout));

}  // namespace onyx::ops::ai_onnx
