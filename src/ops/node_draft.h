// Internal: a node on its way across version steps of its operator, for the adapters in the
// op files (OpSchema::step) and the opset converter (src/passes/opset_conversion.cc).
//
// A conversion is all or nothing, so nothing it decides may touch the graph before every
// node of the model is known to convert. A draft holds what one node's attributes and inputs
// will be: adapters read and change the draft, step after step, and only when the whole
// model converts does the converter write the drafts into the graph through a Patch. What a
// draft allocates (attributes, constant tensors) lives in the model's arena and is simply
// left there when the conversion is refused.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "onyx/core/status.h"
#include "onyx/ir/constant_value.h"
#include "onyx/ir/editor.h"
#include "onyx/ops/function_body.h"
#include "onyx/ops/op_schema.h"

namespace onyx::ops {

/// One dimension of an input as the model tells it: a number, a symbol (one size wherever it
/// appears), or neither.
struct Extent {
  std::optional<int64_t> value;
  std::string_view symbol;
};

/// Whether two dimensions are known to be equal: the same number, or the same symbol.
bool sameExtent(const Extent& a, const Extent& b);
/// Whether every dimension is known to be 1 (true for a scalar).
bool allOnes(std::span<const Extent> shape);

class NodeDraft {
 public:
  /// `type_of`: the declared or inferred type of a value of the model, null when unknown.
  /// `initializer_inputs`: what the model's initializers listed as graph inputs are
  /// (onyx/ir/constant_value.h), for constantInput and constantIntegers.
  NodeDraft(Node& node, const GraphEditor& edit, const ValueTypeOf& type_of,
            InitializerInputs initializer_inputs);

  Node& node() const { return node_; }
  const GraphEditor& editor() const { return edit_; }

  /// The step being taken: from the version `from` binds to, to the one `to` binds to
  /// (adjacent versions of the operator).
  void beginStep(const OpSchema& from, const OpSchema& to) {
    from_ = &from;
    to_ = &to;
  }
  const OpSchema& from() const { return *from_; }
  const OpSchema& to() const { return *to_; }
  bool goingUp() const { return to_->since_version > from_->since_version; }

  /// Why the node cannot cross this step: an error naming the step, for the converter to
  /// list with the node's place.
  Status refuse(std::string_view reason) const;

  // ---- attributes, as they will be -----------------------------------------------------------

  const Attribute* attribute(std::string_view name) const;
  std::optional<int64_t> intAttr(std::string_view name) const;
  std::optional<float> floatAttr(std::string_view name) const;
  std::optional<std::vector<int64_t>> intsAttr(std::string_view name) const;
  std::optional<std::vector<float>> floatsAttr(std::string_view name) const;
  /// The views point into the model's arena: they live as long as the model.
  std::optional<std::vector<std::string_view>> stringsAttr(std::string_view name) const;
  /// The string attribute `name`: `fallback` when absent, nullopt when the node does not set
  /// it to a string of its own (a reference to an attribute of the calling function).
  std::optional<std::string_view> stringAttr(std::string_view name,
                                             std::string_view fallback) const;
  /// The names of the attributes the node will have, in order.
  std::vector<std::string_view> attributeNames() const;

  void setIntAttr(std::string_view name, int64_t value);
  void setFloatAttr(std::string_view name, float value);
  void setIntsAttr(std::string_view name, std::span<const int64_t> values);
  void setFloatsAttr(std::string_view name, std::span<const float> values);
  void setStringsAttr(std::string_view name, std::span<const std::string_view> values);
  void setStringAttr(std::string_view name, std::string_view value);
  void removeAttribute(std::string_view name);

  // ---- inputs, as they will be ---------------------------------------------------------------

  size_t inputCount() const { return inputs_.size(); }
  /// Input `i` is there (not past the end, not omitted).
  bool hasInput(size_t i) const {
    return i < inputs_.size() && (inputs_[i].value != nullptr || inputs_[i].constant != nullptr ||
                                  inputs_[i].leader || inputs_[i].preceded);
  }
  /// The value input `i` reads now; null when omitted or when the draft made it a new
  /// constant.
  Value* input(size_t i) const { return i < inputs_.size() ? inputs_[i].value : nullptr; }
  /// The tensor input `i` always holds (a constant of the model, or one the draft made);
  /// null when it is not constant.
  const Tensor* constantInput(size_t i) const;
  /// Its integers, when it is an integer constant.
  std::optional<std::vector<int64_t>> constantIntegers(size_t i) const;
  /// The type of input `i` (declared or inferred, or the constant's), null when unknown.
  const Type* inputType(size_t i) const;
  /// The shape of input `i`, from its type or, for a constant, its dims; nullopt when not
  /// even its rank is known.
  std::optional<std::vector<Extent>> inputShape(size_t i) const;
  /// Its rank, as inputShape tells it.
  std::optional<int64_t> inputRank(size_t i) const;
  /// The type of output `i`, null when unknown.
  const Type* outputType(size_t i) const;
  /// The outputs the node will have (a follower: one).
  size_t outputCount() const { return follower_ ? 1 : node_.outputCount(); }

  /// Input `i` reads `value` (null: omitted); the inputs grow to reach `i`.
  void setInput(size_t i, Value* value);
  /// Input `i` becomes a new constant holding `tensor` (in the model's arena).
  void setConstantInput(size_t i, Tensor* tensor);
  /// A new 1-D INT64 constant tensor (in the model's arena).
  Tensor* integers(std::span<const int64_t> values) const;
  /// Input `i` becomes a new 1-D INT64 constant.
  void setIntegersInput(size_t i, std::span<const int64_t> values);
  /// Keeps the first `count` inputs (or adds omitted ones).
  void resizeInputs(size_t count);

  /// Where a step needs more than one node: a node `op_type` of the default domain, as
  /// version `opset` of the domain defines it, is added after this node (which must have one
  /// output). It reads that output (its input 0) and `constants` (inputs 1 on), and takes the
  /// output's place: its readers and its name. It is a draft of its own (attributes set on
  /// the draft returned), and crosses the steps left to the target like any node.
  NodeDraft& follow(std::string_view op_type, int64_t opset, std::span<Tensor* const> constants);
  /// The same before this node: a node `op_type` reads what this node's input 0 reads, and
  /// this node reads its output instead. At most one.
  NodeDraft& precede(std::string_view op_type, int64_t opset);

  // ---- for the converter ---------------------------------------------------------------------

  /// Whether the draft differs from the node.
  bool changed() const { return attributes_changed_ || inputs_changed_ || !followers_.empty(); }
  /// The nodes added before (precede) and after (follow) this one, with the opset each was
  /// written at.
  struct Follower {
    std::unique_ptr<NodeDraft> draft;
    int64_t opset;
    bool precedes = false;
  };
  std::vector<Follower>& followers() { return followers_; }
  /// Records the draft in `patch` (a patch of the node's graph). New constants become
  /// initializers when `initializers_allowed` (the main graph at IR 4 and later), else
  /// Constant nodes just before the node.
  void writeTo(Patch& patch, bool initializers_allowed) const;

 private:
  struct Input {
    Value* value = nullptr;
    Tensor* constant = nullptr;  // a constant the draft made
    bool leader = false;         // a follower's input 0: the output of the node it follows
    bool preceded = false;       // input 0 of a node with a predecessor: its output
  };

  Node* scratch();
  void put(Attribute& made);
  // A node added before or after this one (precede, follow), reading `inputs`.
  NodeDraft& added(std::string_view op_type, int64_t opset, bool precedes,
                   std::vector<Input> inputs);
  // The value input `input` reads once written: constants become initializers or Constant
  // nodes before `before`; a follower's input 0 is `leader`.
  Value* written(const Input& input, Patch& patch, bool initializers_allowed, Node* before,
                 Value* leader, Value* predecessor) const;
  void writeExpanded(Patch& patch, bool initializers_allowed) const;

  Node& node_;
  GraphEditor edit_;
  const ValueTypeOf& type_of_;  // the converter's, which outlives every draft
  InitializerInputs initializer_inputs_;
  const OpSchema* from_ = nullptr;
  const OpSchema* to_ = nullptr;
  std::vector<Attribute*> attributes_;  // as they will be; the node's own until changed
  std::vector<Input> inputs_;
  Node* scratch_ = nullptr;  // holds the attributes the draft makes
  bool attributes_changed_ = false;
  bool inputs_changed_ = false;
  std::vector<Follower> followers_;
  bool follower_ = false;  // a node follow() adds: `node_` is a detached stand-in
};

}  // namespace onyx::ops
