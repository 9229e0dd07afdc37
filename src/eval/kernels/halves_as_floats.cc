#include "eval/kernels/halves_as_floats.h"

#include <utility>
#include <vector>

#include "ops/lib/float_casts.h"

namespace onyx::eval_internal {

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
    Array wide(ElementType::kFloat, input->tensor.shape());
    ops::cast::halvesToFloats(input->tensor.data<uint16_t>(), wide.size(), wide.data<float>());
    widened.push_back(EvalValue::of(std::move(wide)));
    input = &widened.back();
  }
  Status status = ctx.schema().kernel(ctx);
  ctx.inputs_ = std::move(given);
  ONYX_RETURN_IF_ERROR(status);
  for (EvalValue& output : ctx.outputs_) {
    if (!output.isTensor() || output.tensor.type() != ElementType::kFloat) continue;
    Array half(ElementType::kFloat16, output.tensor.shape());
    ops::cast::floatsToHalves(output.tensor.data<float>(), half.size(), half.data<uint16_t>());
    output = EvalValue::of(std::move(half));
  }
  return Status::ok();
}

}  // namespace onyx::eval_internal
