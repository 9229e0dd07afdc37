// onyx/ir/node.h — NodeProto in the IR: an operator call with inputs, outputs, attributes.
#pragma once

#include <cstdint>

#include "onyx/ir/attribute.h"
#include "onyx/ir/device.h"
#include "onyx/ir/fields.h"
#include "onyx/ir/tensor.h"
#include "onyx/ir/value.h"

namespace onyx {

struct Graph;

struct Node {
  // Input slots are the use-list links themselves; the array is allocated with its final
  // size, so the slots never move while linked.
  ArenaList<Use> inputs;
  ArenaList<Value*> outputs;  // null: an omitted optional output ("")
  OptString name;
  OptString op_type;
  ArenaList<Attribute*> attributes;
  OptString doc_string;
  OptString domain;
  OptString overload;
  ArenaList<StringStringEntry> metadata_props;
  ArenaList<NodeDeviceConfiguration*> device_configurations;
  UnknownFields unknown;

  Graph* graph = nullptr;  // the graph whose node list holds this node
  Node* prev = nullptr;
  Node* next = nullptr;

  std::string_view opType() const { return op_type.value_or(std::string_view()); }
  std::string_view domainOrDefault() const { return domain.value_or(std::string_view()); }
  std::string_view nameOrEmpty() const { return name.value_or(std::string_view()); }
  /// The attribute named `attribute_name`, or null.
  const Attribute* attribute(std::string_view attribute_name) const;
};

}  // namespace onyx
