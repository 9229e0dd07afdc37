// Momentum (ai.onnx.preview.training), versions 1.
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

// Inputs X, G, V (n each) after R and T; outputs X_new, V_new.
void inferMomentum(InferenceContext& ctx) { inferOptimizerOutputs(ctx, 3, {0, 2}); }

Status runMomentum(KernelContext& ctx) {
  double alpha = ctx.floatAttribute("alpha").value_or(0.0f);
  double beta = ctx.floatAttribute("beta").value_or(0.0f);
  double norm = ctx.floatAttribute("norm_coefficient").value_or(0.0f);
  std::string mode(ctx.stringAttribute("mode").value_or("standard"));
  if (mode != "standard" && mode != "nesterov") {
    return ctx.fail("mode " + mode + " is not standard or nesterov");
  }
  bool nesterov = mode == "nesterov";
  return runOptimizer(ctx, 3, [&](double r, int64_t t, std::vector<double>& v) {
    double g = norm * v[0] + v[1];
    double velocity = alpha * v[2] + (t > 0 ? beta : 1.0) * g;
    v[0] = nesterov ? v[0] - r * (g + alpha * velocity) : v[0] - r * velocity;
    v[2] = velocity;
  });
}

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
         .infer = inferMomentum,
         .kernel = runMomentum},
    }};
static_assert(isWellFormed(kMomentum));

}  // namespace onyx::ops::ai_onnx_preview_training
