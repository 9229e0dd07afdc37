// AffineGrid (ai.onnx), versions 20.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "onyx/core/element_type.h"
#include "ops/schema_dsl.h"
#include "ops/shape_rules.h"
#include "ops/tensor/tensor_rules.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

// size [N, C, H, W] gives a grid [N, H, W, 2]; size [N, C, D, H, W] gives [N, D, H, W, 3].
void inferAffineGrid(InferenceContext& ctx) {
  const Dims* size = ctx.inputData(1);
  size_t count = 0;
  if (size != nullptr) {
    count = size->size();
  } else if (const Dims* shape = ctx.inputShape(1);
             shape != nullptr && shape->size() == 1 && shape->front().isKnown()) {
    count = static_cast<size_t>(std::max<int64_t>(0, shape->front().value()));
  } else {
    return;
  }
  if (count != 4 && count != 5) {
    ctx.fail("AffineGrid's size has " + std::to_string(count) + " elements; it needs 4 or 5");
    return;
  }
  Dims out;
  out.reserve(count);
  const Dims* theta = ctx.inputShape(0);
  DimValue batch = size != nullptr ? (*size)[0] : ctx.dims().fresh();
  if (size == nullptr && theta != nullptr && !theta->empty()) batch = (*theta)[0];
  out.push_back(batch);
  for (size_t i = 2; i < count; ++i)
    out.push_back(size != nullptr ? (*size)[i] : ctx.dims().fresh());
  out.push_back(DimValue::known(static_cast<int64_t>(count) - 2));
  ctx.setOutputShape(0, std::move(out));
}

}  // namespace

extern const Operator kAffineGrid;
constexpr Operator kAffineGrid{
    .domain = kOnnxDomain,
    .name = "AffineGrid",
    .versions = {
        {.since_version = 20,
         .inputs = {{"theta", "T1"}, {"size", "T2"}},
         .outputs = {{"grid", "T1"}},
         .attributes = {attr("align_corners", 0)},
         .constraints = {{"T1", tensor("bfloat16 float16 float double")}, {"T2", tensor("int64")}},
         .infer = inferAffineGrid},
    }};
static_assert(isWellFormed(kAffineGrid));

}  // namespace onyx::ops::ai_onnx
