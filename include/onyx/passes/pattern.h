// onyx/passes/pattern.h — rewrite rules: a pattern of nodes, and what replaces a match.
//
// A pattern is a small graph of operator nodes over variables. A variable binds any value
// of the graph (the same variable binds the same value wherever it appears); a pattern node
// matches a node of the same operator (op type and domain) whose inputs match its inputs and
// whose attributes satisfy its attribute rules. Matching starts at the pattern's anchor, the
// node whose outputs are the pattern's outputs, and follows each input to its producer, so a
// rule is tried only at nodes of its anchor's operator (a RuleSet indexes rules by it).
//
//   onyx::Pattern p;
//   onyx::PatternValue x = p.var("x");
//   onyx::PatternValue zero = p.var("zero").where(isZero);     // any value predicate
//   p.op("Add", {x, zero});                                    // the anchor: the last node made
//   onyx::RewriteRule rule{"add-zero", std::move(p), nullptr,
//       [x](const onyx::Match& m, onyx::RewriteBuilder&) {
//         return std::vector<onyx::Value*>{m.value(x)};        // z's readers now read x
//       }};
//
// Rules can also be written in the ONNX text syntax (parseRewriteRules): a function that is
// the pattern, followed by a function that is its replacement. docs/passes.md has both forms
// worked through.
//
// What a match guarantees (checked before a rule's check and rewrite see it):
//   - every matched node is in the anchor's graph, is a different node, and has no attribute
//     that refers to a calling function's (its values are unknown);
//   - the values the pattern computes on the way (matched nodes' outputs that are not the
//     pattern's outputs) are read by matched nodes only: no other node, graph output or
//     nested graph reads them, so the whole match can go;
//   - no variable binds such a value.
// A node of a commutative operator (OpTraits::kCommutative at the opset its graph imports:
// Add, Mul, And, Or, Xor, Equal, BitwiseAnd/Or/Xor, Sum and Mean) with two inputs matches
// them in either order. Max and Min do not: which of +0 and -0 they give depends on the order.
//
// How a rewrite is applied: the rewrite returns one value per pattern output; every reader of
// each output reads its replacement instead; then the matched nodes nothing reads any more
// are removed. A pattern output that is a graph (or function, or subgraph) output keeps its
// name: its replacement, which must then be computed by a node of the graph and be no output
// itself, is renamed to it; otherwise the rewrite is refused and what it recorded forgotten.
// All of it is recorded in a Patch, applied once the walk (or the pass's run) is over: a
// run that fails half-way leaves the model as it was.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "onyx/core/array.h"
#include "onyx/core/element_type.h"
#include "onyx/core/status.h"
#include "onyx/ir/editor.h"
#include "onyx/ir/graph_scope.h"
#include "onyx/ir/model.h"
#include "onyx/ir/patch.h"
#include "onyx/passes/pass.h"

// Exported from the shared libraries: the public API (see src/CMakeLists.txt).
#pragma GCC visibility push(default)

namespace onyx {

struct PatternData;
class MatchState;

/// What predicates may ask about the graph being matched.
class MatchContext {
 public:
  virtual ~MatchContext() = default;
  virtual const Model& model() const = 0;
  /// The scope of the graph being matched (onyx/ir/graph_scope.h): a function body's own
  /// imports, else the model's.
  virtual const GraphScope& scope() const = 0;
  /// The version `domain` is imported at in that scope (0: not imported).
  int64_t opset(std::string_view domain = {}) const { return scope().opset(domain); }
  /// Shape inference's type of `value`, else its declared type; null when neither is known.
  /// Inference runs on first use only (PassContext::inferredTypes).
  virtual const Type* typeOf(const Value& value) const = 0;
  /// The element type: the value's own (declared, or its initializer's), else typeOf's;
  /// nullopt when unknown.
  std::optional<int32_t> elemTypeOf(const Value& value) const;
  /// The shape typeOf gives; null when the rank is unknown.
  const TensorShape* shapeOf(const Value& value) const;
  /// The dims of a constant's tensor, else shapeOf's; nullopt when the rank is unknown.
  std::optional<std::vector<Dimension>> dimsOf(const Value& value) const;
  /// What the initializers listed as graph inputs are (PassContext::initializerInputs).
  virtual InitializerInputs initializerInputs() const = 0;
  /// The tensor `value` always holds (onyx/ir/constant_value.h: a fixed initializer, or a
  /// Constant's value), or null.
  const Tensor* constantOf(const Value* value) const;
  /// Whether two dims are the same: the same number, or the same (non-empty) symbol.
  static bool sameDim(const Dimension& a, const Dimension& b);
};

using ValuePredicate = std::function<bool(const Value& value, const MatchContext& context)>;
/// Given the node's attribute of that name, or null when the node has none.
using AttributePredicate = std::function<bool(const Attribute* attribute)>;

/// A value of a pattern: a variable, or an output of a pattern node. A handle: copies refer
/// to the same value, and stay valid while the Pattern (or the rule it moved into) lives.
class PatternValue {
 public:
  PatternValue() = default;

  /// The value must always hold the same tensor (MatchContext::constantOf).
  PatternValue& constant();
  /// The value must be read exactly once (by the node the pattern reads it into).
  PatternValue& singleUse();
  /// Its tensor type must have this rank / element type (MatchContext::typeOf).
  PatternValue& rank(size_t rank);
  PatternValue& elemType(ElementType type);
  /// Any other condition.
  PatternValue& where(ValuePredicate predicate);
  /// A variable that may also bind an omitted input (the bound value is then null), and a
  /// missing trailing one.
  PatternValue& optional();

  bool valid() const { return data_ != nullptr; }

 private:
  friend class Pattern;
  friend class PatternNode;
  friend class Match;
  PatternValue(PatternData* data, uint32_t index) : data_(data), index_(index) {}
  PatternData* data_ = nullptr;
  uint32_t index_ = 0;
};

/// A node of a pattern. Unless anyOtherAttributes(), a matched node may carry only the
/// attributes the pattern names, and others that equal their schema default.
class PatternNode {
 public:
  PatternNode() = default;

  /// The node's domain ("" by default; "ai.onnx" is the same domain).
  PatternNode& domain(std::string_view domain);
  /// The attribute must have this value; an absent one counts with its schema default.
  PatternNode& attr(std::string_view name, int64_t value);
  PatternNode& attr(std::string_view name, float value);
  PatternNode& attr(std::string_view name, std::string_view value);
  PatternNode& attr(std::string_view name, std::initializer_list<int64_t> values);
  /// Binds the attribute (or its absence) under `binding`, for the rewrite (Match::attr).
  PatternNode& bindAttr(std::string_view name, std::string_view binding);
  /// The attribute (null when absent) must satisfy `predicate`.
  PatternNode& attrWhere(std::string_view name, AttributePredicate predicate);
  /// Attributes the pattern does not name are allowed, whatever their values.
  PatternNode& anyOtherAttributes();
  /// Overrides whether the two inputs match in either order.
  PatternNode& commutative(bool commutative);

  /// Output `i` of the node.
  PatternValue output(size_t i = 0) const;
  operator PatternValue() const { return output(0); }  // NOLINT: reads as the node's value

 private:
  friend class Pattern;
  friend class Match;
  PatternNode(PatternData* data, uint32_t index) : data_(data), index_(index) {}
  PatternData* data_ = nullptr;
  uint32_t index_ = 0;
};

class Pattern {
 public:
  Pattern();
  ~Pattern();
  Pattern(Pattern&&) noexcept;
  Pattern& operator=(Pattern&&) noexcept;

  /// A variable named `name` (the name is for messages and Match::value(name)).
  PatternValue var(std::string_view name);
  /// An omitted input: matches an input slot that is empty or missing.
  PatternValue absent();
  /// A node of `op_type` reading `inputs`, with `outputs` outputs. The last node made is the
  /// anchor; every other node must feed it, directly or through others.
  PatternNode op(std::string_view op_type, std::span<const PatternValue> inputs,
                 size_t outputs = 1);
  PatternNode op(std::string_view op_type, std::initializer_list<PatternValue> inputs,
                 size_t outputs = 1) {
    return op(op_type, std::span<const PatternValue>(inputs.begin(), inputs.size()), outputs);
  }
  /// The values a rewrite replaces: outputs of the anchor (by default all of them). An
  /// output of the anchor left out must have no readers for the match to hold.
  void setOutputs(std::span<const PatternValue> outputs);
  void setOutputs(std::initializer_list<PatternValue> outputs) {
    setOutputs(std::span<const PatternValue>(outputs.begin(), outputs.size()));
  }

  /// Whether the pattern is well formed (an anchor every node feeds, outputs of the anchor,
  /// a binding name used once); an error names what is wrong.
  Status validate() const;

  /// What the pattern holds (internal: src/passes/pattern_data.h).
  const PatternData& data() const { return *data_; }
  PatternData& data() { return *data_; }

 private:
  std::unique_ptr<PatternData> data_;
};

class RewriteBuilder;

/// A match of a pattern in a graph, for a rule's check and rewrite.
class Match {
 public:
  explicit Match(const MatchState& state) : state_(state) {}
  /// The value a pattern value bound (null for an optional variable bound to nothing).
  Value* value(PatternValue value) const;
  /// The value the variable named `name` bound; null when none has that name.
  Value* value(std::string_view name) const;
  /// The node a pattern node matched.
  Node* node(PatternNode node) const;
  /// The node the pattern's anchor matched.
  Node& anchor() const;
  /// The attribute bound under `binding` (bindAttr, `@name` in the text syntax); null when
  /// the node has none.
  const Attribute* attr(std::string_view binding) const;
  const MatchContext& context() const;

 private:
  const MatchState& state_;
};

/// Records a replacement in the patch of the anchor's graph (onyx/ir/patch.h): nothing
/// changes until the pass applies the patch, with every other rewrite of its run. What a
/// declined rewrite recorded is forgotten again.
class RewriteBuilder {
 public:
  RewriteBuilder(Patch& patch, Node& anchor);
  RewriteBuilder(const RewriteBuilder&) = delete;
  RewriteBuilder& operator=(const RewriteBuilder&) = delete;

  Model& model() { return patch_.model(); }
  Graph& graph() { return patch_.graph(); }
  /// For the arena and for the attributes of the nodes add() makes.
  GraphEditor editor() { return GraphEditor(patch_.model()); }

  /// A new node of `op_type` (in `domain`) reading `inputs`, with `outputs` outputs named
  /// after the op type, placed before the anchor. Its inputs are the patch's: the node reads
  /// them once applied (until then, node.input() is null; readsOf() tells).
  Node& add(std::string_view op_type, std::span<Value* const> inputs, size_t outputs = 1,
            std::string_view domain = {});
  Node& add(std::string_view op_type, std::initializer_list<Value*> inputs, size_t outputs = 1,
            std::string_view domain = {}) {
    return add(op_type, std::span<Value* const>(inputs.begin(), inputs.size()), outputs, domain);
  }
  /// A value always holding `array`, named after `hint`: an initializer in the main graph, a
  /// Constant node elsewhere (function bodies hold no initializers) and below IR 4 (where an
  /// initializer is also a graph input), placed first in the graph so that any node may
  /// read it.
  Result<Value*> constant(const Array& array, std::string_view hint);
  /// The same for a tensor already in the model's arena (held as given; its name is set).
  Result<Value*> constant(Tensor* tensor, std::string_view hint);

  /// Changes a matched node in place: input `index` reads `value` (slots are added up to it).
  void setInput(Node& node, size_t index, Value* value);
  /// The stand-in that takes the attributes a matched node gains (Patch::attributesFor).
  Node& attributesFor(Node& node) { return patch_.attributesFor(&node); }

  size_t nodesAdded() const { return nodes_.size(); }
  /// Whether `value` is one this builder made (an output of add() or a constant).
  bool made(const Value* value) const;
  /// The values the builder's nodes and in-place inputs read.
  std::span<Value* const> reads() const { return reads_; }
  /// Forgets what was recorded.
  void discard();

 private:
  Patch& patch_;
  Node& anchor_;
  Patch::Mark mark_;
  std::vector<Node*> nodes_;
  std::vector<Value*> made_;
  std::vector<Value*> reads_;
};

/// A pattern, an optional further check, and what replaces a match.
struct RewriteRule {
  std::string name;
  Pattern pattern;
  /// Further conditions on a match; null: none.
  std::function<bool(const Match& match)> check;
  /// One replacement value per pattern output, in order; an empty vector declines. A rewrite
  /// may change matched nodes in place (RewriteBuilder::setInput, attributesFor: point a Conv
  /// at new weights), at values defined before them or constants (nodes made by
  /// RewriteBuilder::add come just before the anchor); it must not read the pattern's outputs.
  std::function<std::vector<Value*>(const Match& match, RewriteBuilder& builder)> rewrite;
};

/// Rules indexed by their anchor's operator. Rules are tried at a node in the order added;
/// the first whose match is rewritten wins.
class RuleSet {
 public:
  RuleSet();
  ~RuleSet();
  RuleSet(RuleSet&&) noexcept;
  RuleSet& operator=(RuleSet&&) noexcept;

  /// Adds `rule`; an error when its pattern is malformed.
  Status add(RewriteRule rule);
  size_t size() const;

  /// One walk over `graph` (not the graphs nested in it) in node order, rewriting each
  /// match, applied together at its end (all or none). The walk sees the graph as it was:
  /// a match that would take a node an earlier rewrite took, or read what such a node
  /// computes, waits for the next walk, as do rewrites that a rewrite makes possible (a
  /// RewritePass in a PassManager walks to a fixed point).
  Result<PassResult> applyTo(Model& model, Graph& graph, PassContext& context) const;
  /// The same, where the caller has the graph's scope (scopeOf) already.
  Result<PassResult> applyTo(Model& model, Graph& graph, const GraphScope& scope,
                             PassContext& context) const;
  /// The same walk over the graph of `patch`, recorded in it and not applied: the caller
  /// applies it, alone or with the patches of other graphs (applyAll).
  Result<PassResult> record(Patch& patch, const GraphScope& scope, PassContext& context) const;

 private:
  struct Index;
  std::unique_ptr<Index> index_;
};

/// Rules written in the ONNX text syntax: functions in pairs, each pattern followed by its
/// replacement (docs/passes.md, "Patterns"). A rule is named after its pattern function.
///
///   AddZero (x, zero) => (z) { z = Add(x, zero) }
///   AddZeroReplacement (x, zero) => (z) { z = Identity(x) }
///
/// In a pattern: each input is a variable, an attribute written `name = @b` binds it as `b`
/// (any value), one written with a value must have it, an input's type (`float[N, 3] x`)
/// constrains the element type, rank and fixed dims (a dim name binds: the same name is the
/// same dim). In a replacement: the inputs are the pattern's variables by name, `@b` takes
/// the bound attribute (left out when the matched node had none).
Result<std::vector<RewriteRule>> parseRewriteRules(std::string_view text);

/// A pass that applies `rules` to every graph, to a fixed point under the pass manager.
std::unique_ptr<Pass> makeRewritePass(std::string name, std::string summary, RuleSet rules);

}  // namespace onyx

#pragma GCC visibility pop
