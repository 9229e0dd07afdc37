// SVMClassifier (ai.onnx.ml), versions 1.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/ml/ml_shapes.h"
#include "ops/schema_dsl.h"

namespace onyx::ops::ai_onnx_ml {
using namespace dsl;

namespace {

// Labels [N]; scores [N, ?]: their number depends on the kernel, the probability
// attributes and the runtime (one per class, or per pair of classes).
void inferSVMClassifier(InferenceContext& ctx) {
  setClassifierOutputs(ctx, labelType(ctx, "classlabels_strings"), ctx.dims().fresh());
}

}  // namespace

extern const Operator kSVMClassifier;
constexpr Operator kSVMClassifier{
    .domain = kMlDomain,
    .name = "SVMClassifier",
    .versions = {
        {.since_version = 1,
         .inputs = {{"X", "T1"}},
         .outputs = {{"Y", "T2"}, {"Z", "tensor(float)"}},
         .attributes = {attr("classlabels_ints", kInts), attr("classlabels_strings", kStrings),
                        attr("coefficients", kFloats), attr("kernel_params", kFloats),
                        attr("kernel_type", "LINEAR"), attr("post_transform", "NONE"),
                        attr("prob_a", kFloats), attr("prob_b", kFloats), attr("rho", kFloats),
                        attr("support_vectors", kFloats), attr("vectors_per_class", kInts)},
         .constraints = {{"T1", tensor("float double int64 int32")},
                         {"T2", tensor("string int64")},
                         {"tensor(float)", tensor("float")}},
         .infer = inferSVMClassifier},
    }};
static_assert(isWellFormed(kSVMClassifier));

}  // namespace onyx::ops::ai_onnx_ml
