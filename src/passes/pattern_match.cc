// Matching rules at the nodes of a graph and applying their rewrites (onyx/passes/pattern.h).
//
// A RuleSet indexes its rules by the operator of their anchor, so a walk over a graph costs
// one hash lookup per node plus the rules of that node's operator. A match is a depth-first
// search from the anchor over its inputs' producers, with a trail of bindings to undo: the
// only choices are the two orders of a commutative node's inputs.
#include <cstring>
#include <deque>
#include <unordered_map>

#include "onyx/core/quote.h"
#include "onyx/ir/editor.h"
#include "onyx/ir/opset_imports.h"
#include "onyx/ir/unique_names.h"
#include "onyx/ops/registry.h"
#include "passes/pass_helpers.h"
#include "passes/pass_patches.h"
#include "passes/pattern_data.h"

namespace onyx {

namespace {

using Rule = PatternData::AttributeRule;

// Whether the attribute holds exactly the rule's value.
bool attributeEquals(const Attribute& attribute, const Rule& rule) {
  if (attribute.kind() != rule.value_kind) return false;
  switch (rule.value_kind) {
    case AttributeKind::kInt: return attribute.i.value_or(0) == rule.i;
    case AttributeKind::kFloat: {
      float f = attribute.f.value_or(0.0f);
      return std::memcmp(&f, &rule.f, sizeof f) == 0;
    }
    case AttributeKind::kString: return attribute.s.value_or(std::string_view()) == rule.s;
    case AttributeKind::kInts:
      return std::equal(attribute.ints.begin(), attribute.ints.end(), rule.ints.begin(),
                        rule.ints.end());
    case AttributeKind::kFloats:
      return attribute.floats.size() == rule.floats.size() &&
             std::memcmp(attribute.floats.begin(), rule.floats.data(),
                         rule.floats.size() * sizeof(float)) == 0;
    default: return false;
  }
}

// Whether the schema's default for an absent attribute is the rule's value.
bool defaultEquals(const AttributeSpec* spec, const Rule& rule) {
  if (spec == nullptr || !spec->has_default || spec->kind != rule.value_kind) return false;
  switch (rule.value_kind) {
    case AttributeKind::kInt: return spec->default_int == rule.i;
    case AttributeKind::kFloat: return spec->default_float == rule.f;
    case AttributeKind::kString: return spec->default_string == rule.s;
    case AttributeKind::kInts:
      return std::equal(spec->default_ints.begin(), spec->default_ints.end(), rule.ints.begin(),
                        rule.ints.end());
    default: return false;
  }
}

// Whether a present attribute holds its schema default, so that it counts as absent.
bool isDefault(const Attribute& attribute, const AttributeSpec* spec) {
  if (spec == nullptr || !spec->has_default || attribute.kind() != spec->kind) return false;
  switch (spec->kind) {
    case AttributeKind::kInt: return attribute.i.value_or(0) == spec->default_int;
    case AttributeKind::kFloat: return attribute.f.value_or(0.0f) == spec->default_float;
    case AttributeKind::kString:
      return attribute.s.value_or(std::string_view()) == spec->default_string;
    case AttributeKind::kInts:
      return std::equal(attribute.ints.begin(), attribute.ints.end(), spec->default_ints.begin(),
                        spec->default_ints.end());
    default: return false;
  }
}

// The context predicates see: the model, and inference's types on first use.
class GraphMatchContext final : public MatchContext {
 public:
  GraphMatchContext(const Model& model, const GraphScope& scope, PassContext& context)
      : model_(model), scope_(scope), context_(context) {}
  const Model& model() const override { return model_; }
  const GraphScope& scope() const override { return scope_; }
  const Type* typeOf(const Value& value) const override {
    return context_.inferredTypes(model_).typeOf(value);
  }
  InitializerInputs initializerInputs() const override {
    return context_.initializerInputs(model_);
  }

 private:
  const Model& model_;
  const GraphScope& scope_;
  PassContext& context_;
};

// One search for a match of one pattern at one node.
class Matcher {
 public:
  Matcher(MatchState& state, const GraphScope& scope) : s_(state), scope_(scope) {}

  bool matchAt(Node& anchor) {
    const PatternData& p = *s_.pattern;
    s_.values.assign(p.values.size(), nullptr);
    s_.value_bound.assign(p.values.size(), 0);
    s_.nodes.assign(p.nodes.size(), nullptr);
    s_.attributes.assign(p.bindings.size(), nullptr);
    s_.dims.assign(p.dim_names.size(), nullptr);
    trail_.clear();
    goals_.clear();
    constant_dims_.clear();
    return bindNode(p.anchor(), anchor);
  }

 private:
  enum class Undo : uint8_t { kValue, kNode, kAttribute, kDim };
  struct Step {
    Undo kind;
    uint32_t index;
  };
  // Pattern value `pattern` must match graph value `value` (null: an omitted input).
  struct Goal {
    uint32_t pattern;
    Value* value;
  };

  void undoTo(size_t mark) {
    while (trail_.size() > mark) {
      Step step = trail_.back();
      trail_.pop_back();
      switch (step.kind) {
        case Undo::kValue:
          s_.values[step.index] = nullptr;
          s_.value_bound[step.index] = 0;
          break;
        case Undo::kNode: s_.nodes[step.index] = nullptr; break;
        case Undo::kAttribute: s_.attributes[step.index] = nullptr; break;
        case Undo::kDim: s_.dims[step.index] = nullptr; break;
      }
    }
  }

  bool bindValue(uint32_t index, Value* value) {
    if (s_.value_bound[index] != 0) return s_.values[index] == value;
    s_.values[index] = value;
    s_.value_bound[index] = 1;
    trail_.push_back({Undo::kValue, index});
    return true;
  }

  // Tries the remaining goals; on failure leaves the goals and bindings as they were.
  bool solve() {
    if (goals_.empty()) return finalChecks();
    Goal goal = goals_.back();
    goals_.pop_back();
    size_t mark = trail_.size();
    if (tryGoal(goal)) return true;
    undoTo(mark);
    goals_.push_back(goal);
    return false;
  }

  bool tryGoal(const Goal& goal) {
    const PatternData::ValueEntry& entry = s_.pattern->values[goal.pattern];
    if (entry.absent) return goal.value == nullptr && solve();
    if (entry.node == PatternData::kNoNode) {
      if (goal.value == nullptr && !entry.optional) return false;
      if (s_.value_bound[goal.pattern] == 0 && goal.value != nullptr &&
          (s_.isSettled(goal.value->producer()) || !valueChecks(entry, *goal.value))) {
        return false;
      }
      return bindValue(goal.pattern, goal.value) && solve();
    }
    Value* value = goal.value;
    if (value == nullptr || value->producer() == nullptr || value->outputIndex() != entry.output) {
      return false;
    }
    if (s_.value_bound[goal.pattern] == 0 && !valueChecks(entry, *value)) return false;
    return bindNode(static_cast<uint32_t>(entry.node), *value->producer());
  }

  bool valueChecks(const PatternData::ValueEntry& entry, const Value& value) {
    for (const ValuePredicate& check : entry.checks) {
      if (!check(value, *s_.context)) return false;
    }
    return entry.type == nullptr || typeMatches(*entry.type, value);
  }

  // A text pattern's input type: element type, rank, fixed dims, named dims bound.
  bool typeMatches(const Type& wanted, const Value& value) {
    if (wanted.elem_type && s_.context->elemTypeOf(value) != wanted.elem_type) return false;
    if (wanted.shape == nullptr) return true;
    const TensorShape* shape = s_.context->shapeOf(value);
    std::optional<std::vector<Dimension>> dims;
    if (shape == nullptr) {
      // A constant's dims, kept while the match lives.
      dims = s_.context->dimsOf(value);
      if (!dims) return false;
      constant_dims_.push_back(std::move(*dims));
    }
    const Dimension* have_dims =
        shape != nullptr ? shape->dims.data() : constant_dims_.back().data();
    size_t rank = shape != nullptr ? shape->rank() : constant_dims_.back().size();
    if (rank != wanted.shape->rank()) return false;
    for (size_t d = 0; d < rank; ++d) {
      const Dimension& want = wanted.shape->dims[d];
      const Dimension& have = have_dims[d];
      if (want.isKnown() && have.dim_value != want.dim_value) return false;
      if (!want.isSymbolic()) continue;
      const std::vector<std::string>& names = s_.pattern->dim_names;
      auto named = std::find(names.begin(), names.end(), *want.dim_param);
      uint32_t index = static_cast<uint32_t>(named - names.begin());
      if (named == names.end()) continue;
      if (s_.dims[index] != nullptr) {
        if (!MatchContext::sameDim(*s_.dims[index], have)) return false;
      } else if (have.isUnknown()) {
        return false;
      } else {
        s_.dims[index] = &have;
        trail_.push_back({Undo::kDim, index});
      }
    }
    return true;
  }

  // Whether the pattern node's two inputs may match `node`'s in either order.
  bool commutes(const PatternData::NodeEntry& entry, const Node& node) const {
    if (entry.inputs.size() != 2 || node.inputCount() != 2) return false;
    if (entry.commutative) return *entry.commutative;
    return hasTraits(traitsOf(node, scope_), OpTraits::kCommutative);
  }

  const AttributeSpec* specOf(const Node& node, std::string_view name) const {
    std::optional<int64_t> version = scope_.imports.versionOf(node.domainOrDefault());
    if (!version) return nullptr;
    const OpSchema* schema = findSchema(node.domainOrDefault(), node.opType(), *version);
    return schema != nullptr ? schema->attribute(name) : nullptr;
  }

  bool attributesMatch(const PatternData::NodeEntry& entry, Node& node) {
    for (const Attribute* attribute : node.attributes) {
      if (attribute->isReference()) return false;
    }
    for (const Rule& rule : entry.attributes) {
      const Attribute* attribute = node.attribute(rule.name);
      switch (rule.kind) {
        case Rule::Kind::kEquals:
          if (attribute != nullptr ? !attributeEquals(*attribute, rule)
                                   : !defaultEquals(specOf(node, rule.name), rule)) {
            return false;
          }
          break;
        case Rule::Kind::kBind:
          s_.attributes[rule.binding] = attribute;
          trail_.push_back({Undo::kAttribute, rule.binding});
          break;
        case Rule::Kind::kWhere:
          if (!rule.predicate(attribute)) return false;
          break;
      }
    }
    if (entry.other_attributes) return true;
    for (const Attribute* attribute : node.attributes) {
      std::string_view name = attribute->nameOrEmpty();
      bool named = false;
      for (const Rule& rule : entry.attributes) named = named || rule.name == name;
      if (!named && !isDefault(*attribute, specOf(node, name))) return false;
    }
    return true;
  }

  bool bindNode(uint32_t index, Node& node) {
    if (s_.nodes[index] != nullptr) return s_.nodes[index] == &node && solve();
    const PatternData::NodeEntry& entry = s_.pattern->nodes[index];
    if (node.graph() != s_.graph || s_.isSettled(&node) || node.opType() != entry.op_type ||
        canonicalDomain(node.domainOrDefault()) != entry.domain) {
      return false;
    }
    for (Node* bound : s_.nodes) {
      if (bound == &node) return false;
    }
    // Inputs: the node's, without trailing omitted ones, against the pattern's.
    size_t count = node.inputCount();
    while (count > 0 && node.input(count - 1) == nullptr) --count;
    if (count > entry.inputs.size()) return false;
    for (size_t i = count; i < entry.inputs.size(); ++i) {
      const PatternData::ValueEntry& input = s_.pattern->values[entry.inputs[i]];
      if (!input.absent && !input.optional) return false;
    }
    // Outputs the pattern does not have must be unread.
    if (node.outputCount() < entry.outputs.size()) return false;
    for (size_t o = entry.outputs.size(); o < node.outputCount(); ++o) {
      if (node.output(o) != nullptr && node.output(o)->hasUses()) return false;
    }
    size_t mark = trail_.size();
    s_.nodes[index] = &node;
    trail_.push_back({Undo::kNode, index});
    if (!attributesMatch(entry, node)) {
      undoTo(mark);
      return false;
    }
    for (size_t o = 0; o < entry.outputs.size(); ++o) {
      if (!bindValue(entry.outputs[o], node.output(o))) {
        undoTo(mark);
        return false;
      }
    }
    size_t goals = goals_.size();
    int orders = commutes(entry, node) ? 2 : 1;
    for (int order = 0; order < orders; ++order) {
      for (size_t i = entry.inputs.size(); i-- > 0;) {
        size_t slot = order == 1 ? 1 - i : i;
        goals_.push_back({entry.inputs[i], slot < count ? node.input(slot) : nullptr});
      }
      if (solve()) return true;
      goals_.resize(goals);
    }
    undoTo(mark);
    return false;
  }

  bool isMatched(const Node* node) const {
    return std::find(s_.nodes.begin(), s_.nodes.end(), node) != s_.nodes.end();
  }

  // Values computed on the way are read by matched nodes only, and no variable binds one.
  bool finalChecks() {
    const PatternData& p = *s_.pattern;
    std::vector<uint32_t> outputs = p.outputValues();
    for (size_t v = 0; v < p.values.size(); ++v) {
      const PatternData::ValueEntry& entry = p.values[v];
      Value* value = s_.values[v];
      if (value == nullptr) continue;
      if (entry.node == PatternData::kNoNode) {
        if (value->producer() != nullptr && isMatched(value->producer())) return false;
        continue;
      }
      if (std::find(outputs.begin(), outputs.end(), v) != outputs.end()) continue;
      for (const Use& use : value->uses()) {
        if (use.user() == nullptr || !isMatched(use.user())) return false;
      }
    }
    return true;
  }

  MatchState& s_;
  const GraphScope& scope_;
  std::vector<Step> trail_;
  std::vector<Goal> goals_;
  // Dims of constants bound by name (s_.dims points into them): a deque keeps them in place.
  std::deque<std::vector<Dimension>> constant_dims_;
};

}  // namespace

// ---- RuleSet -------------------------------------------------------------------------------

struct RuleSet::Index {
  struct Hash {
    using is_transparent = void;
    size_t operator()(std::string_view text) const { return std::hash<std::string_view>()(text); }
  };
  std::vector<RewriteRule> rules;
  // Anchor op type to rule positions, in the order added. Only looked up, never iterated.
  std::unordered_map<std::string, std::vector<uint32_t>, Hash, std::equal_to<>> by_op;
};

RuleSet::RuleSet() : index_(std::make_unique<Index>()) {}
RuleSet::~RuleSet() = default;
RuleSet::RuleSet(RuleSet&&) noexcept = default;
RuleSet& RuleSet::operator=(RuleSet&&) noexcept = default;

size_t RuleSet::size() const { return index_->rules.size(); }

Status RuleSet::add(RewriteRule rule) {
  Status valid = rule.pattern.validate();
  if (!valid.isOk()) {
    return Status(valid.code(), "rule " + quoted(rule.name) + ": " + std::string(valid.message()));
  }
  if (!rule.rewrite) {
    return Status(ErrorCode::kInvalidArgument, "rule " + quoted(rule.name) + " has no rewrite");
  }
  const PatternData& data = rule.pattern.data();
  index_->by_op[data.nodes.back().op_type].push_back(static_cast<uint32_t>(index_->rules.size()));
  index_->rules.push_back(std::move(rule));
  return Status::ok();
}

namespace {

// The matched nodes a rewrite leaves unread: `replaced` outputs lose every reader; a
// node's output still read by a node that stays, a graph output, a nested graph, the
// builder's new nodes or a replacement keeps the node.
std::vector<Node*> unreadAfter(const MatchState& state, const RewriteBuilder& builder,
                               std::span<Value* const> replaced,
                               std::span<Value* const> replacements) {
  std::vector<Node*> gone;
  auto isGone = [&gone](const Node* node) {
    return std::find(gone.begin(), gone.end(), node) != gone.end();
  };
  auto contains = [](std::span<Value* const> values, const Value* value) {
    return std::find(values.begin(), values.end(), value) != values.end();
  };
  auto stillRead = [&](const Value* value) {
    if (value == nullptr || contains(replaced, value)) return false;
    if (contains(builder.reads(), value) || contains(replacements, value)) return true;
    for (const Use& use : value->uses()) {
      if (use.user() == nullptr || !isGone(use.user())) return true;
    }
    return false;
  };
  for (bool progress = true; progress;) {
    progress = false;
    for (Node* node : state.nodes) {
      if (node == nullptr || node->graph() != state.graph || isGone(node)) continue;
      bool read = false;
      for (size_t o = 0; o < node->outputCount() && !read; ++o) read = stillRead(node->output(o));
      if (!read) {
        gone.push_back(node);
        progress = true;
      }
    }
  }
  return gone;
}

// Records a match's rewrite in `patch`: true when it did, false when refused (with nothing
// recorded).
Result<bool> recordMatch(const RewriteRule& rule, const MatchState& state, Patch& patch,
                         std::unordered_set<const Node*>& settled, PassResult& result) {
  Match match(state);
  RewriteBuilder builder(patch, match.anchor());
  std::vector<Value*> replacements = rule.rewrite(match, builder);
  if (replacements.empty()) {
    builder.discard();
    return false;
  }
  std::vector<uint32_t> outputs = state.pattern->outputValues();
  if (replacements.size() != outputs.size()) {
    builder.discard();
    return Status(ErrorCode::kInternal,
                  "rule " + quoted(rule.name) + " gave " + std::to_string(replacements.size()) +
                      " replacements for " + std::to_string(outputs.size()) + " outputs");
  }
  // An output that is an interface keeps its name: its replacement takes it, so it must be
  // a node's output of this graph, no output itself, and replace no other such output.
  std::vector<std::pair<Value*, std::string_view>> renames;
  std::vector<Value*> replaced;
  for (size_t o = 0; o < outputs.size(); ++o) {
    Value* old = state.values[outputs[o]];
    Value* replacement = replacements[o];
    if (old == nullptr || old == replacement) continue;
    replaced.push_back(old);
    if (!passes_internal::isOutput(*old)) continue;
    bool taken = false;
    for (const auto& [value, name] : renames) taken = taken || value == replacement;
    if (replacement == nullptr || replacement->producer() == nullptr ||
        (!builder.made(replacement) && replacement->graph() != old->graph()) ||
        passes_internal::isOutput(*replacement) || taken) {
      builder.discard();
      return false;
    }
    renames.emplace_back(replacement, old->name());
  }
  for (size_t o = 0; o < outputs.size(); ++o) {
    Value* old = state.values[outputs[o]];
    if (old != nullptr && old != replacements[o]) patch.replaceAllUsesWith(old, replacements[o]);
  }
  std::vector<Node*> gone = unreadAfter(state, builder, replaced, replacements);
  for (Node* node : gone) patch.removeNode(node);
  for (const auto& [value, name] : renames) {
    if (builder.made(value)) {
      patch.nameValue(value, name);
    } else {
      patch.renameValue(value, name);
    }
  }
  for (Node* node : state.nodes) settled.insert(node);
  result.nodes_added += builder.nodesAdded();
  result.nodes_removed += gone.size();
  if (builder.nodesAdded() == 0 && gone.empty()) ++result.nodes_rewritten;
  return true;
}

}  // namespace

Result<PassResult> RuleSet::record(Patch& patch, const GraphScope& scope,
                                   PassContext& context) const {
  PassResult result;
  if (index_->rules.empty()) return result;
  Graph& graph = patch.graph();
  GraphMatchContext match_context(patch.model(), scope, context);
  std::unordered_set<const Node*> settled;
  MatchState state;
  state.context = &match_context;
  state.graph = &graph;
  state.settled = &settled;
  Matcher matcher(state, scope);
  for (Node* node : graph.nodes()) {
    auto found = index_->by_op.find(node->opType());
    if (found == index_->by_op.end()) continue;
    for (uint32_t r : found->second) {
      const RewriteRule& rule = index_->rules[r];
      state.pattern = &rule.pattern.data();
      if (!matcher.matchAt(*node)) continue;
      Match match(state);
      if (rule.check && !rule.check(match)) continue;
      Result<bool> recorded = recordMatch(rule, state, patch, settled, result);
      if (!recorded) return recorded.status();
      if (*recorded) break;
    }
  }
  return result;
}

Result<PassResult> RuleSet::applyTo(Model& model, Graph& graph, PassContext& context) const {
  return applyTo(model, graph, scopeOf(model, graph), context);
}

Result<PassResult> RuleSet::applyTo(Model& model, Graph& graph, const GraphScope& scope,
                                    PassContext& context) const {
  Patch patch(model, graph);
  Result<PassResult> result = record(patch, scope, context);
  if (!result) return result;
  ONYX_RETURN_IF_ERROR(patch.apply());
  return result;
}

// ---- the pass ------------------------------------------------------------------------------

namespace {

class RewritePass final : public passes_internal::RecordingGraphPass {
 public:
  RewritePass(std::string name, std::string summary, RuleSet rules)
      : name_(std::move(name)), summary_(std::move(summary)), rules_(std::move(rules)) {}
  std::string_view name() const override { return name_; }
  std::string_view summary() const override { return summary_; }
  // New values have no inferred types, so those are not kept.
  Preserves preserves() const override { return Preserves::kNodeOrder; }

 protected:
  Result<PassResult> recordGraph(Model&, Graph& graph, const GraphScope& scope,
                                 PassContext& context,
                                 passes_internal::PassPatches& patches) override {
    return rules_.record(patches.of(graph), scope, context);
  }

 private:
  std::string name_;
  std::string summary_;
  RuleSet rules_;
};

}  // namespace

std::unique_ptr<Pass> makeRewritePass(std::string name, std::string summary, RuleSet rules) {
  return std::make_unique<RewritePass>(std::move(name), std::move(summary), std::move(rules));
}

}  // namespace onyx
