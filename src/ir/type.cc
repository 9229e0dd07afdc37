#include "onyx/ir/type.h"

#include "onyx/core/element_type.h"
#include "onyx/ir/editor.h"

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
    case Type::Kind::kNone: out += "?"; break;
  }
}

}  // namespace

std::vector<Dim> dimsOf(const TensorShape& shape) {
  std::vector<Dim> dims;
  dims.reserve(shape.dims.size());
  for (const Dimension& dim : shape.dims) {
    if (dim.dim_value) {
      dims.emplace_back(*dim.dim_value);
    } else if (dim.dim_param) {
      dims.emplace_back(*dim.dim_param);
    } else {
      dims.emplace_back();
    }
  }
  return dims;
}

std::string formatType(const Type& type) {
  std::string out;
  appendType(out, &type);
  return out;
}

namespace {

Type* shapedType(Arena& arena, Type::Kind kind, int32_t elem_type, std::span<const Dim> dims) {
  Type* type = arena.make<Type>();
  type->kind = kind;
  type->elem_type = elem_type;
  type->shape = arena.make<TensorShape>();
  type->shape->dims.reserve(arena, dims.size());
  for (const Dim& given : dims) {
    Dimension& dim = type->shape->dims.emplace_back(arena);
    dim.dim_value = given.value;
    if (given.symbol) dim.dim_param = arena.copy(*given.symbol);
  }
  return type;
}

Type* wrapping(Arena& arena, Type::Kind kind, Type* elem) {
  Type* type = arena.make<Type>();
  type->kind = kind;
  type->elem = elem;
  return type;
}

}  // namespace

Type* GraphEditor::tensorType(int32_t elem_type, std::initializer_list<Dim> dims) const {
  return shapedType(*arena_, Type::Kind::kTensor, elem_type, {dims.begin(), dims.size()});
}

Type* GraphEditor::tensorType(int32_t elem_type, std::span<const Dim> dims) const {
  return shapedType(*arena_, Type::Kind::kTensor, elem_type, dims);
}

Type* GraphEditor::tensorTypeOfUnknownRank(int32_t elem_type) const {
  Type* type = arena_->make<Type>();
  type->kind = Type::Kind::kTensor;
  type->elem_type = elem_type;
  return type;
}

Type* GraphEditor::sparseTensorType(int32_t elem_type, std::initializer_list<Dim> dims) const {
  return shapedType(*arena_, Type::Kind::kSparseTensor, elem_type, {dims.begin(), dims.size()});
}

Type* GraphEditor::sequenceType(Type* elem) const {
  return wrapping(*arena_, Type::Kind::kSequence, elem);
}

Type* GraphEditor::optionalType(Type* elem) const {
  return wrapping(*arena_, Type::Kind::kOptional, elem);
}

Type* GraphEditor::mapType(int32_t key_type, Type* value) const {
  Type* type = wrapping(*arena_, Type::Kind::kMap, value);
  type->key_type = key_type;
  return type;
}

}  // namespace onyx
