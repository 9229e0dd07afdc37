// Expand (ai.onnx), versions 8, 13.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include <algorithm>
#include <string>
#include "ops/lib/elementwise_kernels.h"
#include "ops/schema_dsl.h"
#include "ops/shape_rules.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

// The input broadcast with `shape` (numpy's rule both ways: a 1 in `shape` keeps the input's
// dimension).
Status runExpand(KernelContext& ctx) {
  const Array* x = ctx.inputArray(0);
  const Array* shape = ctx.inputArray(1);
  if (x == nullptr || shape == nullptr) return ctx.fail("needs two tensor inputs");
  if (shape->rank() != 1) return ctx.fail("shape must be 1-D");
  std::optional<std::vector<int64_t>> dims = integersOf(*shape);
  if (!dims) return ctx.fail("shape must be an integer tensor");
  for (int64_t dim : *dims) {
    if (dim < 0) return ctx.fail("shape has a negative dimension " + std::to_string(dim));
  }
  std::optional<elementwise::Broadcast> plan = elementwise::planBroadcast({&x->shape(), &*dims});
  if (!plan) return ctx.fail("the input's shape does not broadcast with shape");
  Result<Array> made = Array::allocate(x->type(), plan->shape);
  if (!made) return made.status();
  Array out = std::move(*made);
  if (!elementwise::broadcastCopy(ctx, *plan, *x, out))
    return elementwise::unsupported(ctx, x->type());
  ctx.setOutput(0, std::move(out));
  return Status::ok();
}

// The broadcast of the input's shape with the target shape (input 1's elements). When the
// target's elements are unknown but its length is, the rank is known: an axis the input
// has with a size other than 1 keeps it; the others are unknown.
void inferExpand(InferenceContext& ctx) {
  const Dims* in = ctx.inputShape(0);
  const Dims* target = ctx.inputData(1);
  if (target != nullptr) {
    for (size_t i = 0; i < target->size(); ++i) {
      DimValue dim = (*target)[i];
      if (dim.isKnown() && dim.value() < 0) {
        ctx.fail("shape[" + std::to_string(i) + "] is " + std::to_string(dim.value()) +
                 "; Expand's shape cannot be negative");
        return;
      }
    }
    if (in == nullptr) return;
    const Dims* shapes[] = {in, target};
    if (std::optional<Dims> out = broadcastShapes(ctx, shapes)) {
      ctx.setOutputShape(0, std::move(*out));
    }
    return;
  }
  const Dims* target_shape = ctx.inputShape(1);
  if (in == nullptr || target_shape == nullptr || target_shape->size() != 1 ||
      !(*target_shape)[0].isKnown()) {
    return;
  }
  int64_t target_rank = (*target_shape)[0].value();
  if (target_rank < 0 || target_rank > static_cast<int64_t>(kMaxPropagatedElements)) return;
  size_t rank = std::max(in->size(), static_cast<size_t>(target_rank));
  Dims out;
  out.reserve(rank);
  for (size_t i = 0; i < rank; ++i) {
    size_t from_right = rank - i;
    if (from_right <= in->size()) {
      DimValue dim = (*in)[in->size() - from_right];
      if (dim.isKnown() && dim.value() != 1) {
        out.push_back(dim);
        continue;
      }
    }
    out.push_back(ctx.dims().fresh());
  }
  ctx.setOutputShape(0, std::move(out));
}

}  // namespace

constexpr Formals kInputs8 = {{"input", "T"}, {"shape", "tensor(int64)"}};
constexpr Formals kOutputs8 = {{"output", "T"}};

extern const Operator kExpand;
constexpr Operator kExpand{
    .domain = kOnnxDomain,
    .name = "Expand",
    .versions = {
        {.since_version = 8,
         .inputs = kInputs8,
         .outputs = kOutputs8,
         .constraints = {{"T", tensor(kIr3Types)}, {"tensor(int64)", tensor("int64")}},
         .infer = inferExpand,
         .kernel = runExpand},
        {.since_version = 13,
         .inputs = kInputs8,
         .outputs = kOutputs8,
         .constraints = {{"T", tensor(kIr4Types)}, {"tensor(int64)", tensor("int64")}},
         .infer = inferExpand,
         .kernel = runExpand,
         .step = typesOnly("bfloat16 added")},
    }};
static_assert(isWellFormed(kExpand));

}  // namespace onyx::ops::ai_onnx
