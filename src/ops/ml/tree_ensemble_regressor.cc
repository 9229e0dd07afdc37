// TreeEnsembleRegressor (ai.onnx.ml), versions 1, 3, 5.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/ml/ml_shapes.h"
#include "ops/schema_dsl.h"

namespace onyx::ops::ai_onnx_ml {
using namespace dsl;

namespace {

// [N, n_targets].
void inferTreeEnsembleRegressor(InferenceContext& ctx) {
  std::optional<DimValue> batch = batchOf(ctx);
  if (!batch) return;
  std::optional<int64_t> targets = ctx.intAttribute("n_targets");
  ctx.setOutputShape(
      0, {*batch, targets && *targets > 0 ? DimValue::known(*targets) : ctx.dims().fresh()});
}

}  // namespace

constexpr Formals kInputs1 = {{"X", "T"}};
constexpr Formals kOutputs1 = {{"Y", "tensor(float)"}};
constexpr Attributes kAttributes3 = {attr("aggregate_function", "SUM"),
                                     attr("base_values", kFloats),
                                     attr("base_values_as_tensor", kTensor),
                                     attr("n_targets", kInt),
                                     attr("nodes_falsenodeids", kInts),
                                     attr("nodes_featureids", kInts),
                                     attr("nodes_hitrates", kFloats),
                                     attr("nodes_hitrates_as_tensor", kTensor),
                                     attr("nodes_missing_value_tracks_true", kInts),
                                     attr("nodes_modes", kStrings),
                                     attr("nodes_nodeids", kInts),
                                     attr("nodes_treeids", kInts),
                                     attr("nodes_truenodeids", kInts),
                                     attr("nodes_values", kFloats),
                                     attr("nodes_values_as_tensor", kTensor),
                                     attr("post_transform", "NONE"),
                                     attr("target_ids", kInts),
                                     attr("target_nodeids", kInts),
                                     attr("target_treeids", kInts),
                                     attr("target_weights", kFloats),
                                     attr("target_weights_as_tensor", kTensor)};
constexpr Constraints kConstraints1 = {{"T", tensor("float double int64 int32")},
                                       {"tensor(float)", tensor("float")}};

extern const Operator kTreeEnsembleRegressor;
constexpr Operator kTreeEnsembleRegressor{
    .domain = kMlDomain,
    .name = "TreeEnsembleRegressor",
    .versions = {
        {.since_version = 1,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = {attr("aggregate_function", "SUM"), attr("base_values", kFloats),
                        attr("n_targets", kInt), attr("nodes_falsenodeids", kInts),
                        attr("nodes_featureids", kInts), attr("nodes_hitrates", kFloats),
                        attr("nodes_missing_value_tracks_true", kInts),
                        attr("nodes_modes", kStrings), attr("nodes_nodeids", kInts),
                        attr("nodes_treeids", kInts), attr("nodes_truenodeids", kInts),
                        attr("nodes_values", kFloats), attr("post_transform", "NONE"),
                        attr("target_ids", kInts), attr("target_nodeids", kInts),
                        attr("target_treeids", kInts), attr("target_weights", kFloats)},
         .constraints = kConstraints1,
         .infer = inferTreeEnsembleRegressor},
        {.since_version = 3,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = kAttributes3,
         .constraints = kConstraints1,
         .infer = inferTreeEnsembleRegressor,
         .step = {.reviewed = true,
                  .change = "_as_tensor forms of the float attributes added, for doubles",
                  .down_refuses = "nodes with an _as_tensor attribute"}},
        {.since_version = 5,
         .deprecated = true,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = kAttributes3,
         .constraints = kConstraints1,
         .infer = inferTreeEnsembleRegressor,
         .step = {.reviewed = true, .change = "deprecated: TreeEnsemble replaces it"}},
    }};
static_assert(isWellFormed(kTreeEnsembleRegressor));

}  // namespace onyx::ops::ai_onnx_ml
