// FeatureVectorizer (ai.onnx.ml), versions 1.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include <cstdint>

#include "onyx/ir/attribute.h"
#include "ops/ml/ml_shapes.h"
#include "ops/schema_dsl.h"

namespace onyx::ops::ai_onnx_ml {
using namespace dsl;

namespace {

// [N, the sum of inputdimensions]; N from the inputs ([N, C], or [C] as [1, C]).
void inferFeatureVectorizer(InferenceContext& ctx) {
  std::optional<DimValue> batch;
  for (size_t i = 0; i < ctx.inputCount(); ++i) {
    const Dims* shape = ctx.inputShape(i);
    if (shape == nullptr || shape->empty()) continue;
    DimValue found = shape->size() == 1 ? DimValue::known(1) : (*shape)[0];
    if (!batch || (batch->isSymbolic() && found.isKnown())) batch = found;
  }
  if (!batch) return;
  const Attribute* widths = ctx.attribute("inputdimensions");
  DimValue width = ctx.dims().fresh();
  if (widths != nullptr && widths->ints.size() == ctx.inputCount()) {
    int64_t sum = 0;
    bool valid = true;
    for (int64_t w : widths->ints) {
      if (w < 0 || sum > INT64_MAX - w) valid = false;
      if (valid) sum += w;
    }
    if (valid) width = DimValue::known(sum);
  }
  ctx.setOutputShape(0, {*batch, width});
}

}  // namespace

extern const Operator kFeatureVectorizer;
constexpr Operator kFeatureVectorizer{
    .domain = kMlDomain,
    .name = "FeatureVectorizer",
    .versions = {
        {.since_version = 1,
         .inputs = {variadic("X", "T1", 1)},
         .outputs = {{"Y", "tensor(float)"}},
         .attributes = {attr("inputdimensions", kInts)},
         .constraints = {{"T1", tensor("int32 int64 float double")},
                         {"tensor(float)", tensor("float")}},
         .infer = inferFeatureVectorizer},
    }};
static_assert(isWellFormed(kFeatureVectorizer));

}  // namespace onyx::ops::ai_onnx_ml
