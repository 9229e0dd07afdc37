#include "eval/kernels/halves_as_floats.h"

#include <functional>
#include <utility>
#include <vector>

#include "ops/kernels.h"
#include "ops/lib/float_casts.h"

namespace onyx::eval_internal {

namespace {

// Runs body over [0, count) in blocks on ctx's threads, or here alone.
void splitOver(const KernelContext* ctx, size_t count,
               const std::function<void(size_t, size_t)>& body) {
  constexpr size_t kGrain = size_t{1} << 16;
  if (ctx != nullptr && count > kGrain) {
    ops::parallelFor(*ctx, count, kGrain, body);
  } else {
    body(0, count);
  }
}

}  // namespace

Array widenedHalves(const Array& half, const KernelContext* ctx) {
  Array wide(ElementType::kFloat, half.shape());
  const uint16_t* from = half.data<uint16_t>();
  float* to = wide.data<float>();
  splitOver(ctx, half.size(), [&](size_t begin, size_t end) {
    ops::cast::halvesToFloats(from + begin, end - begin, to + begin);
  });
  return wide;
}

Array roundedToHalves(const Array& wide, const KernelContext* ctx) {
  Array half(ElementType::kFloat16, wide.shape());
  const float* from = wide.data<float>();
  uint16_t* to = half.data<uint16_t>();
  splitOver(ctx, wide.size(), [&](size_t begin, size_t end) {
    ops::cast::floatsToHalves(from + begin, end - begin, to + begin);
  });
  return half;
}

bool hasHalfInput(const KernelContext& ctx) {
  for (const EvalValue* input : ctx.inputs_) {
    if (input != nullptr && input->isTensor() && input->tensor.type() == ElementType::kFloat16) {
      return true;
    }
  }
  return false;
}

Status runOnFloats(KernelContext& ctx) {
  std::vector<EvalValue> widened;
  widened.reserve(ctx.inputs_.size());  // the inputs point into it: no reallocation
  std::vector<const EvalValue*> given = ctx.inputs_;
  for (const EvalValue*& input : ctx.inputs_) {
    if (input == nullptr || !input->isTensor() || input->tensor.type() != ElementType::kFloat16) {
      continue;
    }
    widened.push_back(EvalValue::of(widenedHalves(input->tensor, &ctx)));
    input = &widened.back();
  }
  Status status = ctx.schema().kernel(ctx);
  ctx.inputs_ = std::move(given);
  ONYX_RETURN_IF_ERROR(status);
  for (EvalValue& output : ctx.outputs_) {
    if (!output.isTensor() || output.tensor.type() != ElementType::kFloat) continue;
    output = EvalValue::of(roundedToHalves(output.tensor, &ctx));
  }
  return Status::ok();
}

}  // namespace onyx::eval_internal
