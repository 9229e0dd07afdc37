#include "ops/type_conversion.h"

#include <cstring>

#include "onyx/core/element_type.h"
#include "onyx/ir/editor.h"
#include "onyx/ir/tensor_data.h"
#include "onyx/ops/inference_context.h"

namespace onyx::ops {

namespace {

InferredType::Kind kindOf(Type::Kind kind) {
  switch (kind) {
    case Type::Kind::kTensor: return InferredType::Kind::kTensor;
    case Type::Kind::kSparseTensor: return InferredType::Kind::kSparseTensor;
    case Type::Kind::kSequence: return InferredType::Kind::kSequence;
    case Type::Kind::kOptional: return InferredType::Kind::kOptional;
    case Type::Kind::kMap: return InferredType::Kind::kMap;
    case Type::Kind::kOpaque: return InferredType::Kind::kOpaque;
    case Type::Kind::kNone: break;
  }
  return InferredType::Kind::kUnknown;
}

}  // namespace

InferredType fromDeclared(const Type& type, SymbolicDims& dims) {
  InferredType result;
  result.kind = kindOf(type.kind);
  switch (result.kind) {
    case InferredType::Kind::kTensor:
    case InferredType::Kind::kSparseTensor:
      result.elem_type = type.elem_type.value_or(0);
      if (type.shape != nullptr) {
        result.has_shape = true;
        result.dims.reserve(type.shape->dims.size());
        for (const Dimension& dim : type.shape->dims) {
          if (dim.dim_value) {
            result.dims.push_back(DimValue::known(*dim.dim_value));
          } else if (dim.dim_param && !dim.dim_param->empty()) {
            result.dims.push_back(dims.symbol(*dim.dim_param));
          } else {
            result.dims.push_back(dims.fresh());
          }
        }
      }
      break;
    case InferredType::Kind::kSequence:
    case InferredType::Kind::kOptional:
    case InferredType::Kind::kMap:
      if (result.kind == InferredType::Kind::kMap) result.elem_type = type.key_type.value_or(0);
      if (type.elem != nullptr) {
        result.elem = std::make_shared<const InferredType>(fromDeclared(*type.elem, dims));
      }
      break;
    case InferredType::Kind::kOpaque:
    case InferredType::Kind::kUnknown: break;
  }
  return result;
}

InferredType typeOfTensor(const Tensor& tensor) {
  Dims dims;
  dims.reserve(tensor.dims.size());
  for (int64_t dim : tensor.dims) dims.push_back(DimValue::known(dim));
  return InferredType::tensor(tensor.data_type.value_or(0), std::move(dims));
}

Type* toDeclared(const InferredType& type, const GraphEditor& edit, SymbolText symbol_text,
                 void* context) {
  Type* result = nullptr;
  switch (type.kind) {
    case InferredType::Kind::kUnknown: return nullptr;
    case InferredType::Kind::kTensor:
    case InferredType::Kind::kSparseTensor: {
      result = edit.arena().make<Type>();
      result->kind = type.kind == InferredType::Kind::kTensor ? Type::Kind::kTensor
                                                              : Type::Kind::kSparseTensor;
      if (type.elem_type != 0) result->elem_type = type.elem_type;
      if (type.has_shape) {
        result->shape = edit.arena().make<TensorShape>();
        result->shape->dims.reserve(edit.arena(), type.dims.size());
        for (DimValue dim : type.dims) {
          Dimension& out = result->shape->dims.emplace_back(edit.arena());
          if (dim.isKnown()) {
            out.dim_value = dim.value();
          } else if (std::string_view text = symbol_text(context, dim); text.data() != nullptr) {
            out.dim_param = text;
          }
        }
      }
      return result;
    }
    case InferredType::Kind::kSequence:
    case InferredType::Kind::kOptional:
    case InferredType::Kind::kMap: {
      result = edit.arena().make<Type>();
      result->kind = type.kind == InferredType::Kind::kSequence   ? Type::Kind::kSequence
                     : type.kind == InferredType::Kind::kOptional ? Type::Kind::kOptional
                                                                  : Type::Kind::kMap;
      if (type.kind == InferredType::Kind::kMap && type.elem_type != 0) {
        result->key_type = type.elem_type;
      }
      if (type.elem != nullptr) {
        result->elem = toDeclared(*type.elem, edit, symbol_text, context);
      }
      return result;
    }
    case InferredType::Kind::kOpaque:
      result = edit.arena().make<Type>();
      result->kind = Type::Kind::kOpaque;
      return result;
  }
  return result;
}

std::optional<Dims> integerElements(const Tensor& tensor) {
  int32_t code = tensor.data_type.value_or(0);
  if (code != static_cast<int32_t>(ElementType::kInt64) &&
      code != static_cast<int32_t>(ElementType::kInt32)) {
    return std::nullopt;
  }
  if (tensor.dims.size() > 1) return std::nullopt;
  uint64_t count = tensor.dims.empty() ? 1 : static_cast<uint64_t>(tensor.dims[0]);
  if (!tensor.dims.empty() && tensor.dims[0] < 0) return std::nullopt;
  if (count > kMaxPropagatedElements) return std::nullopt;
  Result<TensorBytes> bytes = rawBytes(tensor);
  if (!bytes.isOk()) return std::nullopt;
  std::string_view raw = bytes->bytes();
  size_t width = code == static_cast<int32_t>(ElementType::kInt64) ? 8 : 4;
  if (raw.size() != count * width) return std::nullopt;
  Dims elements;
  elements.reserve(count);
  for (uint64_t i = 0; i < count; ++i) {
    if (width == 8) {
      int64_t element;
      std::memcpy(&element, raw.data() + i * 8, 8);
      elements.push_back(DimValue::known(element));
    } else {
      int32_t element;
      std::memcpy(&element, raw.data() + i * 4, 4);
      elements.push_back(DimValue::known(element));
    }
  }
  return elements;
}

}  // namespace onyx::ops
