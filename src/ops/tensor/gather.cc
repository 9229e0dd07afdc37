// Gather (ai.onnx), versions 1, 11, 13.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/lib/tensor_kernels.h"
#include "ops/lib/tensor_rules.h"
#include "ops/schema_dsl.h"
#include "ops/shape_rules.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

// out = data.shape[:axis] + indices.shape + data.shape[axis+1:]; on propagated data (a
// vector such as a shape) it picks the elements, negative indices counting from the end.
void inferGather(InferenceContext& ctx) {
  const Dims* data = ctx.inputShape(0);
  const Dims* indices = ctx.inputShape(1);
  if (data == nullptr || indices == nullptr) return;
  if (data->empty()) {
    ctx.fail("Gather needs data of rank 1 or more");
    return;
  }
  std::optional<size_t> axis =
      normalizeAxis(ctx, ctx.intAttribute("axis").value_or(0), data->size());
  if (!axis) return;
  Dims out;
  out.reserve(data->size() - 1 + indices->size());
  out.insert(out.end(), data->begin(), data->begin() + static_cast<std::ptrdiff_t>(*axis));
  out.insert(out.end(), indices->begin(), indices->end());
  out.insert(out.end(), data->begin() + static_cast<std::ptrdiff_t>(*axis) + 1, data->end());
  bool vector_out = out.size() <= 1;
  ctx.setOutputShape(0, std::move(out));
  const Dims* elements = ctx.inputData(0);
  std::optional<std::vector<int64_t>> picks = knownNumbers(ctx.inputData(1));
  if (elements == nullptr || !picks || data->size() != 1 || !vector_out) return;
  int64_t count = static_cast<int64_t>(elements->size());
  Dims result;
  result.reserve(picks->size());
  for (int64_t index : *picks) {
    if (index < -count || index >= count) {
      ctx.fail("Gather's index " + std::to_string(index) + " is outside [" +
               std::to_string(-count) + ", " + std::to_string(count) + ")");
      return;
    }
    result.push_back((*elements)[static_cast<size_t>(index < 0 ? index + count : index)]);
  }
  ctx.setOutputData(0, std::move(result));
}

Status runGather(KernelContext& ctx) {
  const Array* data = ctx.inputArray(0);
  const Array* indices = ctx.inputArray(1);
  if (data == nullptr || indices == nullptr) return ctx.fail("needs data and indices tensors");
  size_t rank = data->rank();
  if (rank == 0) return ctx.fail("data must have rank 1 or more");
  std::optional<size_t> axis = kernelAxis(ctx.intAttribute("axis").value_or(0), rank);
  if (!axis) return ctx.fail("axis is out of range for rank " + std::to_string(rank));
  int64_t size = data->dim(*axis);
  Result<std::vector<int64_t>> where = wrappedIndices(ctx, *indices, size, "indices");
  if (!where) return where.status();
  std::vector<int64_t> shape(data->shape().begin(), data->shape().begin() + *axis);
  shape.insert(shape.end(), indices->shape().begin(), indices->shape().end());
  shape.insert(shape.end(), data->shape().begin() + *axis + 1, data->shape().end());
  Result<Array> made = newArray(data->type(), shape);
  if (!made) return made.status();
  Array out = std::move(*made);
  size_t outer = static_cast<size_t>(elementProduct(data->shape(), 0, *axis));
  size_t inner = static_cast<size_t>(elementProduct(data->shape(), *axis + 1));
  size_t count = where->size();
  const std::vector<int64_t>& picks = *where;
  size_t grain = std::max<size_t>(1, (size_t{1} << 14) / std::max<size_t>(inner, 1));
  dispatchStorage(data->type(), [&]<class T>() {
    const T* in = elementsOf<T>(*data);
    T* result = elementsOf<T>(out);
    parallelFor(ctx, outer * count, grain, [&](size_t begin, size_t end) {
      for (size_t row = begin; row < end; ++row) {
        size_t o = row / count;
        size_t j = row % count;
        const T* from =
            in + (o * static_cast<size_t>(size) + static_cast<size_t>(picks[j])) * inner;
        std::copy_n(from, inner, result + row * inner);
      }
    });
  });
  ctx.setOutput(0, std::move(out));
  return Status::ok();
}

}  // namespace

constexpr Formals kInputs1 = {{"data", "T"}, {"indices", "Tind"}};
constexpr Formals kOutputs1 = {{"output", "T"}};
constexpr Attributes kAttributes1 = {attr("axis", 0)};
constexpr Constraints kConstraints1 = {{"T", tensor(kIr3Types)}, {"Tind", tensor("int32 int64")}};

extern const Operator kGather;
constexpr Operator kGather{
    .domain = kOnnxDomain,
    .name = "Gather",
    .versions = {
        {.since_version = 1,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = kAttributes1,
         .constraints = kConstraints1,
         .infer = inferGather,
         .kernel = runGather},
        {.since_version = 11,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = kAttributes1,
         .constraints = kConstraints1,
         .infer = inferGather,
         .kernel = runGather,
         .step = {.reviewed = true,
                  .change =
                      "negative indices count from the back (version 1: out of bounds, an error)"}},
        {.since_version = 13,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = kAttributes1,
         .constraints = {{"T", tensor(kIr4Types)}, {"Tind", tensor("int32 int64")}},
         .infer = inferGather,
         .kernel = runGather,
         .step = typesOnly("bfloat16 added")},
    }};
static_assert(isWellFormed(kGather));

}  // namespace onyx::ops::ai_onnx
