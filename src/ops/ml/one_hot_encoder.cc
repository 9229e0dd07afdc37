// OneHotEncoder (ai.onnx.ml), versions 1.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include <string>
#include "ops/ml/ml_shapes.h"
#include "ops/schema_dsl.h"

namespace onyx::ops::ai_onnx_ml {
using namespace dsl;

namespace {

// The input's shape with an axis as long as the categories.
void inferOneHotEncoder(InferenceContext& ctx) {
  size_t ints = attributeLength(ctx, "cats_int64s");
  size_t strings = attributeLength(ctx, "cats_strings");
  if ((ints == 0) == (strings == 0)) {
    ctx.fail("exactly one of cats_int64s and cats_strings must be given");
    return;
  }
  const Dims* in = ctx.inputShape(0);
  if (in == nullptr) return;
  Dims dims = *in;
  dims.push_back(DimValue::known(static_cast<int64_t>(ints + strings)));
  ctx.setOutputShape(0, std::move(dims));
}

}  // namespace

extern const Operator kOneHotEncoder;
constexpr Operator kOneHotEncoder{
    .domain = kMlDomain,
    .name = "OneHotEncoder",
    .versions = {
        {.since_version = 1,
         .inputs = {{"X", "T"}},
         .outputs = {{"Y", "tensor(float)"}},
         .attributes = {attr("cats_int64s", kInts), attr("cats_strings", kStrings),
                        attr("zeros", 1)},
         .constraints = {{"T", tensor("string int64 int32 float double")},
                         {"tensor(float)", tensor("float")}},
         .infer = inferOneHotEncoder},
    }};
static_assert(isWellFormed(kOneHotEncoder));

}  // namespace onyx::ops::ai_onnx_ml
