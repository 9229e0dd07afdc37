// Adagrad (ai.onnx.preview.training), versions 1.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/schema_dsl.h"
#include "ops/training/optimizer_shapes.h"

namespace onyx::ops::ai_onnx_preview_training {
using namespace dsl;

namespace {

// Inputs X, G, H (n each) after R and T; outputs X_new, H_new.
void inferAdagrad(InferenceContext& ctx) { inferOptimizerOutputs(ctx, 3, {0, 2}); }

}  // namespace

extern const Operator kAdagrad;
constexpr Operator kAdagrad{
    .domain = kPreviewTrainingDomain,
    .name = "Adagrad",
    .versions = {
        {.since_version = 1,
         .inputs = {{"R", "T1"}, {"T", "T2"}, heterogeneous("inputs", "T3", 1)},
         .outputs = {heterogeneous("outputs", "T3", 1)},
         .attributes = {attr("decay_factor", 0.0f), attr("epsilon", 1e-06f),
                        attr("norm_coefficient", 0.0f)},
         .constraints = {{"T1", tensor("float double")},
                         {"T2", tensor("int64")},
                         {"T3", tensor("float double")}},
         .infer = inferAdagrad},
    }};
static_assert(isWellFormed(kAdagrad));

}  // namespace onyx::ops::ai_onnx_preview_training
