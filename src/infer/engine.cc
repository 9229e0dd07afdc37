#include "infer/engine.h"

#include <algorithm>
#include <array>

#include "core/place_path.h"
#include "infer/merge.h"
#include "infer/signature_types.h"
#include "ir/graph_place.h"
#include "onyx/core/element_type.h"
#include "onyx/core/quote.h"
#include "onyx/ir/attribute.h"
#include "onyx/ir/constant_value.h"
#include "onyx/ir/editor.h"
#include "onyx/ir/function.h"
#include "onyx/ir/graph.h"
#include "onyx/ir/node.h"
#include "onyx/ir/tensor.h"
#include "onyx/ir/value.h"
#include "onyx/ops/registry.h"
#include "ops/type_conversion.h"

namespace onyx::infer {

namespace {

// Whether every dimension of a tensor type is a number or a named expression.
bool isCompleteIn(const InferredType& type, const SymbolicDims& dims) {
  if (!type.isTensorLike() || !type.has_shape) return false;
  for (DimValue dim : type.dims) {
    if (dims.isAnonymous(dim)) return false;
  }
  return true;
}

// A conflict's detail without the lone space that marks a conflict without one.
std::string trimmed(const std::string& detail) { return detail == " " ? std::string() : detail; }

}  // namespace

Engine::Engine(const Model& model, Model* writable, const InferOptions& options,
               InferResult& result)
    : model_(model),
      writable_(writable),
      options_(options),
      initializer_inputs_(initializerInputsOf(model, options.constant_initializers)),
      callees_(model),
      result_(result),
      dims_(result.dims) {}

const Type* Engine::declaredType(const Value& value) const {
  if (options_.trust_value_info || value.isGraphInput() || value.isGraphOutputOfItsGraph()) {
    return value.type();
  }
  return nullptr;
}

void Engine::keep(const Value& value, const ValueState& state) {
  if (!options_.keep_values || frame_->callee != nullptr) return;
  KnownValue& known = result_.values[&value];
  known.type = state.type;
  known.data = state.data ? std::optional<Dims>(*state.data) : std::nullopt;
}

void Engine::run() {
  if (model_.graph == nullptr) return;
  Frame main;
  main.imports = OpsetImports(model_.opset_import);
  main.write_back = options_.write_back && writable_ != nullptr;
  // Room for every value the main graph defines, up front (a count the graph keeps).
  main.values.reserve(model_.graph->values().size());
  if (options_.keep_values) result_.values.reserve(model_.graph->values().size());
  frame_ = &main;
  if (options_.strict) checkInputElementTypes(*model_.graph, "graph");
  inferGraph(*model_.graph, "graph");
  if (main.write_back) writeBack();
  frame_ = nullptr;
}

bool Engine::isComplete(const InferredType& type) const { return isCompleteIn(type, dims_); }

ValueState& Engine::stateOf(const Value& value) {
  auto [found, inserted] = frame_->values.insert(&value);
  ValueState& state = *found;
  if (!inserted) return state;
  const Type* declared = declaredType(value);
  if (declared != nullptr) state.type = ops::fromDeclared(*declared, dims_);
  bool fixed = fixedInitializer(&value, initializer_inputs_) != nullptr;
  if (value.isGraphInput() && !fixed) state.data_source = &value;
  if (value.initializer() != nullptr) {
    const Tensor& tensor = *value.initializer();
    state.type = mergeTypes(state.type, ops::typeOfTensor(tensor), dims_).type;
    if (fixed) {
      state.constant = &tensor;
      if (std::optional<Dims> elements = ops::integerElements(tensor)) {
        state.data = std::make_unique<Dims>(std::move(*elements));
      }
    }
  }
  keep(value, state);
  return state;
}

std::string Engine::NodePlace::path() const {
  std::string text = *graph_path;
  appendSegment(text, "node", index, node->nameOrEmpty());
  return text;
}

void Engine::inferGraph(const Graph& graph, const std::string& path) {
  checkInitializedInputs(graph, path);
  size_t index = 0;
  for (Node* node : graph.nodes()) inferNode(*node, NodePlace{&path, index++, node});
}

void Engine::checkInputElementTypes(const Graph& graph, const std::string& path) {
  for (size_t i = 0; i < graph.inputs.size(); ++i) {
    const Type* type = graph.inputs[i]->type;
    if (type == nullptr ||
        (type->kind != Type::Kind::kTensor && type->kind != Type::Kind::kSparseTensor) ||
        (type->elem_type && elementTypeInfo(*type->elem_type) != nullptr)) {
      continue;
    }
    std::string_view name = graph.inputs[i]->name.value_or(std::string_view());
    std::string place = path;
    appendSegment(place, "input", i, name);
    std::string held = type->elem_type ? "element type " + std::to_string(*type->elem_type)
                                       : std::string("no element type");
    result_.diagnostics.error("R84", place,
                              quoted(name) + " is a tensor of " + held +
                                  " (UNDEFINED): nothing that reads it can be typed");
  }
}

void Engine::checkInitializedInputs(const Graph& graph, const std::string& path) {
  for (size_t i = 0; i < graph.inputs.size(); ++i) {
    const Value* value = graph.inputs[i]->value;
    if (value == nullptr || value->initializer() == nullptr || value->type() == nullptr) continue;
    InferredType declared = ops::fromDeclared(*value->type(), dims_);
    InferredType held = ops::typeOfTensor(*value->initializer());
    Merged merged = mergeTypes(declared, held, dims_);
    if (merged.conflict.empty()) continue;
    std::string place = path;
    appendSegment(place, "input", i, value->name());
    result_.diagnostics.error("R36", place,
                              quoted(value->name()) + ": the graph input declares " +
                                  describe(declared, dims_) + ", its initializer holds " +
                                  describe(held, dims_) + trimmed(merged.conflict));
  }
}

void Engine::inferNode(const Node& node, const NodePlace& place) {
  ++result_.stats.nodes;
  std::string_view domain = node.domainOrDefault();
  Callee callee = callees_.resolve(node, frame_->imports);
  std::optional<int64_t> opset = callee.opset;
  const OpSchema* schema = callee.schema;
  const Function* local = callee.function;
  static constexpr OpSchema kNoSignature{};
  InferenceContext ctx(node, schema != nullptr ? *schema : kNoSignature, opset.value_or(0), dims_,
                       *this);
  ctx.caller_ = frame_->caller;
  ctx.callee_ = frame_->callee;
  // The slot lists are reused from node to node (a subgraph's nodes, inferred while this
  // node's rule runs, find them taken and make their own).
  ctx.inputs_ = std::move(scratch_inputs_);
  ctx.outputs_ = std::move(scratch_outputs_);
  ctx.inputs_.clear();
  ctx.outputs_.clear();
  ctx.inputs_.resize(node.inputCount());
  // What the outputs' dependence on graph inputs' values is made of (see below), read here
  // while each input's state is at hand: the first 16 inputs are enough to explain.
  constexpr size_t kTracked = 16;
  std::array<const Value*, kTracked> input_data_sources{};
  const Value* upstream_value_source = nullptr;
  const Value* data_source = nullptr;
  for (size_t i = 0; i < node.inputCount(); ++i) {
    const Value* input = node.input(i);
    if (input == nullptr) continue;
    ValueState& state = stateOf(*input);
    InferenceContext::InputSlot& slot = ctx.inputs_[i];
    slot.present = true;
    slot.type = &state.type;
    slot.data = state.data.get();
    slot.constant = state.constant;
    if (i < kTracked) input_data_sources[i] = state.data_source;
    if (upstream_value_source == nullptr) upstream_value_source = state.value_source;
    if (data_source == nullptr) data_source = state.data_source;
  }
  ctx.outputs_.resize(node.outputCount());
  for (size_t i = 0; i < node.outputCount(); ++i) ctx.outputs_[i].present = node.output(i);

  const NodePlace* outer_place = current_place_;
  current_place_ = &place;
  if (schema != nullptr) {
    if (options_.strict && speculative_depth_ == 0) {
      for (std::string& wrong : disallowedInputTypes(ctx)) {
        result_.diagnostics.error("R51", place.path(), std::move(wrong));
      }
    }
    applySignatureTypes(ctx);
    if (schema->infer != nullptr) {
      schema->infer(ctx);
    } else {
      ++result_.stats.nodes_without_rule;
      ctx.note("no shape rule for " + std::string(node.opType()) + "-" +
               std::to_string(schema->since_version));
    }
  } else if (local != nullptr) {
    inferCall(*local, ctx, place);
  } else {
    ++result_.stats.nodes_without_rule;
    ctx.note(opset ? "unknown operator " + quoted(node.opType())
                   : "domain " + quoted(domain) + " is not imported");
  }
  current_place_ = outer_place;

  for (std::string& failure : ctx.failures_) {
    if (speculative_depth_ > 0) {
      ctx.notes_.push_back(std::move(failure) + " (in a branch that may not run)");
    } else {
      result_.diagnostics.error("X5", place.path(), std::move(failure));
    }
  }
  // Where the outputs' missing dimensions come from, when it is a graph input's values:
  // an input whose elements the rule wanted, or an input already so marked.
  const Value* value_source = upstream_value_source;
  for (size_t i = 0; i < node.inputCount() && i < kTracked && value_source == nullptr; ++i) {
    if (ctx.inputs_[i].data_wanted) value_source = input_data_sources[i];
  }
  // A control-flow node's outputs come from its bodies' outputs: their dependence counts.
  for (size_t a = 0; a < node.attributes.size() && value_source == nullptr; ++a) {
    const Attribute* attribute = node.attributes[a];
    auto consider = [&](const Graph* body) {
      if (body == nullptr) return;
      for (const ValueInfo* output : body->outputs) {
        const Value* bound = output->bound();
        const ValueState* body_state = bound != nullptr ? frame_->values.find(bound) : nullptr;
        if (body_state != nullptr && body_state->value_source != nullptr) {
          value_source = body_state->value_source;
          return;
        }
      }
    };
    consider(attribute->g);
    for (const Graph* body : attribute->rare().graphs) consider(body);
  }
  bool complete = true;
  for (size_t i = 0; i < node.outputCount(); ++i) {
    Value* output = node.output(i);
    if (output == nullptr) continue;
    ++result_.stats.outputs;
    auto output_path = [&] { return place.path() + ".output[" + std::to_string(i) + "]"; };
    ValueState& output_state = setOutput(*output, std::move(ctx.outputs_[i]), output_path);
    if (!output_state.data) output_state.data_source = data_source;
    keep(*output, output_state);
    const InferredType& type = output_state.type;
    if (value_source != nullptr && !isComplete(type)) {
      output_state.value_source = value_source;
      if (frame_->callee == nullptr) result_.value_dependent[output] = value_source;
    }
    if (type.isKnown()) ++result_.stats.outputs_typed;
    if (type.isTensorLike() && type.has_shape) {
      ++result_.stats.outputs_shaped;
    } else {
      complete = false;
    }
    if (!type.isKnown() && options_.strict) {
      result_.diagnostics.error("X6", output_path(),
                                "the type of " + quoted(output->name()) + " cannot be inferred");
    }
  }
  if (!complete || !ctx.notes_.empty()) {
    std::string line = place.path() + " " + std::string(node.opType()) + ":";
    if (ctx.notes_.empty()) {
      // The rule ran: what it lacked is an input's shape (or the inputs are not tensors).
      std::string missing;
      for (size_t i = 0; i < node.inputCount(); ++i) {
        if (ctx.hasInput(i) && ctx.inputShape(i) == nullptr) {
          missing += (missing.empty() ? "" : ", ") + std::to_string(i);
        }
      }
      line += missing.empty() ? " some outputs stay without a shape"
                              : " inputs without a shape: " + missing;
    }
    for (size_t i = 0; i < ctx.notes_.size(); ++i) line += (i ? "; " : " ") + ctx.notes_[i];
    if (value_source != nullptr) {
      line +=
          " (the shape depends on the values of graph input " + quoted(value_source->name()) + ")";
    }
    result_.notes.push_back(std::move(line));
  }
  scratch_inputs_ = std::move(ctx.inputs_);
  scratch_outputs_ = std::move(ctx.outputs_);
}

ValueState& Engine::setOutput(Value& value, InferenceContext::OutputSlot slot,
                              const std::function<std::string()>& path) {
  ValueState& state = *frame_->values.insert(&value).first;
  const Type* declared_type = declaredType(value);
  if (declared_type == nullptr) {
    state.type = std::move(slot.type);
    state.improves_declaration = state.type.isKnown();
  } else {
    InferredType declared = ops::fromDeclared(*declared_type, dims_);
    Merged merged = mergeTypes(declared, slot.type, dims_);
    if (!merged.conflict.empty()) {
      // Both sources named: where the declaration is, and which operator gives the other.
      bool in_outputs = value.valueInfo() != nullptr && value.valueInfo()->output.value() == &value;
      std::string producer =
          value.producer() != nullptr ? std::string(value.producer()->opType()) : "inference";
      result_.diagnostics.error(
          "R36", path(),
          quoted(value.name()) + ": " + (in_outputs ? "the graph output" : "value_info") +
              " declares " + describe(declared, dims_) + ", " + producer + " gives " +
              describe(slot.type, dims_) + trimmed(merged.conflict));
    }
    state.improves_declaration = !(merged.type == declared);
    state.type = std::move(merged.type);
  }
  state.data = slot.data ? std::make_unique<Dims>(std::move(*slot.data)) : nullptr;
  state.constant = slot.constant;
  // A constant's elements are data for the rules downstream, like an initializer's.
  if (!state.data && state.constant != nullptr) {
    if (std::optional<Dims> elements = ops::integerElements(*state.constant)) {
      state.data = std::make_unique<Dims>(std::move(*elements));
    }
  }
  if (frame_->write_back && state.improves_declaration) to_write_back_.emplace_back(&value, &state);
  return state;
}

void Engine::inferCall(const Function& function, InferenceContext& ctx, const NodePlace& place) {
  if (frame_->depth >= options_.max_function_depth) {
    ctx.fail("model-local functions nest deeper than " +
             std::to_string(options_.max_function_depth) + " calls (recursion?)");
    return;
  }
  if (function.body == nullptr) return;
  Frame call;
  call.imports = OpsetImports(function.opset_import);
  call.caller = &ctx.node();
  call.callee = &function;
  call.depth = frame_->depth + 1;
  for (size_t i = 0; i < function.inputs.size() && i < ctx.inputCount(); ++i) {
    const Value* formal = function.inputs[i];
    if (formal == nullptr || !ctx.hasInput(i)) continue;
    ValueState& state = *call.values.insert(formal).first;
    if (const InferredType* type = ctx.inputType(i)) state.type = *type;
    if (const Dims* data = ctx.inputData(i)) state.data = std::make_unique<Dims>(*data);
    state.constant = ctx.inputConstant(i);
  }
  Frame* outer = frame_;
  frame_ = &call;
  std::string body_path = place.path() + ".function";
  inferGraph(*function.body, body_path);
  for (size_t i = 0; i < function.outputs.size() && i < ctx.outputCount(); ++i) {
    const Value* formal = function.outputs[i]->value();
    if (formal == nullptr) continue;
    const ValueState& state = stateOf(*formal);
    ctx.outputs_[i].type = state.type;
    if (state.data) ctx.outputs_[i].data = *state.data;
  }
  frame_ = outer;
}

std::vector<InferredType> Engine::inferSubgraph(const Graph& graph,
                                                std::span<const InferredType> inputs,
                                                bool may_not_run) {
  std::string path = current_place_ != nullptr ? current_place_->path() : std::string("graph");
  if (current_place_ != nullptr) {
    std::string below = graphPathInNode(*current_place_->node, graph);
    if (!below.empty()) path = joinPath(std::move(path), below);
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
          declared_type != nullptr ? ops::fromDeclared(*declared_type, dims_) : InferredType{};
      Merged merged = mergeTypes(declared, inputs[i], dims_);
      if (!merged.conflict.empty()) {
        std::string input_path = path;
        appendSegment(input_path, "input", i, formal->name());
        result_.diagnostics.error("R36", input_path,
                                  quoted(formal->name()) + ": the body declares " +
                                      describe(state.type, dims_) + ", the node gives " +
                                      describe(inputs[i], dims_) + trimmed(merged.conflict));
      }
      state.type = std::move(merged.type);
      keep(*formal, state);
    }
  }
  const NodePlace* outer_place = current_place_;
  if (may_not_run) ++speculative_depth_;
  inferGraph(graph, path);
  if (may_not_run) --speculative_depth_;
  current_place_ = outer_place;
  std::vector<InferredType> outputs;
  outputs.reserve(graph.outputs.size());
  for (const ValueInfo* output : graph.outputs) {
    const Value* value = output->bound();
    outputs.push_back(value != nullptr ? stateOf(*value).type : InferredType{});
  }
  return outputs;
}

std::string_view Engine::declaredText(DimValue dim) {
  if (!options_.name_unknown_dims && dims_.isAnonymous(dim)) return {};
  size_t index = static_cast<size_t>(dim.expression());
  if (index >= declared_text_.size()) declared_text_.resize(dims_.expressionCount());
  std::string_view& text = declared_text_[index];
  // Only for writeBack, which runs only on a writable model.
  if (text.data() == nullptr) text = GraphEditor(*writable_).arena().copy(dims_.text(dim));
  return text;
}

void Engine::writeBack() {
  GraphEditor edit(*writable_);
  auto symbol_text = [](void* engine, DimValue dim) {
    return static_cast<Engine*>(engine)->declaredText(dim);
  };
  for (auto [value, state] : to_write_back_) {
    if (!state->improves_declaration) continue;
    if (Type* type = ops::toDeclared(state->type, edit, symbol_text, this)) {
      edit.setType(value, type);
    }
  }
}

}  // namespace onyx::infer

namespace onyx {

InferResult inferModel(Model& model, const InferOptions& options) {
  InferResult result;
  infer::Engine engine(model, &model, options, result);
  engine.run();
  return result;
}

InferResult inferModel(const Model& model, const InferOptions& options) {
  InferResult result;
  infer::Engine engine(model, nullptr, options, result);
  engine.run();
  return result;
}

void checkInferredTypes(const Model& model, Diagnostics& out) {
  InferResult result = inferModel(model, InferOptions{});
  for (const Diagnostic& diagnostic : result.diagnostics.all()) {
    out.add(diagnostic.rule, diagnostic.severity, diagnostic.path, diagnostic.message);
  }
}

}  // namespace onyx
