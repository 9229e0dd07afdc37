// GlobalMaxPool (ai.onnx), versions 1, 22.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include <cmath>
#include <string>

#include "ops/nn/pool_kernels.h"
#include "ops/nn/window_shape.h"
#include "ops/schema_dsl.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

void inferGlobalPool(InferenceContext& ctx) { inferGlobalPooling(ctx); }

// The largest element of each (n, c) plane; NaN when the plane holds one.
Status runGlobalMaxPool(KernelContext& ctx) {
  return nn::globalPool(ctx, false, []<class T>(const T* data, size_t count) {
    double best = static_cast<double>(data[0]);
    for (size_t i = 1; i < count && !std::isnan(best); ++i) {
      double v = static_cast<double>(data[i]);
      if (v > best || std::isnan(v)) best = v;
    }
    return best;
  });
}

}  // namespace

constexpr Formals kInputs1 = {{"X", "T"}};
constexpr Formals kOutputs1 = {{"Y", "T"}};

extern const Operator kGlobalMaxPool;
constexpr Operator kGlobalMaxPool{
    .domain = kOnnxDomain,
    .name = "GlobalMaxPool",
    .versions = {
        {.since_version = 1,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .constraints = {{"T", tensor("float16 float double")}},
         .infer = inferGlobalPool,
         .kernel = runGlobalMaxPool},
        {.since_version = 22,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .constraints = {{"T", tensor("bfloat16 float16 float double")}},
         .infer = inferGlobalPool,
         .kernel = runGlobalMaxPool,
         .step = typesOnly("bfloat16 added")},
    }};
static_assert(isWellFormed(kGlobalMaxPool));

}  // namespace onyx::ops::ai_onnx
