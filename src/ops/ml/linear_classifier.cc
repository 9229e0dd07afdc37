// LinearClassifier (ai.onnx.ml), versions 1.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/ml/ml_shapes.h"
#include "ops/schema_dsl.h"

namespace onyx::ops::ai_onnx_ml {
using namespace dsl;

namespace {

// One score per class: as many as intercepts, except that one intercept with two labels is
// a binary classifier with two scores; without intercepts, one per label.
void inferLinearClassifier(InferenceContext& ctx) {
  bool strings = attributeLength(ctx, "classlabels_strings") > 0;
  size_t labels = attributeLength(ctx, strings ? "classlabels_strings" : "classlabels_ints");
  size_t intercepts = attributeLength(ctx, "intercepts");
  size_t classes = intercepts == 1 && labels == 2 ? 2 : intercepts > 0 ? intercepts : labels;
  setClassifierOutputs(
      ctx, strings ? kMlString : kMlInt64,
      classes > 0 ? DimValue::known(static_cast<int64_t>(classes)) : ctx.dims().fresh());
}

}  // namespace

extern const Operator kLinearClassifier;
constexpr Operator kLinearClassifier{
    .domain = kMlDomain,
    .name = "LinearClassifier",
    .versions = {
        {.since_version = 1,
         .inputs = {{"X", "T1"}},
         .outputs = {{"Y", "T2"}, {"Z", "tensor(float)"}},
         .attributes = {attr("classlabels_ints", kInts), attr("classlabels_strings", kStrings),
                        required("coefficients", kFloats), attr("intercepts", kFloats),
                        attr("multi_class", 0), attr("post_transform", "NONE")},
         .constraints = {{"T1", tensor("float double int64 int32")},
                         {"T2", tensor("string int64")},
                         {"tensor(float)", tensor("float")}},
         .infer = inferLinearClassifier},
    }};
static_assert(isWellFormed(kLinearClassifier));

}  // namespace onyx::ops::ai_onnx_ml
