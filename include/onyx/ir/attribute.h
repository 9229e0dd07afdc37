// onyx/ir/attribute.h — AttributeProto in the IR.
//
// Read and write attributes through Node's typed accessors (node.h): they check the kind
// and keep subgraph ownership right. The fields are the proto's, for code that needs them.
#pragma once

#include <cstdint>
#include <optional>

#include "onyx/ir/attribute_kind.h"
#include "onyx/ir/fields.h"

// Exported from the shared libraries: the public API (see src/CMakeLists.txt).
#pragma GCC visibility push(default)

namespace onyx {

struct Graph;
struct Tensor;
struct SparseTensor;
struct Type;

/// The AttributeProto fields few attributes set: the five list-valued members, doc_string,
/// tp, ref_attr_name, sparse_tensor and unknown fields. They live out of line so that an
/// Attribute stays small: a large graph holds about one attribute per node.
struct AttributeRareFields {
  ArenaList<std::string_view> strings;
  ArenaList<Tensor*> tensors;
  ArenaList<Graph*> graphs;
  ArenaList<SparseTensor*> sparse_tensors;
  ArenaList<Type*> type_protos;
  OptString doc_string;
  Type* tp = nullptr;
  OptString ref_attr_name;
  SparseTensor* sparse_tensor = nullptr;
  UnknownFields unknown;
};

struct Attribute {
  OptString name;
  std::optional<float> f;
  std::optional<int64_t> i;
  OptString s;
  Tensor* t = nullptr;
  Graph* g = nullptr;
  Repeated<float> floats;
  Repeated<int64_t> ints;
  std::optional<int32_t> type;
  AttributeRareFields* rare_fields = nullptr;  // null: none of them set

  /// Its `type`; when absent (models older than IR 2 leave it out), the kind the set
  /// field implies. O(1).
  AttributeKind kind() const;
  std::string_view nameOrEmpty() const { return name.value_or(std::string_view()); }
  /// A reference to an attribute of the calling function (`ref_attr_name`), inside a
  /// function body: it has a kind but no value of its own.
  bool isReference() const { return rare().ref_attr_name.has_value(); }

  /// The rare fields: all absent or empty when the attribute has none of them. O(1).
  const AttributeRareFields& rare() const { return rare_fields != nullptr ? *rare_fields : kNone; }
  // For writing: GraphEditor::rare.

 private:
  static const AttributeRareFields kNone;
};

}  // namespace onyx

#pragma GCC visibility pop
