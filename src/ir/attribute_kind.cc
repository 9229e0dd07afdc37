#include "onyx/ir/attribute_kind.h"

#include <array>

namespace onyx {

namespace {

struct KindNames {
  std::string_view text;   // the text syntax's spelling
  std::string_view proto;  // AttributeProto.AttributeType's
  std::string_view field;  // the AttributeProto field holding such a value
};

// By kind code, 0 to 14.
constexpr std::array<KindNames, 15> kNames = {{
    {"undefined", "UNDEFINED", ""},
    {"float", "FLOAT", "f"},
    {"int", "INT", "i"},
    {"string", "STRING", "s"},
    {"tensor", "TENSOR", "t"},
    {"graph", "GRAPH", "g"},
    {"floats", "FLOATS", "floats"},
    {"ints", "INTS", "ints"},
    {"strings", "STRINGS", "strings"},
    {"tensors", "TENSORS", "tensors"},
    {"graphs", "GRAPHS", "graphs"},
    {"sparse_tensor", "SPARSE_TENSOR", "sparse_tensor"},
    {"sparse_tensors", "SPARSE_TENSORS", "sparse_tensors"},
    {"type_proto", "TYPE_PROTO", "tp"},
    {"type_protos", "TYPE_PROTOS", "type_protos"},
}};

const KindNames* namesOf(AttributeKind kind) {
  auto code = static_cast<int32_t>(kind);
  return code >= 0 && code < static_cast<int32_t>(kNames.size()) ? &kNames[code] : nullptr;
}

}  // namespace

std::string_view attributeKindName(AttributeKind kind) {
  const KindNames* names = namesOf(kind);
  return names != nullptr ? names->text : kNames[0].text;
}

AttributeKind attributeKindNamed(std::string_view name) {
  // From 1: "undefined" names no kind a value can have.
  for (size_t code = 1; code < kNames.size(); ++code) {
    if (kNames[code].text == name) return static_cast<AttributeKind>(code);
  }
  return AttributeKind::kUndefined;
}

std::string_view attributeTypeName(AttributeKind kind) {
  const KindNames* names = namesOf(kind);
  return names != nullptr ? names->proto : "UNKNOWN";
}

std::string_view attributeValueField(AttributeKind kind) {
  const KindNames* names = namesOf(kind);
  return names != nullptr ? names->field : std::string_view();
}

}  // namespace onyx
