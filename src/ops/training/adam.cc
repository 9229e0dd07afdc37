// Adam (ai.onnx.preview.training), versions 1.
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

// Inputs X, G, V, H (n each) after R and T; outputs X_new, V_new, H_new.
void inferAdam(InferenceContext& ctx) { inferOptimizerOutputs(ctx, 4, {0, 2, 3}); }

Status runAdam(KernelContext& ctx) {
  double alpha = ctx.floatAttribute("alpha").value_or(0.9f);
  double beta = ctx.floatAttribute("beta").value_or(0.999f);
  double epsilon = ctx.floatAttribute("epsilon").value_or(1e-6f);
  double norm = ctx.floatAttribute("norm_coefficient").value_or(0.0f);
  double norm_post = ctx.floatAttribute("norm_coefficient_post").value_or(0.0f);
  return runOptimizer(ctx, 4, [&](double r, int64_t t, std::vector<double>& v) {
    double g = norm * v[0] + v[1];
    double m = alpha * v[2] + (1 - alpha) * g;
    double h = beta * v[3] + (1 - beta) * g * g;
    double rate = r;
    if (t > 0) {
      double td = static_cast<double>(t);
      rate = r * std::sqrt(1 - std::pow(beta, td)) / (1 - std::pow(alpha, td));
    }
    double x = v[0] - rate * (m / (std::sqrt(h) + epsilon));
    v[0] = (1 - norm_post) * x;
    v[2] = m;
    v[3] = h;
  });
}

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
         .infer = inferAdam,
         .kernel = runAdam},
    }};
static_assert(isWellFormed(kAdam));

}  // namespace onyx::ops::ai_onnx_preview_training
