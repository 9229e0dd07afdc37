// Compress (ai.onnx), versions 9, 11.
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
                                  .infer = inferCompress},
                                 {.since_version = 11,
                                  .inputs = kInputs9,
                                  .outputs = kOutputs9,
                                  .attributes = kAttributes9,
                                  .constraints = kConstraints9,
                                  .infer = inferCompress},
                             }};
static_assert(isWellFormed(kCompress));

}  // namespace onyx::ops::ai_onnx
