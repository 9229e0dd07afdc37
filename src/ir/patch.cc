#include "onyx/ir/patch.h"

#include <algorithm>
#include <memory>
#include <span>
#include <string>
#include <unordered_set>
#include <utility>
#include <vector>

#include "core/development_checks.h"
#include "core/place_path.h"
#include "ir/graph_builder.h"
#include "ir/nested_reads.h"
#include "ir/scope.h"
#include "onyx/core/quote.h"
#include "onyx/ir/editor.h"
#include "onyx/ir/opset_imports.h"
#include "onyx/ir/unique_names.h"

namespace onyx {

using B = ir_internal::GraphBuilder;
using ir_internal::NameTableWriter;

Patch::Patch(Model& model, Graph& graph) : model_(model), graph_(graph) {}

Patch::~Patch() { forget(true); }

bool Patch::empty() const {
  return added_nodes_.empty() && values_.empty() && rewires_.empty() && removed_.empty() &&
         removed_initializers_.empty() && removed_inputs_.empty() && renames_.empty() &&
         edits_.empty() && handovers_.empty() && declared_.empty() && added_inputs_.empty() &&
         !input_order_ && !output_order_ && output_points_.empty();
}

void Patch::discard() { forget(true); }

void Patch::forget(bool unstage) {
  if (unstage) {
    for (auto graph = staged_.rbegin(); graph != staged_.rend(); ++graph) {
      ir_internal::discardGraph(*graph);
    }
  }
  staged_.clear();
  handovers_.clear();
  declared_.clear();
  added_inputs_.clear();
  input_order_.reset();
  output_order_.reset();
  output_points_.clear();
  added_nodes_.clear();
  values_.clear();
  added_values_.clear();
  rewires_.clear();
  removed_.clear();
  removed_initializers_.clear();
  removed_inputs_.clear();
  renames_.clear();
  edits_.clear();
  edit_of_.clear();
}

Patch::Mark Patch::mark() const {
  return {added_nodes_.size(),    values_.size(),           edits_.size(),
          rewires_.size(),        removed_.size(),          removed_initializers_.size(),
          removed_inputs_.size(), renames_.size(),          staged_.size(),
          handovers_.size(),      declared_.size(),         added_inputs_.size(),
          output_points_.size(),  input_order_.has_value(), output_order_.has_value()};
}

void Patch::discardSince(const Mark& mark) {
  for (size_t v = mark.values; v < values_.size(); ++v) added_values_.erase(values_[v].value);
  for (size_t e = mark.edits; e < edits_.size(); ++e) edit_of_.erase(edits_[e].node);
  added_nodes_.resize(mark.nodes);
  values_.resize(mark.values);
  edits_.resize(mark.edits);
  rewires_.resize(mark.rewires);
  removed_.resize(mark.removed);
  removed_initializers_.resize(mark.removed_initializers);
  removed_inputs_.resize(mark.removed_inputs);
  renames_.resize(mark.renames);
  for (size_t g = staged_.size(); g-- > mark.staged;) ir_internal::discardGraph(staged_[g]);
  staged_.resize(mark.staged);
  handovers_.resize(mark.handovers);
  declared_.resize(mark.declared);
  added_inputs_.resize(mark.added_inputs);
  output_points_.resize(mark.output_points);
  if (!mark.input_order) input_order_.reset();
  if (!mark.output_order) output_order_.reset();
}

// ---------------------------------------------------------------------------------------
// Recording: nothing here touches the graph, only the arena.

Node* Patch::addNode(std::string_view op_type, std::span<Value* const> reads, size_t output_count,
                     Node* before) {
  Arena& arena = GraphEditor(model_).arena();
  Node* node = arena.make<Node>();
  node->op_type = arena.copy(op_type);
  // The slots exist now, so that the node reads like any other, but are linked at apply().
  ArenaList<Use>& slots = B::inputs(node);
  slots.resize(arena, reads.size());
  for (Use& slot : slots) B::user(&slot) = node;
  ArenaList<Value*>& outputs = B::outputs(node);
  outputs.reserve(arena, output_count);
  for (size_t i = 0; i < output_count; ++i) {
    Value* value = arena.make<Value>();
    // In the patched graph's scope from the start (a staged graph may read it), named and
    // listed there at apply().
    B::graph(value) = &graph_;
    B::producer(value) = node;
    B::outputIndex(value) = static_cast<uint32_t>(i);
    outputs.push_back(arena, value);
    added_values_.emplace(value, values_.size());
    values_.push_back({value, {}, {}, nullptr});
  }
  added_nodes_.push_back({node, std::vector<Value*>(reads.begin(), reads.end()), before});
  return node;
}

Value* Patch::addInitializer(Tensor* tensor) {
  Arena& arena = GraphEditor(model_).arena();
  Value* value = arena.make<Value>();
  B::graph(value) = &graph_;
  B::initializer(value) = tensor;
  added_values_.emplace(value, values_.size());
  values_.push_back({value, tensor->nameOrEmpty(), {}, tensor});
  return value;
}

Value* Patch::addGraphInput(Type* type) {
  Value* value = GraphEditor(model_).arena().make<Value>();
  B::graph(value) = &graph_;
  added_values_.emplace(value, values_.size());
  values_.push_back({value, {}, {}, nullptr});
  added_inputs_.emplace_back(value, type);
  return value;
}

void Patch::setGraphInputs(std::span<Value* const> inputs) {
  ONYX_ASSERT(!input_order_ && "a patch sets the graph's inputs once");
  input_order_.emplace(inputs.begin(), inputs.end());
}

void Patch::setGraphOutputs(std::span<Value* const> outputs) {
  ONYX_ASSERT(!output_order_ && "a patch sets the graph's outputs once");
  output_order_.emplace(outputs.begin(), outputs.end());
}

void Patch::nameValue(Value* value, std::string_view name) {
  Arena& arena = GraphEditor(model_).arena();
  auto found = added_values_.find(value);
  ONYX_ASSERT(found != added_values_.end() && "only a value the patch adds is named by it");
  if (found != added_values_.end()) values_[found->second].name = arena.copy(name);
}

void Patch::nameAfter(Value* value, std::string_view hint) {
  Arena& arena = GraphEditor(model_).arena();
  auto found = added_values_.find(value);
  ONYX_ASSERT(found != added_values_.end() && "only a value the patch adds is named by it");
  if (found != added_values_.end()) values_[found->second].hint = arena.copy(hint);
}

void Patch::renameValue(Value* value, std::string_view name) {
  renames_.push_back({value, GraphEditor(model_).arena().copy(name)});
}

void Patch::replaceAllUsesWith(Value* from, Value* to) {
  rewires_.push_back({from, nullptr, 0, to});
}

void Patch::setInput(Node* node, size_t index, Value* value) {
  rewires_.push_back({nullptr, node, index, value});
}

void Patch::removeNode(Node* node) { removed_.push_back(node); }

void Patch::handOverOutput(Value* value, Node* to, size_t index) {
  handovers_.push_back({value, to, index});
}

StagedGraph Patch::addGraph(Node* holder) {
  ONYX_ASSERT(!holder->isAttached() && "a graph is staged for a node the patch adds");
  // The holder sits in the patched graph's scope from now on (not in its list), so that the
  // new graph's names are chosen against everything it will see.
  B::graph(holder) = &graph_;
  Graph* graph = GraphEditor(model_).newSubgraph(holder);
  staged_.push_back(graph);
  return StagedGraph(model_, *graph);
}

StagedGraph Patch::addGraphCopy(Node* holder, const Graph& source) {
  B::graph(holder) = &graph_;
  Graph* graph = GraphEditor(model_).cloneGraph(source, &graph_, holder);
  staged_.push_back(graph);
  return StagedGraph(model_, *graph);
}

// ---------------------------------------------------------------------------------------
// Staged graphs: built at once, with the editor.

Result<Value*> StagedGraph::addInput(std::string_view name, Type* type) const {
  return GraphEditor(*model_).addInput(*graph_, name, type);
}

Result<Value*> StagedGraph::addInitializer(Tensor* tensor) const {
  return GraphEditor(*model_).addInitializer(*graph_, tensor);
}

Node* StagedGraph::addNode(std::string_view op_type, std::span<Value* const> reads) const {
  Node* node = GraphEditor(*model_).createNode(*graph_, op_type, reads, 0);
  graph_->appendNode(node);
  return node;
}

Result<Value*> StagedGraph::addNodeOutput(Node* node, std::string_view name) const {
  return GraphEditor(*model_).addOutputNamed(node, name);
}

void StagedGraph::addGraphOutput(Value* value, Type* type) const {
  GraphEditor(*model_).addOutput(*graph_, value);
  if (type != nullptr) graph_->outputs.back()->type = type;
}

void StagedGraph::setType(Value* value, Type* type) const {
  GraphEditor(*model_).setType(value, type);
}

std::string_view StagedGraph::uniqueName(std::string_view hint) const {
  return GraphEditor(*model_).uniqueName(*graph_, hint);
}

StagedGraph StagedGraph::addGraph(Node* holder) const {
  return StagedGraph(*model_, *GraphEditor(*model_).newSubgraph(holder));
}

StagedGraph StagedGraph::addGraphCopy(Node* holder, const Graph& source) const {
  return StagedGraph(*model_, *GraphEditor(*model_).cloneGraph(source, graph_, holder));
}

void Patch::removeInitializer(Value* value) { removed_initializers_.push_back(value); }

void Patch::removeGraphInput(Value* value) { removed_inputs_.push_back(value); }

Patch::NodeEdit& Patch::editOf(Node* node) {
  auto [found, fresh] = edit_of_.try_emplace(node, edits_.size());
  if (fresh) {
    NodeEdit& made = edits_.emplace_back();
    made.node = node;
  }
  return edits_[found->second];
}

size_t Patch::inputCountAfter(const Node* node) const {
  auto found = edit_of_.find(node);
  if (found != edit_of_.end() && edits_[found->second].input_count) {
    return *edits_[found->second].input_count;
  }
  return node->inputCount();
}

void Patch::setOperator(Node* node, std::string_view domain, std::string_view op_type) {
  Arena& arena = GraphEditor(model_).arena();
  NodeEdit& edit = editOf(node);
  edit.set_operator = true;
  edit.domain = arena.copy(domain);
  edit.op_type = arena.copy(op_type);
}

Node& Patch::attributesFor(Node* node) {
  Arena& arena = GraphEditor(model_).arena();
  NodeEdit& edit = editOf(node);
  if (edit.attributes == nullptr) {
    edit.attributes = arena.make<Node>();
    // The stand-in sits in a graph of its own, never in the patched one, so that the node
    // API works on it (a graph attribute set on it is adopted there, and refused at apply).
    B::graph(edit.attributes) = arena.make<Graph>();
  }
  return *edit.attributes;
}

void Patch::removeAttribute(Node* node, std::string_view name) {
  Arena& arena = GraphEditor(model_).arena();
  editOf(node).removed_attributes.push_back(arena.copy(name));
}

void Patch::resizeInputs(Node* node, size_t count) { editOf(node).input_count = count; }

void Patch::replaceNode(Node* node, Node* replacement) {
  for (AddedNode& added : added_nodes_) {
    if (added.node == replacement) added.before = node;
  }
  for (size_t i = 0; i < node->outputCount() && i < replacement->outputCount(); ++i) {
    if (node->output(i) != nullptr) replaceAllUsesWith(node->output(i), replacement->output(i));
  }
  removeNode(node);
}

// ---------------------------------------------------------------------------------------
// Checking: every reason apply() could leave a broken graph, found before it changes one.

class Patch::Check {
 public:
  /// `batch_removed`: the nodes every patch applied with this one removes (applyAll), whose
  /// reads of this graph's values go with them.
  Check(const Patch& patch, const std::unordered_set<const Node*>& batch_removed)
      : patch_(patch), graph_(patch.graph_), batch_removed_(batch_removed) {
    size_t index = 0;
    // Positions answer order questions, which only added nodes, re-pointed uses and removals
    // ask: a patch that only changes nodes in place costs O(its edits), not a walk.
    if (!patch.added_nodes_.empty() || !patch.rewires_.empty() || !patch.removed_.empty() ||
        !patch.handovers_.empty()) {
      for (const Node* node : graph_.nodes()) position_.emplace(node, index++);
    }
    end_ = index;
    for (size_t k = 0; k < patch.added_nodes_.size(); ++k) {
      const AddedNode& added = patch.added_nodes_[k];
      size_t at = end_;
      if (added.before != nullptr) {
        auto found = position_.find(added.before);
        if (found != position_.end()) at = found->second;
      }
      added_order_.emplace(added.node, Order{at, k + 1});
    }
  }

  Status run() {
    for (const Node* node : patch_.removed_) {
      if (position_.count(node) == 0) return refuse(node, "is not a node of the patched graph");
      if (!removed_.insert(node).second) return refuse(node, "is removed twice");
    }
    for (const Value* value : patch_.removed_initializers_) {
      if (value->graph() != &graph_ || !value->isInitializer()) {
        return Status(ErrorCode::kInvalidArgument,
                      quoted(value->name()) + " is not an initializer of the patched graph");
      }
      if (!removed_initializers_.insert(value).second) {
        return Status(ErrorCode::kInvalidArgument,
                      "the initializer " + quoted(value->name()) + " is removed twice");
      }
    }
    std::unordered_set<const Value*> inputs_taken_out;
    for (const Value* value : patch_.removed_inputs_) {
      if (value->graph() != &graph_ || !value->isGraphInput() || !value->isInitializer() ||
          value->graphInput() == nullptr) {
        return Status(ErrorCode::kInvalidArgument,
                      quoted(value->name()) +
                          " is taken out of the graph's inputs, but is not an input of the "
                          "patched graph that an initializer defines");
      }
      if (removed_initializers_.count(value) != 0 || !inputs_taken_out.insert(value).second) {
        return Status(ErrorCode::kInvalidArgument,
                      "the input " + quoted(value->name()) +
                          " is taken out twice, or its initializer removed too");
      }
    }
    for (const NodeEdit& edit : patch_.edits_) {
      if (!inGraph(edit.node)) {
        return refuse(edit.node, "is changed but is not a node of the patched graph");
      }
      if (removed_.count(edit.node) != 0) return refuse(edit.node, "is changed and removed");
      if (edit.attributes != nullptr) {
        for (const Attribute* attribute : edit.attributes->attributes) {
          if (attribute->g != nullptr || !attribute->rare().graphs.empty()) {
            return refuse(edit.node, "would take the graph attribute " +
                                         quoted(attribute->nameOrEmpty()) +
                                         ", which a patch does not stage");
          }
        }
      }
    }
    ONYX_RETURN_IF_ERROR(checkHandovers());
    for (const AddedNode& added : patch_.added_nodes_) {
      if (added.before != nullptr && position_.count(added.before) == 0) {
        return refuse(added.node, "is to go before a node that is not in the patched graph");
      }
      for (size_t i = 0; i < added.reads.size(); ++i) {
        ONYX_RETURN_IF_ERROR(readable(added.reads[i], added.node, i));
      }
      if (added.reads.size() != added.node->inputCount()) {
        return refuse(added.node, "had its inputs changed outside the patch");
      }
      // What the graphs it holds read from outside them.
      Status nested;
      std::string held = place(added.node) + ", in a graph it holds,";
      forEachNestedRead(*added.node, [&](const Value* value) {
        if (nested.isOk() && !definedWithin(value, added.node)) {
          nested = readable(value, added.node, held);
        }
      });
      ONYX_RETURN_IF_ERROR(nested);
    }
    std::unordered_set<std::string_view> names;
    std::unordered_set<const Value*> renamed_away;
    for (const Rename& rename : patch_.renames_) renamed_away.insert(rename.value);
    auto nameFree = [&](std::string_view name) -> Status {
      if (!names.insert(name).second) {
        return Status(ErrorCode::kInvalidArgument,
                      "the patch gives two values the name " + quoted(name));
      }
      if (!isNameInScope(graph_, name)) return Status::ok();
      const Value* holder = graph_.lookup(name);
      bool given_up = holder != nullptr && holder->graph() == &graph_ &&
                      (removedOutput(holder) || renamed_away.count(holder) != 0);
      if (!given_up) {
        return Status(ErrorCode::kInvalidArgument,
                      "the name " + quoted(name) + " is already taken in scope");
      }
      return Status::ok();
    };
    for (const AddedValue& added : patch_.values_) {
      if (!added.name.empty()) ONYX_RETURN_IF_ERROR(nameFree(added.name));
    }
    std::unordered_set<const Value*> renamed;
    for (const Rename& rename : patch_.renames_) {
      const Value* value = rename.value;
      if (value->graph() != &graph_ || patch_.isAdded(value) || removedOutput(value)) {
        return Status(ErrorCode::kInvalidArgument,
                      quoted(value->name()) + " is renamed but is not a value the graph keeps");
      }
      if (rename.name.empty() || !renamed.insert(value).second) {
        return Status(ErrorCode::kInvalidArgument,
                      quoted(value->name()) + " is renamed twice, or to no name");
      }
      ONYX_RETURN_IF_ERROR(nameFree(rename.name));
    }
    for (const Rewire& rewire : patch_.rewires_) {
      if (rewire.from == nullptr) {
        if (position_.count(rewire.node) == 0) {
          return refuse(rewire.node, "has an input re-pointed but is not a node of the graph");
        }
        if (rewire.index >= patch_.inputCountAfter(rewire.node)) {
          return refuse(rewire.node, "has no input " + std::to_string(rewire.index));
        }
        ONYX_RETURN_IF_ERROR(readable(rewire.to, rewire.node, rewire.index));
        if (rewire.index < rewire.node->inputCount()) {
          redirected_slots_.insert(&rewire.node->inputs()[rewire.index]);
        }
      } else {
        if (rewire.to == nullptr) {
          return Status(ErrorCode::kInvalidArgument,
                        "the uses of " + quoted(rewire.from->name()) + " are re-pointed at null");
        }
        ONYX_RETURN_IF_ERROR(takesUsesOf(*rewire.from, *rewire.to));
        redirected_values_.insert(rewire.from);
      }
    }
    ONYX_RETURN_IF_ERROR(checkInputs());
    ONYX_RETURN_IF_ERROR(checkOutputs());
    ONYX_RETURN_IF_ERROR(checkDeclarations());
    for (const Node* node : patch_.removed_) {
      for (const Value* value : node->outputs()) {
        if (value == nullptr) continue;
        ONYX_RETURN_IF_ERROR(leftUnread(*value, place(node) + " is removed, but its output"));
      }
    }
    for (const Value* value : patch_.removed_initializers_) {
      if (value->isGraphInput()) continue;
      ONYX_RETURN_IF_ERROR(leftUnread(*value, "the initializer is removed, but"));
    }
    return Status::ok();
  }

  /// The handed-over outputs: each an output of a node of the graph, taken by an added node
  /// (whose own value there nothing reads) or by an omitted output of a node of the graph,
  /// and read only after the node taking it.
  Status checkHandovers() {
    std::unordered_set<const Value*> taken_slots;
    for (const Handover& handover : patch_.handovers_) {
      const Value* value = handover.value;
      const Node* to = handover.to;
      if (value == nullptr) {
        const Value* slot =
            handover.index < to->outputCount() ? to->output(handover.index) : nullptr;
        if (added_order_.count(to) == 0 || slot == nullptr || slot->hasUses() ||
            !taken_slots.insert(slot).second) {
          return refuse(to, "cannot leave output " + std::to_string(handover.index) +
                                " omitted: it is not an unread output of a node the patch adds");
        }
        dropped_.insert(slot);
        continue;
      }
      if (patch_.isAdded(value) || !inGraph(value->producer())) {
        return Status(ErrorCode::kInvalidArgument,
                      "a value handed over is not an output of a node of the patched graph");
      }
      if (!handed_.emplace(value, to).second) {
        return Status(ErrorCode::kInvalidArgument, quoted(value->name()) + " is handed over twice");
      }
      bool added = added_order_.count(to) != 0;
      if (!added && (!inGraph(to) || removed_.count(to) != 0)) {
        return refuse(to, "takes " + quoted(value->name()) +
                              " but is neither added by the patch nor a node it keeps");
      }
      if (handover.index >= to->outputCount()) {
        return refuse(to, "has no output " + std::to_string(handover.index));
      }
      const Value* slot = to->output(handover.index);
      if (added ? (slot == nullptr || slot->hasUses() || !taken_slots.insert(slot).second)
                : slot != nullptr) {
        return refuse(to, "cannot take " + quoted(value->name()) + " as output " +
                              std::to_string(handover.index) +
                              (added ? ": its own value there is read, or taken twice"
                                     : ": that output is not omitted"));
      }
      if (added) dropped_.insert(slot);
    }
    for (const auto& [value, to] : handed_) {
      Order taken = orderOf(to);
      for (const Use& use : value->uses()) {
        const Node* own = use.user() != nullptr ? ownNode(use.user()) : nullptr;
        if (own == nullptr || removed_.count(own) != 0 || !(own->isAttached())) continue;
        if (!(taken < orderOf(own))) {
          return Status(
              ErrorCode::kInvalidArgument,
              place(own) + " reads " + quoted(value->name()) + " before the node it is handed to");
        }
      }
    }
    return Status::ok();
  }

  /// setGraphOutputs' values: each visible from the graph and kept by the patch.
  Status checkOutputs() {
    if (patch_.output_order_) {
      if (!patch_.output_points_.empty()) {
        return Status(ErrorCode::kInvalidArgument,
                      "a patch sets the graph's outputs and re-points one of them");
      }
      for (const Value* value : *patch_.output_order_) {
        ONYX_RETURN_IF_ERROR(outputKept(value));
      }
    }
    std::unordered_set<size_t> pointed;
    for (const auto& [index, value] : patch_.output_points_) {
      if (index >= graph_.outputs.size() || !pointed.insert(index).second) {
        return Status(ErrorCode::kInvalidArgument,
                      "output " + std::to_string(index) +
                          " of the graph is re-pointed twice, or the graph has no such output");
      }
      ONYX_RETURN_IF_ERROR(outputKept(value));
    }
    return Status::ok();
  }

  // `value` may be an output of the graph once the patch is applied.
  Status outputKept(const Value* value) const {
    if (value == nullptr) {
      return Status(ErrorCode::kInvalidArgument, "an output of the graph is set to no value");
    }
    if (dropped_.count(value) != 0) {
      return Status(ErrorCode::kInvalidArgument,
                    "an output of the graph is set to an output that a value handed over "
                    "replaces");
    }
    if (patch_.isAdded(value)) return Status::ok();
    if (value->graph() == nullptr || !value->graph()->encloses(&graph_)) {
      return Status(ErrorCode::kInvalidArgument, "the graph's outputs would include " +
                                                     quoted(value->name()) +
                                                     ", which is not visible from it");
    }
    if (removedOutput(value) || dropsInput(value)) {
      return Status(ErrorCode::kInvalidArgument, "the graph's outputs would include " +
                                                     quoted(value->name()) +
                                                     ", which the patch removes");
    }
    return Status::ok();
  }

  /// setGraphInputs' values: inputs and initializers of the graph, and every input the patch
  /// adds, each once; an input left out without a default is read by nothing afterwards.
  Status checkInputs() {
    if (!patch_.input_order_) return Status::ok();
    std::unordered_set<const Value*> added;
    for (const auto& [value, type] : patch_.added_inputs_) added.insert(value);
    std::unordered_set<const Value*> listed;
    std::unordered_set<const Value*> taken_out(patch_.removed_inputs_.begin(),
                                               patch_.removed_inputs_.end());
    for (const Value* value : *patch_.input_order_) {
      if (value == nullptr) {
        return Status(ErrorCode::kInvalidArgument, "an input of the graph is set to no value");
      }
      if (!listed.insert(value).second) {
        return Status(ErrorCode::kInvalidArgument,
                      "the graph's inputs would list " + quoted(value->name()) + " twice");
      }
      if (added.count(value) != 0) continue;
      bool defined_here = !patch_.isAdded(value) && value->graph() == &graph_ &&
                          value->producer() == nullptr &&
                          (value->isGraphInput() ||
                           (value->isInitializer() && removed_initializers_.count(value) == 0));
      if (!defined_here || taken_out.count(value) != 0) {
        return Status(ErrorCode::kInvalidArgument,
                      quoted(value->name()) +
                          " cannot be an input of the graph: it is neither an input the patch "
                          "adds nor an input or initializer of the graph that it keeps");
      }
    }
    for (const Value* value : added) {
      if (listed.count(value) == 0) {
        return Status(ErrorCode::kInvalidArgument,
                      "an input the patch adds is left out of the graph's inputs");
      }
    }
    for (const ValueInfo* input : graph_.inputs) {
      const Value* value = input->value;
      if (value == nullptr || listed.count(value) != 0) continue;
      if (value->isInitializer() && removed_initializers_.count(value) == 0) continue;
      ONYX_RETURN_IF_ERROR(leftUnread(*value, "the input is left out of the graph's, but"));
      dropped_inputs_.insert(value);
    }
    return Status::ok();
  }

  /// declareType's values: added by the patch, or kept by it.
  Status checkDeclarations() const {
    for (const auto& [value, type] : patch_.declared_) {
      if (patch_.isAdded(value)) continue;
      bool defined =
          value->producer() != nullptr || value->isGraphInput() || value->isInitializer();
      if (value->graph() != &graph_ || !defined || removedOutput(value) || dropsInput(value)) {
        return Status(ErrorCode::kInvalidArgument,
                      quoted(value->name()) +
                          " is declared, but is not a value of the graph that the patch keeps");
      }
    }
    return Status::ok();
  }

  /// Whether `value` is defined inside the graphs `holder` holds, at any depth.
  bool definedWithin(const Value* value, const Node* holder) const {
    for (const Graph* graph = value->graph(); graph != nullptr && graph != &graph_;
         graph = graph->parent()) {
      if (graph->owner() == holder) return true;
    }
    return false;
  }

  /// Whether `node` is a node of the patched graph, in its list.
  bool inGraph(const Node* node) const {
    return node != nullptr && node->graph() == &graph_ && node->isAttached();
  }

  /// The positions of the graph's nodes, for removing in reverse order.
  size_t position(const Node* node) const { return position_.at(node); }

 private:
  // Where a node sits once the patch is applied: before the node at `at` (end_: last), and
  // among nodes added there, in the order added. A node of the graph comes after them.
  struct Order {
    size_t at;
    size_t added;
    bool operator<(const Order& other) const {
      return at != other.at ? at < other.at : added < other.added;
    }
  };
  static constexpr size_t kOwnNode = SIZE_MAX;

  std::string place(const Node* node) const {
    auto found = position_.find(node);
    if (found != position_.end() || inGraph(node)) {
      std::string path = "node";
      if (found != position_.end()) path += " " + std::to_string(found->second);
      if (!node->nameOrEmpty().empty()) path += " " + quoted(node->nameOrEmpty());
      return path + " (" + std::string(node->opType()) + ")";
    }
    if (added_order_.count(node) != 0)
      return "the added node (" + std::string(node->opType()) + ")";
    return "a node (" + std::string(node->opType()) + ")";
  }

  Status refuse(const Node* node, const std::string& what) const {
    return Status(ErrorCode::kInvalidArgument, place(node) + " " + what);
  }

  // Whether `use` is an output of the graph that setGraphOutput re-points.
  bool repointedOutput(const Use& use) const {
    for (const auto& [index, value] : patch_.output_points_) {
      if (index < graph_.outputs.size() && &graph_.outputs[index]->output == &use) return true;
    }
    return false;
  }

  // Whether `value` is an input that setGraphInputs leaves out and that goes with it.
  bool dropsInput(const Value* value) const { return dropped_inputs_.count(value) != 0; }

  // Whether the patch removes `value`: an output of a node it removes, or an initializer
  // (not also a graph input) it removes.
  bool removedOutput(const Value* value) const {
    if (value->graph() != &graph_ || handed_.count(value) != 0) return false;
    if (value->producer() != nullptr) return removed_.count(value->producer()) != 0;
    return !value->isGraphInput() && removed_initializers_.count(value) != 0;
  }

  // The node of the patched graph a node belongs to: itself, or the node whose subgraph
  // (at any depth) holds it. Null for a node outside the graph.
  const Node* ownNode(const Node* node) const {
    while (node != nullptr && node->graph() != &graph_) {
      node = node->graph() != nullptr ? node->graph()->owner() : nullptr;
    }
    return node;
  }

  // Whether `use` goes with a node another patch of the batch removes: its reader, or a
  // node holding the reader's graph (or the graph whose output it is), at any depth.
  bool goesWithBatch(const Use& use) const {
    const Node* node = use.user();
    if (node == nullptr) {
      const Graph* graph = graphOf(use);
      node = graph != nullptr ? graph->owner() : nullptr;
    }
    for (; node != nullptr; node = node->graph() != nullptr ? node->graph()->owner() : nullptr) {
      if (batch_removed_.count(node) != 0) return true;
    }
    return false;
  }

  Order orderOf(const Node* node) const {
    auto added = added_order_.find(node);
    if (added != added_order_.end()) return added->second;
    return Order{position_.at(node), kOwnNode};
  }

  // Where `value` is defined: its producer's place in the graph, or before every node.
  Order definedAt(const Value* value) const {
    if (auto handed = handed_.find(value); handed != handed_.end()) return orderOf(handed->second);
    const Node* producer = value->producer();
    if (producer != nullptr && (added_order_.count(producer) != 0 || position_.count(producer))) {
      return orderOf(producer);
    }
    return Order{0, 0};
  }

  // `value` may be read by input `index` of `reader` (in or added to the graph).
  Status readable(const Value* value, const Node* reader, size_t index) const {
    if (value == nullptr) return Status::ok();
    return readable(value, reader, place(reader) + " input " + std::to_string(index));
  }

  // `value` may be read by `reader` (in or added to the graph) where `at` says.
  Status readable(const Value* value, const Node* reader, const std::string& at) const {
    if (dropped_.count(value) != 0) {
      return Status(ErrorCode::kInvalidArgument,
                    at + " would read an output that a value handed over replaces");
    }
    if (!patch_.isAdded(value)) {
      if (value->graph() == nullptr || !value->graph()->encloses(&graph_)) {
        return Status(ErrorCode::kInvalidArgument, at + " would read " + quoted(value->name()) +
                                                       ", which is not visible from the graph");
      }
      if (removedOutput(value)) {
        return Status(ErrorCode::kInvalidArgument,
                      at + " would read " + quoted(value->name()) + ", which the patch removes");
      }
    }
    if (!(definedAt(value) < orderOf(reader))) {
      return Status(ErrorCode::kInvalidArgument,
                    at + " would read a value defined after it (the list would not be "
                         "topological)");
    }
    return Status::ok();
  }

  // Every use of `from` may read `to` instead.
  Status takesUsesOf(const Value& from, const Value& to) const {
    std::string what = "the uses of " + quoted(from.name());
    if (!patch_.isAdded(&to)) {
      if (to.graph() == nullptr) {
        return Status(ErrorCode::kInvalidArgument, what + " would read a removed value");
      }
      if (removedOutput(&to)) {
        return Status(ErrorCode::kInvalidArgument,
                      what + " would read " + quoted(to.name()) + ", which the patch removes");
      }
    }
    const Graph* scope = patch_.isAdded(&to) ? &graph_ : to.graph();
    Order defined = definedAt(&to);
    for (const Use& use : from.uses()) {
      const Graph* reader_graph = graphOf(use);
      if (reader_graph == nullptr || !scope->encloses(reader_graph)) {
        return Status(ErrorCode::kInvalidArgument,
                      what + " include one from where the new value is not visible");
      }
      if (use.user() == nullptr) continue;
      const Node* own = ownNode(use.user());
      if (own == nullptr || removed_.count(own) != 0) continue;
      if (!(defined < orderOf(own))) {
        return Status(
            ErrorCode::kInvalidArgument,
            what + " include " + place(own) + ", which comes before the new value is defined");
      }
    }
    return Status::ok();
  }

  // Nothing reads `value` once the patch is applied; else an error that starts with `what`.
  Status leftUnread(const Value& value, const std::string& what) const {
    if (redirected_values_.count(&value) != 0 || handed_.count(&value) != 0) return Status::ok();
    for (const Use& use : value.uses()) {
      if (redirected_slots_.count(&use) != 0) continue;
      // setGraphOutputs replaces the graph's own outputs, and checks the values it names.
      if (use.user() == nullptr && patch_.output_order_ && graphOf(use) == &graph_) continue;
      if (use.user() == nullptr && repointedOutput(use)) continue;
      if (use.user() != nullptr && use.user()->graph() == &graph_ &&
          use.index() >= patch_.inputCountAfter(use.user())) {
        continue;  // a slot resizeInputs drops
      }
      const Node* own = use.user() != nullptr ? ownNode(use.user()) : nullptr;
      if (own != nullptr && removed_.count(own) != 0) continue;
      if (goesWithBatch(use)) continue;
      std::string reader = use.user() == nullptr ? "a graph output"
                           : own != nullptr      ? place(own)
                                                 : "a node outside the graph";
      return Status(ErrorCode::kInvalidArgument,
                    what + " " + quoted(value.name()) + " would still be read by " + reader);
    }
    return Status::ok();
  }

  const Patch& patch_;
  const Graph& graph_;
  const std::unordered_set<const Node*>& batch_removed_;
  std::unordered_map<const Node*, size_t> position_;
  size_t end_ = 0;
  std::unordered_map<const Node*, Order> added_order_;
  std::unordered_set<const Node*> removed_;
  std::unordered_set<const Value*> removed_initializers_;
  std::unordered_set<const Use*> redirected_slots_;
  std::unordered_set<const Value*> redirected_values_;
  std::unordered_map<const Value*, const Node*> handed_;  // a value handed over -> its taker
  std::unordered_set<const Value*> dropped_;         // added outputs that handed values replace
  std::unordered_set<const Value*> dropped_inputs_;  // inputs setGraphInputs drops, undefined
};

// ---------------------------------------------------------------------------------------
// Applying

void Patch::commitEdit(const NodeEdit& edit) {
  Arena& arena = GraphEditor(model_).arena();
  Node* node = edit.node;
  if (edit.set_operator) {
    node->op_type = edit.op_type;
    // The default domain keeps the spelling (or absence) the node had.
    if (canonicalDomain(edit.domain) != canonicalDomain(node->domainOrDefault())) {
      node->domain = edit.domain.empty() ? OptString() : OptString(edit.domain);
    }
  }
  for (std::string_view name : edit.removed_attributes) node->removeAttr(name);
  if (edit.attributes != nullptr) {
    for (Attribute* attribute : edit.attributes->attributes) {
      Attribute** slot = nullptr;
      for (Attribute*& existing : node->attributes) {
        if (existing->nameOrEmpty() == attribute->nameOrEmpty()) slot = &existing;
      }
      if (slot == nullptr) {
        node->attributes.push_back(arena, attribute);
        continue;
      }
      if ((*slot)->g != nullptr) ir_internal::discardGraph((*slot)->g);
      for (Graph* graph : (*slot)->rare().graphs) ir_internal::discardGraph(graph);
      *slot = attribute;
    }
  }
  if (edit.input_count) {
    while (node->inputCount() > *edit.input_count) node->removeInput(node->inputCount() - 1);
    while (node->inputCount() < *edit.input_count) GraphEditor(model_).addInput(node, nullptr);
  }
}

Status Patch::apply() {
  Patch* self = this;
  return applyAll(std::span<Patch* const>(&self, 1));
}

namespace {

// How many graphs enclose `graph`: 0 for a root graph.
size_t nestingDepth(const Graph& graph) {
  size_t depth = 0;
  for (const Node* owner = graph.owner(); owner != nullptr && owner->graph() != nullptr;
       owner = owner->graph()->owner()) {
    ++depth;
  }
  return depth;
}

}  // namespace

Status applyAll(std::span<Patch* const> given) {
  auto discardAll = [&] {
    for (Patch* patch : given) patch->discard();
  };
  // Innermost graphs first: a patch may remove a node whose graphs another patch edits, or
  // whose readers in them another patch removes.
  std::vector<Patch*> patches(given.begin(), given.end());
  std::stable_sort(patches.begin(), patches.end(), [](const Patch* a, const Patch* b) {
    return nestingDepth(a->graph_) > nestingDepth(b->graph_);
  });
  std::unordered_set<const Node*> batch_removed;
  for (const Patch* patch : patches) {
    batch_removed.insert(patch->removed_.begin(), patch->removed_.end());
  }
  std::vector<std::unique_ptr<Patch::Check>> checks(patches.size());
  for (size_t i = 0; i < patches.size(); ++i) {
    Patch& patch = *patches[i];
    for (size_t j = 0; j < i; ++j) {
      if (&patches[j]->graph_ == &patch.graph_) {
        discardAll();
        return Status(ErrorCode::kInvalidArgument, "two patches of one graph applied together");
      }
    }
    if (patch.empty()) continue;
    checks[i] = std::make_unique<Patch::Check>(patch, batch_removed);
    if (Status sound = checks[i]->run(); !sound) {
      discardAll();
      return sound;
    }
  }
  // A name two patches give exactly, in graphs where one sees the other's names.
  if (patches.size() > 1) {
    std::unordered_map<std::string_view, std::vector<const Graph*>> giving;
    for (const Patch* patch : patches) {
      const Graph& graph = patch->graph_;
      for (std::string_view name : patch->givenNames()) {
        std::vector<const Graph*>& graphs = giving[name];
        for (const Graph* other : graphs) {
          if (other == &graph || (!other->encloses(&graph) && !graph.encloses(other))) continue;
          discardAll();
          return Status(ErrorCode::kInvalidArgument,
                        "two patches name a value " + quoted(name) +
                            ", in graphs where one sees the other's names");
        }
        graphs.push_back(&graph);
      }
    }
  }
  for (size_t i = 0; i < patches.size(); ++i) {
    if (checks[i] != nullptr) patches[i]->commit(*checks[i]);
  }
  return Status::ok();
}

std::vector<std::string_view> Patch::givenNames() const {
  std::vector<std::string_view> names;
  for (const AddedValue& added : values_) {
    if (!added.name.empty()) names.push_back(added.name);
  }
  for (const Rename& rename : renames_) names.push_back(rename.name);
  return names;
}

void Patch::commit(const Check& check) {
  Arena& arena = GraphEditor(model_).arena();
  std::unordered_set<const Value*> dropped;
  for (const Handover& handover : handovers_) {
    if (isAdded(handover.to->output(handover.index))) {
      dropped.insert(handover.to->output(handover.index));
    }
  }
  for (AddedValue& added : values_) {
    if (dropped.count(added.value) != 0) continue;
    B::graph(added.value) = &graph_;
    B::values(&graph_).push_back(arena, added.value);
  }
  for (AddedNode& added : added_nodes_) {
    if (added.before != nullptr) {
      added.node->insertBefore(added.before);
    } else {
      graph_.appendNode(added.node);
    }
    ArenaList<Use>& slots = B::inputs(added.node);
    for (size_t i = 0; i < added.reads.size(); ++i) slots[i].set(added.reads[i]);
  }
  for (const NodeEdit& edit : edits_) commitEdit(edit);
  for (const Handover& handover : handovers_) {
    Value* value = handover.value;
    if (value == nullptr) {
      B::outputs(handover.to)[handover.index] = nullptr;
      continue;
    }
    B::outputs(value->producer())[value->outputIndex()] = nullptr;
    B::producer(value) = handover.to;
    B::outputIndex(value) = static_cast<uint32_t>(handover.index);
    B::outputs(handover.to)[handover.index] = value;
  }
  for (const Rewire& rewire : rewires_) {
    if (rewire.from != nullptr) {
      rewire.from->replaceAllUsesWith(rewire.to);
    } else {
      rewire.node->setInput(rewire.index, rewire.to);
    }
  }
  commitOutputs();
  // Readers before what they read (the list is topological, or nearly): each destroy then
  // finds its outputs unread. Inputs go first, so removed nodes reading one another in any
  // order all go.
  std::sort(removed_.begin(), removed_.end(),
            [&](const Node* a, const Node* b) { return check.position(a) > check.position(b); });
  for (Node* node : removed_) node->removeAllInputs();
  for (std::vector<Node*> pending = removed_; !pending.empty();) {
    std::vector<Node*> left;
    for (Node* node : pending) {
      if (!node->destroy()) left.push_back(node);
    }
    ONYX_ASSERT(left.size() < pending.size() && "the check let a removal through that cannot go");
    if (left.size() == pending.size()) break;
    pending = std::move(left);
  }
  for (Value* value : removed_inputs_) {
    Status removed = graph_.removeInput(value);
    ONYX_ASSERT(removed.isOk() && "the check let an input's removal through that cannot go");
    (void)removed;
  }
  if (!removed_initializers_.empty()) {
    Status removed = graph_.removeInitializers(removed_initializers_);
    ONYX_ASSERT(removed.isOk() && "the check let an initializer's removal through that cannot go");
    (void)removed;
  }
  // Names last, once the removed nodes gave theirs back: renames and exact names first, the
  // renamed values' old names given up before any is taken (one may take another's).
  for (const Rename& rename : renames_) {
    std::string_view old_name = rename.value->name();
    if (!old_name.empty() && old_name != rename.name &&
        graph_.names().find(old_name) == rename.value) {
      B::names(&graph_).erase(old_name);
    }
  }
  for (const Rename& rename : renames_) {
    Status renamed = GraphEditor(model_).rename(rename.value, rename.name);
    ONYX_ASSERT(renamed.isOk() && "the check let a rename through to a name in use");
    (void)renamed;
  }
  for (AddedValue& added : values_) {
    if (added.name.empty() || dropped.count(added.value) != 0) continue;
    B::name(added.value) = added.name;
    NameTableWriter::put(B::names(&graph_), arena, added.value);
  }
  for (AddedValue& added : values_) {
    if (dropped.count(added.value) != 0) continue;
    if (added.name.empty()) {
      std::string hint = !added.hint.empty()            ? std::string(added.hint)
                         : added.initializer != nullptr ? std::string("init")
                         : added.value->producer() == nullptr
                             ? std::string("input")
                             : std::string(added.value->producer()->opType()) + "_out";
      B::name(added.value) = GraphEditor(model_).uniqueName(graph_, hint);
      NameTableWriter::put(B::names(&graph_), arena, added.value);
    }
    if (added.initializer != nullptr) {
      added.initializer->name = added.value->name();
      graph_.initializers.push_back(arena, added.initializer);
    }
  }
  commitInputs();
  for (const auto& [value, type] : declared_) {
    if (dropped.count(value) == 0) GraphEditor(model_).setType(value, type);
  }
  forget(false);
}

void Patch::commitOutputs() {
  for (const auto& [index, value] : output_points_) {
    ValueInfo* info = graph_.outputs[index];
    Value* old = info->output.value();
    info->output.set(value);
    if (old != nullptr && old->valueInfo() == info) ir_internal::redeclare(old);
    if (value->graph() == &graph_ && !value->isGraphInput() && value->valueInfo() == nullptr) {
      ir_internal::redeclare(value);
    }
  }
  if (!output_order_) return;
  Arena& arena = GraphEditor(model_).arena();
  std::vector<ValueInfo*> old(graph_.outputs.begin(), graph_.outputs.end());
  // The entries of each value, in order, for the values listed again to keep.
  std::unordered_map<const Value*, std::vector<size_t>> entries;
  for (size_t i = old.size(); i-- > 0;) entries[old[i]->output.value()].push_back(i);
  std::vector<bool> kept(old.size(), false);
  graph_.outputs.clear();
  for (Value* value : *output_order_) {
    auto found = entries.find(value);
    if (found != entries.end() && !found->second.empty()) {
      size_t index = found->second.back();
      found->second.pop_back();
      kept[index] = true;
      graph_.outputs.push_back(arena, old[index]);
    } else {
      GraphEditor(model_).addOutput(graph_, value);
    }
  }
  for (size_t i = 0; i < old.size(); ++i) {
    if (kept[i]) continue;
    Value* value = old[i]->output.value();
    old[i]->output.set(nullptr);
    if (value != nullptr && value->valueInfo() == old[i]) ir_internal::redeclare(value);
  }
}

void Patch::commitInputs() {
  Arena& arena = GraphEditor(model_).arena();
  for (const auto& [value, type] : added_inputs_) {
    ir_internal::appendInput(arena, graph_, value, type);
  }
  if (!input_order_) return;
  std::unordered_set<const Value*> listed(input_order_->begin(), input_order_->end());
  std::vector<Value*> left_out;
  for (const ValueInfo* input : graph_.inputs) {
    if (input->value != nullptr && listed.count(input->value) == 0) {
      left_out.push_back(input->value);
    }
  }
  for (Value* value : left_out) {
    Status removed = graph_.removeInput(value);
    ONYX_ASSERT(removed.isOk() && "the check let an input's removal through that cannot go");
    (void)removed;
  }
  for (Value* value : *input_order_) {
    if (value->graphInput() != nullptr) continue;
    // An initializer: the input of that name is the value, with its default.
    Result<Value*> made =
        GraphEditor(model_).addInput(graph_, value->name(), const_cast<Type*>(value->type()));
    ONYX_ASSERT(made.isOk() && *made == value && "the check let an input through that cannot be");
    (void)made;
  }
  ArenaList<ValueInfo*>& inputs = graph_.inputs;
  inputs.clear();
  for (Value* value : *input_order_) inputs.push_back(arena, value->graphInput());
}

}  // namespace onyx
