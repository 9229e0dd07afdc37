// DepthToSpace (ai.onnx), versions 1, 11, 13.
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

// [N, C, H, W] → [N, C / b², H·b, W·b].
void inferDepthToSpace(InferenceContext& ctx) {
  const Dims* in = ctx.inputShape(0);
  if (in == nullptr) return;
  if (in->size() != 4) {
    ctx.fail("DepthToSpace needs an input of rank 4, not " + std::to_string(in->size()));
    return;
  }
  int64_t block = ctx.intAttribute("blocksize").value_or(0);
  if (block <= 0 || block > INT32_MAX) {
    ctx.fail("DepthToSpace's blocksize " + std::to_string(block) + " is not positive");
    return;
  }
  SymbolicDims& dims = ctx.dims();
  DimValue b = DimValue::known(block);
  DimValue channels = (*in)[1];
  std::optional<DimValue> c = dims.divideExact(channels, DimValue::known(block * block));
  if (!c && channels.isKnown()) {
    ctx.fail("DepthToSpace's channels (" + std::to_string(channels.value()) +
             ") do not divide by blocksize² (" + std::to_string(block * block) + ")");
    return;
  }
  ctx.setOutputShape(
      0, {(*in)[0], c ? *c : dims.fresh(), dims.multiply((*in)[2], b), dims.multiply((*in)[3], b)});
}

}  // namespace

constexpr Formals kInputs1 = {{"input", "T"}};
constexpr Formals kOutputs1 = {{"output", "T"}};
constexpr Attributes kAttributes11 = {required("blocksize", kInt), attr("mode", "DCR")};
constexpr Constraints kConstraints1 = {{"T", tensor(kIr3Types)}};

extern const Operator kDepthToSpace;
constexpr Operator kDepthToSpace{.domain = kOnnxDomain,
                                 .name = "DepthToSpace",
                                 .versions = {
                                     {.since_version = 1,
                                      .inputs = kInputs1,
                                      .outputs = kOutputs1,
                                      .attributes = {required("blocksize", kInt)},
                                      .constraints = kConstraints1,
                                      .infer = inferDepthToSpace},
                                     {.since_version = 11,
                                      .inputs = kInputs1,
                                      .outputs = kOutputs1,
                                      .attributes = kAttributes11,
                                      .constraints = kConstraints1,
                                      .infer = inferDepthToSpace},
                                     {.since_version = 13,
                                      .inputs = kInputs1,
                                      .outputs = kOutputs1,
                                      .attributes = kAttributes11,
                                      .constraints = {{"T", tensor(kIr4Types)}},
                                      .infer = inferDepthToSpace},
                                 }};
static_assert(isWellFormed(kDepthToSpace));

}  // namespace onyx::ops::ai_onnx
