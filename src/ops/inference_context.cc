#include "onyx/ops/inference_context.h"

#include "onyx/ir/attribute.h"
#include "onyx/ir/function.h"
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
  return hasInput(i) ? inputs_[i].data : nullptr;
}

const Tensor* InferenceContext::inputConstant(size_t i) const {
  return hasInput(i) ? inputs_[i].constant : nullptr;
}

const Attribute* InferenceContext::attribute(std::string_view name) const {
  const Attribute* given = node_->attribute(name);
  if (given == nullptr || !given->isReference()) return given;
  if (caller_ == nullptr) return nullptr;
  std::string_view referenced = *given->ref_attr_name;
  if (const Attribute* actual = caller_->attribute(referenced)) return actual;
  if (callee_ != nullptr) {
    for (const Attribute* fallback : callee_->attribute_proto) {
      if (fallback->nameOrEmpty() == referenced) return fallback;
    }
  }
  return nullptr;
}

const AttributeSpec* InferenceContext::defaultOf(std::string_view name, AttributeKind kind) const {
  const AttributeSpec* spec = schema_->attribute(name);
  if (spec == nullptr || !spec->has_default || spec->kind != kind) return nullptr;
  return spec;
}

std::optional<int64_t> InferenceContext::intAttribute(std::string_view name) const {
  if (const Attribute* given = attribute(name); given != nullptr && given->i) return *given->i;
  if (const AttributeSpec* spec = defaultOf(name, AttributeKind::kInt)) return spec->default_int;
  return std::nullopt;
}

std::optional<float> InferenceContext::floatAttribute(std::string_view name) const {
  if (const Attribute* given = attribute(name); given != nullptr && given->f) return *given->f;
  if (const AttributeSpec* spec = defaultOf(name, AttributeKind::kFloat)) {
    return spec->default_float;
  }
  return std::nullopt;
}

std::optional<std::string_view> InferenceContext::stringAttribute(std::string_view name) const {
  if (const Attribute* given = attribute(name); given != nullptr && given->s) return *given->s;
  if (const AttributeSpec* spec = defaultOf(name, AttributeKind::kString)) {
    return std::string_view(spec->default_string);
  }
  return std::nullopt;
}

std::optional<std::vector<int64_t>> InferenceContext::intsAttribute(std::string_view name) const {
  if (const Attribute* given = attribute(name);
      given != nullptr && given->kind() == AttributeKind::kInts) {
    return std::vector<int64_t>(given->ints.begin(), given->ints.end());
  }
  if (const AttributeSpec* spec = defaultOf(name, AttributeKind::kInts)) {
    return std::vector<int64_t>(spec->default_ints.begin(), spec->default_ints.end());
  }
  return std::nullopt;
}

std::optional<std::vector<float>> InferenceContext::floatsAttribute(std::string_view name) const {
  if (const Attribute* given = attribute(name);
      given != nullptr && given->kind() == AttributeKind::kFloats) {
    return std::vector<float>(given->floats.begin(), given->floats.end());
  }
  return std::nullopt;
}

const Tensor* InferenceContext::tensorAttribute(std::string_view name) const {
  const Attribute* given = attribute(name);
  return given != nullptr ? given->t : nullptr;
}

const Graph* InferenceContext::graphAttribute(std::string_view name) const {
  const Attribute* given = attribute(name);
  return given != nullptr ? given->g : nullptr;
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
