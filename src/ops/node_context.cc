#include "onyx/ops/node_context.h"

#include "onyx/ir/attribute.h"
#include "onyx/ir/function.h"
#include "onyx/ir/node.h"

namespace onyx {

const Attribute* NodeContext::attribute(std::string_view name) const {
  const Attribute* given = node_->attribute(name);
  if (given == nullptr || !given->isReference()) return given;
  if (caller_ == nullptr) return nullptr;
  std::string_view referenced = *given->rare().ref_attr_name;
  if (const Attribute* actual = caller_->attribute(referenced)) return actual;
  if (callee_ != nullptr) {
    for (const Attribute* fallback : callee_->attribute_proto) {
      if (fallback->nameOrEmpty() == referenced) return fallback;
    }
  }
  return nullptr;
}

const AttributeSpec* NodeContext::defaultOf(std::string_view name, AttributeKind kind) const {
  const AttributeSpec* spec = schema_->attribute(name);
  if (spec == nullptr || !spec->has_default || spec->kind != kind) return nullptr;
  return spec;
}

std::optional<int64_t> NodeContext::intAttribute(std::string_view name) const {
  if (const Attribute* given = attribute(name); given != nullptr && given->i) return *given->i;
  if (const AttributeSpec* spec = defaultOf(name, AttributeKind::kInt)) return spec->default_int;
  return std::nullopt;
}

std::optional<float> NodeContext::floatAttribute(std::string_view name) const {
  if (const Attribute* given = attribute(name); given != nullptr && given->f) return *given->f;
  if (const AttributeSpec* spec = defaultOf(name, AttributeKind::kFloat)) {
    return spec->default_float;
  }
  return std::nullopt;
}

std::optional<std::string_view> NodeContext::stringAttribute(std::string_view name) const {
  if (const Attribute* given = attribute(name); given != nullptr && given->s) return *given->s;
  if (const AttributeSpec* spec = defaultOf(name, AttributeKind::kString)) {
    return std::string_view(spec->default_string);
  }
  return std::nullopt;
}

std::optional<std::vector<int64_t>> NodeContext::intsAttribute(std::string_view name) const {
  if (const Attribute* given = attribute(name);
      given != nullptr && given->kind() == AttributeKind::kInts) {
    return std::vector<int64_t>(given->ints.begin(), given->ints.end());
  }
  if (const AttributeSpec* spec = defaultOf(name, AttributeKind::kInts)) {
    return std::vector<int64_t>(spec->default_ints.begin(), spec->default_ints.end());
  }
  return std::nullopt;
}

std::optional<std::vector<float>> NodeContext::floatsAttribute(std::string_view name) const {
  if (const Attribute* given = attribute(name);
      given != nullptr && given->kind() == AttributeKind::kFloats) {
    return std::vector<float>(given->floats.begin(), given->floats.end());
  }
  return std::nullopt;
}

const Tensor* NodeContext::tensorAttribute(std::string_view name) const {
  const Attribute* given = attribute(name);
  return given != nullptr ? given->t : nullptr;
}

const Graph* NodeContext::graphAttribute(std::string_view name) const {
  const Attribute* given = attribute(name);
  return given != nullptr ? given->g : nullptr;
}

}  // namespace onyx
