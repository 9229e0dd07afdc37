// Adam (ai.onnx.preview.training), versions 1.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/schema_dsl.h"
#include "ops/training/optimizer_shapes.h"

namespace onyx::ops::ai_onnx_preview_training {
using namespace dsl;

namespace {

// Inputs X, G, V, H (n each) after R and T; outputs X_new, V_new, H_new.
void inferAdam(InferenceContext& ctx) { inferOptimizerOutputs(ctx, 4, {0, 2, 3}); }

}  // namespace

extern const Operator kAdam;
constexpr Operator kAdam{
    .domain = kPreviewTrainingDomain,
    .name = "Adam",
    .versions = {
        {.since_version = 1,
         .inputs = {{"R", "T1"}, {"T", "T2"}, heterogeneous("inputs", "T3", 1)},
         .outputs = {heterogeneous("outputs", "T3", 1)},
         .attributes = {attr("alpha", 0.9f), attr("beta", 0.999f), attr("epsilon", 1e-06f),
                        attr("norm_coefficient", 0.0f), attr("norm_coefficient_post", 0.0f)},
         .constraints = {{"T1", tensor("float double")},
                         {"T2", tensor("int64")},
                         {"T3", tensor("float double")}},
         .infer = inferAdam},
    }};
static_assert(isWellFormed(kAdam));

}  // namespace onyx::ops::ai_onnx_preview_training
