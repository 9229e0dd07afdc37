// onyx/ir/attribute.h — AttributeProto in the IR.
//
// Read and write attributes through Node's typed accessors (node.h): they check the kind
// and keep subgraph ownership right. The fields are the proto's, for code that needs them.
#pragma once

#include <cstdint>
#include <optional>

#include "onyx/ir/attribute_kind.h"
#include "onyx/ir/fields.h"

namespace onyx {

struct Graph;
struct Tensor;
struct SparseTensor;
struct Type;

/// The list-valued members that few attributes use, kept out of line to keep Attribute small.
struct AttributeLists {
  ArenaList<std::string_view> strings;
  ArenaList<Tensor*> tensors;
  ArenaList<Graph*> graphs;
  ArenaList<SparseTensor*> sparse_tensors;
  ArenaList<Type*> type_protos;
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
  AttributeLists* lists = nullptr;  // null when all five lists are empty
  OptString doc_string;
  Type* tp = nullptr;
  std::optional<int32_t> type;
  OptString ref_attr_name;
  SparseTensor* sparse_tensor = nullptr;
  UnknownFields unknown;

  /// Its `type`; when absent (models older than IR 2 leave it out), the kind the set
  /// field implies. O(1).
  AttributeKind kind() const;
  std::string_view nameOrEmpty() const { return name.value_or(std::string_view()); }
  /// A reference to an attribute of the calling function (`ref_attr_name`), inside a
  /// function body: it has a kind but no value of its own.
  bool isReference() const { return ref_attr_name.has_value(); }
};

}  // namespace onyx
