// ScatterND (ai.onnx), versions 11, 13, 16, 18.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include <optional>
#include <string_view>

#include "onyx/ir/attribute.h"
#include "ops/lib/tensor_kernels.h"
#include "ops/node_draft.h"
#include "ops/schema_dsl.h"
#include "ops/shape_rules.h"
#include "ops/version_adapters.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {
Status runScatterND(KernelContext& ctx) {
  const Array* data = ctx.inputArray(0);
  const Array* indices = ctx.inputArray(1);
  const Array* updates = ctx.inputArray(2);
  if (data == nullptr || indices == nullptr || updates == nullptr) {
    return ctx.fail("needs data, indices and updates tensors");
  }
  if (updates->type() != data->type()) return ctx.fail("updates' type is not data's");
  size_t r = data->rank();
  size_t q = indices->rank();
  if (r == 0 || q == 0) return ctx.fail("data and indices must have rank 1 or more");
  int64_t depth = indices->shape().back();
  if (depth < 0 || static_cast<size_t>(depth) > r) {
    return ctx.fail("indices' last dimension " + std::to_string(depth) +
                    " exceeds the data's rank " + std::to_string(r));
  }
  size_t k = static_cast<size_t>(depth);
  std::vector<int64_t> expected(indices->shape().begin(), indices->shape().end() - 1);
  expected.insert(expected.end(), data->shape().begin() + static_cast<std::ptrdiff_t>(k),
                  data->shape().end());
  if (updates->shape() != expected) return ctx.fail("updates' shape does not fit indices and data");
  Result<Reduction> reduction = reductionOf(ctx);
  if (!reduction) return reduction.status();
  std::optional<std::vector<int64_t>> where = integersOf(*indices);
  if (!where) return ctx.fail("indices must be int64");
  std::vector<int64_t> strides = denseStrides(data->shape());
  size_t inner = static_cast<size_t>(elementProduct(data->shape(), k));
  size_t tuples =
      k == 0 ? static_cast<size_t>(elementProduct(indices->shape(), 0, q - 1)) : where->size() / k;
  std::vector<size_t> targets(tuples);
  for (size_t t = 0; t < tuples; ++t) {
    int64_t offset = 0;
    for (size_t j = 0; j < k; ++j) {
      int64_t index = (*where)[t * k + j];
      int64_t size = data->dim(j);
      if (index < -size || index >= size) {
        return ctx.fail("indices hold " + std::to_string(index) +
                        ", out of range for a dimension of " + std::to_string(size));
      }
      if (index < 0) index += size;
      offset += index * strides[j];
    }
    targets[t] = static_cast<size_t>(offset);
  }
  Array out = data->clone();
  ONYX_RETURN_IF_ERROR(scatterBlocks(ctx, out, *updates, targets, inner, *reduction));
  ctx.setOutput(0, std::move(out));
  return Status::ok();
}

// Down to version 13, which only overwrites: reduction must be none.
Status dropReduction(NodeDraft& draft) {
  if (draft.stringAttr("reduction", "none") != "none") {
    return draft.refuse("reduction other than none has no form in version 13");
  }
  draft.removeAttribute("reduction");
  return Status::ok();
}

}  // namespace

constexpr Formals kInputs11 = {{"data", "T"}, {"indices", "tensor(int64)"}, {"updates", "T"}};
constexpr Formals kOutputs11 = {{"output", "T"}};
constexpr Attributes kAttributes16 = {attr("reduction", "none")};
constexpr Constraints kConstraints13 = {{"T", tensor(kIr4Types)},
                                        {"tensor(int64)", tensor("int64")}};

extern const Operator kScatterND;
constexpr Operator kScatterND{
    .domain = kOnnxDomain,
    .name = "ScatterND",
    .versions = {
        {.since_version = 11,
         .inputs = kInputs11,
         .outputs = kOutputs11,
         .constraints = {{"T", tensor(kIr3Types)}, {"tensor(int64)", tensor("int64")}},
         .infer = inferSameShape,
         .kernel = runScatterND},
        {.since_version = 13,
         .inputs = kInputs11,
         .outputs = kOutputs11,
         .constraints = kConstraints13,
         .infer = inferSameShape,
         .kernel = runScatterND,
         .step = typesOnly("bfloat16 added")},
        {.since_version = 16,
         .inputs = kInputs11,
         .outputs = kOutputs11,
         .attributes = kAttributes16,
         .constraints = kConstraints13,
         .infer = inferSameShape,
         .kernel = runScatterND,
         .step = {.reviewed = true,
                  .change = "reduction added (none: as before)",
                  .down = dropReduction,
                  .down_refuses = "reduction add or mul"}},
        {.since_version = 18,
         .inputs = kInputs11,
         .outputs = kOutputs11,
         .attributes = kAttributes16,
         .constraints = kConstraints13,
         .infer = inferSameShape,
         .kernel = runScatterND,
         .step = {.reviewed = true,
                  .change = "reduction max and min added",
                  .down = refuseMaxMin,
                  .down_refuses = "reduction max or min"}},
    }};
static_assert(isWellFormed(kScatterND));

}  // namespace onyx::ops::ai_onnx
