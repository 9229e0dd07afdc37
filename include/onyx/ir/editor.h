// onyx/ir/editor.h — every change to a model that allocates, through one object that holds
// the model's arena.
//
// Nodes, values, attributes, types and tensors live in their model's arena, so any change
// that makes something new needs it. A GraphEditor holds it: code that changes a model names
// the model once and the arena never, and this file is the one public place that reaches it.
//
//     GraphEditor edit(model);
//     Node* relu = edit.createNode(*model.graph, "Relu", {x});
//     edit.setIntAttr(relu, "axis", 1);
//     Patch patch = edit.patch(*model.graph);  // edits applied in one step, or none
//
// The changes that allocate nothing (Node::setInput, Graph::removeNode, ...) stay members of
// what they change. An editor is a reference to its model: it does not own it and is as
// cheap to make as a pointer. Each function's cost is given beside it.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <span>
#include <string_view>

#include "onyx/core/status.h"
#include "onyx/ir/model.h"
#include "onyx/ir/patch.h"

// Exported from the shared libraries: the public API (see src/CMakeLists.txt).
#pragma GCC visibility push(default)

namespace onyx {

class Array;
namespace ir_internal {
class GraphBuilder;
}

class GraphEditor {
 public:
  explicit GraphEditor(Model& model) : model_(&model), arena_(model.arena_.get()) {}

  Model& model() const { return *model_; }
  /// The model's arena: for the fields a caller fills in itself (strings with
  /// Arena::copy, ArenaList::push_back, a Tensor from Arena::make).
  Arena& arena() const { return *arena_; }

  /// A patch of `graph` (a graph of this model): see patch.h.
  Patch patch(Graph& graph) const { return Patch(*model_, graph); }

  // ---- graphs --------------------------------------------------------------------------------

  /// A new, empty root graph (no parent): a training graph, or a subgraph to adopt with
  /// setGraphAttr.
  Graph* newGraph() const;
  /// A new, empty graph scoped under `owner` (a node of a graph) before any attribute holds
  /// it: its names are chosen against the scopes it will see (uniqueName), and its nodes may
  /// read the values visible from `owner`. Hold it with setGraphAttr(owner, name, graph).
  Graph* newSubgraph(Node* owner) const;
  /// A new node of `graph`, not yet in its list (insert it with Graph::appendNode,
  /// prependNode, Node::insertBefore / insertAfter), reading `reads` (null: an omitted
  /// input) and defining `output_count` values with fresh names. O(inputs + outputs).
  Node* createNode(Graph& graph, std::string_view op_type, std::span<Value* const> reads = {},
                   size_t output_count = 1) const;
  Node* createNode(Graph& graph, std::string_view op_type, std::initializer_list<Value*> reads,
                   size_t output_count = 1) const {
    return createNode(graph, op_type, std::span<Value* const>(reads.begin(), reads.size()),
                      output_count);
  }
  /// Declares an input of `graph` named `name` of `type` (null: undeclared). When `name` is
  /// one of the graph's initializers, the input is that value (its default). Refused when
  /// the name is taken in scope. O(1) plus isNameInScope.
  Result<Value*> addInput(Graph& graph, std::string_view name, Type* type = nullptr) const;
  /// Makes `value` (visible from `graph`) an output of `graph`, declared with the value's
  /// type (setType keeps the two the same for a value of that graph). O(1).
  void addOutput(Graph& graph, Value* value) const;
  /// Adds a dense initializer. Its name must be non-empty and not taken in scope, except by
  /// a graph input without one (which it then gives a default). O(1) plus isNameInScope.
  Result<Value*> addInitializer(Graph& graph, Tensor* tensor) const;
  /// Adds a sparse initializer, named by its values tensor, under the same rules.
  Result<Value*> addSparseInitializer(Graph& graph, SparseTensor* tensor) const;
  /// The quantization annotation of `graph` for `tensor_name`, made when missing.
  /// O(annotations).
  TensorAnnotation& quantizationAnnotation(Graph& graph, std::string_view tensor_name) const;

  // ---- functions -----------------------------------------------------------------------------

  /// A new function `domain.name` (with `overload`) with an empty body, not yet in the model
  /// (Model::addFunction).
  Function* newFunction(std::string_view domain, std::string_view name,
                        std::string_view overload = {}) const;
  /// Adds an input of `function` named `name`, defined in its body. Refused when the name is
  /// taken. O(1) plus isNameInScope.
  Result<Value*> addInput(Function& function, std::string_view name) const;
  /// Makes `value` (a value of the body) an output of `function`. O(1).
  void addOutput(Function& function, Value* value) const;

  // ---- copies (clone.h says what a copy shares with its source) -----------------------------

  /// A copy of `source` scoped inside `parent` (null: a root graph) and held by an
  /// attribute of `owner` (a node of `parent`; give the copy to setGraphAttr).
  Graph* cloneGraph(const Graph& source, Graph* parent = nullptr, Node* owner = nullptr) const;
  /// A copy of `source`, not yet in the model (Model::addFunction; change its key first when
  /// adding it beside the source).
  Function* cloneFunction(const Function& source) const;
  /// Appends a copy of `source` (a root graph of this model, or of one whose bytes this
  /// model shares: Model::shareBytesOf) to `into`, another root graph of this model: its nodes
  /// after `into`'s, then its initializers, inputs, outputs, value_info and quantization
  /// annotations after `into`'s, every name kept. A graph input of `source` without a default
  /// whose name `into` defines, and an initializer holding the same tensor (element type,
  /// dimensions, bytes) as `into`'s of its name, are not copied: what reads them reads
  /// `into`'s value. Any other name both define, or that would shadow one in a nested graph,
  /// is refused, naming them, with `into` unchanged. O(size of `source`) plus isNameInScope per
  /// name it defines.
  Status graftGraph(Graph& into, const Graph& source) const;
  Type* cloneType(const Type& source) const;
  Tensor* cloneTensor(const Tensor& source) const;
  SparseTensor* cloneSparseTensor(const SparseTensor& source) const;

  // ---- types and tensors ---------------------------------------------------------------------

  /// A tensor type of `elem_type` (a TensorProto::DataType code) with these dims (none: a
  /// scalar). The symbols are copied.
  Type* tensorType(int32_t elem_type, std::initializer_list<Dim> dims) const;
  Type* tensorType(int32_t elem_type, std::span<const Dim> dims) const;
  /// A tensor type whose rank is unknown.
  Type* tensorTypeOfUnknownRank(int32_t elem_type) const;
  Type* sparseTensorType(int32_t elem_type, std::initializer_list<Dim> dims) const;
  Type* sequenceType(Type* elem) const;
  Type* optionalType(Type* elem) const;
  Type* mapType(int32_t key_type, Type* value) const;
  /// A TensorProto holding `array`'s elements as raw_data (strings as string_data); sub-byte
  /// types are packed (tensor_array.h).
  Tensor* tensorFromArray(const Array& array) const;

  // ---- values --------------------------------------------------------------------------------

  /// Declares the type of `value` (`type` in this model's arena; null clears it) on its graph
  /// input or declaration, else on a new value_info entry, and on the outputs of its graph
  /// that are this value. O(outputs of its graph).
  void setType(Value* value, Type* type) const;
  /// Renames `value` (attached to its graph) to `name`, which must be non-empty and not
  /// taken in its graph's scope (unique_names.h). O(1) plus isNameInScope, plus
  /// O(annotations).
  Status rename(Value* value, std::string_view name) const;
  /// A value name for `graph` that isNameInScope does not find: `hint` itself when free,
  /// else `hint_N` for the next free N of the graph's counter; an empty hint gives `v`,
  /// `v_1`, ... Each try costs isNameInScope.
  std::string_view uniqueName(Graph& graph, std::string_view hint) const;

  // ---- nodes ---------------------------------------------------------------------------------

  /// Appends / inserts an input slot of `node`. The slots are re-allocated and relinked in
  /// place in their use-lists: O(inputs).
  void addInput(Node* node, Value* value) const;
  void insertInput(Node* node, size_t i, Value* value) const;
  /// Adds an output of `node` defining a new value named after `hint` (or the op type) so
  /// that no name in scope clashes. O(outputs) plus uniqueName's cost.
  Value* addOutput(Node* node, std::string_view hint = {}) const;
  /// Adds an output defining a value named exactly `name` ("" adds an omitted output and
  /// gives null). Refused when the name is taken in scope. O(outputs).
  Result<Value*> addOutputNamed(Node* node, std::string_view name) const;
  /// Hands `value`, an output of a node, to `to` (a node of the same graph) as its output
  /// `index`, a slot `to` has and leaves empty (addOutputNamed(to, "") makes one): the value
  /// keeps its name, type and uses, and its former producer's slot is left empty. As an
  /// inliner gives a call's outputs to the nodes of the body that compute them, and takes
  /// them back. O(1).
  void handOverOutput(Value* value, Node* to, size_t index) const;

  /// The rarely set fields, for writing: allocated on first use. O(1).
  NodeRareFields& rare(Node* node) const { return rareOf<NodeRareFields>(node->rare_fields); }
  TensorRareFields& rare(Tensor* tensor) const {
    return rareOf<TensorRareFields>(tensor->rare_fields);
  }
  AttributeRareFields& rare(Attribute* attribute) const {
    return rareOf<AttributeRareFields>(attribute->rare_fields);
  }

  // ---- attributes ----------------------------------------------------------------------------
  // A setter replaces an attribute of the same name where it is (any kind), else appends;
  // it returns the attribute, for doc_string and the like. O(attributes).

  Attribute& setFloatAttr(Node* node, std::string_view name, float value) const;
  Attribute& setIntAttr(Node* node, std::string_view name, int64_t value) const;
  Attribute& setStringAttr(Node* node, std::string_view name, std::string_view value) const;
  /// The tensor (in this model's arena) is held as given, not copied.
  Attribute& setTensorAttr(Node* node, std::string_view name, Tensor* value) const;
  /// Gives `node` a new, empty subgraph held by the attribute; fill it through this editor
  /// (its nodes may read the values visible from `node`).
  Graph* setGraphAttr(Node* node, std::string_view name) const;
  /// Holds `subgraph`: a graph with no parent (it is adopted) or one already scoped under
  /// `node` (from cloneGraph(source, node->graph(), node), or newSubgraph(node)).
  Attribute& setGraphAttr(Node* node, std::string_view name, Graph* subgraph) const;
  Attribute& setSparseTensorAttr(Node* node, std::string_view name, SparseTensor* value) const;
  Attribute& setTypeAttr(Node* node, std::string_view name, Type* value) const;
  Attribute& setFloatsAttr(Node* node, std::string_view name, std::span<const float> values) const;
  Attribute& setFloatsAttr(Node* node, std::string_view name,
                           std::initializer_list<float> values) const {
    return setFloatsAttr(node, name, std::span<const float>(values));
  }
  Attribute& setIntsAttr(Node* node, std::string_view name, std::span<const int64_t> values) const;
  Attribute& setIntsAttr(Node* node, std::string_view name,
                         std::initializer_list<int64_t> values) const {
    return setIntsAttr(node, name, std::span<const int64_t>(values));
  }
  Attribute& setStringsAttr(Node* node, std::string_view name,
                            std::span<const std::string_view> values) const;
  Attribute& setStringsAttr(Node* node, std::string_view name,
                            std::initializer_list<std::string_view> values) const {
    return setStringsAttr(node, name, std::span<const std::string_view>(values));
  }
  Attribute& setTensorsAttr(Node* node, std::string_view name,
                            std::span<Tensor* const> values) const;
  /// Each graph as for setGraphAttr(node, name, subgraph).
  Attribute& setGraphsAttr(Node* node, std::string_view name,
                           std::span<Graph* const> subgraphs) const;
  Attribute& setSparseTensorsAttr(Node* node, std::string_view name,
                                  std::span<SparseTensor* const> values) const;
  Attribute& setTypesAttr(Node* node, std::string_view name, std::span<Type* const> values) const;
  /// An attribute that takes the value of the calling function's attribute `referenced`
  /// (for nodes in a function body).
  Attribute& setAttrRef(Node* node, std::string_view name, AttributeKind kind,
                        std::string_view referenced) const;

  // ---- key/value lists and opset imports ----------------------------------------------------

  /// Sets `key` to `value` in `entries` (metadata.h): the last entry with that key changes,
  /// or one is appended. Both strings are copied. O(entries).
  void setMetadata(ArenaList<StringStringEntry>& entries, std::string_view key,
                   std::string_view value) const;
  /// Imports `domain` at `version` in `imports` (a function's opset_import; the model's is
  /// Model::setOpsetVersion): the entry that binds takes the version, or one is added.
  /// O(entries).
  void setImportedVersion(ArenaList<OperatorSetId>& imports, std::string_view domain,
                          int64_t version) const;

 private:
  friend class ir_internal::GraphBuilder;  // editors of arenas outside a model, for the loader
  GraphEditor(Model* model, Arena* arena) : model_(model), arena_(arena) {}
  template <class Fields>
  Fields& rareOf(Fields*& fields) const {
    if (fields == nullptr) fields = arena_->make<Fields>();
    return *fields;
  }

  Model* model_;
  Arena* arena_;
};

}  // namespace onyx

#pragma GCC visibility pop
