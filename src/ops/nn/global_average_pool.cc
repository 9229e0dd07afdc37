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

// The mean of each (n, c) plane, accumulated in double (NaN for an empty plane): four running
// sums, so that the additions overlap, joined in a fixed order.
Status runGlobalAveragePool(KernelContext& ctx) {
  return nn::globalPool(ctx, true, []<class T>(const T* data, size_t count) {
    constexpr size_t kLanes = 4;
    double lanes[kLanes] = {0, 0, 0, 0};
    size_t i = 0;
    for (; i + kLanes <= count; i += kLanes) {
      for (size_t k = 0; k < kLanes; ++k) lanes[k] += static_cast<double>(data[i + k]);
    }
    double sum = (lanes[0] + lanes[1]) + (lanes[2] + lanes[3]);
    for (; i < count; ++i) sum += static_cast<double>(data[i]);
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
         .kernel = runGlobalAveragePool,
         .step = typesOnly("bfloat16 added")},
    }};
static_assert(isWellFormed(kGlobalAveragePool));

}  // namespace onyx::ops::ai_onnx
