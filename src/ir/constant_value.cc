#include "onyx/ir/constant_value.h"

#include <span>

#include "onyx/ir/opset_imports.h"
#include "onyx/ir/tensor_array.h"

namespace onyx {

namespace {

const Node* constantNode(const Value* value) {
  const Node* producer = value->producer();
  return producer != nullptr && isStandardOperator(*producer, "Constant") ? producer : nullptr;
}

}  // namespace

const Tensor* constantTensor(const Value* value) {
  if (value == nullptr) return nullptr;
  if (value->initializer() != nullptr) {
    return value->isGraphInput() ? nullptr : value->initializer();
  }
  const Node* constant = constantNode(value);
  return constant != nullptr ? constant->tensorAttr("value") : nullptr;
}

std::optional<std::vector<int64_t>> constantIntegers(const Value* value) {
  if (value == nullptr) return std::nullopt;
  if (const Node* constant = constantNode(value)) {
    if (std::optional<int64_t> one = constant->intAttr("value_int")) {
      return std::vector<int64_t>{*one};
    }
    if (constant->hasAttr("value_ints")) {
      std::span<const int64_t> ints = constant->intsAttr("value_ints");
      return std::vector<int64_t>(ints.begin(), ints.end());
    }
  }
  const Tensor* tensor = constantTensor(value);
  if (tensor == nullptr) return std::nullopt;
  Result<Array> array = arrayFromTensor(*tensor);
  if (!array) return std::nullopt;
  std::vector<int64_t> values(array->size());
  if (array->type() == ElementType::kInt64) {
    for (size_t i = 0; i < values.size(); ++i) values[i] = array->data<int64_t>()[i];
  } else if (array->type() == ElementType::kInt32) {
    for (size_t i = 0; i < values.size(); ++i) values[i] = array->data<int32_t>()[i];
  } else {
    return std::nullopt;
  }
  return values;
}

}  // namespace onyx
