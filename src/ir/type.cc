#include "onyx/ir/type.h"

#include "onyx/core/element_type.h"

namespace onyx {

namespace {

void appendElementType(std::string& out, const std::optional<int32_t>& code) {
  if (!code) {
    out += "undefined";
    return;
  }
  if (const ElementTypeInfo* info = elementTypeInfo(*code)) {
    out += info->shortName;
  } else {
    out += "type" + std::to_string(*code);
  }
}

void appendShape(std::string& out, const TensorShape* shape) {
  if (shape == nullptr) return;
  out += '[';
  for (size_t i = 0; i < shape->dims.size(); ++i) {
    if (i) out += ',';
    const Dimension& dim = shape->dims[i];
    if (dim.dim_value) {
      out += std::to_string(*dim.dim_value);
    } else if (dim.dim_param) {
      out += *dim.dim_param;
    } else {
      out += '?';
    }
  }
  out += ']';
}

void appendType(std::string& out, const Type* type) {
  if (type == nullptr) {
    out += "?";
    return;
  }
  switch (type->kind) {
    case Type::Kind::kTensor:
      appendElementType(out, type->elem_type);
      appendShape(out, type->shape);
      break;
    case Type::Kind::kSparseTensor:
      out += "sparse_tensor(";
      appendElementType(out, type->elem_type);
      appendShape(out, type->shape);
      out += ')';
      break;
    case Type::Kind::kSequence:
      out += "seq(";
      appendType(out, type->elem);
      out += ')';
      break;
    case Type::Kind::kOptional:
      out += "optional(";
      appendType(out, type->elem);
      out += ')';
      break;
    case Type::Kind::kMap:
      out += "map(";
      appendElementType(out, type->key_type);
      out += ", ";
      appendType(out, type->elem);
      out += ')';
      break;
    case Type::Kind::kOpaque:
      out += "opaque(";
      out += type->opaque_domain.value_or("");
      out += ", ";
      out += type->opaque_name.value_or("");
      out += ')';
      break;
    case Type::Kind::kNone:
      out += "?";
      break;
  }
}

}  // namespace

std::string formatType(const Type& type) {
  std::string out;
  appendType(out, &type);
  return out;
}

}  // namespace onyx
