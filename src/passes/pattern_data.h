// Internal: what a Pattern holds (onyx/passes/pattern.h), and the state of one match.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <unordered_set>
#include <vector>

#include "onyx/ir/attribute_kind.h"
#include "onyx/passes/pattern.h"

namespace onyx {

struct PatternData {
  static constexpr int32_t kNoNode = -1;

  struct ValueEntry {
    std::string name;                    // a variable's; empty for a node output
    int32_t node = kNoNode;              // the node whose output this is; kNoNode: a variable
    uint32_t output = 0;                 // which output
    bool absent = false;                 // matches an omitted input only
    bool optional = false;               // a variable that may bind an omitted input
    std::vector<ValuePredicate> checks;  // all must hold
    // From a text pattern's input type: the element type, rank and dims (dims by name bind).
    const Type* type = nullptr;
  };

  struct AttributeRule {
    enum class Kind { kEquals, kBind, kWhere };
    std::string name;
    Kind kind = Kind::kEquals;
    AttributeKind value_kind = AttributeKind::kUndefined;  // for kEquals
    int64_t i = 0;
    float f = 0;
    std::string s;
    std::vector<int64_t> ints;
    std::vector<float> floats;
    uint32_t binding = 0;  // for kBind: index into `bindings`
    AttributePredicate predicate;
  };

  struct NodeEntry {
    std::string op_type;
    std::string domain;             // canonical
    std::vector<uint32_t> inputs;   // value indices
    std::vector<uint32_t> outputs;  // value indices
    std::vector<AttributeRule> attributes;
    bool other_attributes = false;
    /// Whether the two inputs match in either order: as set by PatternNode::commutative, else
    /// as the matched node's operator says (OpTraits::kCommutative at the scope's opset).
    std::optional<bool> commutative;
  };

  std::vector<ValueEntry> values;
  std::vector<NodeEntry> nodes;
  std::vector<uint32_t> outputs;       // value indices; empty: all of the anchor's
  std::vector<std::string> bindings;   // attribute binding names
  std::vector<std::string> dim_names;  // dims named in text patterns' input types
  // Keeps the types of a text pattern alive.
  std::shared_ptr<const Model> owner;

  uint32_t anchor() const { return static_cast<uint32_t>(nodes.size() - 1); }
  /// The pattern's outputs, after the default.
  std::vector<uint32_t> outputValues() const {
    return outputs.empty() ? nodes.back().outputs : outputs;
  }
};

/// The bindings of one match attempt, undone on backtracking.
class MatchState {
 public:
  const PatternData* pattern = nullptr;
  const MatchContext* context = nullptr;
  Graph* graph = nullptr;
  std::vector<Value*> values;  // per pattern value
  std::vector<uint8_t> value_bound;
  std::vector<Node*> nodes;                  // per pattern node
  std::vector<const Attribute*> attributes;  // per binding
  std::vector<const Dimension*> dims;        // per dim name
  // The nodes the walk's earlier rewrites took (recorded, not applied yet): a match binds
  // none of them, nor a value one computes. Null: none.
  const std::unordered_set<const Node*>* settled = nullptr;

  bool isSettled(const Node* node) const {
    return settled != nullptr && node != nullptr && settled->count(node) != 0;
  }
};

}  // namespace onyx
