// The attribute rules R50 and R55–R59, and the walk into the tensors, sparse tensors and
// types an attribute holds (its graphs are the graph walker's).
#include <array>
#include <optional>
#include <string>

#include "check/ir_version_gates.h"
#include "check/unknown_enum.h"
#include "check/value_rules.h"
#include "check/value_text.h"
#include "onyx/ir/function.h"

namespace onyx::check {

namespace {

constexpr uint32_t kTypeField = 20;

bool isKnownKind(int32_t code) { return code >= 0 && code <= 14; }

// The value fields that hold something: scalars and messages when present, lists when
// non-empty (an empty list cannot be told from an absent one on the wire).
struct ValueFields {
  std::array<AttributeKind, 14> kinds;
  size_t size = 0;

  std::string names() const {
    std::string text;
    for (size_t i = 0; i < size; ++i) {
      if (i > 0) text += i + 1 == size ? " and " : ", ";
      text += attributeValueField(kinds[i]);
    }
    return text;
  }
};

ValueFields valueFields(const Attribute& attribute) {
  ValueFields set;
  auto add = [&](bool used, AttributeKind kind) {
    if (used) set.kinds[set.size++] = kind;
  };
  const AttributeRareFields& lists = attribute.rare();
  add(attribute.f.has_value(), AttributeKind::kFloat);
  add(attribute.i.has_value(), AttributeKind::kInt);
  add(attribute.s.has_value(), AttributeKind::kString);
  add(attribute.t != nullptr, AttributeKind::kTensor);
  add(attribute.g != nullptr, AttributeKind::kGraph);
  add(!attribute.floats.empty(), AttributeKind::kFloats);
  add(!attribute.ints.empty(), AttributeKind::kInts);
  add(!lists.strings.empty(), AttributeKind::kStrings);
  add(!lists.tensors.empty(), AttributeKind::kTensors);
  add(!lists.graphs.empty(), AttributeKind::kGraphs);
  add(attribute.rare().tp != nullptr, AttributeKind::kTypeProto);
  add(!lists.type_protos.empty(), AttributeKind::kTypeProtos);
  add(attribute.rare().sparse_tensor != nullptr, AttributeKind::kSparseTensor);
  add(!lists.sparse_tensors.empty(), AttributeKind::kSparseTensors);
  return set;
}

// R56: the type is present from IR 2, is an AttributeType, and existed at the model's IR
// version. Returns the kind when it is a known one.
std::optional<AttributeKind> checkKind(const Attribute& attribute, const ValueContext& context,
                                       const std::string& path, Diagnostics& out) {
  std::optional<int64_t> code;
  if (auto undeclared = undeclaredEnumValue(attribute.rare().unknown, kTypeField)) {
    code = *undeclared;
  } else if (attribute.type.has_value()) {
    code = *attribute.type;
  }
  if (!code) {
    if (context.ir_version >= 2) {
      out.error("R56", path + ".type",
                "the attribute has no type; it is required from IR version 2 (the model has " +
                    std::to_string(context.ir_version) + ")");
    }
    return std::nullopt;
  }
  if (!isKnownKind(static_cast<int32_t>(*code))) {
    out.error("R56", path + ".type",
              "type " + std::to_string(*code) + " is not an attribute type (0 to 14)");
    return std::nullopt;
  }
  const auto kind = static_cast<AttributeKind>(*code);
  if (predates(context.ir_version, firstIrVersion(kind))) {
    // onnx.proto dates these kinds by the messages they hold; an older reader would drop the
    // value, but the spec does not say the attribute is invalid.
    out.warning("R56", path + ".type",
                std::string(attributeTypeName(kind)) + " attributes need IR version " +
                    std::to_string(firstIrVersion(kind)) + " or later; the model has IR version " +
                    std::to_string(context.ir_version));
  }
  return kind;
}

// The tensors, sparse tensors and types inside the attribute, with their paths.
void checkNestedValues(const Attribute& attribute, const ValueContext& context,
                       const std::string& path, Diagnostics& out) {
  ValueContext inner = context;
  inner.is_initializer = false;
  if (attribute.t != nullptr) checkTensor(*attribute.t, inner, path + ".t", out);
  if (attribute.rare().sparse_tensor != nullptr) {
    checkSparseTensor(*attribute.rare().sparse_tensor, inner, path + ".sparse_tensor", out);
  }
  if (attribute.rare().tp != nullptr) checkType(*attribute.rare().tp, inner, path + ".tp", out);
  const AttributeRareFields& lists = attribute.rare();
  // Null entries cannot come from a file; the walker skips them wherever it meets lists.
  for (size_t i = 0; i < lists.tensors.size(); ++i) {
    if (lists.tensors[i] == nullptr) continue;
    const Tensor& tensor = *lists.tensors[i];
    checkTensor(tensor, inner, path + indexedSegment("tensors", i, tensor.nameOrEmpty()), out);
  }
  for (size_t i = 0; i < lists.sparse_tensors.size(); ++i) {
    if (lists.sparse_tensors[i] == nullptr) continue;
    const SparseTensor& sparse = *lists.sparse_tensors[i];
    const std::string_view name =
        sparse.values != nullptr ? sparse.values->nameOrEmpty() : std::string_view();
    checkSparseTensor(sparse, inner, path + indexedSegment("sparse_tensors", i, name), out);
  }
  for (size_t i = 0; i < lists.type_protos.size(); ++i) {
    if (lists.type_protos[i] == nullptr) continue;
    checkType(*lists.type_protos[i], inner, path + indexedSegment("type_protos", i), out);
  }
}

// R59: a reference names an attribute of the enclosing function, of the same type when the
// function gives that attribute a default.
void checkReferenceTarget(const Attribute& attribute, const Function& function,
                          const std::string& path, Diagnostics& out) {
  const std::string_view target = *attribute.rare().ref_attr_name;
  for (std::string_view declared : function.attribute) {
    if (declared == target) return;
  }
  for (const Attribute* declared : function.attribute_proto) {
    if (declared->nameOrEmpty() != target) continue;
    if (attribute.type && declared->type && *attribute.type != *declared->type) {
      out.error("R59", path + ".type",
                "the attribute refers to " + quoted(target) + ", a " +
                    std::string(attributeTypeName(declared->kind())) + " attribute of function " +
                    quoted(function.nameOrEmpty()) + ", but has type " +
                    std::string(attributeTypeName(attribute.kind())));
    }
    return;
  }
  out.error("R59", path + ".ref_attr_name",
            "the attribute refers to " + quoted(target) + ", which function " +
                quoted(function.nameOrEmpty()) + " does not declare");
}

}  // namespace

size_t valueFieldCount(const Attribute& attribute) { return valueFields(attribute).size; }

void checkAttribute(const Attribute& attribute, const ValueContext& context,
                    const std::string& path, Diagnostics& out) {
  // R55.
  if (attribute.nameOrEmpty().empty()) {
    out.error("R55", path + ".name", "the attribute has no name");
  }
  const std::optional<AttributeKind> kind = checkKind(attribute, context, path, out);
  const ValueFields fields = valueFields(attribute);

  // R57: one value field at most (none is legal: proto3 writers drop default scalars).
  if (fields.size > 1) {
    out.error("R57", path,
              "the attribute holds " + std::to_string(fields.size) + " values (in " +
                  fields.names() + "); it may hold only one");
  }
  // R58: the value is in the field the type names.
  if (kind && fields.size == 1 && fields.kinds[0] != *kind) {
    out.error("R58", path + "." + std::string(attributeValueField(fields.kinds[0])),
              "the type is " + std::string(attributeTypeName(*kind)) + " but the value is in " +
                  std::string(attributeValueField(fields.kinds[0])) +
                  (*kind == AttributeKind::kUndefined
                       ? ""
                       : "; " + std::string(attributeTypeName(*kind)) + " values go in " +
                             std::string(attributeValueField(*kind))));
  }
  if (context.is_attribute_default) {
    // A function's default that refers to an attribute, or lacks its structured value, does
    // not hold its value: one fault, reported once, as R101 (function_rules.cc).
  } else if (attribute.isReference()) {
    // R59: references only in function bodies, and without a value of their own.
    const std::string where = path + ".ref_attr_name";
    if (attribute.rare().ref_attr_name->empty()) {
      out.error("R59", where, "ref_attr_name is present but empty; it must name an attribute");
    }
    if (!context.in_function_body) {
      out.error("R59", where,
                "the attribute refers to " + quoted(*attribute.rare().ref_attr_name) +
                    ", an attribute of a calling function, but it is not inside a function body");
    }
    if (context.in_function_body && context.function != nullptr &&
        !attribute.rare().ref_attr_name->empty()) {
      checkReferenceTarget(attribute, *context.function, path, out);
    }
    if (fields.size > 0) {
      out.error("R59", path,
                "the attribute refers to " + quoted(*attribute.rare().ref_attr_name) +
                    " and also holds a value (in " + fields.names() +
                    "); a reference takes its value from the calling node");
    }
  } else if (kind && fields.size == 0) {
    // R50: a structured value has no default a writer could have dropped.
    switch (*kind) {
      case AttributeKind::kTensor:
      case AttributeKind::kGraph:
      case AttributeKind::kSparseTensor:
      case AttributeKind::kTypeProto:
        out.error("R50", path + "." + std::string(attributeValueField(*kind)),
                  std::string(article(attributeTypeName(*kind))) + " " +
                      std::string(attributeTypeName(*kind)) + " attribute must hold its value in " +
                      std::string(attributeValueField(*kind)) + ", which is missing");
        break;
      default: break;
    }
  }
  checkNestedValues(attribute, context, path, out);
}

}  // namespace onyx::check
