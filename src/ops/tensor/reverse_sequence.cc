// ReverseSequence (ai.onnx), versions 10.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/lib/tensor_kernels.h"
#include "ops/schema_dsl.h"
#include "ops/shape_rules.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

extern const Operator kReverseSequence;
namespace {
// Y has the input's shape. The input has a batch and a time axis (rank 2 or more) and
// sequence_lens one length per batch entry (rank 1), as onnx's ReverseSequence inference
// requires (onnx/defs/tensor/defs.cc).
void inferReverseSequence(InferenceContext& ctx) {
  if (!inputRankWithin(ctx, 0, 2, kAnyRank) || !inputRankIs(ctx, 1, 1)) return;
  inferSameShape(ctx);
}

Status runReverseSequence(KernelContext& ctx) {
  const Array* data = ctx.inputArray(0);
  const Array* lens = ctx.inputArray(1);
  if (data == nullptr || lens == nullptr) return ctx.fail("needs input and sequence_lens");
  if (data->rank() < 2) return ctx.fail("input must have rank 2 or more");
  int64_t batch_axis = ctx.intAttribute("batch_axis").value_or(1);
  int64_t time_axis = ctx.intAttribute("time_axis").value_or(0);
  if (!((batch_axis == 0 && time_axis == 1) || (batch_axis == 1 && time_axis == 0))) {
    return ctx.fail("batch_axis and time_axis must be 0 and 1, in some order");
  }
  int64_t batches = data->dim(static_cast<size_t>(batch_axis));
  int64_t steps = data->dim(static_cast<size_t>(time_axis));
  std::optional<std::vector<int64_t>> lengths = integersOf(*lens);
  if (!lengths || lens->rank() != 1 || static_cast<int64_t>(lengths->size()) != batches) {
    return ctx.fail("sequence_lens must hold one int64 per batch entry");
  }
  for (int64_t length : *lengths) {
    if (length < 0 || length > steps) {
      return ctx.fail("sequence length " + std::to_string(length) + " is outside [0, " +
                      std::to_string(steps) + "]");
    }
  }
  std::vector<int64_t> strides = denseStrides(data->shape());
  int64_t batch_stride = strides[static_cast<size_t>(batch_axis)];
  int64_t time_stride = strides[static_cast<size_t>(time_axis)];
  int64_t inner = elementProduct(data->shape(), 2);
  Array out = data->clone();
  for (int64_t b = 0; b < batches; ++b) {
    int64_t length = (*lengths)[static_cast<size_t>(b)];
    for (int64_t t = 0; t < length; ++t) {
      copyElements(*data, static_cast<size_t>(b * batch_stride + (length - 1 - t) * time_stride),
                   out, static_cast<size_t>(b * batch_stride + t * time_stride),
                   static_cast<size_t>(inner));
    }
  }
  ctx.setOutput(0, std::move(out));
  return Status::ok();
}

}  // namespace

constexpr Operator kReverseSequence{
    .domain = kOnnxDomain,
    .name = "ReverseSequence",
    .versions = {
        {.since_version = 10,
         .inputs = {{"input", "T"}, {"sequence_lens", "tensor(int64)"}},
         .outputs = {{"Y", "T"}},
         .attributes = {attr("batch_axis", 1), attr("time_axis", 0)},
         .constraints = {{"T", tensor(kIr3Types)}, {"tensor(int64)", tensor("int64")}},
         .infer = inferReverseSequence,
         .kernel = runReverseSequence},
    }};
static_assert(isWellFormed(kReverseSequence));

}  // namespace onyx::ops::ai_onnx
