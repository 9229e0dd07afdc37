// CumProd (ai.onnx), versions 26.
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

namespace {

Status runCumProd(KernelContext& ctx) { return runCumulative<true>(ctx); }

}  // namespace

extern const Operator kCumProd;
constexpr Operator kCumProd{
    .domain = kOnnxDomain,
    .name = "CumProd",
    .versions = {
        {.since_version = 26,
         .inputs = {{"x", "T"}, {"axis", "T2"}},
         .outputs = {{"y", "T"}},
         .attributes = {attr("exclusive", 0), attr("reverse", 0)},
         .constraints = {{"T", tensor("uint32 uint64 int32 int64 float16 float double bfloat16")},
                         {"T2", tensor("int32 int64")}},
         .infer = inferCumulative,
         .kernel = runCumProd},
    }};
static_assert(isWellFormed(kCumProd));

}  // namespace onyx::ops::ai_onnx
