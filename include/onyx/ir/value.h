// onyx/ir/value.h — Value (a named SSA value), Use (one place that reads it) and
// ValueInfo (a declaration of a value's type in a graph's input/output/value_info list).
//
// Use-lists are intrusive: every node input slot and every graph output is a Use, linked
// into the list of the value it reads, so adding, removing and re-pointing a use is O(1)
// and allocates nothing. A value's list holds every use, including those in subgraphs
// nested in its graph (captures): asking whether a value is used is O(1), and listing its
// uses is O(uses), never a walk of the graph.
#pragma once

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <optional>
#include <string_view>

#include "onyx/ir/fields.h"

// Exported from the shared libraries: the public API (see src/CMakeLists.txt).
#pragma GCC visibility push(default)

namespace onyx {

class Arena;
struct Graph;
struct Node;
struct Use;
struct Tensor;
struct TensorShape;
struct SparseTensor;
struct Type;
struct Value;
struct ValueInfo;

namespace ir_internal {
class GraphBuilder;  // src/ir/graph_builder.h: the one writer of the links besides the methods
}

struct Use {
 public:
  /// The value this use reads; null for an omitted optional input ("").
  Value* value() const { return value_; }
  /// The node whose input slot this is; null for a graph or function output.
  Node* user() const { return user_; }
  /// The next use in the value's use-list.
  Use* next() const { return next_; }

  /// Points this use at `target` (which may be null), moving it between use-lists. O(1).
  void set(Value* target);

  bool isGraphOutput() const { return user_ == nullptr; }
  /// The position of this slot among its node's inputs. O(1). Only for node inputs.
  size_t index() const;

 private:
  friend class ir_internal::GraphBuilder;
  Value* value_ = nullptr;
  Node* user_ = nullptr;
  Use* next_ = nullptr;
  Use** prev_ = nullptr;  // the link that points at this use
};

/// The uses of one value, as a forward range of Use&. Re-pointing or removing the use the
/// loop is on ends the walk early; collect the uses first to change them in a loop (or use
/// Value::replaceAllUsesWith / replaceUsesWith).
class UseRange {
 public:
  class iterator {
   public:
    using value_type = Use;
    using difference_type = std::ptrdiff_t;
    using reference = Use&;
    using pointer = Use*;
    using iterator_category = std::forward_iterator_tag;
    iterator() = default;
    explicit iterator(Use* use) : use_(use) {}
    Use& operator*() const { return *use_; }
    Use* operator->() const { return use_; }
    iterator& operator++() {
      use_ = use_->next();
      return *this;
    }
    iterator operator++(int) {
      iterator old = *this;
      use_ = use_->next();
      return old;
    }
    bool operator==(const iterator& other) const { return use_ == other.use_; }

   private:
    Use* use_ = nullptr;
  };

  explicit UseRange(Use* first) : first_(first) {}
  iterator begin() const { return iterator(first_); }
  iterator end() const { return iterator(); }
  bool empty() const { return first_ == nullptr; }

 private:
  Use* first_;
};

struct Value {
  /// Its name, unique in scope; changed with GraphEditor::rename (editor.h), which keeps the
  /// graph's name table in step.
  const std::string_view name() const { return name_; }
  /// The scope that defines the name; null once removed from it.
  Graph* graph() const { return graph_; }
  /// The node whose output this is, and which output; null for any other value.
  Node* producer() const { return producer_; }
  uint32_t outputIndex() const { return output_index_; }
  /// Its declaration as a graph input, if it is one.
  ValueInfo* graphInput() const { return input_; }
  /// Its type declaration in its own graph's value_info or outputs (a value_info entry wins
  /// over an output entry); null when there is none.
  ValueInfo* valueInfo() const { return value_info_; }
  /// The initializer that defines it (or gives the graph input its default), if any.
  Tensor* initializer() const { return initializer_; }
  SparseTensor* sparseInitializer() const { return sparse_initializer_; }
  /// An input of the function whose body is its graph.
  bool isFunctionInput() const { return function_input_; }

  /// Read somewhere but defined nowhere in scope (an invalid model, kept as read).
  bool isUndefined() const {
    return producer_ == nullptr && input_ == nullptr && initializer_ == nullptr &&
           sparse_initializer_ == nullptr && !function_input_;
  }
  bool isGraphInput() const { return input_ != nullptr; }
  bool isInitializer() const { return initializer_ != nullptr || sparse_initializer_ != nullptr; }
  /// Still defined in a graph (false once its node, input or initializer was removed).
  bool isAttached() const { return graph_ != nullptr; }

  // ---- type ------------------------------------------------------------------------------

  /// Its declared type: the graph input's, else its value_info or output entry's; null
  /// when undeclared. O(1).
  const Type* type() const;
  /// The element type of a tensor or sparse tensor value: from its type, else from its
  /// initializer. O(1).
  std::optional<int32_t> elemType() const;
  /// The shape of a tensor or sparse tensor value; null when the rank is unknown or the
  /// value has no tensor type. O(1).
  const TensorShape* shape() const;
  // Declaring a type: GraphEditor::setType.
  /// Whether an output of its own graph is this value. O(outputs of its graph).
  bool isGraphOutputOfItsGraph() const;

  // ---- uses ------------------------------------------------------------------------------

  bool hasUses() const { return first_use_ != nullptr; }
  UseRange uses() const { return UseRange(first_use_); }
  /// O(uses).
  size_t useCount() const;
  /// Whether a subgraph nested in this value's graph reads it (a capture). O(uses).
  bool isCaptured() const;
  /// Re-points every use of this value at `other`, graph outputs included (which then
  /// carry `other`'s name and declare its type). O(uses), plus redeclareAfterOutputsMoved
  /// when a graph output moved.
  void replaceAllUsesWith(Value* other);
  /// Re-points the uses for which `pred(use)` is true. O(uses), as replaceAllUsesWith.
  template <class Pred>
  void replaceUsesWith(Value* other, Pred&& pred) {
    bool moved_output = false;
    Use* use = first_use_;
    while (use != nullptr) {
      Use* next = use->next();
      if (pred(static_cast<const Use&>(*use))) {
        moved_output = moved_output || use->isGraphOutput();
        use->set(other);
      }
      use = next;
    }
    if (moved_output) redeclareAfterOutputsMoved(other);
  }
  /// After graph outputs that read this value were re-pointed at `other`: a graph output
  /// entry declares the type of the value it reads, so `value_info` of both values follows
  /// the entries (as reading the file would bind them). O(value_info + outputs of the two
  /// graphs).
  void redeclareAfterOutputsMoved(Value* other);

 private:
  friend struct Use;
  friend class GraphEditor;
  friend class ir_internal::GraphBuilder;
  std::string_view name_;
  Graph* graph_ = nullptr;
  Node* producer_ = nullptr;
  // Bound with the entry, so a type is found in O(1); beside `producer_`, which the decoder
  // reads just before binding it.
  ValueInfo* value_info_ = nullptr;
  Use* first_use_ = nullptr;
  ValueInfo* input_ = nullptr;
  Tensor* initializer_ = nullptr;
  SparseTensor* sparse_initializer_ = nullptr;
  uint32_t output_index_ = 0;
  bool function_input_ = false;
};

inline void Use::set(Value* target) {
  if (value_ != nullptr) {
    *prev_ = next_;
    if (next_ != nullptr) next_->prev_ = prev_;
  }
  value_ = target;
  next_ = nullptr;
  prev_ = nullptr;
  if (target != nullptr) {
    next_ = target->first_use_;
    if (next_ != nullptr) next_->prev_ = &next_;
    target->first_use_ = this;
    prev_ = &target->first_use_;
  }
}

inline void Value::replaceAllUsesWith(Value* other) {
  if (other == this) return;
  bool moved_output = false;
  while (first_use_ != nullptr) {
    moved_output = moved_output || first_use_->isGraphOutput();
    first_use_->set(other);
  }
  if (moved_output) redeclareAfterOutputsMoved(other);
}

/// The graph that holds `use`: its node's graph, or the graph whose outputs (or the
/// function body whose outputs) it is one of. O(1) for a node input; for an output,
/// O(outputs of the graphs nested in the value's graph).
Graph* graphOf(const Use& use);

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

  Value* bound() const { return output.value() != nullptr ? output.value() : value; }
  /// A value_info entry whose value was removed from its graph: not written, and dropped
  /// from the list when the graph compacts.
  bool isRemoved() const {
    const Value* v = bound();
    return v != nullptr && v->graph() == nullptr;
  }
};

}  // namespace onyx

#pragma GCC visibility pop
