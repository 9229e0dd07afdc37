#include "check/walker.h"

#include "check/device_rules.h"
#include "check/metadata_rules.h"
#include "check/node_signature.h"
#include "onyx/core/quote.h"

namespace onyx::check {

namespace {

// The repair for a value read before the node that computes it (R30, R95): the value is
// defined, only listed too late, which reordering the nodes fixes unless they form a cycle.
constexpr const char* kSortHint = " (run `onyx convert --sort IN OUT` to reorder them)";

std::string describeNode(const Node& node) {
  // op_type comes from the file like any name: escaped, so a diagnostic stays one line.
  std::string op_type;
  appendEscaped(op_type, node.opType());
  if (node.nameOrEmpty().empty()) return "a " + op_type + " node";
  return "node " + quoted(node.nameOrEmpty()) + " (" + op_type + ")";
}

// What defines `value`, for messages: "the output of node 'a' (Add)", "a graph input", ...
std::string describeDefinition(const Value& value) {
  if (value.producer() != nullptr) return "the output of " + describeNode(*value.producer());
  if (value.isFunctionInput()) return "a function input";
  if (value.graphInput() != nullptr && value.isInitializer())
    return "a graph input with an initializer";
  if (value.graphInput() != nullptr) return "a graph input";
  if (value.sparseInitializer() != nullptr) return "a sparse initializer";
  if (value.initializer() != nullptr) return "an initializer";
  return "another definition";
}

bool isCIdentifier(std::string_view name) {
  if (name.empty()) return false;
  auto letter = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; };
  if (!letter(name[0])) return false;
  for (char c : name) {
    if (!letter(c) && !(c >= '0' && c <= '9')) return false;
  }
  return true;
}

std::string_view infoName(const ValueInfo& info) {
  if (const Value* value = info.bound()) return value->name();
  return info.name.value_or(std::string_view());
}

std::string listItemPath(const GraphPlace& place, std::string_view list, size_t index,
                         std::string_view name) {
  std::string text = place.path();
  appendSegment(text, list, index, name);
  return text;
}

}  // namespace

void Walker::walk(const Graph& graph, const GraphPlace& place, GraphRole role,
                  const RootScope& scope) {
  walkGraph(Frame{graph, place, role, scope, 0});
}

void Walker::walkGraph(const Frame& frame) {
  if (frame.depth > kMaxGraphNesting) {
    context_.out.error("R4", frame.place.path(),
                       "graphs nest more than " + std::to_string(kMaxGraphNesting) +
                           " deep; the graphs inside are not checked");
    return;
  }
  const Graph& graph = frame.graph;
  if (frame.role != GraphRole::kFunctionBody) checkGraphFields(frame);
  checkInputs(frame);
  checkInitializers(frame);
  checkValueInfo(frame);

  std::vector<NamedNode> named;
  size_t index = 0;
  for (const Node* node = graph.firstNode(); node != nullptr; node = node->next(), ++index) {
    if (index > graph.nodeCount()) {
      // Only a list corrupted through the API can loop; the decoder builds it in order.
      context_.out.error("R30", frame.place.path(),
                         "the node list does not end after its " +
                             std::to_string(graph.nodeCount()) + " nodes: it forms a cycle");
      return;
    }
    checkNode(frame, *node, index);
    walked_.insert(node);
    std::string_view name = node->nameOrEmpty();
    if (!name.empty()) named.push_back({NameTable::hashName(name), name, index, node});
  }
  checkOutputs(frame);
  checkNodeNames(frame, named);
}

void Walker::checkNodeNames(const Frame& frame, const std::vector<NamedNode>& named) {
  // Node names are hashed during the walk and inserted after it, the slot of a later name
  // fetched ahead, so that the cache misses of a large graph's set overlap instead of
  // stalling the walk one by one.
  if (named.size() < 2) return;
  NameSet names;
  names.reserve(named.size());
  constexpr size_t kAhead = 16;
  for (size_t i = 0; i < named.size(); ++i) {
    if (i + kAhead < named.size()) names.prefetch(named[i + kAhead].hash);
    if (names.insert(named[i].name, named[i].hash)) continue;
    context_.out.warning("R35", frame.place.nodePath(named[i].index, *named[i].node),
                         "node name " + quoted(named[i].name) +
                             " is also the name of an earlier node of this graph; node names "
                             "should be unique");
  }
}

void Walker::checkGraphFields(const Frame& frame) {
  const Graph& graph = frame.graph;
  auto path = [&] { return frame.place.path(); };
  if (graph.name.value_or(std::string_view()).empty()) {
    context_.out.error("R23", path(), "the graph has no name; every graph is named");
  } else if (context_.options.name_style) {
    checkNameStyle(*graph.name, LazyPath(path), "graph name");
  }
  if (!graph.quantization_annotation.empty()) {
    auto at = [&] { return joinPath(path(), "quantization_annotation"); };
    context_.fieldSince("R37", 5, LazyPath(at), "GraphProto.quantization_annotation");
  }
  if (!graph.sparse_initializers.empty()) {
    auto at = [&] { return joinPath(path(), "sparse_initializer"); };
    context_.fieldSince("R37", 6, LazyPath(at), "GraphProto.sparse_initializer");
  }
  checkMetadata(graph.metadata_props, MetadataOwner::kGraph, LazyPath(path), context_);
}

void Walker::checkIoType(const ValueInfo& info, const LazyPath& path) {
  // What only a top-level input or output needs. Whether the type is well formed — a kind
  // set, element, key and value types given at every level — is the type rules' (R83–R86),
  // which check it here as everywhere.
  auto problem = [&](const std::string& what) {
    context_.out.error("R24", path(),
                       what +
                           "; the inputs and outputs of a main graph declare their type, with "
                           "at least the rank of a tensor");
  };
  const Type* type = info.type;
  if (type == nullptr) return problem("has no type");
  switch (type->kind) {
    case Type::Kind::kTensor:
    case Type::Kind::kSparseTensor:
      if (type->shape == nullptr) {
        problem(std::string("its ") +
                (type->kind == Type::Kind::kTensor ? "tensor_type" : "sparse_tensor_type") +
                " has no shape");
      }
      return;
    case Type::Kind::kOpaque:
      // An error here, where the type rules only warn (R88, silent for these types).
      if (type->opaque_name.value_or(std::string_view()).empty()) {
        problem("its opaque_type has no name");
      }
      return;
    case Type::Kind::kNone:
    case Type::Kind::kSequence:
    case Type::Kind::kOptional:
    case Type::Kind::kMap: return;
  }
}

void Walker::checkNameStyle(std::string_view name, const LazyPath& path, std::string_view what) {
  if (isCIdentifier(name)) return;
  context_.out.warning("R38", path(),
                       std::string(what) + " " + quoted(name) +
                           " is not a C identifier (letters, digits and '_', not starting with "
                           "a digit), which names should be");
}

const Value* Walker::definedBefore(const Frame& frame, std::string_view name) {
  if (frame.scope.preceding == nullptr) return nullptr;
  const Value* value = frame.scope.preceding->names().find(name);
  return value != nullptr && !value->isUndefined() ? value : nullptr;
}

const Value* Walker::visibleOuter(const Frame& frame, std::string_view name) const {
  for (const Graph* scope = frame.graph.parent(); scope != nullptr; scope = scope->parent()) {
    const Value* value = scope->names().find(name);
    if (value == nullptr || value->isUndefined()) continue;
    // A value computed after the node holding this graph is not visible from inside it.
    if (value->producer() == nullptr || walked_.contains(value->producer())) return value;
  }
  return definedBefore(frame, name);
}

void Walker::checkInputs(const Frame& frame) {
  const Graph& graph = frame.graph;
  bool initializer_seen = false;
  for (size_t i = 0; i < graph.inputs.size(); ++i) {
    const ValueInfo& info = *graph.inputs[i];
    std::string_view name = infoName(info);
    auto path = [&] { return listItemPath(frame.place, "input", i, name); };
    LazyPath lazy(path);
    if (name.empty()) {
      context_.out.error(frame.topLevel() ? "R24" : "R25", path(), "the graph input has no name");
    } else if (const Value* value = info.value) {
      const Value* bound = frame.single_definitions ? value : graph.names().find(name);
      if (bound != nullptr && bound != value) {
        if (bound->graphInput() != nullptr) {
          context_.out.error("R26", path(),
                             quoted(name) + " is listed twice among the graph's inputs");
        } else if (bound->producer() != nullptr && bound->graph() == &graph) {
          frame.inputs_redefined.insert(name);  // reported at the node's output
        } else {
          context_.out.error("R29", path(),
                             quoted(name) + " is a graph input and also " +
                                 describeDefinition(*bound) +
                                 "; every value name has one definition in its graph");
        }
      }
      if (frame.nested()) {
        if (const Value* outer = visibleOuter(frame, name)) {
          context_.out.error("R32", path(),
                             quoted(name) + " is already " + describeDefinition(*outer) +
                                 " of an enclosing graph; a nested graph cannot reuse a name "
                                 "it can see");
        }
        // Up to IR 3, inputs backed by an initializer come after those the operator passes.
        bool backed = value->isInitializer();
        if (context_.ir <= 3 && initializer_seen && !backed) {
          context_.out.error("R33", path(),
                             quoted(name) +
                                 " comes after an input that has an initializer; up to IR 3 "
                                 "such inputs go last, after the inputs the operator passes");
        }
        initializer_seen = initializer_seen || backed;
      } else if (const Value* main = definedBefore(frame, name)) {
        if (main->graphInput() != nullptr) {
          context_.out.error("R26", path(),
                             quoted(name) +
                                 " is already an input of the main graph, which the "
                                 "algorithm graph continues");
        } else if (main->producer() != nullptr) {
          context_.out.error("R29", path(),
                             quoted(name) + " is already " + describeDefinition(*main) +
                                 " in the main graph, which the algorithm graph continues");
        }
      }
      if (context_.options.name_style) checkNameStyle(name, lazy, "value name");
    }
    if (frame.topLevel()) checkIoType(info, lazy);
    if (info.type != nullptr) {
      ValueContext values = context_.valueContext(frame.body(), false);
      values.is_graph_io = frame.topLevel();
      values.type_is_optional = !frame.topLevel();
      runValueRule(
          context_.out,
          [&](const std::string& at, Diagnostics& out) { checkType(*info.type, values, at, out); },
          [&] { return joinPath(path(), "type"); });
    }
    checkMetadata(info.metadata_props, MetadataOwner::kOther, lazy, context_);
  }
}

void Walker::checkInitializers(const Frame& frame) {
  const Graph& graph = frame.graph;
  ValueContext values = context_.valueContext(frame.body(), true);
  auto checkName = [&](std::string_view name, const void* held, const Value* bound,
                       const LazyPath& path) {
    if (name.empty()) {
      context_.out.error("R27", path(), "the initializer has no name; initializers are named");
      return;
    }
    if (bound == nullptr) return;
    bool ours = bound->initializer() == held || bound->sparseInitializer() == held;
    if (!ours) {
      if (bound->isInitializer()) {
        context_.out.error("R27", path(),
                           quoted(name) +
                               " names two initializers; initializer names are "
                               "unique across initializer and sparse_initializer");
      } else if (bound->producer() != nullptr && bound->graph() == &graph) {
        frame.initializers_redefined.insert(name);  // reported at the node's output
      } else {
        context_.out.error("R29", path(),
                           quoted(name) + " is an initializer and also " +
                               describeDefinition(*bound) +
                               "; every value name has one definition in its graph");
      }
      return;
    }
    if (context_.ir <= 3 && bound->graphInput() == nullptr) {
      context_.out.error("R28", path(),
                         quoted(name) +
                             " is not a graph input; up to IR 3 every initializer is the "
                             "default value of an input of the same name");
    }
    if (frame.nested() && context_.ir >= 4 && bound->graphInput() != nullptr) {
      context_.out.error("R33", path(),
                         quoted(name) +
                             " is both an input and an initializer of a nested graph; from IR 4 "
                             "the operator passes every input of its graphs");
    }
    if (frame.nested()) {
      if (const Value* outer = visibleOuter(frame, name)) {
        context_.out.error("R32", path(),
                           quoted(name) + " is already " + describeDefinition(*outer) +
                               " of an enclosing graph; a nested graph cannot reuse a name it "
                               "can see");
      }
    } else if (const Value* main = definedBefore(frame, name)) {
      if (main->isInitializer()) {
        context_.out.error("R27", path(),
                           quoted(name) +
                               " is already an initializer of the main graph, which "
                               "the algorithm graph continues");
      } else if (main->producer() != nullptr) {
        context_.out.error("R29", path(),
                           quoted(name) + " is already " + describeDefinition(*main) +
                               " in the main graph, which the algorithm graph continues");
      }
    }
    if (context_.options.name_style) checkNameStyle(name, path, "value name");
  };

  for (size_t i = 0; i < graph.initializers.size(); ++i) {
    const Tensor* tensor = graph.initializers[i];
    if (tensor == nullptr) continue;
    std::string_view name = tensor->nameOrEmpty();
    auto path = [&] { return listItemPath(frame.place, "initializer", i, name); };
    LazyPath lazy(path);
    checkName(name, tensor, name.empty() ? nullptr : graph.names().find(name), lazy);
    runValueRule(
        context_.out,
        [&](const std::string& at, Diagnostics& out) { checkTensor(*tensor, values, at, out); },
        path);
    checkMetadata(tensor->rare().metadata_props, MetadataOwner::kOther, lazy, context_);
  }
  for (size_t i = 0; i < graph.sparse_initializers.size(); ++i) {
    const SparseTensor* sparse = graph.sparse_initializers[i];
    if (sparse == nullptr) continue;
    std::string_view name =
        sparse->values != nullptr ? sparse->values->nameOrEmpty() : std::string_view();
    auto path = [&] { return listItemPath(frame.place, "sparse_initializer", i, name); };
    LazyPath lazy(path);
    // An unnamed sparse initializer is R82's (R76's when it has no values to hold the name).
    if (!name.empty()) checkName(name, sparse, graph.names().find(name), lazy);
    runValueRule(
        context_.out,
        [&](const std::string& at, Diagnostics& out) {
          checkSparseTensor(*sparse, values, at, out);
        },
        path);
    if (sparse->values != nullptr) {
      auto values_path = [&] { return joinPath(path(), "values"); };
      checkMetadata(sparse->values->rare().metadata_props, MetadataOwner::kOther,
                    LazyPath(values_path), context_);
    }
  }
}

void Walker::checkValueInfo(const Frame& frame) {
  const Graph& graph = frame.graph;
  bool body = frame.role == GraphRole::kFunctionBody;
  if (body && !graph.value_info.empty()) {
    auto at = [&] { return joinPath(frame.place.path(), "value_info"); };
    context_.fieldSince("R100", 10, LazyPath(at), "FunctionProto.value_info");
  }
  PointerSet declared;
  NameSet unbound_names;
  for (size_t i = 0; i < graph.value_info.size(); ++i) {
    const ValueInfo& info = *graph.value_info[i];
    if (info.isRemoved()) continue;  // its value was removed: it is not written
    std::string_view name = infoName(info);
    auto path = [&] { return listItemPath(frame.place, "value_info", i, name); };
    LazyPath lazy(path);
    const Value* value = info.bound();
    bool known = value != nullptr && !value->isUndefined() && value->graph() != nullptr;
    if (name.empty()) {
      context_.out.error(body ? "R102" : "X1", path(),
                         "the value_info entry has no name; ValueInfoProto.name is required");
    } else if (known ? !declared.insert(value) : !unbound_names.insert(name)) {
      context_.out.error(body ? "R102" : "R34", path(),
                         quoted(name) +
                             " has more than one value_info entry; their names are "
                             "distinct");
    } else if (!known) {
      if (body) {
        context_.out.error("R102", path(),
                           quoted(name) +
                               " names no value of the function: no input, output or "
                               "body node output has this name");
      } else {
        context_.out.warning("X2", path(),
                             quoted(name) +
                                 " names no value of this graph; the entry describes "
                                 "nothing (a value removed without its value_info?)");
      }
    }
    if (info.type != nullptr) {
      ValueContext values = context_.valueContext(frame.body(), false);
      values.type_is_optional = true;
      runValueRule(
          context_.out,
          [&](const std::string& at, Diagnostics& out) { checkType(*info.type, values, at, out); },
          [&] { return joinPath(path(), "type"); });
    }
    checkMetadata(info.metadata_props, MetadataOwner::kOther, lazy, context_);
  }
}

void Walker::checkOutputs(const Frame& frame) {
  const Graph& graph = frame.graph;
  for (size_t i = 0; i < graph.outputs.size(); ++i) {
    const ValueInfo& info = *graph.outputs[i];
    std::string_view name = infoName(info);
    auto path = [&] { return listItemPath(frame.place, "output", i, name); };
    LazyPath lazy(path);
    if (name.empty()) {
      context_.out.error(frame.topLevel() ? "R24" : "R25", path(), "the graph output has no name");
    } else if (const Value* value = info.output.value()) {
      bool defined = !value->isUndefined() && value->graph() != nullptr;
      if (!defined) {
        if (definedBefore(frame, name) == nullptr) {
          context_.out.error("R31", path(),
                             quoted(name) +
                                 " is not defined: no input, initializer or node "
                                 "output of this graph has this name");
        }
      } else if (value->graph() != &graph) {
        context_.out.error("R31", path(),
                           quoted(name) +
                               " is a value of an enclosing graph; a graph returns only its own "
                               "values (pass an outer value through an Identity node)");
      }
    }
    if (frame.topLevel()) checkIoType(info, lazy);
    if (info.type != nullptr) {
      ValueContext values = context_.valueContext(frame.body(), false);
      values.is_graph_io = frame.topLevel();
      values.type_is_optional = !frame.topLevel();
      runValueRule(
          context_.out,
          [&](const std::string& at, Diagnostics& out) { checkType(*info.type, values, at, out); },
          [&] { return joinPath(path(), "type"); });
    }
    checkMetadata(info.metadata_props, MetadataOwner::kOther, lazy, context_);
  }
}

void Walker::checkNode(const Frame& frame, const Node& node, size_t index) {
  auto path = [&] { return frame.place.nodePath(index, node); };
  LazyPath node_path(path);
  Diagnostics& out = context_.out;

  if (node.opType().empty()) {
    out.error("R39", path(), "the node has no op_type; a node names the operator it calls");
  }
  if (node.outputs().empty()) {
    out.error("R40", path(), "the node has no outputs; a node produces one or more values");
  }
  std::string_view domain = node.domainOrDefault();
  if (frame.scope.imports != nullptr && !frame.scope.imports->versionOf(domain)) {
    std::string what = domainName(domain);
    if (frame.scope.function != nullptr) {
      out.error("R97", path(),
                "uses " + what +
                    ", which its function does not import; a function's nodes resolve against "
                    "the function's own opset_import");
    } else {
      out.error("R11", path(), "uses " + what + ", which the model does not import");
    }
  }
  const NodeRareFields& rare = node.rare();
  if (rare.overload) {
    auto at = [&] { return joinPath(path(), "overload"); };
    context_.fieldSince("R54", 10, LazyPath(at), "NodeProto.overload");
  }
  if (context_.options.name_style && !node.nameOrEmpty().empty()) {
    checkNameStyle(node.nameOrEmpty(), node_path, "node name");
  }
  checkMetadata(rare.metadata_props, MetadataOwner::kOther, node_path, context_);
  if (!rare.device_configurations.empty()) checkNodeDevices(node, node_path, context_);

  for (size_t j = 0; j < node.inputCount(); ++j) {
    const Value* value = node.input(j);
    if (value == nullptr) continue;  // an omitted optional input ("")
    auto input_path = [&] {
      std::string text = path();
      appendSegment(text, "input", j);
      return text;
    };
    checkRead(frame, node, *value, LazyPath(input_path));
  }

  ValueContext values = context_.valueContext(frame.body(), false);
  for (size_t a = 0; a < node.attributes.size(); ++a) {
    const Attribute* attribute = node.attributes[a];
    if (attribute == nullptr) continue;
    auto attribute_path = [&] { return frame.place.attributePath(index, node, a); };
    runValueRule(
        out,
        [&](const std::string& at, Diagnostics& sink) {
          checkAttribute(*attribute, values, at, sink);
        },
        attribute_path);
    checkAttributeMetadata(*attribute, LazyPath(attribute_path), context_);
  }

  NodeContext signature;
  signature.model = &context_.model;
  signature.ir_version = context_.ir_version;
  signature.imports = frame.scope.imports;
  signature.model_imports = &context_.model_imports;
  signature.function = frame.scope.function;
  signature.memo = &context_.signatures;
  signature.callee = context_.functions.localFunction(node);
  checkNodeSignature(node, signature, node_path, out);

  walkAttributeGraphs(frame, node, index);

  for (size_t j = 0; j < node.outputCount(); ++j) {
    const Value* value = node.output(j);
    if (value == nullptr) continue;  // an omitted optional output ("")
    auto output_path = [&] {
      std::string text = path();
      appendSegment(text, "output", j);
      return text;
    };
    checkDefinition(frame, *value, LazyPath(output_path), "output");
  }
}

void Walker::checkRead(const Frame& frame, const Node& node, const Value& value,
                       const LazyPath& path) {
  bool in_function = frame.scope.function != nullptr;
  const char* rule = in_function ? "R95" : "R30";
  bool defined = !value.isUndefined() && value.graph() != nullptr;
  if (!defined) {
    if (definedBefore(frame, value.name()) != nullptr) return;
    context_.out.error(
        rule, path(),
        quoted(value.name()) + " is not defined: " +
            (in_function ? "a function body reads only the function's inputs and the outputs "
                           "of its earlier nodes"
                         : "no graph input, initializer or earlier node output in scope has "
                           "this name"));
    return;
  }
  if (value.producer() == nullptr || walked_.contains(value.producer())) return;
  if (!frame.single_definitions && value.graph() == &frame.graph &&
      (frame.inputs_redefined.contains(value.name()) ||
       frame.initializers_redefined.contains(value.name()))) {
    return;  // a read of the graph input (initializer) that a later node redefines
  }
  if (definedBefore(frame, value.name()) != nullptr) {
    return;  // a read of the main graph's value, which the algorithm graph redefines later
  }
  if (value.producer() == &node) {
    context_.out.error(rule, path(),
                       quoted(value.name()) +
                           " is an output of this same node; a node cannot "
                           "read what it computes");
  } else if (value.graph() != &frame.graph) {
    context_.out.error(rule, path(),
                       quoted(value.name()) + " comes from an enclosing graph, where " +
                           describeNode(*value.producer()) +
                           " computes it only after the node holding this graph" + kSortHint);
  } else {
    context_.out.error(rule, path(),
                       quoted(value.name()) + " is read before " + describeNode(*value.producer()) +
                           " computes it; nodes are listed in topological order" + kSortHint);
  }
}

void Walker::checkDefinition(const Frame& frame, const Value& value, const LazyPath& path,
                             std::string_view what) {
  std::string_view name = value.name();
  const Value* bound = frame.single_definitions ? &value : frame.graph.names().find(name);
  if (bound != nullptr && bound != &value) {
    context_.out.error(frame.role == GraphRole::kFunctionBody ? "R95" : "R29", path(),
                       std::string(what) + " " + quoted(name) + " is already " +
                           describeDefinition(*bound) +
                           "; every value name has one definition in its graph");
  } else if (!frame.single_definitions && (frame.inputs_redefined.contains(name) ||
                                           frame.initializers_redefined.contains(name))) {
    context_.out.error(
        "R29", path(),
        std::string(what) + " " + quoted(name) + " is already " +
            (frame.inputs_redefined.contains(name) ? "a graph input" : "an initializer") +
            "; every value name has one definition in its graph");
  }
  if (frame.nested()) {
    if (const Value* outer = visibleOuter(frame, name)) {
      context_.out.error("R32", path(),
                         std::string(what) + " " + quoted(name) + " is already " +
                             describeDefinition(*outer) +
                             " of an enclosing graph; a nested graph cannot reuse a name it can "
                             "see");
    }
  } else if (const Value* main = definedBefore(frame, name)) {
    context_.out.error("R29", path(),
                       std::string(what) + " " + quoted(name) + " is already " +
                           describeDefinition(*main) +
                           " in the main graph, which the algorithm graph continues");
  }
  if (context_.options.name_style) checkNameStyle(name, path, "value name");
}

void Walker::walkAttributeGraphs(const Frame& frame, const Node& node, size_t index) {
  for (size_t a = 0; a < node.attributes.size(); ++a) {
    const Attribute* attribute = node.attributes[a];
    if (attribute == nullptr) continue;
    GraphPlace place;
    place.outer = &frame.place;
    place.owner = &node;
    place.owner_index = index;
    place.attribute = attribute;
    place.attribute_index = a;
    if (attribute->g != nullptr) {
      walkGraph(Frame{*attribute->g, place, GraphRole::kSubgraph, frame.scope, frame.depth + 1});
    }
    const ArenaList<Graph*>& graphs = attribute->rare().graphs;
    for (size_t k = 0; k < graphs.size(); ++k) {
      if (graphs[k] == nullptr) continue;
      place.list_index = k;
      place.name = graphs[k]->name.value_or(std::string_view());
      walkGraph(Frame{*graphs[k], place, GraphRole::kSubgraph, frame.scope, frame.depth + 1});
    }
  }
}

void Walker::checkAttributeMetadata(const Attribute& attribute, const LazyPath& path,
                                    const CheckContext& context) {
  auto tensor = [&](const Tensor* held, const auto& held_path) {
    if (held == nullptr) return;
    checkMetadata(held->rare().metadata_props, MetadataOwner::kOther, LazyPath(held_path), context);
  };
  auto sparse = [&](const SparseTensor* held, const auto& held_path) {
    if (held == nullptr) return;
    tensor(held->values, [&] { return joinPath(held_path(), "values"); });
  };
  tensor(attribute.t, [&] { return joinPath(path(), "t"); });
  sparse(attribute.rare().sparse_tensor, [&] { return joinPath(path(), "sparse_tensor"); });
  const AttributeRareFields& lists = attribute.rare();
  for (size_t k = 0; k < lists.tensors.size(); ++k) {
    const Tensor* held = lists.tensors[k];
    tensor(held, [&] {
      std::string text = path();
      appendSegment(text, "tensors", k, held->nameOrEmpty());
      return text;
    });
  }
  for (size_t k = 0; k < lists.sparse_tensors.size(); ++k) {
    const SparseTensor* held = lists.sparse_tensors[k];
    sparse(held, [&] {
      std::string text = path();
      appendSegment(text, "sparse_tensors", k,
                    held->values != nullptr ? held->values->nameOrEmpty() : std::string_view());
      return text;
    });
  }
}

}  // namespace onyx::check
