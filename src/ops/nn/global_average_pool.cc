// GlobalAveragePool (ai.onnx), versions 1, 22.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/nn/pool_kernels.h"
#include "ops/nn/window_shape.h"
#include "ops/schema_dsl.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

void inferGlobalPool(InferenceContext& ctx) { inferGlobalPooling(ctx); }

// The mean of each (n, c) plane, accumulated in double (NaN for an empty plane).
Status runGlobalAveragePool(KernelContext& ctx) {
  return nn::globalPool(ctx, true, []<class T>(const T* data, size_t count) {
    double sum = 0;
    for (size_t i = 0; i < count; ++i) sum += static_cast<double>(data[i]);
    return sum / static_cast<double>(count);
  });
}

}  // namespace

constexpr Formals kInputs1 = {{"X", "T"}};
constexpr Formals kOutputs1 = {{"Y", "T"}};

extern const Operator kGlobalAveragePool;
constexpr Operator kGlobalAveragePool{
    .domain = kOnnxDomain,
    .name = "GlobalAveragePool",
    .versions = {
        {.since_version = 1,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .constraints = {{"T", tensor("float16 float double")}},
         .infer = inferGlobalPool,
         .kernel = runGlobalAveragePool},
        {.since_version = 22,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .constraints = {{"T", tensor("bfloat16 float16 float double")}},
         .infer = inferGlobalPool,
         .kernel = runGlobalAveragePool},
    }};
static_assert(isWellFormed(kGlobalAveragePool));

}  // namespace onyx::ops::ai_onnx
