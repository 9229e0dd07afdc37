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

InitializerInputs initializerInputsOf(const Model& model, bool asked_constant) {
  // onnxruntime agrees: an initializer can be overridden exactly when ir_version >= 4.
  bool constant = asked_constant || model.ir_version.value_or(4) < 4;
  return constant ? InitializerInputs::kConstant : InitializerInputs::kOverridable;
}

const Tensor* fixedInitializer(const Value* value, InitializerInputs inputs) {
  if (value == nullptr || value->initializer() == nullptr) return nullptr;
  bool fixed = !value->isGraphInput() || inputs == InitializerInputs::kConstant;
  return fixed ? value->initializer() : nullptr;
}

const Tensor* constantTensor(const Value* value, InitializerInputs inputs) {
  if (value == nullptr) return nullptr;
  if (value->initializer() != nullptr) return fixedInitializer(value, inputs);
  const Node* constant = constantNode(value);
  return constant != nullptr ? constant->tensorAttr("value") : nullptr;
}

std::optional<std::vector<int64_t>> constantIntegers(const Value* value, InitializerInputs inputs) {
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
  const Tensor* tensor = constantTensor(value, inputs);
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
