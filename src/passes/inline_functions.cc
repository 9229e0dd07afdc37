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

/// What a node calls, ready to inline: a model-local function, or a function-operator's body
/// (which `operator_body` owns).
struct InlinedBody {
  const Function* function = nullptr;
  std::optional<FunctionBody> operator_body;
};

/// The body `node` calls (onyx/ops/callee.h decides what it calls, from the imports where the
/// node is).
Result<InlinedBody> bodyCalledBy(Model& model, const CalleeResolver& callees, const Node& node) {
  OpsetImports imports = scopeOf(model, node).imports;
  Callee target = callees.resolve(node, imports);
  InlinedBody inlined;
  if (target.function != nullptr) {
    inlined.function = target.function;
    return inlined;
  }
  if (target.schema == nullptr || !hasFunctionBody(*target.schema)) {
    return Status(
        ErrorCode::kInvalidArgument,
        describe(node) + " calls no model-local function, and its operator has no function body");
  }
  Result<FunctionBody> body = functionBodyFor(*target.schema, node, *target.opset, imports);
  if (!body) return body.status();
  inlined.operator_body = std::move(body).value();
  inlined.function = inlined.operator_body->function;
  return inlined;
}

// ---------------------------------------------------------------------------------------
// Copying a body into a graph

/// Copies `callee`'s body into the graph of `call`, before it, binding the body's inputs,
/// outputs and attribute references to the call's.
class BodyCopier {
 public:
  /// `bound_inputs`: how many of the call's inputs stand for the body's (all of them for a
  /// function call; none for an If, whose condition chose the body).
  BodyCopier(const GraphEditor& edit, Node& call, const Function& callee, size_t bound_inputs)
      : edit_(edit), call_(call), callee_(callee), bound_inputs_(bound_inputs) {}

  /// What must hold before anything changes: the call fits the body, every value the body
  /// reads is defined in it, and the outputs the call has can be handed over.
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
    for (size_t k = 0; k < call_.outputCount(); ++k) {
      if (call_.output(k) == nullptr) continue;
      const Value* formal = callee_.outputs[k] != nullptr ? callee_.outputs[k]->value() : nullptr;
      if (formal == nullptr || formal->producer() == nullptr) {
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

  /// Copies the body in, just before the call, and returns the copies in order; the call's
  /// output values are taken over by the body's nodes. The call stays where it was, with no
  /// outputs, for the caller to remove (InlinedCall::finish) or restore (InlinedCall::undo).
  std::vector<Node*> copy() {
    Graph& into = *call_.graph();
    for (size_t i = 0; i < callee_.inputs.size(); ++i) {
      const Value* formal = callee_.inputs[i];
      if (formal != nullptr) values_[formal] = i < bound_inputs_ ? call_.input(i) : nullptr;
    }
    for (size_t k = 0; k < call_.outputCount(); ++k) {
      if (call_.output(k) != nullptr) handed_over_[callee_.outputs[k]->value()] = call_.output(k);
    }
    for (const Value* value : callee_.body->values()) {
      if (value->graph() != callee_.body || value->initializer() == nullptr) continue;
      Tensor* tensor = edit_.cloneTensor(*value->initializer());
      tensor->name = edit_.uniqueName(into, value->name());
      values_[value] = edit_.addInitializer(into, tensor).value();
    }
    std::vector<Node*> copies;
    for (const Node* node = callee_.body->firstNode(); node != nullptr; node = node->next()) {
      Node* copy = copyNode(*node, into);
      copy->insertBefore(&call_);
      copies.push_back(copy);
    }
    declareTypes(*callee_.body);
    return copies;
  }

 private:
  Value* mapped(const Value* source) const {
    if (source == nullptr) return nullptr;
    auto found = values_.find(source);
    if (found != values_.end()) return found->second;
    // A value of an enclosing graph (what an If branch captures; a function body has none)
    // is read where the call is as it was.
    if (!callee_.body->encloses(source->graph())) return const_cast<Value*>(source);
    return nullptr;
  }

  std::string_view nodeName(const Node& source) {
    std::string_view own = source.nameOrEmpty();
    if (call_.nameOrEmpty().empty()) return own;
    return edit_.arena().copy(std::string(call_.nameOrEmpty()) + "/" +
                              std::string(own.empty() ? source.opType() : own));
  }

  Node* copyNode(const Node& source, Graph& into) {
    std::vector<Value*> reads;
    reads.reserve(source.inputCount());
    for (size_t i = 0; i < source.inputCount(); ++i) reads.push_back(mapped(source.input(i)));
    Node* copy = edit_.createNode(into, source.opType(), reads, 0);
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
      if (produced == nullptr) {
        (void)edit_.addOutputNamed(copy, "");
        continue;
      }
      auto handed = handed_over_.find(produced);
      Value* value = nullptr;
      if (handed != handed_over_.end() && &into == call_.graph()) {
        // The call's output, with its name and uses, is computed by the copy now.
        value = handed->second;
        (void)edit_.addOutputNamed(copy, "");
        edit_.handOverOutput(value, copy, i);
      } else {
        std::string_view fresh = edit_.uniqueName(into, produced->name());
        value = edit_.addOutputNamed(copy, fresh).value();
      }
      values_[produced] = value;
    }
    copy->attributes.reserve(edit_.arena(), source.attributes.size());
    for (const Attribute* attribute : source.attributes) {
      if (attribute == nullptr) continue;
      if (Attribute* bound = bindAttribute(*attribute, *copy)) {
        copy->attributes.push_back(edit_.arena(), bound);
      }
    }
    return copy;
  }

  /// The call's attribute (or the default) for a reference; a copy of any other attribute.
  /// Null when a reference has neither: the attribute is left out.
  Attribute* bindAttribute(const Attribute& attribute, Node& owner) {
    if (!attribute.isReference()) return copyAttribute(attribute, owner, true);
    std::string_view wanted = *attribute.rare().ref_attr_name;
    const Attribute* value = call_.attribute(wanted);
    if (value == nullptr) {
      for (const Attribute* fallback : callee_.attribute_proto) {
        if (fallback != nullptr && fallback->nameOrEmpty() == wanted) value = fallback;
      }
    }
    if (value == nullptr) return nullptr;
    // A graph the call holds is a graph of the model: copied as it is, it reads what it read.
    Attribute* bound = copyAttribute(*value, owner, false);
    bound->name = attribute.name;
    return bound;
  }

  Attribute* copyAttribute(const Attribute& source, Node& owner, bool from_body) {
    Attribute* copy = edit_.arena().make<Attribute>(source);
    if (source.t != nullptr) copy->t = edit_.cloneTensor(*source.t);
    // The copy starts as a bitwise copy of the source; every list needs storage of its own.
    copy->floats.values = source.floats.values.copy(edit_.arena());
    copy->ints.values = source.ints.values.copy(edit_.arena());
    if (source.g != nullptr) copy->g = copyGraph(*source.g, owner, from_body);
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
        out.graphs.push_back(edit_.arena(),
                             graph != nullptr ? copyGraph(*graph, owner, from_body) : nullptr);
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

  Graph* copyGraph(const Graph& source, Node& owner, bool from_body) {
    if (!from_body) return edit_.cloneGraph(source, owner.graph(), &owner);
    Graph* graph = edit_.newSubgraph(&owner);
    graph->name = source.name;
    graph->doc_string = source.doc_string;

    for (const ValueInfo* input : source.inputs) {
      if (input == nullptr || input->value == nullptr) continue;
      std::string_view fresh = edit_.uniqueName(*graph, input->value->name());
      Type* type = input->type != nullptr ? edit_.cloneType(*input->type) : nullptr;
      values_[input->value] = edit_.addInput(*graph, fresh, type).value();
    }
    for (const Value* value : source.values()) {
      if (value->graph() != &source || value->initializer() == nullptr) continue;
      Tensor* tensor = edit_.cloneTensor(*value->initializer());
      Value* input = mapped(value);
      tensor->name = input != nullptr ? input->name() : edit_.uniqueName(*graph, value->name());
      values_[value] = edit_.addInitializer(*graph, tensor).value();
    }
    for (const Node* node = source.firstNode(); node != nullptr; node = node->next()) {
      graph->appendNode(copyNode(*node, *graph));
    }
    for (const ValueInfo* output : source.outputs) {
      if (output == nullptr) continue;
      Value* value = mapped(output->output.value());
      if (value == nullptr) continue;
      edit_.addOutput(*graph, value);
      if (output->type != nullptr) graph->outputs.back()->type = edit_.cloneType(*output->type);
    }
    declareTypes(source);
    return graph;
  }

  /// The body's value_info types, on the new values that stand for body values (the call's
  /// own values keep their declarations).
  void declareTypes(const Graph& source) {
    for (const ValueInfo* info : source.value_info) {
      if (info == nullptr || info->type == nullptr || info->isRemoved()) continue;
      const Value* declared = info->value;
      if (declared == nullptr || handed_over_.count(declared) != 0) continue;
      Value* value = mapped(declared);
      if (value == nullptr || value->producer() == nullptr || value->type() != nullptr) continue;
      edit_.setType(value, edit_.cloneType(*info->type));
    }
  }

  GraphEditor edit_;
  Node& call_;
  const Function& callee_;
  size_t bound_inputs_;
  std::unordered_map<const Value*, Value*> values_;
  std::unordered_map<const Value*, Value*> handed_over_;
};

// ---------------------------------------------------------------------------------------
// Opsets

struct ImportPlan {
  std::vector<std::pair<std::string_view, int64_t>> added;
};

Result<ImportPlan> planImports(const ArenaList<OperatorSetId>& scope, const Function& callee,
                               const Node& call) {
  ImportPlan plan;
  OpsetImports in_scope(scope);
  for (const OperatorSetId& import : callee.opset_import) {
    if (!import.version) continue;
    std::string_view domain = import.domain.value_or("");
    std::optional<int64_t> have = in_scope.versionOf(domain);
    if (!have) {
      bool planned = false;
      for (const auto& [added, version] : plan.added) {
        planned |= canonicalDomain(added) == canonicalDomain(domain);
      }
      if (!planned) plan.added.emplace_back(domain, *import.version);
      continue;
    }
    if (*have != *import.version) {
      return Status(ErrorCode::kInvalidArgument,
                    describe(call) + ": the body imports " + std::string(canonicalDomain(domain)) +
                        " at version " + std::to_string(*import.version) +
                        ", where the node is it is imported at " + std::to_string(*have));
    }
  }
  return plan;
}

void applyImports(const GraphEditor& edit, ArenaList<OperatorSetId>& scope,
                  const ImportPlan& plan) {
  for (const auto& [domain, version] : plan.added) {
    OperatorSetId import;
    import.domain = edit.arena().copy(domain);
    import.version = version;
    scope.push_back(edit.arena(), import);
  }
}

/// Inlines `node`, leaving the call in place without outputs (InlinedCall::finish removes
/// it). Checks everything that can fail before changing anything.
Result<InlinedCall> inlineResolved(Model& model, Node& node, const InlinedBody& callee) {
  ArenaList<OperatorSetId>& scope = importListOf(model, *node.graph());
  Result<ImportPlan> plan = planImports(scope, *callee.function, node);
  if (!plan) return plan.status();
  BodyCopier copier(GraphEditor(model), node, *callee.function, node.inputCount());
  ONYX_RETURN_IF_ERROR(copier.check());
  // From here on nothing fails. A body parsed for a function-operator lives in its own model;
  // the copies share its strings and tensor bytes.
  if (callee.operator_body) model.shareBytesOf(callee.operator_body->model);
  InlinedCall done{&model, &node,
                   {},     std::vector<Value*>(node.outputs().begin(), node.outputs().end()),
                   &scope, scope.size()};
  applyImports(GraphEditor(model), scope, *plan);
  done.copies = copier.copy();
  return done;
}

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

class Expander {
 public:
  Expander(Model& model, const CalleeResolver& callees, const InlineOptions& options,
           InlineReport& report)
      : model_(model), callees_(callees), options_(options), report_(report) {}

  /// Inlines what the nodes from `first` up to (not including) `stop` call, and what the
  /// bodies call in turn; `depth` counts the bodies these nodes came from.
  Status expand(Graph& graph, Node* first, Node* stop, int depth) {
    for (Node* node = first; node != stop;) {
      Node* next = node->next();
      Node* before = node->prev();
      Result<bool> inlined = tryInline(*node, depth);
      if (!inlined) return inlined.status();
      if (*inlined) {
        // The body's nodes stand between `before` and the call, which stays until the end.
        Node* body_first = before != nullptr ? before->next() : graph.firstNode();
        ONYX_RETURN_IF_ERROR(expand(graph, body_first, node, depth + 1));
      } else {
        ONYX_RETURN_IF_ERROR(expandSubgraphs(*node, depth));
      }
      node = next;
    }
    return Status::ok();
  }

  Status expandGraph(Graph& graph, int depth) {
    return expand(graph, graph.firstNode(), nullptr, depth);
  }

 private:
  Status expandSubgraphs(Node& node, int depth) {
    for (size_t a = 0; a < node.attributes.size(); ++a) {
      Attribute* attribute = node.attributes[a];
      if (attribute->g != nullptr) ONYX_RETURN_IF_ERROR(expandGraph(*attribute->g, depth));
      for (Graph* graph : attribute->rare().graphs) {
        if (graph != nullptr) ONYX_RETURN_IF_ERROR(expandGraph(*graph, depth));
      }
    }
    return Status::ok();
  }

  /// Whether `node` was inlined; an error for a model-local function that cannot be.
  Result<bool> tryInline(Node& node, int depth) {
    Callee target = callees_.resolve(node, scopeOf(model_, node).imports);
    bool local = target.function != nullptr;
    if (!local && !(options_.function_operators && target.operator_body)) return false;
    if (depth >= options_.max_depth) {
      return Status(ErrorCode::kLimitExceeded, describe(node) +
                                                   ": function bodies nest deeper than " +
                                                   std::to_string(options_.max_depth) + " levels");
    }
    Result<InlinedBody> callee = bodyCalledBy(model_, callees_, node);
    Result<InlinedCall> done =
        callee ? inlineResolved(model_, node, *callee) : Result<InlinedCall>(callee.status());
    if (done) {
      inlined_.push_back(std::move(done).value());
      ++(local ? report_.function_calls : report_.operator_calls);
      return true;
    }
    const Status& status = done.status();
    if (local || status.code() == ErrorCode::kInternal) return status;
    report_.left_alone.push_back(describe(node) + ": " + status.message());
    return false;
  }

  Model& model_;
  const CalleeResolver& callees_;
  const InlineOptions& options_;
  InlineReport& report_;

 public:
  /// The calls inlined so far, in order (a call inside a body after the call it came with).
  std::vector<InlinedCall> inlined_;
};

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

}  // namespace

Status inlineNode(Model& model, Node& node) {
  if (node.graph() == nullptr) {
    return Status(ErrorCode::kInvalidArgument, "the node is not in a graph");
  }
  CalleeResolver callees(model);
  Result<InlinedBody> callee = bodyCalledBy(model, callees, node);
  if (!callee) return callee.status();
  Result<InlinedCall> done = inlineResolved(model, node, *callee);
  if (!done) return done.status();
  done->finish();
  return Status::ok();
}

Result<InlineReport> inlineAllFunctions(Model& model, const InlineOptions& options) {
  InlineReport report;
  ONYX_RETURN_IF_ERROR(refuseRecursion(model));
  if (!anythingToInline(model, options)) return report;
  // The model is changed in place, and every call inlined is journalled: an error half-way
  // takes them back, newest first, leaving the model as it was.
  CalleeResolver callees(model);
  Expander expander(model, callees, options, report);
  auto expandAll = [&]() -> Status {
    if (model.graph != nullptr) ONYX_RETURN_IF_ERROR(expander.expandGraph(*model.graph, 0));
    for (TrainingInfo* info : model.training_info) {
      if (info->initialization != nullptr) {
        ONYX_RETURN_IF_ERROR(expander.expandGraph(*info->initialization, 0));
      }
      if (info->algorithm != nullptr) {
        ONYX_RETURN_IF_ERROR(expander.expandGraph(*info->algorithm, 0));
      }
    }
    return Status::ok();
  };
  if (Status expanded = expandAll(); !expanded) {
    for (auto call = expander.inlined_.rbegin(); call != expander.inlined_.rend(); ++call) {
      call->undo();
    }
    return expanded;
  }
  for (const InlinedCall& call : expander.inlined_) call.finish();
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

void InlinedCall::finish() const {
  Status removed = call->destroy();
  ONYX_ASSERT(removed.isOk() && "an inlined call has no outputs left to refuse its removal");
  (void)removed;
}

void InlinedCall::undo() const {
  GraphEditor edit(*model);
  for (size_t k = 0; k < outputs.size(); ++k) {
    if (outputs[k] != nullptr) edit.handOverOutput(outputs[k], call, k);
  }
  for (auto copy = copies.rbegin(); copy != copies.rend(); ++copy) {
    Status removed = (*copy)->destroy();
    ONYX_ASSERT(removed.isOk() && "a copy is read only by copies after it");
    (void)removed;
  }
  imports->truncate(imports_before);
}

Result<InlinedCall> passes_internal::inlineOperatorBody(Model& model, Node& node,
                                                        const ValueTypeOf* type_of) {
  if (node.graph() == nullptr) {
    return Status(ErrorCode::kInvalidArgument, "the node is not in a graph");
  }
  OpsetImports imports = scopeOf(model, node).imports;
  Callee target = CalleeResolver(model).resolve(node, imports);
  if (target.schema == nullptr || !target.opset || !target.operator_body) {
    return Status(ErrorCode::kNotFound, describe(node) + ": its operator has no function body");
  }
  Result<FunctionBody> body =
      functionBodyFor(*target.schema, node, *target.opset, imports, type_of);
  if (!body) return body.status();
  InlinedBody callee;
  callee.operator_body = std::move(body).value();
  callee.function = callee.operator_body->function;
  return inlineResolved(model, node, callee);
}

Status passes_internal::inlineIfBranch(Model& model, Node& node, bool condition) {
  Graph* branch = node.graphAttr(condition ? "then_branch" : "else_branch");
  if (node.graph() == nullptr || branch == nullptr || !branch->inputs.empty() ||
      branch->outputs.size() < node.outputCount()) {
    return Status(ErrorCode::kInvalidArgument, describe(node) + " has no branch to inline");
  }
  GraphEditor edit(model);
  // The body copier hands over values its nodes compute: a branch output that is an outer
  // value or one of the branch's initializers is given one (an Identity), which the no-op
  // pass bypasses where the If was.
  struct HandedOver {
    ValueInfo* output;
    Value* value;
    Node* identity;
  };
  std::vector<HandedOver> added;
  for (ValueInfo* output : branch->outputs) {
    Value* value = output->output.value();
    if (value == nullptr || (value->producer() != nullptr && value->graph() == branch)) continue;
    Node* identity = edit.createNode(*branch, "Identity", {value});
    branch->appendNode(identity);
    output->output.set(identity->output(0));
    added.push_back({output, value, identity});
  }
  // The branch as the body of a function without inputs, for the copier.
  Function body;
  body.body = branch;
  for (ValueInfo* output : branch->outputs) body.outputs.push_back(edit.arena(), &output->output);
  BodyCopier copier(edit, node, body, 0);
  if (Status fits = copier.check(); !fits) {
    // Refused: the branch goes back to what it was, so that the pass changed nothing.
    for (const HandedOver& undo : added) {
      undo.output->output.set(undo.value);
      Status removed = undo.identity->destroy();
      ONYX_ASSERT(removed.isOk() && "an Identity only a graph output read has no readers left");
      (void)removed;
    }
    return fits;
  }
  copier.copy();
  Status removed = node.destroy();
  ONYX_ASSERT(removed.isOk() && "an inlined If has no outputs left to refuse its removal");
  return removed;
}

}  // namespace onyx
