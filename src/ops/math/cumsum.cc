// CumSum (ai.onnx), versions 11, 14.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/math/math_shape.h"
#include "ops/math/scan_kernels.h"
#include "ops/schema_dsl.h"
#include "ops/shape_rules.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

// y has x's shape; the axis, when known, must name one of x's axes.
void inferCumulative(InferenceContext& ctx) {
  const Dims* in = ctx.inputShape(0);
  if (in == nullptr) return;
  if (std::optional<DimValue> axis = scalarInputData(ctx, 1); axis && axis->isKnown()) {
    if (!normalizeAxis(ctx, axis->value(), in->size())) return;
  }
  ctx.setOutputShape(0, *in);
}

}  // namespace

constexpr Formals kInputs11 = {{"x", "T"}, {"axis", "T2"}};
constexpr Formals kOutputs11 = {{"y", "T"}};
constexpr Attributes kAttributes11 = {attr("exclusive", 0), attr("reverse", 0)};

namespace {

Status runCumSum(KernelContext& ctx) { return runCumulative<false>(ctx); }

}  // namespace

extern const Operator kCumSum;
constexpr Operator kCumSum{
    .domain = kOnnxDomain,
    .name = "CumSum",
    .versions = {
        {.since_version = 11,
         .inputs = kInputs11,
         .outputs = kOutputs11,
         .attributes = kAttributes11,
         .constraints = {{"T", tensor("uint32 uint64 int32 int64 float double")},
                         {"T2", tensor("int32 int64")}},
         .infer = inferCumulative,
         .kernel = runCumSum},
        {.since_version = 14,
         .inputs = kInputs11,
         .outputs = kOutputs11,
         .attributes = kAttributes11,
         .constraints = {{"T", tensor("uint32 uint64 int32 int64 float16 float double bfloat16")},
                         {"T2", tensor("int32 int64")}},
         .infer = inferCumulative,
         .kernel = runCumSum,
         .step = typesOnly("float16 and bfloat16 added")},
    }};
static_assert(isWellFormed(kCumSum));

}  // namespace onyx::ops::ai_onnx
