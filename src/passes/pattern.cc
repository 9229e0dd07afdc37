// Building patterns (onyx/passes/pattern.h), what a match answers, and the builder of
// replacements. Matching and applying rules is pattern_match.cc; the text form is
// pattern_text.cc.
#include <algorithm>

#include "onyx/core/quote.h"
#include "onyx/ir/constant_value.h"
#include "onyx/ir/opset_imports.h"
#include "onyx/ir/tensor_array.h"
#include "onyx/ir/unique_names.h"
#include "passes/pass_helpers.h"
#include "passes/pattern_data.h"

namespace onyx {

// ---- MatchContext --------------------------------------------------------------------------

std::optional<int32_t> MatchContext::elemTypeOf(const Value& value) const {
  // Its own first: asking typeOf may run shape inference.
  if (std::optional<int32_t> own = value.elemType()) return own;
  const Type* type = typeOf(value);
  return type != nullptr ? type->elem_type : std::nullopt;
}

std::optional<std::vector<Dimension>> MatchContext::dimsOf(const Value& value) const {
  if (const Tensor* tensor = constantOf(&value)) {
    std::vector<Dimension> dims(tensor->dims.size());
    for (size_t d = 0; d < dims.size(); ++d) dims[d].dim_value = tensor->dims[d];
    return dims;
  }
  const TensorShape* shape = shapeOf(value);
  if (shape == nullptr) return std::nullopt;
  return std::vector<Dimension>(shape->dims.begin(), shape->dims.end());
}

const TensorShape* MatchContext::shapeOf(const Value& value) const {
  const Type* type = typeOf(value);
  return type != nullptr && type->isTensor() ? type->shape : nullptr;
}

const Tensor* MatchContext::constantOf(const Value* value) const {
  return constantTensor(value, initializerInputs());
}

bool MatchContext::sameDim(const Dimension& a, const Dimension& b) {
  if (a.isKnown() || b.isKnown()) return a.dim_value == b.dim_value;
  return a.isSymbolic() && b.isSymbolic() && !a.dim_param->empty() && a.dim_param == b.dim_param;
}

// ---- PatternValue ------------------------------------------------------------------------

PatternValue& PatternValue::constant() {
  return where([](const Value& value, const MatchContext& context) {
    return context.constantOf(&value) != nullptr;
  });
}

PatternValue& PatternValue::singleUse() {
  return where([](const Value& value, const MatchContext&) {
    UseRange uses = value.uses();
    auto first = uses.begin();
    return first != uses.end() && ++first == uses.end();
  });
}

PatternValue& PatternValue::rank(size_t rank) {
  return where([rank](const Value& value, const MatchContext& context) {
    std::optional<std::vector<Dimension>> dims = context.dimsOf(value);
    return dims && dims->size() == rank;
  });
}

PatternValue& PatternValue::elemType(ElementType type) {
  return where([type](const Value& value, const MatchContext& context) {
    std::optional<int32_t> found = context.elemTypeOf(value);
    return found && *found == static_cast<int32_t>(type);
  });
}

PatternValue& PatternValue::where(ValuePredicate predicate) {
  data_->values[index_].checks.push_back(std::move(predicate));
  return *this;
}

PatternValue& PatternValue::optional() {
  data_->values[index_].optional = true;
  return *this;
}

// ---- PatternNode ---------------------------------------------------------------------------

namespace {

PatternData::AttributeRule& addRule(PatternData& data, uint32_t node, std::string_view name,
                                    PatternData::AttributeRule::Kind kind) {
  PatternData::AttributeRule& rule = data.nodes[node].attributes.emplace_back();
  rule.name = std::string(name);
  rule.kind = kind;
  return rule;
}

// The attribute must equal a value of `value_kind` (set by the caller).
PatternData::AttributeRule& equalsRule(PatternData& data, uint32_t node, std::string_view name,
                                       AttributeKind value_kind) {
  PatternData::AttributeRule& rule =
      addRule(data, node, name, PatternData::AttributeRule::Kind::kEquals);
  rule.value_kind = value_kind;
  return rule;
}

}  // namespace

PatternNode& PatternNode::domain(std::string_view domain) {
  data_->nodes[index_].domain = std::string(canonicalDomain(domain));
  return *this;
}

PatternNode& PatternNode::attr(std::string_view name, int64_t value) {
  equalsRule(*data_, index_, name, AttributeKind::kInt).i = value;
  return *this;
}

PatternNode& PatternNode::attr(std::string_view name, float value) {
  equalsRule(*data_, index_, name, AttributeKind::kFloat).f = value;
  return *this;
}

PatternNode& PatternNode::attr(std::string_view name, std::string_view value) {
  equalsRule(*data_, index_, name, AttributeKind::kString).s = std::string(value);
  return *this;
}

PatternNode& PatternNode::attr(std::string_view name, std::initializer_list<int64_t> values) {
  equalsRule(*data_, index_, name, AttributeKind::kInts).ints.assign(values.begin(), values.end());
  return *this;
}

PatternNode& PatternNode::bindAttr(std::string_view name, std::string_view binding) {
  PatternData::AttributeRule& rule =
      addRule(*data_, index_, name, PatternData::AttributeRule::Kind::kBind);
  rule.binding = static_cast<uint32_t>(data_->bindings.size());
  data_->bindings.emplace_back(binding);
  return *this;
}

PatternNode& PatternNode::attrWhere(std::string_view name, AttributePredicate predicate) {
  addRule(*data_, index_, name, PatternData::AttributeRule::Kind::kWhere).predicate =
      std::move(predicate);
  return *this;
}

PatternNode& PatternNode::anyOtherAttributes() {
  data_->nodes[index_].other_attributes = true;
  return *this;
}

PatternNode& PatternNode::commutative(bool commutative) {
  data_->nodes[index_].commutative = commutative;
  return *this;
}

PatternValue PatternNode::output(size_t i) const {
  return PatternValue(data_, data_->nodes[index_].outputs.at(i));
}

// ---- Pattern -------------------------------------------------------------------------------

Pattern::Pattern() : data_(std::make_unique<PatternData>()) {}
Pattern::~Pattern() = default;
Pattern::Pattern(Pattern&&) noexcept = default;
Pattern& Pattern::operator=(Pattern&&) noexcept = default;

PatternValue Pattern::var(std::string_view name) {
  PatternData::ValueEntry& entry = data_->values.emplace_back();
  entry.name = std::string(name);
  return PatternValue(data_.get(), static_cast<uint32_t>(data_->values.size() - 1));
}

PatternValue Pattern::absent() {
  data_->values.emplace_back().absent = true;
  return PatternValue(data_.get(), static_cast<uint32_t>(data_->values.size() - 1));
}

PatternNode Pattern::op(std::string_view op_type, std::span<const PatternValue> inputs,
                        size_t outputs) {
  uint32_t index = static_cast<uint32_t>(data_->nodes.size());
  PatternData::NodeEntry& node = data_->nodes.emplace_back();
  node.op_type = std::string(op_type);
  for (const PatternValue& input : inputs) node.inputs.push_back(input.index_);
  for (size_t i = 0; i < outputs; ++i) {
    PatternData::ValueEntry& value = data_->values.emplace_back();
    value.node = static_cast<int32_t>(index);
    value.output = static_cast<uint32_t>(i);
    node.outputs.push_back(static_cast<uint32_t>(data_->values.size() - 1));
  }
  return PatternNode(data_.get(), index);
}

void Pattern::setOutputs(std::span<const PatternValue> outputs) {
  data_->outputs.clear();
  for (const PatternValue& output : outputs) data_->outputs.push_back(output.index_);
}

Status Pattern::validate() const {
  const PatternData& data = *data_;
  if (data.nodes.empty()) return Status(ErrorCode::kInvalidArgument, "a pattern needs a node");
  uint32_t anchor = data.anchor();
  for (uint32_t output : data.outputValues()) {
    if (output >= data.values.size() || data.values[output].node != static_cast<int32_t>(anchor)) {
      return Status(ErrorCode::kInvalidArgument,
                    "a pattern's outputs must be outputs of its last node (" +
                        quoted(data.nodes[anchor].op_type) + ")");
    }
  }
  // Every node must feed the anchor: walk back from it.
  std::vector<uint8_t> reached(data.nodes.size(), 0);
  std::vector<uint32_t> work{anchor};
  reached[anchor] = 1;
  while (!work.empty()) {
    uint32_t node = work.back();
    work.pop_back();
    for (uint32_t input : data.nodes[node].inputs) {
      int32_t producer = data.values[input].node;
      if (producer != PatternData::kNoNode && reached[static_cast<size_t>(producer)] == 0) {
        reached[static_cast<size_t>(producer)] = 1;
        work.push_back(static_cast<uint32_t>(producer));
      }
    }
  }
  for (size_t n = 0; n < data.nodes.size(); ++n) {
    if (reached[n] == 0) {
      return Status(ErrorCode::kInvalidArgument, "pattern node " + std::to_string(n) + " ('" +
                                                     data.nodes[n].op_type +
                                                     "') does not feed the last node");
    }
  }
  for (size_t b = 0; b < data.bindings.size(); ++b) {
    for (size_t other = b + 1; other < data.bindings.size(); ++other) {
      if (data.bindings[b] == data.bindings[other]) {
        return Status(ErrorCode::kInvalidArgument,
                      "attribute binding " + quoted("@" + data.bindings[b]) + " is used twice");
      }
    }
  }
  return Status::ok();
}

// ---- Match ---------------------------------------------------------------------------------

Value* Match::value(PatternValue value) const { return state_.values.at(value.index_); }

Value* Match::value(std::string_view name) const {
  const std::vector<PatternData::ValueEntry>& values = state_.pattern->values;
  for (size_t v = 0; v < values.size(); ++v) {
    if (values[v].node == PatternData::kNoNode && !values[v].absent && values[v].name == name) {
      return state_.values[v];
    }
  }
  return nullptr;
}

Node* Match::node(PatternNode node) const { return state_.nodes.at(node.index_); }

Node& Match::anchor() const { return *state_.nodes[state_.pattern->anchor()]; }

const Attribute* Match::attr(std::string_view binding) const {
  const std::vector<std::string>& bindings = state_.pattern->bindings;
  for (size_t b = 0; b < bindings.size(); ++b) {
    if (bindings[b] == binding) return state_.attributes[b];
  }
  return nullptr;
}

const MatchContext& Match::context() const { return *state_.context; }

// ---- RewriteBuilder ------------------------------------------------------------------------

RewriteBuilder::RewriteBuilder(Patch& patch, Node& anchor)
    : patch_(patch), anchor_(anchor), mark_(patch.mark()) {}

Node& RewriteBuilder::add(std::string_view op_type, std::span<Value* const> inputs, size_t outputs,
                          std::string_view domain) {
  Node* node = patch_.addNode(op_type, inputs, outputs, &anchor_);
  if (!domain.empty()) node->domain = editor().arena().copy(domain);
  nodes_.push_back(node);
  reads_.insert(reads_.end(), inputs.begin(), inputs.end());
  for (size_t o = 0; o < outputs; ++o) made_.push_back(node->output(o));
  return *node;
}

Result<Value*> RewriteBuilder::constant(const Array& array, std::string_view hint) {
  return constant(editor().tensorFromArray(array), hint);
}

Result<Value*> RewriteBuilder::constant(Tensor* tensor, std::string_view hint) {
  // Below IR 4 every initializer is also a graph input, which would change the interface.
  Graph& graph = patch_.graph();
  if (&graph == model().graph && model().ir_version.value_or(4) >= 4) {
    tensor->name.reset();
    Value* value = patch_.addInitializer(tensor);
    patch_.nameAfter(value, hint);
    made_.push_back(value);
    return value;
  }
  // At the top of the graph (the constants in the order made): a rewrite may point a matched
  // node that comes before the anchor at it, and a Constant reads nothing.
  Node& node = *patch_.addNode("Constant", {}, 1, graph.firstNode());
  nodes_.push_back(&node);
  editor().setTensorAttr(&node, "value", tensor);
  patch_.nameAfter(node.output(0), hint);
  made_.push_back(node.output(0));
  return node.output(0);
}

void RewriteBuilder::setInput(Node& node, size_t index, Value* value) {
  if (index >= patch_.inputCountAfter(&node)) patch_.resizeInputs(&node, index + 1);
  patch_.setInput(&node, index, value);
  reads_.push_back(value);
}

bool RewriteBuilder::made(const Value* value) const {
  return std::find(made_.begin(), made_.end(), value) != made_.end();
}

void RewriteBuilder::discard() {
  patch_.discardSince(mark_);
  nodes_.clear();
  made_.clear();
  reads_.clear();
}

}  // namespace onyx
