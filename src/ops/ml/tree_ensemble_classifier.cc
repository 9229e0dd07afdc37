// TreeEnsembleClassifier (ai.onnx.ml), versions 1, 3, 5.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/ml/ml_shapes.h"
#include "ops/schema_dsl.h"

namespace onyx::ops::ai_onnx_ml {
using namespace dsl;

namespace {

// Labels [N]; scores [N, one per class label].
void inferTreeEnsembleClassifier(InferenceContext& ctx) {
  bool strings = attributeLength(ctx, "classlabels_strings") > 0;
  size_t labels = attributeLength(ctx, strings ? "classlabels_strings" : "classlabels_int64s");
  setClassifierOutputs(
      ctx, strings ? kMlString : kMlInt64,
      labels > 0 ? DimValue::known(static_cast<int64_t>(labels)) : ctx.dims().fresh());
}

}  // namespace

constexpr Formals kInputs1 = {{"X", "T1"}};
constexpr Formals kOutputs1 = {{"Y", "T2"}, {"Z", "tensor(float)"}};
constexpr Attributes kAttributes3 = {attr("base_values", kFloats),
                                     attr("base_values_as_tensor", kTensor),
                                     attr("class_ids", kInts),
                                     attr("class_nodeids", kInts),
                                     attr("class_treeids", kInts),
                                     attr("class_weights", kFloats),
                                     attr("class_weights_as_tensor", kTensor),
                                     attr("classlabels_int64s", kInts),
                                     attr("classlabels_strings", kStrings),
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
                                     attr("post_transform", "NONE")};
constexpr Constraints kConstraints1 = {{"T1", tensor("float double int64 int32")},
                                       {"T2", tensor("string int64")},
                                       {"tensor(float)", tensor("float")}};

extern const Operator kTreeEnsembleClassifier;
constexpr Operator kTreeEnsembleClassifier{
    .domain = kMlDomain,
    .name = "TreeEnsembleClassifier",
    .versions = {
        {.since_version = 1,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = {attr("base_values", kFloats), attr("class_ids", kInts),
                        attr("class_nodeids", kInts), attr("class_treeids", kInts),
                        attr("class_weights", kFloats), attr("classlabels_int64s", kInts),
                        attr("classlabels_strings", kStrings), attr("nodes_falsenodeids", kInts),
                        attr("nodes_featureids", kInts), attr("nodes_hitrates", kFloats),
                        attr("nodes_missing_value_tracks_true", kInts),
                        attr("nodes_modes", kStrings), attr("nodes_nodeids", kInts),
                        attr("nodes_treeids", kInts), attr("nodes_truenodeids", kInts),
                        attr("nodes_values", kFloats), attr("post_transform", "NONE")},
         .constraints = kConstraints1,
         .infer = inferTreeEnsembleClassifier},
        {.since_version = 3,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = kAttributes3,
         .constraints = kConstraints1,
         .infer = inferTreeEnsembleClassifier,
         .step = {.reviewed = true,
                  .change = "_as_tensor forms of the float attributes added, for doubles",
                  .down_refuses = "nodes with an _as_tensor attribute"}},
        {.since_version = 5,
         .deprecated = true,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = kAttributes3,
         .constraints = kConstraints1,
         .infer = inferTreeEnsembleClassifier,
         .step = {.reviewed = true, .change = "deprecated: TreeEnsemble replaces it"}},
    }};
static_assert(isWellFormed(kTreeEnsembleClassifier));

}  // namespace onyx::ops::ai_onnx_ml
