// SpaceToDepth (ai.onnx), versions 1, 13.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "onyx/core/element_type.h"
#include "ops/lib/tensor_kernels.h"
#include "ops/lib/tensor_rules.h"
#include "ops/schema_dsl.h"
#include "ops/shape_rules.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

// [N, C, H, W] → [N, C·b², H / b, W / b].
void inferSpaceToDepth(InferenceContext& ctx) {
  const Dims* in = ctx.inputShape(0);
  if (in == nullptr) return;
  if (in->size() != 4) {
    ctx.fail("SpaceToDepth needs an input of rank 4, not " + std::to_string(in->size()));
    return;
  }
  int64_t block = ctx.intAttribute("blocksize").value_or(0);
  if (block <= 0 || block > INT32_MAX) {
    ctx.fail("SpaceToDepth's blocksize " + std::to_string(block) + " is not positive");
    return;
  }
  SymbolicDims& dims = ctx.dims();
  DimValue b = DimValue::known(block);
  Dims out = {(*in)[0], dims.multiply((*in)[1], DimValue::known(block * block))};
  for (size_t axis : {size_t{2}, size_t{3}}) {
    DimValue size = (*in)[axis];
    std::optional<DimValue> part = dims.divideExact(size, b);
    if (!part && size.isKnown()) {
      ctx.fail("SpaceToDepth's dimension " + std::to_string(axis) + " (" +
               std::to_string(size.value()) + ") does not divide by blocksize " +
               std::to_string(block));
      return;
    }
    out.push_back(part ? *part : dims.fresh());
  }
  ctx.setOutputShape(0, std::move(out));
}

Status runSpaceToDepth(KernelContext& ctx) {
  const Array* data = ctx.inputArray(0);
  if (data == nullptr) return ctx.fail("needs a tensor input");
  if (data->rank() != 4) return ctx.fail("input must have rank 4");
  int64_t b = ctx.intAttribute("blocksize").value_or(0);
  if (b <= 0 || b > (int64_t{1} << 20)) return ctx.fail("blocksize must be positive");
  int64_t n = data->dim(0);
  int64_t c = data->dim(1);
  int64_t h = data->dim(2);
  int64_t w = data->dim(3);
  if (h % b != 0 || w % b != 0) return ctx.fail("height and width must divide by blocksize");
  std::vector<int64_t> dims = {n, c, h / b, b, w / b, b};
  std::vector<int64_t> strides = denseStrides(dims);
  std::vector<size_t> perm = {0, 3, 5, 1, 2, 4};
  std::vector<int64_t> out_dims;
  StridedView source;
  for (size_t axis : perm) {
    out_dims.push_back(dims[axis]);
    source.strides.push_back(strides[axis]);
  }
  Array out(data->type(), {n, c * b * b, h / b, w / b});
  copyOut(ctx, out_dims, *data, std::move(source), out);
  ctx.setOutput(0, std::move(out));
  return Status::ok();
}

}  // namespace

constexpr Formals kInputs1 = {{"input", "T"}};
constexpr Formals kOutputs1 = {{"output", "T"}};
constexpr Attributes kAttributes1 = {required("blocksize", kInt)};

extern const Operator kSpaceToDepth;
constexpr Operator kSpaceToDepth{.domain = kOnnxDomain,
                                 .name = "SpaceToDepth",
                                 .versions = {
                                     {.since_version = 1,
                                      .inputs = kInputs1,
                                      .outputs = kOutputs1,
                                      .attributes = kAttributes1,
                                      .constraints = {{"T", tensor(kIr3Types)}},
                                      .infer = inferSpaceToDepth,
                                      .kernel = runSpaceToDepth},
                                     {.since_version = 13,
                                      .inputs = kInputs1,
                                      .outputs = kOutputs1,
                                      .attributes = kAttributes1,
                                      .constraints = {{"T", tensor(kIr4Types)}},
                                      .infer = inferSpaceToDepth,
                                      .kernel = runSpaceToDepth,
                                      .step = typesOnly("bfloat16 added")},
                                 }};
static_assert(isWellFormed(kSpaceToDepth));

}  // namespace onyx::ops::ai_onnx
