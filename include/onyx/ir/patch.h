// onyx/ir/patch.h — a set of edits to one graph, recorded, then applied in one step or
// discarded.
//
// A rewrite that finds halfway through that it cannot finish should leave the model as it
// was. A Patch records the edits instead of making them: nodes and initializers to add,
// uses to re-point, nodes and initializers to remove, the graph's inputs and outputs, values'
// declared types. apply() first checks that the whole set is
// sound (every name free, nothing left reading a removed node, every read visible and defined
// before the node that reads it) and only then changes the graph; when a check fails it returns the
// error and the graph has not changed. A patch that is never applied leaves the model
// untouched: the nodes and values it created are not in the graph and their names are not
// taken (their memory stays in the model's arena until the model goes).
//
// Until apply(), a node the patch adds is detached: set its name, domain and attributes
// (not graph attributes), never its inputs or outputs, which belong to the patch. Values the
// patch adds are in its graph's scope at once and get their names at apply(): the one given
// to nameValue(), else a fresh name from their hint. A node of the graph is changed in place the
// same way, recorded: its operator (setOperator), its attributes (attributesFor, removeAttribute)
// and its number of inputs (resizeInputs), then its inputs (setInput). Not thread-safe; one patch
// at a time per graph.
//
// A node the patch adds may hold graphs (an If's branches, a Loop's body): addGraph gives one,
// a StagedGraph, built at once rather than recorded, since nothing outside reads it until
// apply(). Its reads of the patched graph link as they are made; discarding the patch (or
// destroying it unapplied) unlinks them and takes the graph out of the scope again.
#pragma once

#include <cstddef>
#include <initializer_list>
#include <optional>
#include <span>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "onyx/core/status.h"
#include "onyx/ir/model.h"

// Exported from the shared libraries: the public API (see src/CMakeLists.txt).
#pragma GCC visibility push(default)

namespace onyx {

/// A graph a patch adds, held by a node the patch adds or by a node of another staged graph:
/// built here, at once, and part of the model when the patch is applied. Its nodes may read
/// the values visible from the patched graph and the values the patch adds (apply() checks
/// they are defined before the node holding the graph). Names are checked against every
/// scope the graph will see.
class StagedGraph {
 public:
  Graph& graph() const { return *graph_; }
  /// An input named `name` (refused when the name is taken in scope) of `type` (null:
  /// undeclared).
  Result<Value*> addInput(std::string_view name, Type* type = nullptr) const;
  /// An initializer holding `tensor`, under the tensor's name: refused when the name is taken
  /// in scope, except by an input without a default, which it then gives one.
  Result<Value*> addInitializer(Tensor* tensor) const;
  /// A node appended to the graph, reading `reads` (null: an omitted input), without outputs
  /// until addNodeOutput gives them.
  Node* addNode(std::string_view op_type, std::span<Value* const> reads) const;
  /// The next output of `node` (a node of this graph), named `name`; empty: an omitted
  /// output. Refused when the name is taken in scope.
  Result<Value*> addNodeOutput(Node* node, std::string_view name) const;
  /// `value` (visible from the graph) as the graph's next output, declared `type` (null: as
  /// the value is).
  void addGraphOutput(Value* value, Type* type = nullptr) const;
  /// Declares `value`, a value of this graph, of `type`.
  void setType(Value* value, Type* type) const;
  /// A name free in every scope the graph sees: `hint`, else `hint_N`.
  std::string_view uniqueName(std::string_view hint) const;
  /// A new, empty graph held by `holder` (a node of this graph): put it in one of the
  /// holder's attributes.
  StagedGraph addGraph(Node* holder) const;
  /// A copy of `source` held by `holder` (a node of this graph), as Patch::addGraphCopy's.
  StagedGraph addGraphCopy(Node* holder, const Graph& source) const;

 private:
  friend class Patch;
  StagedGraph(Model& model, Graph& graph) : model_(&model), graph_(&graph) {}
  Model* model_;
  Graph* graph_;
};

class Patch {
 public:
  /// A patch of `graph`, a graph of `model` (its main graph, a subgraph, a function body).
  Patch(Model& model, Graph& graph);
  Patch(const Patch&) = delete;
  Patch& operator=(const Patch&) = delete;
  /// Unapplied edits are forgotten; graphs staged for them are taken out of the scope.
  ~Patch();

  Graph& graph() const { return graph_; }
  Model& model() const { return model_; }
  /// Nothing recorded (or all of it applied or discarded).
  bool empty() const;

  /// A new node `op_type` reading `reads` (null: an omitted input; else values visible from
  /// the graph, or values this patch adds), with `output_count` outputs named after
  /// `op_type`. At apply() it goes just before `before` (an attached node of the graph),
  /// or last when `before` is null. O(inputs + outputs).
  Node* addNode(std::string_view op_type, std::span<Value* const> reads, size_t output_count = 1,
                Node* before = nullptr);
  Node* addNode(std::string_view op_type, std::initializer_list<Value*> reads,
                size_t output_count = 1, Node* before = nullptr) {
    return addNode(op_type, std::span<Value* const>(reads.begin(), reads.size()), output_count,
                   before);
  }
  /// A new initializer holding `tensor` (in the model's arena). Its value is named as the
  /// tensor is, or, for a tensor without a name, freshly after "init"; the tensor takes the
  /// value's name at apply(). O(1).
  Value* addInitializer(Tensor* tensor);
  /// A new, empty graph held by `holder`, a node this patch adds: put it in one of the
  /// holder's attributes (`attribute->g`, or the `graphs` of a list). Its names are taken in
  /// the patched graph's scope from now on, until the patch is discarded.
  StagedGraph addGraph(Node* holder);
  /// A copy of `source` (clone.h: its names kept, its reads of enclosing graphs as they were)
  /// held by `holder`, a node this patch adds, as addGraph's.
  StagedGraph addGraphCopy(Node* holder, const Graph& source);

  /// Gives `value`, a value this patch adds, exactly `name` at apply(), which fails when
  /// the name is taken in scope by anything but an output of a node this patch removes.
  void nameValue(Value* value, std::string_view name);
  /// Gives `value`, a value this patch adds, a fresh name after `hint` at apply() (`hint`
  /// itself when free, else `hint_N`: GraphEditor::uniqueName), unless nameValue names it.
  void nameAfter(Value* value, std::string_view hint);

  /// Renames `value`, a value of the graph the patch keeps, to `name` at apply() (its
  /// declarations and annotations follow, as GraphEditor::rename). The name may be one a
  /// node or initializer the patch removes gives back, as a graph output's name is kept
  /// when the value that computes it changes, or one that a value the patch renames gives
  /// up (for a value it adds too).
  void renameValue(Value* value, std::string_view name);

  /// Re-points every use of `from` at `to` (graph outputs included, which then carry
  /// `to`'s name), as the uses are when apply() gets to it. O(1) now, O(uses) at apply().
  void replaceAllUsesWith(Value* from, Value* to);
  /// Points input `index` of `node` (a node of the graph) at `value` (null: omitted).
  void setInput(Node* node, size_t index, Value* value);
  /// Gives `node` (a node of the graph) the operator `op_type` of `domain` ("" for the
  /// default domain) at apply(), as when an opset conversion moves it to another version.
  void setOperator(Node* node, std::string_view domain, std::string_view op_type);
  /// A detached stand-in on which to set the attributes `node` (a node of the graph) gains at
  /// apply() with GraphEditor (`GraphEditor(patch.model()).setIntAttr(...)`, ...): each replaces
  /// the node's attribute of the same name, or is added. The same stand-in on every call for a
  /// node. Graph attributes are not taken this way: apply() refuses them. O(1).
  Node& attributesFor(Node* node);
  /// Removes `node`'s attribute `name` at apply() (before attributesFor's are set); nothing
  /// when it has none.
  void removeAttribute(Node* node, std::string_view name);
  /// Gives `node` (a node of the graph) `count` input slots at apply(): the last ones go, or
  /// omitted ones are added, for setInput (which may name them once this is recorded).
  void resizeInputs(Node* node, size_t count);

  /// The inputs `node` has once the patch is applied: as resizeInputs gives, else as now.
  size_t inputCountAfter(const Node* node) const;

  /// At apply(), `value` (an output of a node of the graph) becomes output `index` of `to`
  /// and keeps its name, uses and declarations: its node loses it (an omitted output), and is
  /// usually removed. `to` is a node this patch adds, whose own value for that output is then
  /// dropped (nothing may read it), or a node of the graph whose output `index` is omitted.
  /// What reads `value` must come after `to`.
  void handOverOutput(Value* value, Node* to, size_t index);

  /// Leaves output `index` of `node`, a node this patch adds, omitted (nothing may read the
  /// value addNode made for it).
  void omitOutput(Node* node, size_t index) { handovers_.push_back({nullptr, node, index}); }
  /// Declares `value` of `type` at apply() (GraphEditor::setType; null: undeclared), last of
  /// the edits: a value this patch adds, or one the graph keeps (its input, initializer or a
  /// node's output; not one the patch removes).
  void declareType(Value* value, Type* type) { declared_.push_back({value, type}); }

  /// A new input of the graph, declared `type` (null: undeclared), named at apply() as
  /// nameValue() or nameAfter() says (else after "input"). It goes after the graph's inputs,
  /// unless setGraphInputs() places it.
  Value* addGraphInput(Type* type);
  /// The graph's inputs once the patch is applied, in this order: inputs of the graph,
  /// initializers of the graph (which become inputs with that default) and inputs this patch
  /// adds (every one of them). An input left out that has an initializer stays, a constant;
  /// any other goes with its name, and by apply()'s end nothing may read it. Recorded once.
  void setGraphInputs(std::span<Value* const> inputs);
  /// The graph's outputs once the patch is applied, in this order: values of the graph, or
  /// visible from it, or that this patch adds, as they are when the uses have been
  /// re-pointed. A value that is an output already keeps its entry (its declaration and doc
  /// string); the others get new ones. Recorded once.
  void setGraphOutputs(std::span<Value* const> outputs);
  /// Output `index` of the graph (as the outputs are now) reads `value` instead (visible from
  /// the graph, kept or added by the patch); its entry keeps its declaration and doc string.
  /// Not with setGraphOutputs.
  void setGraphOutput(size_t index, Value* value) { output_points_.push_back({index, value}); }

  /// Removes `node` (a node of the graph) and the subgraphs it holds. By apply()'s end
  /// nothing may read its outputs: remove their readers or re-point their uses too.
  void removeNode(Node* node);
  /// Removes the initializer (dense or sparse) of `value`, a value of the graph, at apply()
  /// (after the nodes it removes). A value that is also a graph input stays, an input without
  /// a default; any other goes with its name, and by apply()'s end nothing may read it.
  void removeInitializer(Value* value);
  /// Takes `value`, an input of the graph that an initializer of the graph also defines, out of
  /// the graph's inputs at apply(): it stays, a constant defined by its initializer (no longer
  /// a default a caller may override). Refused for an input without an initializer.
  void removeGraphInput(Value* value);
  /// `replacement` (a node this patch adds, with at least as many outputs) takes `node`'s
  /// place: it goes just before it, its outputs take over the uses of `node`'s, and `node`
  /// is removed.
  void replaceNode(Node* node, Node* replacement);

  /// Checks the whole patch, then makes every recorded edit, in the order recorded (added
  /// nodes and values, re-pointed uses, removals, then names). On a failed check, returns
  /// the error (naming the node or value at fault) with the graph untouched. Either way the
  /// patch is empty afterwards. O(recorded edits + uses of the values they touch), plus
  /// one walk of the graph's node list when nodes are added or uses re-pointed (to check
  /// the order).
  Status apply();
  /// Forgets every recorded edit; the graph stays as it is. A patch destroyed without
  /// apply() does the same.
  void discard();

  /// How far the recording has got, for discardSince().
  struct Mark {
    size_t nodes = 0, values = 0, edits = 0, rewires = 0, removed = 0, removed_initializers = 0,
           removed_inputs = 0, renames = 0, staged = 0, handovers = 0, declared = 0,
           added_inputs = 0, output_points = 0;
    bool input_order = false, output_order = false;
  };
  Mark mark() const;
  /// Forgets the edits recorded since `mark` (taken from this patch, with no apply() or
  /// discard() since): the part of a larger recording that turned out not to be wanted, as a
  /// rewrite that declines. The change of a node's operator or attributes recorded before the
  /// mark stays whole, even where it was added to after it.
  void discardSince(const Mark& mark);

  /// applyAll's patches, each of another graph of one model, applied all or none: every patch
  /// is checked as apply() checks it, and the names given with nameValue() (or by a named
  /// initializer) must differ between patches of graphs where one encloses the other. A value
  /// may lose its last readers to another patch: a reader that patch removes, or one inside a
  /// graph held by a node it removes, no longer counts. Only when every check passes are the
  /// patches applied: patches of more deeply nested graphs first, else in the order given. On
  /// a failed check, returns the first error (naming the node or value at fault) with every
  /// graph untouched. Either way every patch is empty afterwards.
  friend Status applyAll(std::span<Patch* const> patches);

 private:
  struct AddedNode {
    Node* node;
    std::vector<Value*> reads;
    Node* before;
  };
  struct AddedValue {
    Value* value;
    std::string_view name;  // exact name, from nameValue or a named initializer's tensor
    std::string_view hint;  // else a fresh name after this, from nameAfter
    Tensor* initializer;    // null for a node output
  };
  /// What changes of a node of the graph in place.
  struct NodeEdit {
    Node* node = nullptr;
    bool set_operator = false;
    std::string_view domain;
    std::string_view op_type;
    Node* attributes = nullptr;  // the stand-in of attributesFor
    std::vector<std::string_view> removed_attributes;
    std::optional<size_t> input_count;
  };
  struct Handover {
    Value* value;  // null: the output is omitted
    Node* to;
    size_t index;
  };
  struct Rewire {
    Value* from;  // every use of it; null for one node input
    Node* node;
    size_t index;
    Value* to;
  };
  class Check;

  // Makes every recorded edit; `check` passed for this patch.
  void commit(const Check& check);
  // The interface edits of commit(): outputs before the removals, inputs after the names.
  void commitOutputs();
  void commitInputs();
  // Forgets every record; `unstage`: the staged graphs too (not after commit()).
  void forget(bool unstage);
  void commitEdit(const NodeEdit& edit);
  // The exact names the patch gives: to values it adds, and by renameValue.
  std::vector<std::string_view> givenNames() const;
  bool isAdded(const Value* value) const { return added_values_.count(value) != 0; }
  NodeEdit& editOf(Node* node);

  Model& model_;
  Graph& graph_;
  std::vector<AddedNode> added_nodes_;
  std::vector<AddedValue> values_;
  std::unordered_map<const Value*, size_t> added_values_;  // index in values_
  std::vector<NodeEdit> edits_;
  std::unordered_map<const Node*, size_t> edit_of_;  // index in edits_
  std::vector<Rewire> rewires_;
  std::vector<Handover> handovers_;
  std::vector<Graph*> staged_;  // graphs addGraph made, held by added nodes
  std::vector<std::pair<Value*, Type*>> declared_;
  std::vector<std::pair<Value*, Type*>> added_inputs_;    // addGraphInput's, with their types
  std::optional<std::vector<Value*>> input_order_;        // setGraphInputs'
  std::optional<std::vector<Value*>> output_order_;       // setGraphOutputs'
  std::vector<std::pair<size_t, Value*>> output_points_;  // setGraphOutput's
  std::vector<Node*> removed_;
  std::vector<Value*> removed_initializers_;
  std::vector<Value*> removed_inputs_;
  struct Rename {
    Value* value;
    std::string_view name;
  };
  std::vector<Rename> renames_;
};

Status applyAll(std::span<Patch* const> patches);

}  // namespace onyx

#pragma GCC visibility pop
