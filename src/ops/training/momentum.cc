// Momentum (ai.onnx.preview.training), versions 1.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/schema_dsl.h"
#include "ops/training/optimizer_shapes.h"

namespace onyx::ops::ai_onnx_preview_training {
using namespace dsl;

namespace {

// Inputs X, G, V (n each) after R and T; outputs X_new, V_new.
void inferMomentum(InferenceContext& ctx) { inferOptimizerOutputs(ctx, 3, {0, 2}); }

}  // namespace

extern const Operator kMomentum;
constexpr Operator kMomentum{
    .domain = kPreviewTrainingDomain,
    .name = "Momentum",
    .versions = {
        {.since_version = 1,
         .inputs = {{"R", "T1"}, {"T", "T2"}, heterogeneous("inputs", "T3", 1)},
         .outputs = {heterogeneous("outputs", "T3", 1)},
         .attributes = {required("alpha", kFloat), required("beta", kFloat),
                        required("mode", kString), required("norm_coefficient", kFloat)},
         .constraints = {{"T1", tensor("float double")},
                         {"T2", tensor("int64")},
                         {"T3", tensor("float double")}},
         .infer = inferMomentum},
    }};
static_assert(isWellFormed(kMomentum));

}  // namespace onyx::ops::ai_onnx_preview_training
