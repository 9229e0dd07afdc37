// PRelu (ai.onnx), versions 1, 6, 7, 9, 16.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/schema_dsl.h"
#include "ops/shape_rules.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

// slope broadcasts to X (unidirectionally from version 7), so Y has X's shape.
void inferPRelu(InferenceContext& ctx) { inferSameShape(ctx); }

}  // namespace

constexpr Formals kInputs1 = {{"X", "T"}, {"slope", "T"}};
constexpr Formals kOutputs1 = {{"Y", "T"}};
constexpr Constraints kConstraints1 = {{"T", tensor("float16 float double")}};

// PRelu 16 as the spec defines it: slope * X where X < 0, else X.
constexpr const char* kBody16 = R"ONNX(
<domain: "", opset_import: ["" : 16]>
PRelu (X, slope) => (Y) {
  zero = Constant <value = float {0.0}> ()
  zero_x = CastLike (zero, X)
  negative = Less (X, zero_x)
  sloped = Mul (slope, X)
  Y = Where (negative, sloped, X)
}
)ONNX";

extern const Operator kPRelu;
constexpr Operator kPRelu{
    .domain = kOnnxDomain,
    .name = "PRelu",
    .versions = {
        {.since_version = 1,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = {attr("consumed_inputs", kInts)},
         .constraints = kConstraints1,
         .infer = inferPRelu},
        {.since_version = 6,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .constraints = kConstraints1,
         .infer = inferPRelu},
        {.since_version = 7,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .constraints = kConstraints1,
         .infer = inferPRelu},
        {.since_version = 9,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .constraints = {{"T", tensor("float16 float double uint32 uint64 int32 int64")}},
         .infer = inferPRelu},
        {.since_version = 16,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .constraints = {{"T", tensor("bfloat16 float16 float double uint32 uint64 int32 int64")}},
         .function_bodies = {{16, kBody16}},
         .infer = inferPRelu},
    }};
static_assert(isWellFormed(kPRelu));

}  // namespace onyx::ops::ai_onnx
