// The type rules R83–R90, applied to a type and every type nested in it.
#include "check/ir_version_gates.h"
#include "check/value_rules.h"
#include "check/value_text.h"
#include "onyx/core/element_type.h"

namespace onyx::check {

namespace {

// Sequence and map types are documented from IR 6 (IR.md "Standard data types"), optional and
// sparse tensor types from IR 8 (the same section; onnx.proto `Version`). Each is a member of
// TypeProto's oneof that older readers do not know, so on an older model it gets a warning, as
// every field newer than the model's IR version does: the spec dates these types without
// forbidding them earlier (ONNX-ML models used sequences and maps before IR 6), and onnx's
// checker accepts them.
constexpr int64_t kSequenceAndMapIr = 6;
constexpr int64_t kOptionalAndSparseIr = 8;

// Deeper than any decoder lets a type nest (LoadOptions::max_depth is 100 by default); stops a
// type built by hand from taking the stack, under the catalogue's rule for nesting (R4).
constexpr int kMaxDepth = 1000;

std::string_view memberName(Type::Kind kind) {
  switch (kind) {
    case Type::Kind::kTensor: return "tensor_type";
    case Type::Kind::kSequence: return "sequence_type";
    case Type::Kind::kMap: return "map_type";
    case Type::Kind::kOpaque: return "opaque_type";
    case Type::Kind::kSparseTensor: return "sparse_tensor_type";
    case Type::Kind::kOptional: return "optional_type";
    case Type::Kind::kNone: break;
  }
  return "value";
}

bool isMapKey(int32_t code) {
  switch (static_cast<ElementType>(code)) {
    case ElementType::kInt8:
    case ElementType::kInt16:
    case ElementType::kInt32:
    case ElementType::kInt64:
    case ElementType::kUint8:
    case ElementType::kUint16:
    case ElementType::kUint32:
    case ElementType::kUint64:
    case ElementType::kString: return true;
    default: return false;
  }
}

// R84 (and R62 for the element type), R89. A negative dim_value is an error: a static
// dimension is the size of the values the type stands for, and IR.md ("Tensor Definition")
// makes a shape "a list of non-negative integers"; an unknown size is written as no value or
// a dim_param ("Static tensor shapes").
void checkTensorType(const Type& type, std::string_view member, const ValueContext& context,
                     const std::string& path, Diagnostics& out) {
  const std::string where = path + "." + std::string(member);
  if (!type.elem_type.has_value()) {
    out.error("R84", where + ".elem_type",
              std::string(member) + " has no elem_type; a tensor type must state its element type");
  } else if (*type.elem_type == 0) {
    out.error("R84", where + ".elem_type",
              "elem_type is UNDEFINED; a tensor type needs a real element type");
  } else if (const ElementTypeInfo* info = elementTypeInfo(*type.elem_type); info == nullptr) {
    out.error("R84", where + ".elem_type",
              "elem_type " + std::to_string(*type.elem_type) +
                  " is not a known element type (1 to " + std::to_string(kElementTypeTable.size()) +
                  ")");
  } else if (predates(context.ir_version, firstIrVersion(info->type))) {
    out.error("R62", where + ".elem_type",
              std::string(info->shortName) + " tensors need IR version " +
                  std::to_string(firstIrVersion(info->type)) +
                  " or later; the model has IR version " + std::to_string(context.ir_version));
  }
  if (type.shape == nullptr) return;
  for (size_t i = 0; i < type.shape->dims.size(); ++i) {
    const Dimension& dim = type.shape->dims[i];
    if (dim.dim_value && *dim.dim_value < 0) {
      out.error("R89", where + ".shape.dim[" + std::to_string(i) + "]",
                "dim_value is " + std::to_string(*dim.dim_value) +
                    "; a static dimension cannot be negative (leave it unknown or give it a "
                    "dim_param instead)");
    }
  }
}

void checkTypeAt(const Type& type, const ValueContext& context, const std::string& path,
                 Diagnostics& out, int depth);

// R85, R87 and the nested type.
void checkElement(const Type& type, const ValueContext& context, const std::string& path,
                  Diagnostics& out, int depth) {
  const std::string member(memberName(type.kind));
  const std::string where = path + "." + member;
  if (type.elem == nullptr) {
    out.error("R85", where,
              member + " has no elem_type; the element type must be given at every level");
    return;
  }
  if (type.kind == Type::Kind::kOptional) {
    switch (type.elem->kind) {
      case Type::Kind::kTensor:
      case Type::Kind::kSparseTensor:
      case Type::Kind::kSequence:
      case Type::Kind::kMap:
      case Type::Kind::kNone:  // R83, reported below
        break;
      case Type::Kind::kOptional:
      case Type::Kind::kOpaque:
        out.error("R87", where + ".elem_type",
                  "optional_type wraps " + std::string(memberName(type.elem->kind)) +
                      "; an optional holds a tensor, sparse tensor, sequence or map");
        break;
    }
  }
  checkTypeAt(*type.elem, context, where + ".elem_type", out, depth + 1);
}

void checkTypeAt(const Type& type, const ValueContext& context, const std::string& path,
                 Diagnostics& out, int depth) {
  if (depth > kMaxDepth) {
    out.error("R4", path,
              "types are nested more than " + std::to_string(kMaxDepth) + " levels deep");
    return;
  }
  const std::string member(memberName(type.kind));
  switch (type.kind) {
    case Type::Kind::kNone:
      if (depth == 0 && context.type_is_optional) return;  // an unknown type
      out.error("R83", path,
                "the type sets none of tensor_type, sequence_type, map_type, optional_type, "
                "sparse_tensor_type and opaque_type");
      return;
    case Type::Kind::kTensor: checkTensorType(type, member, context, path, out); return;
    case Type::Kind::kSparseTensor:
      if (predates(context.ir_version, kOptionalAndSparseIr)) {
        out.warning("R90", path + "." + member,
                    "sparse tensor types are part of ONNX from IR version 8; the model has IR "
                    "version " +
                        std::to_string(context.ir_version));
      }
      checkTensorType(type, member, context, path, out);
      return;
    case Type::Kind::kOptional:
      if (predates(context.ir_version, kOptionalAndSparseIr)) {
        out.warning("R90", path + "." + member,
                    "optional types are part of ONNX from IR version 8; the model has IR "
                    "version " +
                        std::to_string(context.ir_version));
      }
      checkElement(type, context, path, out, depth);
      return;
    case Type::Kind::kSequence:
      if (predates(context.ir_version, kSequenceAndMapIr)) {
        out.warning("R90", path + "." + member,
                    "sequence types are part of ONNX from IR version 6 (ONNX-ML used them "
                    "earlier); the model has IR version " +
                        std::to_string(context.ir_version));
      }
      checkElement(type, context, path, out, depth);
      return;
    case Type::Kind::kMap: {
      const std::string where = path + "." + member;
      if (predates(context.ir_version, kSequenceAndMapIr)) {
        out.warning("R90", where,
                    "map types are part of ONNX from IR version 6 (ONNX-ML used them earlier); "
                    "the model has IR version " +
                        std::to_string(context.ir_version));
      }
      if (!type.key_type.has_value()) {
        out.error("R86", where + ".key_type", "map_type has no key_type");
      } else if (!isMapKey(*type.key_type)) {
        out.error("R86", where + ".key_type",
                  "key_type is " + elementTypeLabel(*type.key_type) +
                      "; map keys are integers (int8 to int64, uint8 to uint64) or strings");
      }
      if (type.elem == nullptr) {
        out.error("R86", where + ".value_type", "map_type has no value_type");
      } else {
        checkTypeAt(*type.elem, context, where + ".value_type", out, depth + 1);
      }
      return;
    }
    case Type::Kind::kOpaque:
      // onnx.proto calls the name optional; onnx's checker demands it for graph inputs and
      // outputs. Without a name the type says nothing, so warn — except where it is an input's
      // or output's own type in a top-level graph: R24 makes that an error.
      if (type.opaque_name.value_or("").empty() && !(context.is_graph_io && depth == 0)) {
        out.warning("R88", path + "." + member + ".name",
                    "the opaque type has no name, so nothing tells which type it is");
      }
      return;
  }
}

}  // namespace

void checkType(const Type& type, const ValueContext& context, const std::string& path,
               Diagnostics& out) {
  checkTypeAt(type, context, path, out, 0);
}

}  // namespace onyx::check
