#include "onyx/ops/inference_context.h"

#include <string>

#include "onyx/ir/node.h"

namespace onyx {

bool InferredType::operator==(const InferredType& other) const {
  if (kind != other.kind || elem_type != other.elem_type || has_shape != other.has_shape ||
      dims != other.dims) {
    return false;
  }
  if ((elem == nullptr) != (other.elem == nullptr)) return false;
  return elem == nullptr || elem == other.elem || *elem == *other.elem;
}

const InferredType* InferenceContext::inputType(size_t i) const {
  if (!hasInput(i)) return nullptr;
  const InferredType* type = inputs_[i].type;
  return type != nullptr && type->isKnown() ? type : nullptr;
}

int32_t InferenceContext::inputElemType(size_t i) const {
  const InferredType* type = inputType(i);
  return type != nullptr && type->isTensorLike() ? type->elem_type : 0;
}

const Dims* InferenceContext::inputShape(size_t i) const {
  const InferredType* type = inputType(i);
  return type != nullptr && type->isTensorLike() && type->has_shape ? &type->dims : nullptr;
}

std::optional<size_t> InferenceContext::inputRank(size_t i) const {
  const Dims* shape = inputShape(i);
  if (shape == nullptr) return std::nullopt;
  return shape->size();
}

const Dims* InferenceContext::inputData(size_t i) const {
  if (!hasInput(i)) return nullptr;
  if (inputs_[i].data == nullptr) inputs_[i].data_wanted = true;
  return inputs_[i].data;
}

const Tensor* InferenceContext::inputConstant(size_t i) const {
  if (!hasInput(i)) return nullptr;
  if (inputs_[i].constant == nullptr) inputs_[i].data_wanted = true;
  return inputs_[i].constant;
}

void InferenceContext::setOutputType(size_t i, InferredType type) {
  if (i < outputs_.size()) outputs_[i].type = std::move(type);
}

void InferenceContext::setOutputElemType(size_t i, int32_t elem_type) {
  if (i >= outputs_.size()) return;
  InferredType& type = outputs_[i].type;
  if (!type.isTensorLike()) type.kind = InferredType::Kind::kTensor;
  type.elem_type = elem_type;
}

void InferenceContext::setOutputShape(size_t i, Dims dims) {
  if (i >= outputs_.size()) return;
  InferredType& type = outputs_[i].type;
  if (!type.isTensorLike()) type.kind = InferredType::Kind::kTensor;
  type.has_shape = true;
  type.dims = std::move(dims);
}

void InferenceContext::setOutputRank(size_t i, size_t rank) {
  if (rank > kMaxPropagatedElements) {
    note("an output rank of " + std::to_string(rank) + " is beyond what inference represents");
    return;
  }
  Dims unknown;
  unknown.reserve(rank);
  for (size_t axis = 0; axis < rank; ++axis) unknown.push_back(dims_->fresh());
  setOutputShape(i, std::move(unknown));
}

void InferenceContext::setOutputTensor(size_t i, int32_t elem_type, Dims dims) {
  if (i < outputs_.size()) outputs_[i].type = InferredType::tensor(elem_type, std::move(dims));
}

void InferenceContext::setOutputData(size_t i, Dims data) {
  if (i < outputs_.size() && data.size() <= kMaxPropagatedElements) {
    outputs_[i].data = std::move(data);
  }
}

void InferenceContext::setOutputConstant(size_t i, const Tensor* tensor) {
  if (i < outputs_.size()) outputs_[i].constant = tensor;
}

void InferenceContext::fail(std::string message) { failures_.push_back(std::move(message)); }

void InferenceContext::note(std::string reason) { notes_.push_back(std::move(reason)); }

}  // namespace onyx
