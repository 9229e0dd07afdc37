#include "ops/ml/ml_shapes.h"

#include <string>

#include "onyx/ir/attribute.h"

namespace onyx::ops {

std::optional<DimValue> batchOf(InferenceContext& ctx, size_t input) {
  const Dims* shape = ctx.inputShape(input);
  if (shape == nullptr) return std::nullopt;
  if (shape->size() == 1) return DimValue::known(1);
  if (shape->size() == 2) return (*shape)[0];
  ctx.fail("the input has rank " + std::to_string(shape->size()) + ", not [N, C] or [C]");
  return std::nullopt;
}

size_t attributeLength(const InferenceContext& ctx, std::string_view name) {
  const Attribute* attribute = ctx.attribute(name);
  if (attribute == nullptr) return 0;
  size_t length = attribute->ints.size() + attribute->floats.size();
  if (attribute->lists != nullptr) length += attribute->lists->strings.size();
  return length;
}

int32_t labelType(const InferenceContext& ctx, std::string_view strings) {
  return attributeLength(ctx, strings) > 0 ? kMlString : kMlInt64;
}

void setClassifierOutputs(InferenceContext& ctx, int32_t label_type, DimValue classes) {
  std::optional<DimValue> batch = batchOf(ctx);
  if (ctx.hasOutput(0)) {
    if (batch) {
      ctx.setOutputTensor(0, label_type, {*batch});
    } else {
      ctx.setOutputElemType(0, label_type);
    }
  }
  if (ctx.hasOutput(1) && batch) ctx.setOutputShape(1, {*batch, classes});
}

}  // namespace onyx::ops
