// OneHot (ai.onnx), versions 9, 11.
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

// The indices' shape with an axis of `depth` inserted at `axis` (of the output).
void inferOneHot(InferenceContext& ctx) {
  const Dims* indices = ctx.inputShape(0);
  if (indices == nullptr) return;
  size_t rank = indices->size() + 1;
  std::optional<size_t> axis =
      normalizeAxis(ctx, ctx.intAttribute("axis").value_or(-1), rank, "axis");
  if (!axis) return;
  DimValue depth = ctx.dims().fresh();
  if (const Dims* data = ctx.inputData(1); data != nullptr && data->size() == 1) {
    depth = data->front();
  } else if (std::optional<std::vector<double>> numbers = constantNumbers(ctx.inputConstant(1));
             numbers && numbers->size() == 1) {
    double value = (*numbers)[0];
    // Depth may be a float; the spec takes its integer part.
    if (value >= 0 && value < 9.0e18) depth = DimValue::known(static_cast<int64_t>(value));
  }
  if (depth.isKnown() && depth.value() < 0) {
    ctx.fail("OneHot's depth is negative (" + std::to_string(depth.value()) + ")");
    return;
  }
  Dims out(indices->begin(), indices->end());
  out.insert(out.begin() + static_cast<std::ptrdiff_t>(*axis), depth);
  ctx.setOutputShape(0, std::move(out));
}

}  // namespace

constexpr TypeSet kT1Types9 =
    tensor("uint8 uint16 uint32 uint64 int8 int16 int32 int64 float16 float double");
constexpr Formals kInputs9 = {{"indices", "T1"}, {"depth", "T2"}, {"values", "T3"}};
constexpr Formals kOutputs9 = {{"output", "T3"}};
constexpr Attributes kAttributes9 = {attr("axis", -1)};
constexpr Constraints kConstraints9 = {
    {"T1", kT1Types9}, {"T2", kT1Types9}, {"T3", tensor(kIr3Types)}};

extern const Operator kOneHot;
constexpr Operator kOneHot{.domain = kOnnxDomain,
                           .name = "OneHot",
                           .versions = {
                               {.since_version = 9,
                                .inputs = kInputs9,
                                .outputs = kOutputs9,
                                .attributes = kAttributes9,
                                .constraints = kConstraints9,
                                .infer = inferOneHot},
                               {.since_version = 11,
                                .inputs = kInputs9,
                                .outputs = kOutputs9,
                                .attributes = kAttributes9,
                                .constraints = kConstraints9,
                                .infer = inferOneHot},
                           }};
static_assert(isWellFormed(kOneHot));

}  // namespace onyx::ops::ai_onnx
