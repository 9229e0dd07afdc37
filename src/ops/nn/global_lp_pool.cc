// GlobalLpPool (ai.onnx), versions 1, 2, 22.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>

#include "ops/nn/pool_kernels.h"
#include "ops/nn/window_shape.h"
#include "ops/node_draft.h"
#include "ops/schema_dsl.h"
#include "ops/version_adapters.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

void inferGlobalPool(InferenceContext& ctx) { inferGlobalPooling(ctx); }

// (sum of |x|^p over each (n, c) plane)^(1/p).
Status runGlobalLpPool(KernelContext& ctx) {
  double p = nn::poolP(ctx);
  if (!(p > 0)) return ctx.fail("p must be positive");
  return nn::globalPool(ctx, true, [p]<class T>(const T* data, size_t count) {
    double sum = 0;
    for (size_t i = 0; i < count; ++i) sum += std::pow(std::abs(static_cast<double>(data[i])), p);
    return std::pow(sum, 1.0 / p);
  });
}

}  // namespace

constexpr Formals kInputs1 = {{"X", "T"}};
constexpr Formals kOutputs1 = {{"Y", "T"}};
constexpr Attributes kAttributes2 = {attr("p", 2)};
constexpr Constraints kConstraints1 = {{"T", tensor("float16 float double")}};

extern const Operator kGlobalLpPool;
constexpr Operator kGlobalLpPool{
    .domain = kOnnxDomain,
    .name = "GlobalLpPool",
    .versions = {
        {.since_version = 1,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = {attr("p", 2.0f)},
         .constraints = kConstraints1,
         .infer = inferGlobalPool,
         .kernel = runGlobalLpPool},
        {.since_version = 2,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = kAttributes2,
         .constraints = kConstraints1,
         .infer = inferGlobalPool,
         .kernel = runGlobalLpPool,
         .step = {.reviewed = true,
                  .change = "p became an int",
                  .up = pToInt,
                  .down = pToFloat,
                  .up_refuses = "p not a whole number",
                  .down_refuses = "p beyond 2^24"}},
        {.since_version = 22,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = kAttributes2,
         .constraints = {{"T", tensor("bfloat16 float16 float double")}},
         .infer = inferGlobalPool,
         .kernel = runGlobalLpPool,
         .step = typesOnly("bfloat16 added")},
    }};
static_assert(isWellFormed(kGlobalLpPool));

}  // namespace onyx::ops::ai_onnx
