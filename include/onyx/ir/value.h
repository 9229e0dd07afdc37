// onyx/ir/value.h — Value (a named SSA value), Use (one place that reads it) and
// ValueInfo (a declaration of a value's type in a graph's input/output/value_info list).
//
// Use-lists are intrusive: every node input slot and every graph output is a Use, linked
// into the list of the value it reads, so adding, removing and re-pointing a use is O(1)
// and allocates nothing.
#pragma once

#include <cstdint>
#include <string_view>

#include "onyx/ir/fields.h"

namespace onyx {

struct Graph;
struct Node;
struct Tensor;
struct SparseTensor;
struct Type;
struct Value;
struct ValueInfo;

struct Use {
  Value* value = nullptr;  // null: an omitted optional input ("")
  Node* user = nullptr;    // null: a graph or function output
  Use* next = nullptr;
  Use** prev = nullptr;  // the link that points at this use

  /// Points this use at `target` (which may be null), moving it between use-lists.
  void set(Value* target);
};

struct Value {
  std::string_view name;
  Graph* graph = nullptr;  // the scope that defines the name
  Node* producer = nullptr;
  uint32_t output_index = 0;
  Use* first_use = nullptr;
  ValueInfo* input = nullptr;  // its declaration as a graph input, if it is one
  Tensor* initializer = nullptr;
  SparseTensor* sparse_initializer = nullptr;
  bool function_input = false;

  /// Read somewhere but defined nowhere in scope (an invalid model, kept as read).
  bool isUndefined() const {
    return producer == nullptr && input == nullptr && initializer == nullptr &&
           sparse_initializer == nullptr && !function_input;
  }
  bool hasUses() const { return first_use != nullptr; }
  /// Re-points every use of this value at `other`.
  void replaceAllUsesWith(Value* other);
};

inline void Use::set(Value* target) {
  if (value != nullptr) {
    *prev = next;
    if (next != nullptr) next->prev = prev;
  }
  value = target;
  next = nullptr;
  prev = nullptr;
  if (target != nullptr) {
    next = target->first_use;
    if (next != nullptr) next->prev = &next;
    target->first_use = this;
    prev = &target->first_use;
  }
}

inline void Value::replaceAllUsesWith(Value* other) {
  while (first_use != nullptr) first_use->set(other);
}

struct ValueInfo {
  OptString name;  // as read; when `value` is bound the writer uses the value's name
  Type* type = nullptr;
  OptString doc_string;
  ArenaList<StringStringEntry> metadata_props;
  UnknownFields unknown;
  // An input or value_info entry names its value directly; a graph output reads its
  // value through `output`, a Use like a node input.
  Value* value = nullptr;
  Use output;

  Value* bound() const { return output.value != nullptr ? output.value : value; }
};

}  // namespace onyx
