// ArrayFeatureExtractor (ai.onnx.ml), versions 1.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/ml/ml_shapes.h"
#include "ops/schema_dsl.h"
#include "ops/shape_rules.h"

namespace onyx::ops::ai_onnx_ml {
using namespace dsl;

namespace {

// The last axis becomes as long as there are indices. A 1-D X is left unknown: runtimes
// differ on whether the result is [k] or [1, k].
void inferArrayFeatureExtractor(InferenceContext& ctx) {
  const Dims* x = ctx.inputShape(0);
  const Dims* indices = ctx.inputShape(1);
  if (x == nullptr || x->size() < 2) return;
  Dims dims = *x;
  dims.back() = indices != nullptr ? productOf(ctx, *indices) : ctx.dims().fresh();
  ctx.setOutputShape(0, std::move(dims));
}

}  // namespace

extern const Operator kArrayFeatureExtractor;
constexpr Operator kArrayFeatureExtractor{
    .domain = kMlDomain,
    .name = "ArrayFeatureExtractor",
    .versions = {
        {.since_version = 1,
         .inputs = {{"X", "T"}, {"Y", "tensor(int64)"}},
         .outputs = {{"Z", "T"}},
         .constraints = {{"T", tensor("float double int64 int32 string")},
                         {"tensor(int64)", tensor("int64")}},
         .infer = inferArrayFeatureExtractor},
    }};
static_assert(isWellFormed(kArrayFeatureExtractor));

}  // namespace onyx::ops::ai_onnx_ml
