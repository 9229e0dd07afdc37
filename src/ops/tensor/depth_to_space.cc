// DepthToSpace (ai.onnx), versions 1, 11, 13.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "onyx/core/element_type.h"
#include "onyx/core/quote.h"
#include "onyx/ir/attribute.h"
#include "ops/lib/tensor_kernels.h"
#include "ops/lib/tensor_rules.h"
#include "ops/node_draft.h"
#include "ops/schema_dsl.h"
#include "ops/shape_rules.h"

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

// The rank-6 regrouping DepthToSpace and SpaceToDepth are: `data` read as `dims`, axes
// permuted by `perm`, the result given `shape`.
Status regroup(KernelContext& ctx, const Array& data, const std::vector<int64_t>& dims,
               const std::vector<size_t>& perm, std::vector<int64_t> shape) {
  std::vector<int64_t> strides = denseStrides(dims);
  std::vector<int64_t> out_dims;
  StridedView source;
  for (size_t axis : perm) {
    out_dims.push_back(dims[axis]);
    source.strides.push_back(strides[axis]);
  }
  Array out(data.type(), std::move(shape));
  copyOut(ctx, out_dims, data, std::move(source), out);
  ctx.setOutput(0, std::move(out));
  return Status::ok();
}

Status runDepthToSpace(KernelContext& ctx) {
  const Array* data = ctx.inputArray(0);
  if (data == nullptr) return ctx.fail("needs a tensor input");
  if (data->rank() != 4) return ctx.fail("input must have rank 4");
  int64_t b = ctx.intAttribute("blocksize").value_or(0);
  if (b <= 0 || b > (int64_t{1} << 20)) return ctx.fail("blocksize must be positive");
  int64_t n = data->dim(0);
  int64_t c = data->dim(1);
  int64_t h = data->dim(2);
  int64_t w = data->dim(3);
  if (c % (b * b) != 0) return ctx.fail("channels do not divide by blocksize squared");
  int64_t depth = c / (b * b);
  std::string mode(ctx.stringAttribute("mode").value_or("DCR"));
  std::vector<int64_t> shape = {n, depth, h * b, w * b};
  if (mode == "DCR") return regroup(ctx, *data, {n, b, b, depth, h, w}, {0, 3, 4, 1, 5, 2}, shape);
  if (mode == "CRD") return regroup(ctx, *data, {n, depth, b, b, h, w}, {0, 1, 4, 2, 5, 3}, shape);
  return ctx.fail("unknown mode " + quoted(mode));
}

// Down to version 1, which rearranges in DCR order only.
Status dropDcrMode(NodeDraft& draft) {
  if (const Attribute* mode = draft.attribute("mode"); mode != nullptr) {
    if (mode->kind() != AttributeKind::kString || mode->s.value_or("") != "DCR") {
      return draft.refuse("mode other than DCR has no form in version 1");
    }
    draft.removeAttribute("mode");
  }
  return Status::ok();
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
                                      .infer = inferDepthToSpace,
                                      .kernel = runDepthToSpace},
                                     {.since_version = 11,
                                      .inputs = kInputs1,
                                      .outputs = kOutputs1,
                                      .attributes = kAttributes11,
                                      .constraints = kConstraints1,
                                      .infer = inferDepthToSpace,
                                      .kernel = runDepthToSpace,
                                      .step = {.reviewed = true,
                                               .change = "mode added (DCR: as before)",
                                               .down = dropDcrMode,
                                               .down_refuses = "mode CRD"}},
                                     {.since_version = 13,
                                      .inputs = kInputs1,
                                      .outputs = kOutputs1,
                                      .attributes = kAttributes11,
                                      .constraints = {{"T", tensor(kIr4Types)}},
                                      .infer = inferDepthToSpace,
                                      .kernel = runDepthToSpace,
                                      .step = typesOnly("bfloat16 added")},
                                 }};
static_assert(isWellFormed(kDepthToSpace));

}  // namespace onyx::ops::ai_onnx
