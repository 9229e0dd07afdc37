// Transpose (ai.onnx), versions 1, 13, 21, 23, 24, 25.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/lib/tensor_kernels.h"
#include "ops/schema_dsl.h"
#include "ops/shape_rules.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

// perm defaults to reversing the axes.
void inferTranspose(InferenceContext& ctx) {
  const Dims* in = ctx.inputShape(0);
  if (in == nullptr) return;
  size_t rank = in->size();
  Dims out;
  out.reserve(rank);
  if (std::optional<std::vector<int64_t>> perm = ctx.intsAttribute("perm")) {
    if (perm->size() != rank) {
      ctx.fail("Transpose's perm has " + std::to_string(perm->size()) +
               " entries for an input of rank " + std::to_string(rank));
      return;
    }
    std::vector<bool> seen(rank, false);
    for (int64_t axis : *perm) {
      std::optional<size_t> normalized = normalizeAxis(ctx, axis, rank, "perm entry");
      if (!normalized) return;
      if (seen[*normalized]) {
        ctx.fail("Transpose's perm repeats axis " + std::to_string(*normalized));
        return;
      }
      seen[*normalized] = true;
      out.push_back((*in)[*normalized]);
    }
  } else {
    out.assign(in->rbegin(), in->rend());
  }
  ctx.setOutputShape(0, std::move(out));
}

Status runTranspose(KernelContext& ctx) {
  const Array* data = ctx.inputArray(0);
  if (data == nullptr) return ctx.fail("needs a tensor input");
  size_t rank = data->rank();
  std::vector<int64_t> perm;
  if (std::optional<std::vector<int64_t>> given = ctx.intsAttribute("perm")) {
    perm = std::move(*given);
    if (perm.size() != rank) {
      return ctx.fail("perm has " + std::to_string(perm.size()) + " entries for an input of rank " +
                      std::to_string(rank));
    }
  } else {
    for (size_t i = rank; i-- > 0;) perm.push_back(static_cast<int64_t>(i));
  }
  Result<std::vector<size_t>> axes = kernelAxes(ctx, perm, rank);
  if (!axes) return axes.status();
  std::vector<int64_t> in_strides = denseStrides(data->shape());
  std::vector<int64_t> out_shape(rank);
  StridedView source;
  for (size_t i = 0; i < rank; ++i) {
    out_shape[i] = data->dim((*axes)[i]);
    source.strides.push_back(in_strides[(*axes)[i]]);
  }
  Array out(data->type(), out_shape);
  copyOut(ctx, out_shape, *data, std::move(source), out);
  ctx.setOutput(0, std::move(out));
  return Status::ok();
}

}  // namespace

constexpr Formals kInputs1 = {{"data", "T"}};
constexpr Formals kOutputs1 = {{"transposed", "T"}};
constexpr Attributes kAttributes1 = {attr("perm", kInts)};

extern const Operator kTranspose;
constexpr Operator kTranspose{.domain = kOnnxDomain,
                              .name = "Transpose",
                              .versions = {
                                  {.since_version = 1,
                                   .inputs = kInputs1,
                                   .outputs = kOutputs1,
                                   .attributes = kAttributes1,
                                   .constraints = {{"T", tensor(kIr3Types)}},
                                   .infer = inferTranspose,
                                   .kernel = runTranspose},
                                  {.since_version = 13,
                                   .inputs = kInputs1,
                                   .outputs = kOutputs1,
                                   .attributes = kAttributes1,
                                   .constraints = {{"T", tensor(kIr4Types)}},
                                   .infer = inferTranspose,
                                   .kernel = runTranspose,
                                   .step = typesOnly("bfloat16 added")},
                                  {.since_version = 21,
                                   .inputs = kInputs1,
                                   .outputs = kOutputs1,
                                   .attributes = kAttributes1,
                                   .constraints = {{"T", tensor(kIr10Types)}},
                                   .infer = inferTranspose,
                                   .kernel = runTranspose,
                                   .step = typesOnly("float8 types, int4 and uint4 added")},
                                  {.since_version = 23,
                                   .inputs = kInputs1,
                                   .outputs = kOutputs1,
                                   .attributes = kAttributes1,
                                   .constraints = {{"T", tensor(kIr11Types)}},
                                   .infer = inferTranspose,
                                   .kernel = runTranspose,
                                   .step = typesOnly("float4e2m1 added")},
                                  {.since_version = 24,
                                   .inputs = kInputs1,
                                   .outputs = kOutputs1,
                                   .attributes = kAttributes1,
                                   .constraints = {{"T", tensor(kIr12Types)}},
                                   .infer = inferTranspose,
                                   .kernel = runTranspose,
                                   .step = typesOnly("float8e8m0 added")},
                                  {.since_version = 25,
                                   .inputs = kInputs1,
                                   .outputs = kOutputs1,
                                   .attributes = kAttributes1,
                                   .constraints = {{"T", tensor(kIr13Types)}},
                                   .infer = inferTranspose,
                                   .kernel = runTranspose,
                                   .step = typesOnly("int2 and uint2 added")},
                              }};
static_assert(isWellFormed(kTranspose));

}  // namespace onyx::ops::ai_onnx
