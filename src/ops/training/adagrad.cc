// Adagrad (ai.onnx.preview.training), versions 1.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include <cmath>
#include <string>
#include <vector>

#include "ops/schema_dsl.h"
#include "ops/training/optimizer_kernels.h"
#include "ops/training/optimizer_shapes.h"

namespace onyx::ops::ai_onnx_preview_training {
using namespace dsl;

namespace {

// Inputs X, G, H (n each) after R and T; outputs X_new, H_new.
void inferAdagrad(InferenceContext& ctx) { inferOptimizerOutputs(ctx, 3, {0, 2}); }

Status runAdagrad(KernelContext& ctx) {
  double decay = ctx.floatAttribute("decay_factor").value_or(0.0f);
  double epsilon = ctx.floatAttribute("epsilon").value_or(1e-6f);
  double norm = ctx.floatAttribute("norm_coefficient").value_or(0.0f);
  return runOptimizer(ctx, 3, [&](double r, int64_t t, std::vector<double>& v) {
    double rate = r / (1 + static_cast<double>(t) * decay);
    double g = norm * v[0] + v[1];
    double h = v[2] + g * g;
    v[0] = v[0] - rate * g / (std::sqrt(h) + epsilon);
    v[2] = h;
  });
}

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
         .infer = inferAdagrad,
         .kernel = runAdagrad},
    }};
static_assert(isWellFormed(kAdagrad));

}  // namespace onyx::ops::ai_onnx_preview_training
