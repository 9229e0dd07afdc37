// TreeEnsemble (ai.onnx.ml), versions 5.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include <algorithm>
#include <cstdint>

#include "onyx/ir/attribute.h"
#include "ops/ml/ml_shapes.h"
#include "ops/schema_dsl.h"

namespace onyx::ops::ai_onnx_ml {
using namespace dsl;

namespace {

// [N, n_targets]; without n_targets, one more than the largest leaf_targetids entry.
void inferTreeEnsemble(InferenceContext& ctx) {
  std::optional<DimValue> batch = batchOf(ctx);
  if (!batch) return;
  std::optional<int64_t> targets = ctx.intAttribute("n_targets");
  if (!targets) {
    const Attribute* leaf_targets = ctx.attribute("leaf_targetids");
    if (leaf_targets != nullptr && !leaf_targets->ints.empty()) {
      int64_t largest = -1;
      for (int64_t id : leaf_targets->ints) largest = std::max(largest, id);
      if (largest >= 0 && largest < INT64_MAX) targets = largest + 1;
    }
  }
  ctx.setOutputShape(
      0, {*batch, targets && *targets > 0 ? DimValue::known(*targets) : ctx.dims().fresh()});
}

}  // namespace

extern const Operator kTreeEnsemble;
constexpr Operator kTreeEnsemble{
    .domain = kMlDomain,
    .name = "TreeEnsemble",
    .versions = {
        {.since_version = 5,
         .inputs = {{"X", "T"}},
         .outputs = {{"Y", "T"}},
         .attributes = {attr("aggregate_function", 1), required("leaf_targetids", kInts),
                        required("leaf_weights", kTensor), attr("membership_values", kTensor),
                        attr("n_targets", kInt), required("nodes_falseleafs", kInts),
                        required("nodes_falsenodeids", kInts), required("nodes_featureids", kInts),
                        attr("nodes_hitrates", kTensor),
                        attr("nodes_missing_value_tracks_true", kInts),
                        required("nodes_modes", kTensor), required("nodes_splits", kTensor),
                        required("nodes_trueleafs", kInts), required("nodes_truenodeids", kInts),
                        attr("post_transform", 0), required("tree_roots", kInts)},
         .constraints = {{"T", tensor("float double float16")}},
         .infer = inferTreeEnsemble},
    }};
static_assert(isWellFormed(kTreeEnsemble));

}  // namespace onyx::ops::ai_onnx_ml
