// Inlining: a call of a model-local function, or a node of a function-operator, replaced by
// the body it calls.
#include "onyx/passes/inline_functions.h"

#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>

#include "core/development_checks.h"
#include "onyx/core/quote.h"
#include "onyx/ir/clone.h"
#include "onyx/ir/editor.h"
#include "onyx/ir/graph_scope.h"
#include "onyx/ir/opset_imports.h"
#include "onyx/ir/patch.h"
#include "onyx/ir/unique_names.h"
#include "onyx/ops/callee.h"
#include "onyx/ops/function_body.h"
#include "onyx/ops/registry.h"
#include "passes/inline_internal.h"

namespace onyx {

namespace {

using passes_internal::InlinedCall;

// ---------------------------------------------------------------------------------------
// Where a node is, and what it calls

std::string describe(const Node& node) {
  std::string text(node.opType());
  if (!node.nameOrEmpty().empty()) text += " (" + std::string(node.nameOrEmpty()) + ")";
  return text;
}

// ---------------------------------------------------------------------------------------
// Copying a body into a graph

/// Records into `patch` (of the graph of `call`) a copy of `callee`'s body just before the
/// call, binding the body's inputs, outputs and attribute references to the call's. Graphs
/// nested in the body are staged (Patch::addGraph) and copied into at once.
class BodyCopier {
 public:
  /// `bound_inputs`: how many of the call's inputs stand for the body's (all of them for a
  /// function call; none for an If, whose condition chose the body). `bridge_outputs`: an
  /// output of the call that the body does not compute itself (an If branch's outer value or
  /// initializer, or a value given twice) is computed by an Identity; else it is refused.
  BodyCopier(Patch& patch, Node& call, const Function& callee, size_t bound_inputs,
             bool bridge_outputs = false)
      : patch_(patch),
        edit_(patch.model()),
        call_(call),
        callee_(callee),
        bound_inputs_(bound_inputs),
        bridge_outputs_(bridge_outputs) {}

  /// What must hold before anything is recorded: the call fits the body, every value the
  /// body reads is defined in it, and the outputs the call has can be handed over.
  Status check() const {
    if (bound_inputs_ > callee_.inputs.size() || call_.outputCount() > callee_.outputs.size()) {
      return Status(ErrorCode::kInvalidArgument,
                    describe(call_) + " has " + std::to_string(call_.inputCount()) +
                        " inputs and " + std::to_string(call_.outputCount()) +
                        " outputs; the body it calls declares " +
                        std::to_string(callee_.inputs.size()) + " and " +
                        std::to_string(callee_.outputs.size()));
    }
    if (callee_.body == nullptr) {
      return Status(ErrorCode::kInvalidArgument, "the function has no body");
    }
    std::unordered_set<const Value*> handed_over;
    for (size_t k = 0; k < call_.outputCount() && !bridge_outputs_; ++k) {
      if (call_.output(k) == nullptr) continue;
      const Value* formal = formalOutput(k);
      if (!computedByBody(formal)) {
        return Status(ErrorCode::kUnsupported,
                      describe(call_) + ": output " + std::to_string(k) +
                          " of the body is not computed by one of its nodes (it is an input "
                          "or undefined), so the call's output " +
                          quoted(call_.output(k)->name()) + " cannot be handed over");
      }
      if (!handed_over.insert(formal).second) {
        return Status(ErrorCode::kUnsupported,
                      describe(call_) + ": the body gives the same value as two outputs");
      }
    }
    Status undefined;
    callee_.body->forEachNode([&](const Node* node) {
      for (size_t i = 0; i < node->inputCount() && undefined.isOk(); ++i) {
        const Value* read = node->input(i);
        if (read != nullptr && read->isUndefined()) {
          undefined = Status(ErrorCode::kInvalidArgument,
                             "the body of " + std::string(callee_.nameOrEmpty()) + " reads " +
                                 quoted(read->name()) + ", which it does not define");
        }
      }
    });
    return undefined;
  }

  /// Records the copies, just before the call, and returns them in order; the call's output
  /// values are handed to the copies at apply(). The call itself is left alone: the caller
  /// removes it, or keeps it without outputs.
  std::vector<Node*> copy() {
    for (size_t i = 0; i < callee_.inputs.size(); ++i) {
      const Value* formal = callee_.inputs[i];
      if (formal != nullptr) values_[formal] = i < bound_inputs_ ? call_.input(i) : nullptr;
    }
    std::vector<size_t> bridged;
    for (size_t k = 0; k < call_.outputCount(); ++k) {
      if (call_.output(k) == nullptr) continue;
      const Value* formal = formalOutput(k);
      if (!computedByBody(formal) || !handed_over_.emplace(formal, call_.output(k)).second) {
        bridged.push_back(k);
      }
    }
    for (const Value* value : callee_.body->values()) {
      if (value->graph() != callee_.body || value->initializer() == nullptr) continue;
      Tensor* tensor = edit_.cloneTensor(*value->initializer());
      tensor->name = {};
      Value* added = patch_.addInitializer(tensor);
      patch_.nameAfter(added, value->name());
      values_[value] = added;
    }
    std::vector<Node*> copies;
    for (const Node* node = callee_.body->firstNode(); node != nullptr; node = node->next()) {
      copies.push_back(copyNode(*node, nullptr));
    }
    for (size_t k : bridged) {
      Node* identity = patch_.addNode("Identity", {mapped(formalOutput(k))}, 1, &call_);
      if (!call_.nameOrEmpty().empty()) identity->name = prefixed("Identity");
      patch_.handOverOutput(call_.output(k), identity, 0);
      copies.push_back(identity);
    }
    declareTypes(*callee_.body, nullptr);
    return copies;
  }

 private:
  const Value* formalOutput(size_t k) const {
    return callee_.outputs[k] != nullptr ? callee_.outputs[k]->value() : nullptr;
  }

  bool computedByBody(const Value* formal) const {
    return formal != nullptr && formal->producer() != nullptr && formal->graph() == callee_.body;
  }

  Value* mapped(const Value* source) const {
    if (source == nullptr) return nullptr;
    auto found = values_.find(source);
    if (found != values_.end()) return found->second;
    // A value of an enclosing graph (what an If branch captures; a function body has none)
    // is read where the call is as it was.
    if (!callee_.body->encloses(source->graph())) return const_cast<Value*>(source);
    return nullptr;
  }

  std::string_view prefixed(std::string_view name) const {
    return edit_.arena().copy(std::string(call_.nameOrEmpty()) + "/" + std::string(name));
  }

  std::string_view nodeName(const Node& source) const {
    std::string_view own = source.nameOrEmpty();
    if (call_.nameOrEmpty().empty()) return own;
    return prefixed(own.empty() ? source.opType() : own);
  }

  /// A copy of `source`: recorded into the patch (`staged` null), or added to a staged graph.
  Node* copyNode(const Node& source, const StagedGraph* staged) {
    std::vector<Value*> reads;
    reads.reserve(source.inputCount());
    for (size_t i = 0; i < source.inputCount(); ++i) reads.push_back(mapped(source.input(i)));
    Node* copy = staged == nullptr
                     ? patch_.addNode(source.opType(), reads, source.outputCount(), &call_)
                     : staged->addNode(source.opType(), reads);
    std::string_view name = nodeName(source);
    if (!name.empty() || source.name) copy->name = name;
    copy->domain = source.domain;
    if (source.rare_fields != nullptr) {
      const NodeRareFields& rare = *source.rare_fields;
      NodeRareFields& rare_copy = edit_.rare(copy);
      rare_copy.overload = rare.overload;
      rare_copy.doc_string = rare.doc_string;
      rare_copy.metadata_props.assign(edit_.arena(), rare.metadata_props.data(),
                                      rare.metadata_props.size());
    }
    for (size_t i = 0; i < source.outputCount(); ++i) {
      const Value* produced = source.output(i);
      if (staged != nullptr) {
        std::string_view fresh = produced != nullptr ? staged->uniqueName(produced->name()) : "";
        Result<Value*> value = staged->addNodeOutput(copy, fresh);
        ONYX_ASSERT(value.isOk() && "a fresh name is free");
        if (produced != nullptr) values_[produced] = value.value();
        continue;
      }
      if (produced == nullptr) {
        patch_.omitOutput(copy, i);
        continue;
      }
      auto handed = handed_over_.find(produced);
      if (handed != handed_over_.end()) {
        // The call's output, with its name and uses, is computed by the copy.
        patch_.handOverOutput(handed->second, copy, i);
        values_[produced] = handed->second;
      } else {
        patch_.nameAfter(copy->output(i), produced->name());
        values_[produced] = copy->output(i);
      }
    }
    copy->attributes.reserve(edit_.arena(), source.attributes.size());
    for (const Attribute* attribute : source.attributes) {
      if (attribute == nullptr) continue;
      if (Attribute* bound = bindAttribute(*attribute, *copy, staged)) {
        copy->attributes.push_back(edit_.arena(), bound);
      }
    }
    return copy;
  }

  /// The call's attribute (or the default) for a reference; a copy of any other attribute.
  /// Null when a reference has neither: the attribute is left out.
  Attribute* bindAttribute(const Attribute& attribute, Node& holder, const StagedGraph* staged) {
    if (!attribute.isReference()) return copyAttribute(attribute, holder, staged, true);
    std::string_view wanted = *attribute.rare().ref_attr_name;
    const Attribute* value = call_.attribute(wanted);
    if (value == nullptr) {
      for (const Attribute* fallback : callee_.attribute_proto) {
        if (fallback != nullptr && fallback->nameOrEmpty() == wanted) value = fallback;
      }
    }
    if (value == nullptr) return nullptr;
    // A graph the call holds is a graph of the model: copied as it is, it reads what it read.
    Attribute* bound = copyAttribute(*value, holder, staged, false);
    bound->name = attribute.name;
    return bound;
  }

  Attribute* copyAttribute(const Attribute& source, Node& holder, const StagedGraph* staged,
                           bool from_body) {
    Attribute* copy = edit_.arena().make<Attribute>(source);
    if (source.t != nullptr) copy->t = edit_.cloneTensor(*source.t);
    // The copy starts as a bitwise copy of the source; every list needs storage of its own.
    copy->floats.values = source.floats.values.copy(edit_.arena());
    copy->ints.values = source.ints.values.copy(edit_.arena());
    if (source.g != nullptr) copy->g = copyGraph(*source.g, holder, staged, from_body);
    if (source.rare_fields != nullptr) {
      const AttributeRareFields& more = *source.rare_fields;
      copy->rare_fields = edit_.arena().make<AttributeRareFields>(more);
      AttributeRareFields& out = *copy->rare_fields;
      if (more.tp != nullptr) out.tp = edit_.cloneType(*more.tp);
      if (more.sparse_tensor != nullptr) {
        out.sparse_tensor = edit_.cloneSparseTensor(*more.sparse_tensor);
      }
      out.unknown = more.unknown.copy(edit_.arena());
      out.strings = more.strings.copy(edit_.arena());
      out.tensors = {};
      for (const Tensor* tensor : more.tensors) {
        out.tensors.push_back(edit_.arena(),
                              tensor != nullptr ? edit_.cloneTensor(*tensor) : nullptr);
      }
      out.graphs = {};
      for (const Graph* graph : more.graphs) {
        out.graphs.push_back(edit_.arena(), graph != nullptr
                                                ? copyGraph(*graph, holder, staged, from_body)
                                                : nullptr);
      }
      out.sparse_tensors = {};
      for (const SparseTensor* tensor : more.sparse_tensors) {
        out.sparse_tensors.push_back(
            edit_.arena(), tensor != nullptr ? edit_.cloneSparseTensor(*tensor) : nullptr);
      }
      out.type_protos = {};
      for (const Type* type : more.type_protos) {
        out.type_protos.push_back(edit_.arena(),
                                  type != nullptr ? edit_.cloneType(*type) : nullptr);
      }
    }
    return copy;
  }

  /// A graph held by `holder`: staged in the patch when `holder` is recorded there, else in
  /// `outer`, the staged graph holding it.
  Graph* copyGraph(const Graph& source, Node& holder, const StagedGraph* outer, bool from_body) {
    if (!from_body) {
      return &(outer == nullptr ? patch_.addGraphCopy(&holder, source)
                                : outer->addGraphCopy(&holder, source))
                  .graph();
    }
    StagedGraph staged = outer == nullptr ? patch_.addGraph(&holder) : outer->addGraph(&holder);
    Graph& graph = staged.graph();
    graph.name = source.name;
    graph.doc_string = source.doc_string;
    for (const ValueInfo* input : source.inputs) {
      if (input == nullptr || input->value == nullptr) continue;
      Type* type = input->type != nullptr ? edit_.cloneType(*input->type) : nullptr;
      Result<Value*> value = staged.addInput(staged.uniqueName(input->value->name()), type);
      ONYX_ASSERT(value.isOk() && "a fresh name is free");
      values_[input->value] = value.value();
    }
    for (const Value* value : source.values()) {
      if (value->graph() != &source || value->initializer() == nullptr) continue;
      Tensor* tensor = edit_.cloneTensor(*value->initializer());
      Value* input = mapped(value);
      tensor->name = input != nullptr ? input->name() : staged.uniqueName(value->name());
      Result<Value*> added = staged.addInitializer(tensor);
      ONYX_ASSERT(added.isOk() && "a fresh name is free, or an input's without a default");
      values_[value] = added.value();
    }
    for (const Node* node = source.firstNode(); node != nullptr; node = node->next()) {
      copyNode(*node, &staged);
    }
    for (const ValueInfo* output : source.outputs) {
      if (output == nullptr) continue;
      Value* value = mapped(output->output.value());
      if (value == nullptr) continue;
      staged.addGraphOutput(value,
                            output->type != nullptr ? edit_.cloneType(*output->type) : nullptr);
    }
    declareTypes(source, &staged);
    return &graph;
  }

  /// The body's value_info types, on the new values that stand for body values (the call's
  /// own values keep their declarations).
  void declareTypes(const Graph& source, const StagedGraph* staged) {
    for (const ValueInfo* info : source.value_info) {
      if (info == nullptr || info->type == nullptr || info->isRemoved()) continue;
      const Value* declared = info->value;
      if (declared == nullptr || handed_over_.count(declared) != 0 ||
          !callee_.body->encloses(declared->graph())) {
        continue;
      }
      Value* value = mapped(declared);
      if (value == nullptr || value->producer() == nullptr || value->type() != nullptr) continue;
      Type* type = edit_.cloneType(*info->type);
      if (staged != nullptr) {
        staged->setType(value, type);
      } else {
        patch_.declareType(value, type);
      }
    }
  }

  Patch& patch_;
  GraphEditor edit_;
  Node& call_;
  const Function& callee_;
  size_t bound_inputs_;
  bool bridge_outputs_;
  std::unordered_map<const Value*, Value*> values_;
  std::unordered_map<const Value*, Value*> handed_over_;
};

// ---------------------------------------------------------------------------------------
// Opsets

using PlannedImports = std::vector<std::pair<std::string_view, int64_t>>;

/// The imports `callee`'s body needs where `call` is that neither `scope` nor `planned` (the
/// imports other calls of the batch add there) has; an error when one of them has a domain at
/// another version.
Result<PlannedImports> planImports(const ArenaList<OperatorSetId>& scope,
                                   const PlannedImports& planned, const Function& callee,
                                   const Node& call) {
  PlannedImports added;
  OpsetImports in_scope(scope);
  auto plannedVersion = [&](std::string_view domain) -> std::optional<int64_t> {
    for (const PlannedImports* list : {&planned, static_cast<const PlannedImports*>(&added)}) {
      for (const auto& [other, version] : *list) {
        if (canonicalDomain(other) == canonicalDomain(domain)) return version;
      }
    }
    return std::nullopt;
  };
  for (const OperatorSetId& import : callee.opset_import) {
    if (!import.version) continue;
    std::string_view domain = import.domain.value_or("");
    std::optional<int64_t> have = in_scope.versionOf(domain);
    if (!have) have = plannedVersion(domain);
    if (!have) {
      added.emplace_back(domain, *import.version);
      continue;
    }
    if (*have != *import.version) {
      return Status(ErrorCode::kInvalidArgument,
                    describe(call) + ": the body imports " + std::string(canonicalDomain(domain)) +
                        " at version " + std::to_string(*import.version) +
                        ", where the node is it is imported at " + std::to_string(*have));
    }
  }
  return added;
}

}  // namespace

// ---------------------------------------------------------------------------------------
// Calls inlined together

namespace passes_internal {

struct CallInliner::State {
  struct Recorded {
    Node* call;
    std::vector<Node*> copies;
    std::vector<Value*> outputs;
    ArenaList<OperatorSetId>* imports;
    PlannedImports added_imports;
  };

  explicit State(Model& target) : model(target), callees(target) {}

  Patch& patchOf(Graph& graph) {
    auto [found, fresh] = patch_of.try_emplace(&graph, nullptr);
    if (fresh) {
      patches.push_back(std::make_unique<Patch>(model, graph));
      found->second = patches.back().get();
    }
    return *found->second;
  }

  Model& model;
  CalleeResolver callees;
  std::vector<std::unique_ptr<Patch>> patches;
  std::unordered_map<const Graph*, Patch*> patch_of;
  std::vector<Recorded> recorded;
  std::unordered_map<const ArenaList<OperatorSetId>*, PlannedImports> planned;
};

CallInliner::CallInliner(Model& model) : state_(std::make_unique<State>(model)) {}

CallInliner::~CallInliner() = default;

Status CallInliner::add(Node& node, bool local_functions, bool function_operators,
                        const ValueTypeOf* type_of) {
  State& state = *state_;
  if (node.graph() == nullptr) {
    return Status(ErrorCode::kInvalidArgument, "the node is not in a graph");
  }
  OpsetImports imports = scopeOf(state.model, node).imports;
  Callee target = state.callees.resolve(node, imports);
  const Function* function = nullptr;
  std::optional<FunctionBody> operator_body;
  if (target.function != nullptr && local_functions) {
    function = target.function;
  } else if (!function_operators || target.function != nullptr || target.schema == nullptr ||
             !target.opset || !hasFunctionBody(*target.schema)) {
    if (!local_functions) {
      return Status(ErrorCode::kNotFound, describe(node) + ": its operator has no function body");
    }
    return Status(
        ErrorCode::kInvalidArgument,
        describe(node) + " calls no model-local function, and its operator has no function body");
  } else {
    Result<FunctionBody> body =
        functionBodyFor(*target.schema, node, *target.opset, imports, type_of);
    if (!body) return body.status();
    operator_body = std::move(body).value();
    function = operator_body->function;
  }
  ArenaList<OperatorSetId>& scope = importListOf(state.model, *node.graph());
  PlannedImports& planned = state.planned[&scope];
  Result<PlannedImports> added = planImports(scope, planned, *function, node);
  if (!added) return added.status();
  Patch& patch = state.patchOf(*node.graph());
  BodyCopier copier(patch, node, *function, node.inputCount());
  ONYX_RETURN_IF_ERROR(copier.check());
  // From here on nothing fails. A body built for a function-operator lives in its own model;
  // the copies share its strings and tensor bytes.
  if (operator_body) state.model.shareBytesOf(operator_body->model);
  planned.insert(planned.end(), added->begin(), added->end());
  std::vector<Value*> outputs(node.outputs().begin(), node.outputs().end());
  state.recorded.push_back({&node, copier.copy(), std::move(outputs), &scope, *std::move(added)});
  return Status::ok();
}

Result<std::vector<InlinedCall>> CallInliner::apply(size_t batch) {
  State& state = *state_;
  std::vector<Patch*> all;
  for (const std::unique_ptr<Patch>& patch : state.patches) all.push_back(patch.get());
  ONYX_RETURN_IF_ERROR(applyAll(all));
  GraphEditor edit(state.model);
  std::vector<InlinedCall> done;
  done.reserve(state.recorded.size());
  for (State::Recorded& recorded : state.recorded) {
    size_t before = recorded.imports->size();
    for (const auto& [domain, version] : recorded.added_imports) {
      OperatorSetId import;
      import.domain = edit.arena().copy(domain);
      import.version = version;
      recorded.imports->push_back(edit.arena(), import);
    }
    done.push_back({recorded.call, std::move(recorded.copies), std::move(recorded.outputs),
                    recorded.imports, before, batch});
  }
  state.recorded.clear();
  state.planned.clear();
  return done;
}

namespace {

/// Applies one patch per graph that `record` fills; the edits are sound by construction.
template <class Record>
void applyPerGraph(Model& model, std::span<const InlinedCall> calls, Record&& record) {
  std::vector<std::unique_ptr<Patch>> patches;
  std::unordered_map<const Graph*, Patch*> patch_of;
  for (const InlinedCall& call : calls) {
    Patch*& patch = patch_of[call.call->graph()];
    if (patch == nullptr) {
      patches.push_back(std::make_unique<Patch>(model, *call.call->graph()));
      patch = patches.back().get();
    }
    record(*patch, call);
  }
  std::vector<Patch*> all;
  for (const std::unique_ptr<Patch>& patch : patches) all.push_back(patch.get());
  Status applied = applyAll(all);
  ONYX_ASSERT(applied.isOk() && "putting an inlined call's edits through cannot be refused");
  (void)applied;
}

}  // namespace

void finishInlined(Model& model, std::span<const InlinedCall> calls) {
  applyPerGraph(model, calls,
                [](Patch& patch, const InlinedCall& call) { patch.removeNode(call.call); });
}

void undoInlined(Model& model, std::span<const InlinedCall> calls) {
  // Calls of one batch are independent and go back together; a later batch first, since it
  // may have inlined a copy an earlier one made.
  for (size_t end = calls.size(); end > 0;) {
    size_t begin = end;
    while (begin > 0 && calls[begin - 1].batch == calls[end - 1].batch) --begin;
    std::span<const InlinedCall> batch = calls.subspan(begin, end - begin);
    applyPerGraph(model, batch, [](Patch& patch, const InlinedCall& call) {
      for (size_t k = 0; k < call.outputs.size(); ++k) {
        if (call.outputs[k] != nullptr) patch.handOverOutput(call.outputs[k], call.call, k);
      }
      for (Node* copy : call.copies) patch.removeNode(copy);
    });
    for (size_t i = end; i-- > begin;) calls[i].imports->truncate(calls[i].imports_before);
    end = begin;
  }
}

Status inlineIfBranch(Model& model, Node& node, bool condition) {
  Graph* branch = node.graphAttr(condition ? "then_branch" : "else_branch");
  if (node.graph() == nullptr || branch == nullptr || !branch->inputs.empty() ||
      branch->outputs.size() < node.outputCount()) {
    return Status(ErrorCode::kInvalidArgument, describe(node) + " has no branch to inline");
  }
  // The branch as the body of a function without inputs, for the copier.
  Function body;
  body.body = branch;
  Arena& arena = GraphEditor(model).arena();
  for (ValueInfo* output : branch->outputs) body.outputs.push_back(arena, &output->output);
  Patch patch(model, *node.graph());
  BodyCopier copier(patch, node, body, 0, /*bridge_outputs=*/true);
  ONYX_RETURN_IF_ERROR(copier.check());
  copier.copy();
  patch.removeNode(&node);
  return patch.apply();
}

}  // namespace passes_internal

namespace {

// ---------------------------------------------------------------------------------------
// Inlining everything

/// The calls among model-local functions, for refusing recursion before anything changes.
Status refuseRecursion(const Model& model) {
  CalleeResolver callees(model);
  std::unordered_map<const Function*, std::vector<const Function*>> calls;
  for (const Function* function : model.functions) {
    if (function->body == nullptr) continue;
    function->body->forEachNode([&](const Node* node) {
      if (const Function* callee = callees.localFunction(*node)) {
        calls[function].push_back(callee);
      }
    });
  }
  // Depth-first search with colours: grey on the stack, black done.
  std::unordered_map<const Function*, int> colour;
  std::vector<const Function*> path;
  std::string cycle;
  auto visit = [&](auto&& self, const Function* function) -> bool {
    colour[function] = 1;
    path.push_back(function);
    for (const Function* callee : calls[function]) {
      if (colour[callee] == 1) {
        bool on = false;
        for (const Function* step : path) {
          on |= step == callee;
          if (on) cycle += std::string(step->nameOrEmpty()) + " -> ";
        }
        cycle += std::string(callee->nameOrEmpty());
        return true;
      }
      if (colour[callee] == 0 && self(self, callee)) return true;
    }
    path.pop_back();
    colour[function] = 2;
    return false;
  };
  for (const Function* function : model.functions) {
    if (colour[function] == 0 && visit(visit, function)) {
      return Status(ErrorCode::kInvalidArgument,
                    "model-local functions call themselves, which cannot be inlined: " + cycle);
    }
  }
  return Status::ok();
}

/// The functions something still calls: from the graphs, then through the bodies of those.
std::unordered_set<const Function*> calledFunctions(const Model& model) {
  CalleeResolver callees(model);
  std::unordered_set<const Function*> called;
  std::vector<const Function*> pending;
  auto collect = [&](const Graph* graph) {
    if (graph == nullptr) return;
    graph->forEachNode([&](const Node* node) {
      const Function* callee = callees.localFunction(*node);
      if (callee != nullptr && called.insert(callee).second) pending.push_back(callee);
    });
  };
  collect(model.graph);
  for (const TrainingInfo* info : model.training_info) {
    collect(info->initialization);
    collect(info->algorithm);
  }
  while (!pending.empty()) {
    const Function* function = pending.back();
    pending.pop_back();
    collect(function->body);
  }
  return called;
}

bool anythingToInline(const Model& model, const InlineOptions& options) {
  if (!model.functions.empty()) return true;
  if (!options.function_operators || model.graph == nullptr) return false;
  CalleeResolver callees(model);
  OpsetImports imports(model.opset_import);
  bool found = false;
  auto scan = [&](const Graph* graph) {
    if (graph == nullptr) return;
    graph->forEachNode([&](const Node* node) {
      if (!found) found = callees.resolve(*node, imports).operator_body;
    });
  };
  scan(model.graph);
  for (const TrainingInfo* info : model.training_info) {
    scan(info->initialization);
    scan(info->algorithm);
  }
  return found;
}

/// Inlines the calls of the model's graphs in batches: the calls found in the graphs first,
/// then those among the copies the last batch made, until none is left.
class Expander {
 public:
  Expander(Model& model, const InlineOptions& options, InlineReport& report)
      : model_(model), callees_(model), options_(options), report_(report) {}

  /// Inlines everything, or leaves the model as it was.
  Status run() {
    std::vector<std::pair<Node*, int>> pending;
    auto roots = [&](Graph* graph) {
      if (graph == nullptr) return;
      for (Node* node : graph->nodes()) pending.emplace_back(node, 0);
    };
    roots(model_.graph);
    for (TrainingInfo* info : model_.training_info) {
      roots(info->initialization);
      roots(info->algorithm);
    }
    for (size_t batch = 0; !pending.empty(); ++batch) {
      passes_internal::CallInliner inliner(model_);
      std::vector<int> depths;
      for (const auto& [node, depth] : pending) {
        if (Status examined = examine(inliner, *node, depth, depths); !examined) {
          passes_internal::undoInlined(model_, journal_);
          return examined;
        }
      }
      Result<std::vector<InlinedCall>> done = inliner.apply(batch);
      if (!done) {
        passes_internal::undoInlined(model_, journal_);
        return done.status();
      }
      pending.clear();
      for (size_t i = 0; i < done->size(); ++i) {
        for (Node* copy : (*done)[i].copies) pending.emplace_back(copy, depths[i] + 1);
      }
      journal_.insert(journal_.end(), std::make_move_iterator(done->begin()),
                      std::make_move_iterator(done->end()));
    }
    passes_internal::finishInlined(model_, journal_);
    return Status::ok();
  }

 private:
  /// Records `node` into `inliner` when it is a call to inline (`depth`: the bodies it came
  /// from), else looks into the graphs it holds.
  Status examine(passes_internal::CallInliner& inliner, Node& node, int depth,
                 std::vector<int>& depths) {
    Callee target = callees_.resolve(node, scopeOf(model_, node).imports);
    bool local = target.function != nullptr;
    if (local || (options_.function_operators && target.operator_body)) {
      if (depth >= options_.max_depth) {
        return Status(ErrorCode::kLimitExceeded,
                      describe(node) + ": function bodies nest deeper than " +
                          std::to_string(options_.max_depth) + " levels");
      }
      Status added = inliner.add(node, true, options_.function_operators);
      if (added) {
        depths.push_back(depth);
        ++(local ? report_.function_calls : report_.operator_calls);
        return Status::ok();
      }
      if (local || added.code() == ErrorCode::kInternal) return added;
      report_.left_alone.push_back(describe(node) + ": " + added.message());
    }
    for (Attribute* attribute : node.attributes) {
      if (attribute->g != nullptr) {
        ONYX_RETURN_IF_ERROR(examineGraph(inliner, *attribute->g, depth, depths));
      }
      for (Graph* graph : attribute->rare().graphs) {
        if (graph != nullptr) ONYX_RETURN_IF_ERROR(examineGraph(inliner, *graph, depth, depths));
      }
    }
    return Status::ok();
  }

  Status examineGraph(passes_internal::CallInliner& inliner, Graph& graph, int depth,
                      std::vector<int>& depths) {
    for (Node* node : graph.nodes()) {
      ONYX_RETURN_IF_ERROR(examine(inliner, *node, depth, depths));
    }
    return Status::ok();
  }

  Model& model_;
  CalleeResolver callees_;
  const InlineOptions& options_;
  InlineReport& report_;
  std::vector<InlinedCall> journal_;  // every call inlined so far, batch by batch
};

}  // namespace

Status inlineNode(Model& model, Node& node) {
  passes_internal::CallInliner inliner(model);
  ONYX_RETURN_IF_ERROR(inliner.add(node, true, true));
  Result<std::vector<InlinedCall>> done = inliner.apply();
  if (!done) return done.status();
  passes_internal::finishInlined(model, *done);
  return Status::ok();
}

Result<InlineReport> inlineAllFunctions(Model& model, const InlineOptions& options) {
  InlineReport report;
  ONYX_RETURN_IF_ERROR(refuseRecursion(model));
  if (!anythingToInline(model, options)) return report;
  ONYX_RETURN_IF_ERROR(Expander(model, options, report).run());
  if (options.remove_unused_functions) {
    std::unordered_set<const Function*> called = calledFunctions(model);
    for (size_t i = model.functions.size(); i-- > 0;) {
      if (called.count(model.functions[i]) != 0) continue;
      model.removeFunction(model.functions[i]);
      ++report.functions_removed;
    }
  }
  return report;
}

}  // namespace onyx
