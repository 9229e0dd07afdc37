// GatherND (ai.onnx), versions 11, 12, 13.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/lib/tensor_kernels.h"
#include "ops/node_draft.h"
#include "ops/schema_dsl.h"
#include "ops/shape_rules.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

// out = indices.shape[:-1] + data.shape[batch_dims + indices.shape[-1]:].
void inferGatherND(InferenceContext& ctx) {
  const Dims* data = ctx.inputShape(0);
  const Dims* indices = ctx.inputShape(1);
  if (data == nullptr || indices == nullptr) return;
  int64_t batch_dims = ctx.intAttribute("batch_dims").value_or(0);
  if (data->empty() || indices->empty()) {
    ctx.fail("GatherND needs data and indices of rank 1 or more");
    return;
  }
  auto data_rank = static_cast<int64_t>(data->size());
  auto indices_rank = static_cast<int64_t>(indices->size());
  if (batch_dims < 0 || batch_dims >= std::min(data_rank, indices_rank)) {
    ctx.fail("GatherND's batch_dims " + std::to_string(batch_dims) +
             " must be below the ranks of data (" + std::to_string(data_rank) + ") and indices (" +
             std::to_string(indices_rank) + ")");
    return;
  }
  DimValue last = indices->back();
  if (!last.isKnown()) return;
  if (last.value() < 1 || last.value() > data_rank - batch_dims) {
    ctx.fail("GatherND's indices have " + std::to_string(last.value()) +
             " coordinates per index but data of rank " + std::to_string(data_rank) + " has " +
             std::to_string(data_rank - batch_dims) + " past batch_dims");
    return;
  }
  Dims out(indices->begin(), indices->end() - 1);
  out.insert(out.end(), data->begin() + batch_dims + last.value(), data->end());
  ctx.setOutputShape(0, std::move(out));
}

Status runGatherND(KernelContext& ctx) {
  const Array* data = ctx.inputArray(0);
  const Array* indices = ctx.inputArray(1);
  if (data == nullptr || indices == nullptr) return ctx.fail("needs data and indices tensors");
  int64_t batch = ctx.intAttribute("batch_dims").value_or(0);
  size_t r = data->rank();
  size_t q = indices->rank();
  if (r == 0 || q == 0) return ctx.fail("data and indices must have rank 1 or more");
  if (batch < 0 || static_cast<size_t>(batch) >= std::min(r, q)) {
    return ctx.fail("batch_dims " + std::to_string(batch) + " must be less than both ranks");
  }
  size_t b = static_cast<size_t>(batch);
  for (size_t d = 0; d < b; ++d) {
    if (data->dim(d) != indices->dim(d)) {
      return ctx.fail("data and indices differ in batch dimension " + std::to_string(d));
    }
  }
  int64_t depth = indices->shape().back();
  if (depth < 1 || static_cast<size_t>(depth) > r - b) {
    return ctx.fail("indices' last dimension " + std::to_string(depth) + " must be in [1, " +
                    std::to_string(r - b) + "]");
  }
  size_t k = static_cast<size_t>(depth);
  std::optional<std::vector<int64_t>> where = integersOf(*indices);
  if (!where) return ctx.fail("indices must be int64");
  std::vector<int64_t> shape(indices->shape().begin(), indices->shape().end() - 1);
  shape.insert(shape.end(), data->shape().begin() + static_cast<std::ptrdiff_t>(b + k),
               data->shape().end());
  Result<Array> made = newArray(data->type(), shape);
  if (!made) return made.status();
  Array out = std::move(*made);
  std::vector<int64_t> strides = denseStrides(data->shape());
  size_t batches = static_cast<size_t>(elementProduct(data->shape(), 0, b));
  size_t batch_stride = b == 0 ? data->size() : static_cast<size_t>(strides[b - 1]);
  size_t tuples = where->size() / k;
  size_t per_batch = batches == 0 ? 0 : tuples / batches;
  size_t inner = static_cast<size_t>(elementProduct(data->shape(), b + k));
  // Each tuple's data offset, checked and wrapped.
  std::vector<size_t> offsets(tuples);
  for (size_t t = 0; t < tuples; ++t) {
    size_t offset = (t / std::max<size_t>(per_batch, 1)) * batch_stride;
    for (size_t j = 0; j < k; ++j) {
      int64_t index = (*where)[t * k + j];
      int64_t size = data->dim(b + j);
      if (index < -size || index >= size) {
        return ctx.fail("indices hold " + std::to_string(index) +
                        ", out of range for a dimension of " + std::to_string(size));
      }
      if (index < 0) index += size;
      offset += static_cast<size_t>(index * strides[b + j]);
    }
    offsets[t] = offset;
  }
  dispatchStorage(data->type(), [&]<class T>() {
    const T* in = elementsOf<T>(*data);
    T* result = elementsOf<T>(out);
    for (size_t t = 0; t < tuples; ++t) std::copy_n(in + offsets[t], inner, result + t * inner);
  });
  ctx.setOutput(0, std::move(out));
  return Status::ok();
}

// Down to version 11, which has no batch dimensions: batch_dims must be 0.
Status dropBatchDims(NodeDraft& draft) {
  if (draft.attribute("batch_dims") != nullptr) {
    if (draft.intAttr("batch_dims") != 0) {
      return draft.refuse("batch_dims other than 0 has no form in version 11");
    }
    draft.removeAttribute("batch_dims");
  }
  return Status::ok();
}

}  // namespace

constexpr Formals kInputs11 = {{"data", "T"}, {"indices", "tensor(int64)"}};
constexpr Formals kOutputs11 = {{"output", "T"}};
constexpr Attributes kAttributes12 = {attr("batch_dims", 0)};
constexpr Constraints kConstraints11 = {{"T", tensor(kIr3Types)},
                                        {"tensor(int64)", tensor("int64")}};

extern const Operator kGatherND;
constexpr Operator kGatherND{
    .domain = kOnnxDomain,
    .name = "GatherND",
    .versions = {
        {.since_version = 11,
         .inputs = kInputs11,
         .outputs = kOutputs11,
         .constraints = kConstraints11,
         .infer = inferGatherND,
         .kernel = runGatherND},
        {.since_version = 12,
         .inputs = kInputs11,
         .outputs = kOutputs11,
         .attributes = kAttributes12,
         .constraints = kConstraints11,
         .infer = inferGatherND,
         .kernel = runGatherND,
         .step = {.reviewed = true,
                  .change = "batch_dims added (0: as before)",
                  .down = dropBatchDims,
                  .down_refuses = "batch_dims other than 0"}},
        {.since_version = 13,
         .inputs = kInputs11,
         .outputs = kOutputs11,
         .attributes = kAttributes12,
         .constraints = {{"T", tensor(kIr4Types)}, {"tensor(int64)", tensor("int64")}},
         .infer = inferGatherND,
         .kernel = runGatherND,
         .step = typesOnly("bfloat16 added")},
    }};
static_assert(isWellFormed(kGatherND));

}  // namespace onyx::ops::ai_onnx
