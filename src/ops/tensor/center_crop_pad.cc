// CenterCropPad (ai.onnx), versions 18.
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

// The axes named by `axes` (all by default) take the sizes of the `shape` input.
void inferCenterCropPad(InferenceContext& ctx) {
  const Dims* in = ctx.inputShape(0);
  if (in == nullptr) return;
  std::vector<size_t> axes(in->size());
  for (size_t i = 0; i < axes.size(); ++i) axes[i] = i;
  if (std::optional<std::vector<int64_t>> given = ctx.intsAttribute("axes")) {
    std::optional<std::vector<size_t>> normalized = normalizeAxes(ctx, *given, in->size());
    if (!normalized) return;
    axes = std::move(*normalized);
  }
  Dims out = *in;
  const Dims* shape = ctx.inputData(1);
  if (shape != nullptr && shape->size() != axes.size()) {
    ctx.fail("CenterCropPad has " + std::to_string(shape->size()) + " sizes for " +
             std::to_string(axes.size()) + " axes");
    return;
  }
  for (size_t i = 0; i < axes.size(); ++i) {
    out[axes[i]] = shape != nullptr ? (*shape)[i] : ctx.dims().fresh();
  }
  ctx.setOutputShape(0, std::move(out));
}

}  // namespace

extern const Operator kCenterCropPad;
constexpr Operator kCenterCropPad{
    .domain = kOnnxDomain,
    .name = "CenterCropPad",
    .versions = {
        {.since_version = 18,
         .inputs = {{"input_data", "T"}, {"shape", "Tind"}},
         .outputs = {{"output_data", "T"}},
         .attributes = {attr("axes", kInts)},
         .constraints = {{"T", tensor(kIr4Types)}, {"Tind", tensor("int32 int64")}},
         .infer = inferCenterCropPad},
    }};
static_assert(isWellFormed(kCenterCropPad));

}  // namespace onyx::ops::ai_onnx
