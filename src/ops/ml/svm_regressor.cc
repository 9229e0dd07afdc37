// SVMRegressor (ai.onnx.ml), versions 1.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/ml/ml_shapes.h"
#include "ops/schema_dsl.h"

namespace onyx::ops::ai_onnx_ml {
using namespace dsl;

namespace {

void inferSVMRegressor(InferenceContext& ctx) {
  std::optional<DimValue> batch = batchOf(ctx);
  if (batch) ctx.setOutputShape(0, {*batch, DimValue::known(1)});
}

}  // namespace

extern const Operator kSVMRegressor;
constexpr Operator kSVMRegressor{
    .domain = kMlDomain,
    .name = "SVMRegressor",
    .versions = {
        {.since_version = 1,
         .inputs = {{"X", "T"}},
         .outputs = {{"Y", "tensor(float)"}},
         .attributes = {attr("coefficients", kFloats), attr("kernel_params", kFloats),
                        attr("kernel_type", "LINEAR"), attr("n_supports", 0), attr("one_class", 0),
                        attr("post_transform", "NONE"), attr("rho", kFloats),
                        attr("support_vectors", kFloats)},
         .constraints = {{"T", tensor("float double int64 int32")},
                         {"tensor(float)", tensor("float")}},
         .infer = inferSVMRegressor},
    }};
static_assert(isWellFormed(kSVMRegressor));

}  // namespace onyx::ops::ai_onnx_ml
