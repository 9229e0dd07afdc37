// Compress (ai.onnx), versions 9, 11.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include <cstddef>
#include <cstdint>
#include <optional>

#include "onyx/core/element_type.h"
#include "ops/lib/tensor_kernels.h"
#include "ops/lib/tensor_rules.h"
#include "ops/schema_dsl.h"
#include "ops/shape_rules.h"
#include "ops/version_adapters.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

// How many slices the condition keeps depends on its values: without an axis a vector of
// unknown length, with one the input's shape with that axis unknown.
void inferCompress(InferenceContext& ctx) {
  std::optional<int64_t> axis_attribute = ctx.intAttribute("axis");
  if (!axis_attribute) {
    ctx.setOutputShape(0, {ctx.dims().fresh()});
    return;
  }
  const Dims* in = ctx.inputShape(0);
  if (in == nullptr) return;
  std::optional<size_t> axis = normalizeAxis(ctx, *axis_attribute, in->size());
  if (!axis) return;
  Dims out = *in;
  out[*axis] = ctx.dims().fresh();
  ctx.setOutputShape(0, std::move(out));
}

Status runCompress(KernelContext& ctx) {
  const Array* data = ctx.inputArray(0);
  const Array* condition = ctx.inputArray(1);
  if (data == nullptr || condition == nullptr) return ctx.fail("needs input and condition");
  if (condition->rank() != 1 || condition->type() != ElementType::kBool) {
    return ctx.fail("condition must be a 1-D bool tensor");
  }
  std::optional<int64_t> axis_attribute = ctx.intAttribute("axis");
  Array flat = axis_attribute ? *data : data->reshaped({static_cast<int64_t>(data->size())});
  std::optional<size_t> axis = kernelAxis(axis_attribute.value_or(0), flat.rank());
  if (!axis) return ctx.fail("axis is out of range for rank " + std::to_string(flat.rank()));
  int64_t size = flat.dim(*axis);
  const bool* keep = condition->data<bool>();
  std::vector<int64_t> kept;
  for (size_t i = 0; i < condition->size(); ++i) {
    if (!keep[i]) continue;
    if (static_cast<int64_t>(i) >= size) {
      return ctx.fail("condition selects index " + std::to_string(i) + " past the dimension " +
                      std::to_string(size));
    }
    kept.push_back(static_cast<int64_t>(i));
  }
  std::vector<int64_t> shape = flat.shape();
  shape[*axis] = static_cast<int64_t>(kept.size());
  Array out(data->type(), shape);
  int64_t outer = elementProduct(flat.shape(), 0, *axis);
  int64_t inner = elementProduct(flat.shape(), *axis + 1);
  int64_t count = static_cast<int64_t>(kept.size());
  for (int64_t j = 0; j < count; ++j) {
    copyStrided(ctx, {outer, inner}, flat, StridedView{kept[j] * inner, {size * inner, 1}}, out,
                StridedView{j * inner, {count * inner, 1}});
  }
  ctx.setOutput(0, std::move(out));
  return Status::ok();
}

}  // namespace

constexpr Formals kInputs9 = {{"input", "T"}, {"condition", "T1"}};
constexpr Formals kOutputs9 = {{"output", "T"}};
constexpr Attributes kAttributes9 = {attr("axis", kInt)};
constexpr Constraints kConstraints9 = {{"T", tensor(kIr3Types)}, {"T1", tensor("bool")}};

extern const Operator kCompress;
constexpr Operator kCompress{.domain = kOnnxDomain,
                             .name = "Compress",
                             .versions = {
                                 {.since_version = 9,
                                  .inputs = kInputs9,
                                  .outputs = kOutputs9,
                                  .attributes = kAttributes9,
                                  .constraints = kConstraints9,
                                  .infer = inferCompress,
                                  .kernel = runCompress},
                                 {.since_version = 11,
                                  .inputs = kInputs9,
                                  .outputs = kOutputs9,
                                  .attributes = kAttributes9,
                                  .constraints = kConstraints9,
                                  .infer = inferCompress,
                                  .kernel = runCompress,
                                  .step = {.reviewed = true,
                                           .change = "negative axis allowed",
                                           .down = axisFromFront,
                                           .down_refuses = "negative axis, input rank unknown"}},
                             }};
static_assert(isWellFormed(kCompress));

}  // namespace onyx::ops::ai_onnx
