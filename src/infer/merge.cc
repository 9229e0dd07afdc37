#include "infer/merge.h"

#include "onyx/core/element_type.h"

namespace onyx::infer {

namespace {

std::string elementName(int32_t code) {
  if (code == 0) return "?";
  const ElementTypeInfo* info = elementTypeInfo(code);
  return info != nullptr ? std::string(info->shortName) : "type" + std::to_string(code);
}

void mergeInto(InferredType& out, const InferredType& declared, const InferredType& inferred,
               SymbolicDims& dims, std::string& conflict) {
  if (!inferred.isKnown()) {
    out = declared;
    return;
  }
  if (!declared.isKnown()) {
    out = inferred;
    return;
  }
  if (declared.kind != inferred.kind) {
    out = declared;
    conflict = " ";
    return;
  }
  out = declared;
  if (declared.elem_type == 0) {
    out.elem_type = inferred.elem_type;
  } else if (inferred.elem_type != 0 && inferred.elem_type != declared.elem_type) {
    conflict = " ";
    return;
  }
  if (declared.isTensorLike()) {
    if (!declared.has_shape) {
      out.has_shape = inferred.has_shape;
      out.dims = inferred.dims;
      return;
    }
    if (!inferred.has_shape) return;
    if (declared.dims.size() != inferred.dims.size()) {
      conflict = " ";
      return;
    }
    for (size_t axis = 0; axis < declared.dims.size(); ++axis) {
      DimValue was = declared.dims[axis];
      DimValue found = inferred.dims[axis];
      if (was.isKnown() && found.isKnown()) {
        if (was.value() != found.value()) {
          conflict = " (dimension " + std::to_string(axis) + ")";
          return;
        }
      } else if (found.isKnown() || (dims.isAnonymous(was) && !dims.isAnonymous(found))) {
        out.dims[axis] = found;
      }
    }
    return;
  }
  if (declared.elem != nullptr && inferred.elem != nullptr) {
    InferredType element;
    mergeInto(element, *declared.elem, *inferred.elem, dims, conflict);
    out.elem = std::make_shared<const InferredType>(std::move(element));
  } else if (declared.elem == nullptr) {
    out.elem = inferred.elem;
  }
}

}  // namespace

Merged mergeTypes(const InferredType& declared, const InferredType& inferred, SymbolicDims& dims) {
  Merged merged;
  mergeInto(merged.type, declared, inferred, dims, merged.conflict);
  return merged;
}

std::string describe(const InferredType& type, SymbolicDims& dims) {
  switch (type.kind) {
    case InferredType::Kind::kUnknown: return "?";
    case InferredType::Kind::kOpaque: return "opaque";
    case InferredType::Kind::kTensor:
    case InferredType::Kind::kSparseTensor: {
      std::string text = elementName(type.elem_type);
      if (type.has_shape) {
        text += '[';
        for (size_t axis = 0; axis < type.dims.size(); ++axis) {
          if (axis) text += ',';
          DimValue dim = type.dims[axis];
          text += dim.isKnown() || !dims.isAnonymous(dim) ? dims.text(dim) : "?";
        }
        text += ']';
      }
      return type.kind == InferredType::Kind::kTensor ? text : "sparse_tensor(" + text + ")";
    }
    case InferredType::Kind::kSequence:
      return "seq(" + (type.elem ? describe(*type.elem, dims) : "?") + ")";
    case InferredType::Kind::kOptional:
      return "optional(" + (type.elem ? describe(*type.elem, dims) : "?") + ")";
    case InferredType::Kind::kMap:
      return "map(" + elementName(type.elem_type) + ", " +
             (type.elem ? describe(*type.elem, dims) : "?") + ")";
  }
  return "?";
}

}  // namespace onyx::infer
