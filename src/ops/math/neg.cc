// Neg (ai.onnx), versions 1, 6, 13.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/lib/elementwise_kernels.h"
#include "ops/schema_dsl.h"
#include "ops/shape_rules.h"
#include "ops/version_adapters.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

// -x; the most negative integer stays itself, as it does in two's complement.
Status runNeg(KernelContext& ctx) {
  return elementwise::unaryArithmeticKernel(ctx, [](auto x) { return elementwise::wrapNeg(x); });
}

// Shapes are often computed with Neg (a count of trailing axes from a negative axis): the
// negated elements propagate.
void inferNeg(InferenceContext& ctx) {
  inferSameShape(ctx);
  const Dims* data = ctx.inputData(0);
  if (data == nullptr) return;
  Dims negated;
  negated.reserve(data->size());
  for (DimValue element : *data) {
    negated.push_back(ctx.dims().subtract(DimValue::known(0), element));
  }
  ctx.setOutputData(0, std::move(negated));
}

}  // namespace

constexpr Formals kInputs1 = {{"X", "T"}};
constexpr Formals kOutputs1 = {{"Y", "T"}};

extern const Operator kNeg;
constexpr Operator kNeg{
    .domain = kOnnxDomain,
    .name = "Neg",
    .versions = {
        {.since_version = 1,
         .traits = kElementwise,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = {attr("consumed_inputs", kInts)},
         .constraints = {{"T", tensor("float16 float double")}},
         .infer = inferNeg,
         .kernel = runNeg},
        {.since_version = 6,
         .traits = kElementwise,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .constraints = {{"T", tensor("float int32 int8 int16 int64 float16 double")}},
         .infer = inferNeg,
         .kernel = runNeg,
         .step = {.reviewed = true,
                  .change = "consumed_inputs removed; int8, int16, int32 and int64 added",
                  .up = dropConsumedInputs}},
        {.since_version = 13,
         .traits = kElementwise,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .constraints = {{"T", tensor("float int32 int8 int16 int64 float16 double bfloat16")}},
         .infer = inferNeg,
         .kernel = runNeg,
         .step = typesOnly("bfloat16 added")},
    }};
static_assert(isWellFormed(kNeg));

}  // namespace onyx::ops::ai_onnx
