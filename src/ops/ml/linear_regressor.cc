// LinearRegressor (ai.onnx.ml), versions 1.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/ml/ml_shapes.h"
#include "ops/schema_dsl.h"

namespace onyx::ops::ai_onnx_ml {
using namespace dsl;

namespace {

void inferLinearRegressor(InferenceContext& ctx) {
  std::optional<DimValue> batch = batchOf(ctx);
  if (!batch) return;
  int64_t targets = ctx.intAttribute("targets").value_or(1);
  ctx.setOutputShape(0, {*batch, targets > 0 ? DimValue::known(targets) : ctx.dims().fresh()});
}

}  // namespace

extern const Operator kLinearRegressor;
constexpr Operator kLinearRegressor{
    .domain = kMlDomain,
    .name = "LinearRegressor",
    .versions = {
        {.since_version = 1,
         .inputs = {{"X", "T"}},
         .outputs = {{"Y", "tensor(float)"}},
         .attributes = {attr("coefficients", kFloats), attr("intercepts", kFloats),
                        attr("post_transform", "NONE"), attr("targets", 1)},
         .constraints = {{"T", tensor("float double int64 int32")},
                         {"tensor(float)", tensor("float")}},
         .infer = inferLinearRegressor},
    }};
static_assert(isWellFormed(kLinearRegressor));

}  // namespace onyx::ops::ai_onnx_ml
