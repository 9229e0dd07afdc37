// Internal: the vocabulary op files write their signatures in (docs/ops.md).
//
// An op file defines one constexpr Operator with designated initialisers; these helpers keep
// its lines short, and parse type lists at compile time ("float16 float double" becomes a bit
// set, an unknown name is a compile error). isWellFormed() is checked by a static_assert in
// every op file, so a signature that names an undeclared type variable, has a variadic that
// is not last, or lists attributes out of order does not build.
#pragma once

#include <initializer_list>

#include "onyx/ops/op_schema.h"

namespace onyx::ops::dsl {

using Formals = std::initializer_list<FormalParameter>;
using Attributes = std::initializer_list<AttributeSpec>;
using Constraints = std::initializer_list<TypeConstraint>;
using Counts = std::initializer_list<uint8_t>;

// ---- formal parameters ---------------------------------------------------------------------
// A single parameter is written as a pair: {"X", "T"}.

constexpr FormalParameter optional(const char* name, const char* type) {
  return {name, type, ParameterOption::kOptional};
}
/// The last parameter, taking `min_count` or more arguments of one type.
constexpr FormalParameter variadic(const char* name, const char* type, int min_count) {
  return {name, type, ParameterOption::kVariadic, static_cast<uint8_t>(min_count), true};
}
/// The last parameter, taking `min_count` or more arguments, each of its own type.
constexpr FormalParameter heterogeneous(const char* name, const char* type, int min_count) {
  return {name, type, ParameterOption::kVariadic, static_cast<uint8_t>(min_count), false};
}

// ---- attributes ----------------------------------------------------------------------------

// Traits (op_schema.h: OpTraits), combined with |.
inline constexpr OpTraits kCommutative = OpTraits::kCommutative;
inline constexpr OpTraits kElementwise = OpTraits::kElementwise;
inline constexpr OpTraits kShapeOnly = OpTraits::kShapeOnly;
inline constexpr OpTraits kNondeterministic = OpTraits::kNondeterministic;
inline constexpr OpTraits kQuantization = OpTraits::kQuantization;
inline constexpr OpTraits kReadsShape = OpTraits::kReadsShape;
inline constexpr OpTraits kUpdatesInPlace = OpTraits::kUpdatesInPlace;

/// A version step that changes nothing a node shows but the types the version allows
/// (`change` says which): a node crosses it as it is, and the converter checks its types
/// against the target version (OpSchema::step).
constexpr VersionStep typesOnly(const char* change) { return {.reviewed = true, .change = change}; }

inline constexpr AttributeKind kFloat = AttributeKind::kFloat;
inline constexpr AttributeKind kInt = AttributeKind::kInt;
inline constexpr AttributeKind kString = AttributeKind::kString;
inline constexpr AttributeKind kTensor = AttributeKind::kTensor;
inline constexpr AttributeKind kGraph = AttributeKind::kGraph;
inline constexpr AttributeKind kFloats = AttributeKind::kFloats;
inline constexpr AttributeKind kInts = AttributeKind::kInts;
inline constexpr AttributeKind kStrings = AttributeKind::kStrings;
inline constexpr AttributeKind kTensors = AttributeKind::kTensors;
inline constexpr AttributeKind kGraphs = AttributeKind::kGraphs;
inline constexpr AttributeKind kSparseTensor = AttributeKind::kSparseTensor;
inline constexpr AttributeKind kSparseTensors = AttributeKind::kSparseTensors;
inline constexpr AttributeKind kTypeProto = AttributeKind::kTypeProto;
inline constexpr AttributeKind kTypeProtos = AttributeKind::kTypeProtos;

/// An optional attribute without a default.
constexpr AttributeSpec attr(const char* name, AttributeKind kind) { return {name, kind}; }
constexpr AttributeSpec required(const char* name, AttributeKind kind) {
  return {name, kind, true};
}
/// Optional attributes with a default; the default's C++ type gives the kind. A list default
/// is written out: {.name = "axes", .kind = kInts, .has_default = true, .default_ints = {0}}.
constexpr AttributeSpec attr(const char* name, int value) {
  return {.name = name, .kind = kInt, .has_default = true, .default_int = value};
}
constexpr AttributeSpec attr(const char* name, int64_t value) {
  return {.name = name, .kind = kInt, .has_default = true, .default_int = value};
}
constexpr AttributeSpec attr(const char* name, float value) {
  return {.name = name, .kind = kFloat, .has_default = true, .default_float = value};
}
constexpr AttributeSpec attr(const char* name, const char* value) {
  return {.name = name, .kind = kString, .has_default = true, .default_string = value};
}
/// A double default would be narrowed silently; ONNX's float attributes are float32.
AttributeSpec attr(const char* name, double value) = delete;

// ---- types ---------------------------------------------------------------------------------

/// A set of element types, as bits of TensorProto.DataType codes.
struct ElementSet {
  uint32_t bits = 0;
};

namespace detail {

/// Called by the compile-time parsers on bad text: not constexpr, so the build fails here.
void unknownElementType();
void malformedTypeText();

consteval bool sameWord(const char* text, int length, const char* word) {
  for (int i = 0; i < length; ++i) {
    if (word[i] != text[i]) return false;
  }
  return word[length] == '\0';
}

consteval uint32_t elementBit(const char* text, int length) {
  constexpr const char* kNames[] = {"",
                                    "float",
                                    "uint8",
                                    "int8",
                                    "uint16",
                                    "int16",
                                    "int32",
                                    "int64",
                                    "string",
                                    "bool",
                                    "float16",
                                    "double",
                                    "uint32",
                                    "uint64",
                                    "complex64",
                                    "complex128",
                                    "bfloat16",
                                    "float8e4m3fn",
                                    "float8e4m3fnuz",
                                    "float8e5m2",
                                    "float8e5m2fnuz",
                                    "uint4",
                                    "int4",
                                    "float4e2m1",
                                    "float8e8m0",
                                    "uint2",
                                    "int2"};
  for (int code = 1; code < static_cast<int>(sizeof(kNames) / sizeof(kNames[0])); ++code) {
    if (sameWord(text, length, kNames[code])) return uint32_t{1} << code;
  }
  unknownElementType();
  return 0;
}

consteval bool isNameChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
}

consteval int wordLength(const char* text) {
  int length = 0;
  while (isNameChar(text[length])) ++length;
  return length;
}

}  // namespace detail

/// "float16 float double": element types by their ONNX names, separated by spaces.
consteval ElementSet elements(const char* names) {
  ElementSet set;
  for (const char* p = names; *p;) {
    if (*p == ' ') {
      ++p;
      continue;
    }
    int length = detail::wordLength(p);
    if (length == 0) detail::malformedTypeText();
    set.bits |= detail::elementBit(p, length);
    p += length;
  }
  return set;
}

// All the element types of an IR version: each adds to the one before.
inline constexpr ElementSet kIr3Types = elements(
    "uint8 uint16 uint32 uint64 int8 int16 int32 int64 float16 float double string bool "
    "complex64 complex128");
inline constexpr ElementSet kIr4Types = {kIr3Types.bits | elements("bfloat16").bits};
inline constexpr ElementSet kIr9Types = {
    kIr4Types.bits | elements("float8e4m3fn float8e4m3fnuz float8e5m2 float8e5m2fnuz").bits};
inline constexpr ElementSet kIr10Types = {kIr9Types.bits | elements("uint4 int4").bits};
inline constexpr ElementSet kIr11Types = {kIr10Types.bits | elements("float4e2m1").bits};
inline constexpr ElementSet kIr12Types = {kIr11Types.bits | elements("float8e8m0").bits};
inline constexpr ElementSet kIr13Types = {kIr12Types.bits | elements("uint2 int2").bits};

constexpr TypeSet tensor(ElementSet set) { return {.tensor = set.bits}; }
constexpr TypeSet sequence(ElementSet set) { return {.sequence = set.bits}; }
constexpr TypeSet optionalTensor(ElementSet set) { return {.optional_tensor = set.bits}; }
constexpr TypeSet optionalSequence(ElementSet set) { return {.optional_sequence = set.bits}; }
consteval TypeSet tensor(const char* names) { return tensor(elements(names)); }
consteval TypeSet sequence(const char* names) { return sequence(elements(names)); }
consteval TypeSet optionalTensor(const char* names) { return optionalTensor(elements(names)); }
consteval TypeSet optionalSequence(const char* names) { return optionalSequence(elements(names)); }

namespace detail {

/// Parses one type at `p` ("tensor(float)", "seq(map(int64, float))", ...) into `set`;
/// returns the position after it.
consteval const char* parseType(const char* p, TypeSet& set, int depth_kind) {
  // depth_kind: 0 top level, 1 inside seq(, 2 inside optional(, 3 inside optional(seq(
  int length = wordLength(p);
  if (sameWord(p, length, "tensor") && p[length] == '(') {
    const char* element = p + length + 1;
    int element_length = wordLength(element);
    uint32_t bit = elementBit(element, element_length);
    if (element[element_length] != ')') malformedTypeText();
    switch (depth_kind) {
      case 0: set.tensor |= bit; break;
      case 1: set.sequence |= bit; break;
      case 2: set.optional_tensor |= bit; break;
      default: set.optional_sequence |= bit; break;
    }
    return element + element_length + 1;
  }
  if (sameWord(p, length, "map") && p[length] == '(' && (depth_kind == 0 || depth_kind == 1)) {
    const char* key = p + length + 1;
    int key_length = wordLength(key);
    const char* value = key + key_length;
    if (value[0] != ',') malformedTypeText();
    ++value;
    while (*value == ' ') ++value;
    int value_length = wordLength(value);
    uint32_t bit = elementBit(value, value_length);
    if (value[value_length] != ')') malformedTypeText();
    bool string_key = sameWord(key, key_length, "string");
    if (!string_key && !sameWord(key, key_length, "int64")) malformedTypeText();
    if (depth_kind == 0) {
      (string_key ? set.string_map : set.int64_map) |= bit;
    } else {
      (string_key ? set.string_map_sequence : set.int64_map_sequence) |= bit;
    }
    return value + value_length + 1;
  }
  int inner_kind = -1;
  if (sameWord(p, length, "seq") && depth_kind == 0) inner_kind = 1;
  if (sameWord(p, length, "seq") && depth_kind == 2) inner_kind = 3;
  if (sameWord(p, length, "optional") && depth_kind == 0) inner_kind = 2;
  if (inner_kind < 0 || p[length] != '(') malformedTypeText();
  const char* end = parseType(p + length + 1, set, inner_kind);
  if (*end != ')') malformedTypeText();
  return end + 1;
}

}  // namespace detail

/// Types in ONNX's notation, separated by commas: "map(string, int64), seq(map(int64, float))".
/// For maps and sequences of maps; tensor() and its siblings are shorter for the rest.
consteval TypeSet types(const char* text) {
  TypeSet set;
  for (const char* p = text; *p;) {
    if (*p == ' ' || *p == ',') {
      ++p;
      continue;
    }
    p = detail::parseType(p, set, 0);
  }
  return set;
}

// ---- checks --------------------------------------------------------------------------------

namespace detail {

// Each names the mistake it reports: not constexpr, so the build fails at the call.
void versionsNotAscending();
void variadicNotLast();
void formalTypeNotDeclared();
void attributesNotSortedOrRepeated();
void constraintRepeatedOrEmpty();
void defaultOfWrongKind();
void outputCountOutsideBounds();
void functionBodiesMisplaced();

consteval bool sameText(const char* a, const char* b) {
  while (*a && *a == *b) {
    ++a;
    ++b;
  }
  return *a == *b;
}

consteval bool textBefore(const char* a, const char* b) {
  while (*a && *a == *b) {
    ++a;
    ++b;
  }
  return static_cast<unsigned char>(*a) < static_cast<unsigned char>(*b);
}

consteval void checkFormals(const OpSchema& schema, std::initializer_list<FormalParameter> list) {
  size_t position = 0;
  for (const FormalParameter& formal : list) {
    ++position;
    if (formal.option == ParameterOption::kVariadic && position != list.size()) {
      variadicNotLast();
    }
    bool declared = false;
    for (const TypeConstraint& constraint : schema.constraints) {
      declared = declared || sameText(constraint.name, formal.type);
    }
    if (!declared) formalTypeNotDeclared();
  }
}

}  // namespace detail

/// True, or a build error naming the first mistake found (see the detail functions above).
consteval bool isWellFormed(const Operator& op) {
  int previous = 0;
  for (const OpSchema& schema : op.versions) {
    if (schema.since_version <= previous) detail::versionsNotAscending();
    previous = schema.since_version;
    detail::checkFormals(schema, schema.inputs);
    detail::checkFormals(schema, schema.outputs);
    int body_opset = schema.since_version - 1;
    for (const FunctionBodyText& body : schema.function_bodies) {
      if (body.opset <= body_opset) detail::functionBodiesMisplaced();
      body_opset = body.opset;
    }
    if (schema.function_bodies.size() != 0 && schema.build_function_body != nullptr) {
      detail::functionBodiesMisplaced();
    }
    const char* last = nullptr;
    for (const AttributeSpec& attribute : schema.attributes) {
      if (last && !detail::textBefore(last, attribute.name)) {
        detail::attributesNotSortedOrRepeated();
      }
      last = attribute.name;
      bool list_default =
          attribute.default_ints.size() != 0 || attribute.default_strings.size() != 0;
      if (list_default &&
          (!attribute.has_default || (attribute.kind != kInts && attribute.kind != kStrings))) {
        detail::defaultOfWrongKind();
      }
      if (attribute.has_default && attribute.required) detail::defaultOfWrongKind();
    }
    for (uint8_t count : schema.output_counts) {
      if (count < schema.minOutputs() || count > schema.maxOutputs()) {
        detail::outputCountOutsideBounds();
      }
    }
    size_t index = 0;
    for (const TypeConstraint& constraint : schema.constraints) {
      if (constraint.allowed.empty()) detail::constraintRepeatedOrEmpty();
      size_t other = 0;
      for (const TypeConstraint& earlier : schema.constraints) {
        if (other++ >= index) break;
        if (detail::sameText(earlier.name, constraint.name)) detail::constraintRepeatedOrEmpty();
      }
      ++index;
    }
  }
  return previous > 0;
}

}  // namespace onyx::ops::dsl
