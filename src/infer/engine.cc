#include "infer/engine.h"

#include <algorithm>

#include "check/place.h"
#include "infer/merge.h"
#include "infer/signature_types.h"
#include "infer/type_conversion.h"
#include "onyx/ir/attribute.h"
#include "onyx/ir/function.h"
#include "onyx/ir/graph.h"
#include "onyx/ir/node.h"
#include "onyx/ir/tensor.h"
#include "onyx/ir/value.h"
#include "onyx/ops/registry.h"

namespace onyx::infer {

namespace {

std::string_view canonical(std::string_view domain) {
  return domain == "ai.onnx" ? std::string_view() : domain;
}

std::vector<std::pair<std::string_view, int64_t>> readOpsets(const ArenaList<OperatorSetId>& list) {
  std::vector<std::pair<std::string_view, int64_t>> opsets;
  for (const OperatorSetId& entry : list) {
    opsets.emplace_back(canonical(entry.domain.value_or(std::string_view())),
                        entry.version.value_or(0));
  }
  return opsets;
}

std::string quoted(std::string_view name) { return "'" + std::string(name) + "'"; }

}  // namespace

Engine::Engine(Model& model, const InferOptions& options, InferResult& result)
    : model_(model), options_(options), result_(result) {}

void Engine::run() {
  if (model_.graph == nullptr) return;
  Frame main;
  for (auto [domain, version] : readOpsets(model_.opset_import)) {
    main.opsets.push_back({domain, version});
  }
  main.write_back = options_.write_back;
  frame_ = &main;
  inferGraph(*model_.graph, "graph");
  // Subgraphs are written back once, after the walk: a rule may infer a body more than
  // once (Loop's carried values, until their types settle), and a type written back after
  // the first pass would read as a declaration in the second.
  for (Graph* subgraph : subgraphs_) writeBack(*subgraph);
  frame_ = nullptr;
}

std::optional<int64_t> Engine::opsetOf(std::string_view domain) const {
  std::string_view wanted = canonical(domain);
  std::optional<int64_t> found;
  for (const OpsetEntry& entry : frame_->opsets) {
    // The highest version when a domain is imported twice (a model R10 refuses).
    if (entry.domain == wanted && (!found || entry.version > *found)) found = entry.version;
  }
  return found;
}

Engine::ValueState& Engine::stateOf(const Value& value) {
  auto [slot, inserted] = frame_->values.try_emplace(&value);
  ValueState& state = slot->second;
  if (!inserted) return state;
  const Type* declared = value.type();
  if (declared != nullptr) state.type = fromDeclared(*declared, dims_);
  if (value.initializer != nullptr) {
    const Tensor& tensor = *value.initializer;
    state.type = mergeTypes(state.type, typeOfTensor(tensor), dims_).type;
    // An initializer that is also a graph input is only a default: the caller may feed
    // another value, so it is not a constant (IR.md, "Graphs").
    if (!value.isGraphInput()) {
      state.constant = &tensor;
      state.data = integerElements(tensor);
    }
  }
  return state;
}

void Engine::inferGraph(Graph& graph, const std::string& path) {
  size_t index = 0;
  std::string node_path;
  for (Node* node : graph.nodes()) {
    node_path = path;
    check::appendSegment(node_path, "node", index++, node->nameOrEmpty());
    inferNode(*node, node_path);
  }
  if (!frame_->write_back) return;
  if (&graph == model_.graph) {
    writeBack(graph);
  } else if (std::find(subgraphs_.begin(), subgraphs_.end(), &graph) == subgraphs_.end()) {
    subgraphs_.push_back(&graph);
  }
}

void Engine::inferNode(Node& node, const std::string& node_path) {
  ++result_.stats.nodes;
  std::string_view domain = node.domainOrDefault();
  std::optional<int64_t> opset = opsetOf(domain);
  const OpSchema* schema = opset ? findSchema(domain, node.opType(), *opset) : nullptr;
  const Function* local = nullptr;
  if (schema == nullptr) {
    local = model_.findFunction(domain, node.opType(), node.overload.value_or(std::string_view()));
  }
  static constexpr OpSchema kNoSignature{};
  InferenceContext ctx(node, schema != nullptr ? *schema : kNoSignature, opset.value_or(0), dims_,
                       *this);
  ctx.caller_ = frame_->caller;
  ctx.callee_ = frame_->callee;
  ctx.inputs_.resize(node.inputCount());
  for (size_t i = 0; i < node.inputCount(); ++i) {
    const Value* input = node.input(i);
    if (input == nullptr) continue;
    ValueState& state = stateOf(*input);
    InferenceContext::InputSlot& slot = ctx.inputs_[i];
    slot.present = true;
    slot.type = &state.type;
    slot.data = state.data ? &*state.data : nullptr;
    slot.constant = state.constant;
  }
  ctx.outputs_.resize(node.outputCount());
  for (size_t i = 0; i < node.outputCount(); ++i) ctx.outputs_[i].present = node.output(i);

  const Node* outer_node = current_node_;
  const std::string* outer_path = current_path_;
  current_node_ = &node;
  current_path_ = &node_path;
  if (schema != nullptr) {
    applySignatureTypes(ctx);
    if (schema->infer != nullptr) {
      schema->infer(ctx);
    } else {
      ++result_.stats.nodes_without_rule;
      ctx.note("no shape rule for " + std::string(node.opType()) + "-" +
               std::to_string(schema->since_version));
    }
  } else if (local != nullptr) {
    inferCall(*local, ctx, node_path);
  } else {
    ++result_.stats.nodes_without_rule;
    ctx.note(opset ? "unknown operator " + quoted(node.opType())
                   : "domain " + quoted(domain) + " is not imported");
  }
  current_node_ = outer_node;
  current_path_ = outer_path;

  for (std::string& failure : ctx.failures_) {
    result_.diagnostics.error("X5", node_path, std::move(failure));
  }
  bool complete = true;
  for (size_t i = 0; i < node.outputCount(); ++i) {
    const Value* output = node.output(i);
    if (output == nullptr) continue;
    ++result_.stats.outputs;
    std::string output_path = node_path + ".output[" + std::to_string(i) + "]";
    setOutput(*output, std::move(ctx.outputs_[i]), output_path);
    const InferredType& type = stateOf(*output).type;
    if (type.isKnown()) ++result_.stats.outputs_typed;
    if (type.isTensorLike() && type.has_shape) {
      ++result_.stats.outputs_shaped;
    } else {
      complete = false;
    }
    if (!type.isKnown() && options_.strict) {
      result_.diagnostics.error("X6", output_path,
                                "the type of " + quoted(output->name) + " cannot be inferred");
    }
  }
  if (!complete || !ctx.notes_.empty()) {
    std::string line = node_path + " " + std::string(node.opType()) + ":";
    if (ctx.notes_.empty()) line += " some outputs stay without a shape";
    for (size_t i = 0; i < ctx.notes_.size(); ++i) line += (i ? "; " : " ") + ctx.notes_[i];
    result_.notes.push_back(std::move(line));
  }
}

void Engine::setOutput(const Value& value, InferenceContext::OutputSlot slot,
                       const std::string& path) {
  ValueState& state = frame_->values[&value];
  const Type* declared_type = value.type();
  if (declared_type == nullptr) {
    state.type = std::move(slot.type);
    state.improves_declaration = state.type.isKnown();
  } else {
    InferredType declared = fromDeclared(*declared_type, dims_);
    Merged merged = mergeTypes(declared, slot.type, dims_);
    if (!merged.conflict.empty()) {
      result_.diagnostics.error("R36", path, quoted(value.name) + ": " + merged.conflict);
    }
    state.improves_declaration = !(merged.type == declared);
    state.type = std::move(merged.type);
  }
  state.data = std::move(slot.data);
  state.constant = slot.constant;
}

void Engine::inferCall(const Function& function, InferenceContext& ctx,
                       const std::string& node_path) {
  if (frame_->depth >= options_.max_function_depth) {
    ctx.fail("model-local functions nest deeper than " +
             std::to_string(options_.max_function_depth) + " calls (recursion?)");
    return;
  }
  if (function.body == nullptr) return;
  Frame call;
  for (auto [domain, version] : readOpsets(function.opset_import)) {
    call.opsets.push_back({domain, version});
  }
  call.caller = &ctx.node();
  call.callee = &function;
  call.depth = frame_->depth + 1;
  for (size_t i = 0; i < function.inputs.size() && i < ctx.inputCount(); ++i) {
    const Value* formal = function.inputs[i];
    if (formal == nullptr || !ctx.hasInput(i)) continue;
    ValueState& state = call.values[formal];
    if (const InferredType* type = ctx.inputType(i)) state.type = *type;
    if (const Dims* data = ctx.inputData(i)) state.data = *data;
    state.constant = ctx.inputConstant(i);
  }
  Frame* outer = frame_;
  frame_ = &call;
  std::string body_path = node_path + ".function";
  inferGraph(*function.body, body_path);
  for (size_t i = 0; i < function.outputs.size() && i < ctx.outputCount(); ++i) {
    const Value* formal = function.outputs[i]->value;
    if (formal == nullptr) continue;
    const ValueState& state = stateOf(*formal);
    ctx.outputs_[i].type = state.type;
    ctx.outputs_[i].data = state.data;
  }
  frame_ = outer;
}

std::vector<InferredType> Engine::inferSubgraph(const Graph& const_graph,
                                                std::span<const InferredType> inputs) {
  // The engine walks graphs it was given as mutable (the model); rules see them as const.
  Graph& graph = const_cast<Graph&>(const_graph);
  std::string path = current_path_ != nullptr ? *current_path_ : std::string("graph");
  if (current_node_ != nullptr) {
    for (size_t a = 0; a < current_node_->attributes.size(); ++a) {
      const Attribute* attribute = current_node_->attributes[a];
      if (attribute->g == &graph) {
        check::appendSegment(path, "attribute", a, attribute->nameOrEmpty());
        path += ".g";
        break;
      }
      if (attribute->lists == nullptr) continue;
      const ArenaList<Graph*>& graphs = attribute->lists->graphs;
      for (size_t k = 0; k < graphs.size(); ++k) {
        if (graphs[k] != &graph) continue;
        check::appendSegment(path, "attribute", a, attribute->nameOrEmpty());
        check::appendSegment(path, "graphs", k, graph.name.value_or(std::string_view()));
      }
    }
  }
  for (size_t i = 0; i < graph.inputs.size(); ++i) {
    const Value* formal = graph.inputs[i]->value;
    if (formal == nullptr) continue;
    ValueState& state = stateOf(*formal);
    if (i < inputs.size()) {
      // Against the declaration, not what an earlier pass over this body left: a second
      // pass (Loop) may bring less precise types than the first.
      const Type* declared_type = formal->type();
      InferredType declared =
          declared_type != nullptr ? fromDeclared(*declared_type, dims_) : InferredType{};
      Merged merged = mergeTypes(declared, inputs[i], dims_);
      if (!merged.conflict.empty()) {
        std::string input_path = path;
        check::appendSegment(input_path, "input", i, formal->name);
        result_.diagnostics.error("R36", input_path, quoted(formal->name) + ": " + merged.conflict);
      }
      state.type = std::move(merged.type);
    }
  }
  const Node* outer_node = current_node_;
  const std::string* outer_path = current_path_;
  inferGraph(graph, path);
  current_node_ = outer_node;
  current_path_ = outer_path;
  std::vector<InferredType> outputs;
  outputs.reserve(graph.outputs.size());
  for (const ValueInfo* output : graph.outputs) {
    const Value* value = output->bound();
    outputs.push_back(value != nullptr ? stateOf(*value).type : InferredType{});
  }
  return outputs;
}

void Engine::writeBack(Graph& graph) {
  Arena& arena = model_.arena();
  for (Node* node : graph.nodes()) {
    for (Value* output : node->outputs) {
      if (output == nullptr) continue;
      auto found = frame_->values.find(output);
      if (found == frame_->values.end() || !found->second.improves_declaration) continue;
      Type* type = toDeclared(found->second.type, arena, dims_, options_.name_unknown_dims);
      if (type != nullptr) output->setType(arena, type);
    }
  }
}

}  // namespace onyx::infer

namespace onyx {

InferResult inferModel(Model& model, const InferOptions& options) {
  InferResult result;
  infer::Engine engine(model, options, result);
  engine.run();
  return result;
}

}  // namespace onyx
