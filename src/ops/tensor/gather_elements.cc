// GatherElements (ai.onnx), versions 11, 13.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/lib/tensor_kernels.h"
#include "ops/schema_dsl.h"
#include "ops/shape_rules.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

// The output has the indices' shape; data and indices have one rank.
void inferGatherElements(InferenceContext& ctx) {
  const Dims* data = ctx.inputShape(0);
  const Dims* indices = ctx.inputShape(1);
  if (indices == nullptr) return;
  if (data != nullptr) {
    if (data->size() != indices->size()) {
      ctx.fail("GatherElements' data has rank " + std::to_string(data->size()) +
               " and indices rank " + std::to_string(indices->size()));
      return;
    }
    if (!data->empty() && !normalizeAxis(ctx, ctx.intAttribute("axis").value_or(0), data->size())) {
      return;
    }
  }
  ctx.setOutputShape(0, *indices);
}

Status runGatherElements(KernelContext& ctx) {
  const Array* data = ctx.inputArray(0);
  const Array* indices = ctx.inputArray(1);
  if (data == nullptr || indices == nullptr) return ctx.fail("needs data and indices tensors");
  size_t rank = data->rank();
  if (rank == 0) return ctx.fail("data must have rank 1 or more");
  if (indices->rank() != rank) {
    return ctx.fail("indices have rank " + std::to_string(indices->rank()) + ", data " +
                    std::to_string(rank));
  }
  std::optional<size_t> axis = kernelAxis(ctx.intAttribute("axis").value_or(0), rank);
  if (!axis) return ctx.fail("axis is out of range for rank " + std::to_string(rank));
  for (size_t d = 0; d < rank; ++d) {
    if (d != *axis && indices->dim(d) > data->dim(d)) {
      return ctx.fail("indices' dimension " + std::to_string(d) + " (" +
                      std::to_string(indices->dim(d)) + ") exceeds the data's (" +
                      std::to_string(data->dim(d)) + ")");
    }
  }
  Result<std::vector<int64_t>> where = wrappedIndices(ctx, *indices, data->dim(*axis), "indices");
  if (!where) return where.status();
  Array out(data->type(), indices->shape());
  std::vector<int64_t> strides = denseStrides(data->shape());
  const std::vector<int64_t>& dims = indices->shape();
  dispatchStorage(data->type(), [&]<class T>() {
    const T* in = elementsOf<T>(*data);
    T* result = elementsOf<T>(out);
    std::vector<int64_t> position(rank, 0);
    int64_t base = 0;  // the data offset of `position` without the axis term
    for (size_t i = 0; i < out.size(); ++i) {
      result[i] = in[base + (*where)[i] * strides[*axis]];
      for (size_t d = rank; d-- > 0;) {
        if (d != *axis) base += strides[d];
        if (++position[d] < dims[d]) break;
        if (d != *axis) base -= strides[d] * dims[d];
        position[d] = 0;
      }
    }
  });
  ctx.setOutput(0, std::move(out));
  return Status::ok();
}

}  // namespace

constexpr Formals kInputs11 = {{"data", "T"}, {"indices", "Tind"}};
constexpr Formals kOutputs11 = {{"output", "T"}};
constexpr Attributes kAttributes11 = {attr("axis", 0)};

extern const Operator kGatherElements;
constexpr Operator kGatherElements{
    .domain = kOnnxDomain,
    .name = "GatherElements",
    .versions = {
        {.since_version = 11,
         .inputs = kInputs11,
         .outputs = kOutputs11,
         .attributes = kAttributes11,
         .constraints = {{"T", tensor(kIr3Types)}, {"Tind", tensor("int32 int64")}},
         .infer = inferGatherElements,
         .kernel = runGatherElements},
        {.since_version = 13,
         .inputs = kInputs11,
         .outputs = kOutputs11,
         .attributes = kAttributes11,
         .constraints = {{"T", tensor(kIr4Types)}, {"Tind", tensor("int32 int64")}},
         .infer = inferGatherElements,
         .kernel = runGatherElements,
         .step = typesOnly("bfloat16 added")},
    }};
static_assert(isWellFormed(kGatherElements));

}  // namespace onyx::ops::ai_onnx
