// The evaluator's walk: scopes of values, kernels, function calls, subgraphs.
#include <algorithm>
#include <memory>
#include <string>
#include <thread>
#include <unordered_map>
#include "check/opset_imports.h"
#include "check/quote.h"

#include "eval/thread_pool.h"
#include "onyx/core/buffer_pool.h"
#include "onyx/core/element_type.h"
#include "onyx/eval/evaluator.h"
#include "onyx/ir/attribute.h"
#include "onyx/ir/function.h"
#include "onyx/ir/graph.h"
#include "onyx/ir/node.h"
#include "onyx/ir/tensor_array.h"
#include "onyx/ir/value.h"
#include "onyx/ops/function_body.h"
#include "onyx/ops/kernel_context.h"
#include "onyx/ops/registry.h"

namespace onyx {

using check::quoted;

namespace eval_internal {

struct Imports {
  const ArenaList<OperatorSetId>* list = nullptr;
  std::optional<int64_t> versionOf(std::string_view domain) const {
    std::optional<int64_t> found;
    for (const OperatorSetId& entry : *list) {
      if (check::canonicalDomain(entry.domain.value_or("")) == check::canonicalDomain(domain)) {
        found = std::max(found.value_or(0), entry.version.value_or(0));
      }
    }
    return found;
  }
};

// The values of one graph being run, with the scope that encloses it (a subgraph reads its
// outer graph's values; a function body reads nothing outside).
struct Scope {
  std::unordered_map<const Value*, EvalValue> values;
  const Scope* outer = nullptr;

  const EvalValue* find(const Value* value) const {
    for (const Scope* scope = this; scope != nullptr; scope = scope->outer) {
      auto found = scope->values.find(value);
      if (found != scope->values.end()) return &found->second;
    }
    return nullptr;
  }
};

bool runnable(const OpSchema* schema, std::optional<int64_t> opset) {
  return schema != nullptr &&
         (schema->kernel != nullptr || hasFunctionBodyAt(*schema, opset.value_or(0)));
}

Status notRunnable(const Node& node, const OpSchema* schema) {
  std::string what = std::string(node.opType());
  std::string_view domain = node.domainOrDefault();
  if (!check::canonicalDomain(domain).empty()) what = std::string(domain) + "." + what;
  return Status(ErrorCode::kUnsupported, schema == nullptr
                                             ? what + " is not a known operator at this opset"
                                             : what + "-" + std::to_string(schema->since_version) +
                                                   " has no kernel in onyx yet");
}

// Calls `visit` with every value the nodes of `graph` read, its subgraphs' reads included
// (an outer-scope read keeps the outer value alive until the node holding the subgraph ends).
template <class Visit>
void forEachRead(const Graph& graph, Visit&& visit) {
  for (const Node* node : graph.nodes()) {
    for (size_t i = 0; i < node->inputCount(); ++i) {
      if (const Value* input = node->input(i)) visit(input);
    }
    for (const Attribute* attribute : node->attributes) {
      if (attribute->g != nullptr) forEachRead(*attribute->g, visit);
      if (attribute->lists != nullptr) {
        for (const Graph* graph_item : attribute->lists->graphs) forEachRead(*graph_item, visit);
      }
    }
  }
}

// For each node of a graph, the values no later node (nor the graph's outputs) reads: they
// are dropped from the scope once the node has run, so memory follows the live values.
std::vector<std::vector<const Value*>> lastReads(const Graph& graph,
                                                 std::span<const Value* const> kept) {
  std::unordered_map<const Value*, size_t> last;
  size_t index = 0;
  for (const Node* node : graph.nodes()) {
    auto note = [&](const Value* value) { last[value] = index; };
    for (size_t i = 0; i < node->inputCount(); ++i) {
      if (const Value* input = node->input(i)) note(input);
    }
    for (const Attribute* attribute : node->attributes) {
      if (attribute->g != nullptr) forEachRead(*attribute->g, note);
      if (attribute->lists != nullptr) {
        for (const Graph* graph_item : attribute->lists->graphs) forEachRead(*graph_item, note);
      }
    }
    // An output nothing reads is dropped at once.
    for (size_t i = 0; i < node->outputCount(); ++i) {
      if (const Value* output = node->output(i)) last.try_emplace(output, index);
    }
    ++index;
  }
  for (const ValueInfo* output : graph.outputs) {
    if (const Value* value = output->bound()) last.erase(value);
  }
  for (const Value* value : kept) last.erase(value);
  std::vector<std::vector<const Value*>> drops(index);
  for (const auto& [value, at] : last) drops[at].push_back(value);
  return drops;
}

class Executor final : public KernelHost {
 public:
  Executor(const Model& model, const EvalOptions& options)
      : model_(model), options_(options), pool_(threads()) {}

  Status checkRunnable(const Graph& graph, const Imports& imports, const std::string& path);
  /// Runs `graph`'s nodes in `scope`; its outputs. `kept`: values read after the graph
  /// ends besides its outputs (a function body's outputs).
  Result<std::vector<EvalValue>> runGraph(const Graph& graph, Scope& scope, const Imports& imports,
                                          std::span<const Value* const> kept = {});
  Result<std::vector<EvalValue>> runSubgraph(const Graph& graph,
                                             std::vector<EvalValue> inputs) override;
  int threads() const override {
    if (options_.threads > 0) return options_.threads;
    return static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  }
  uint64_t seed() const override { return options_.seed; }
  void runParts(size_t parts, const std::function<void(size_t part)>& body) override {
    pool_.run(parts, body);
  }
  int64_t maxIterations() const override { return options_.max_iterations; }

 private:
  // The body of a function-operator node onyx has no kernel for, built once per node.
  Result<const Function*> operatorBody(const Node& node, const OpSchema& schema, int64_t opset,
                                       const Imports& imports);

  Status runNode(const Node& node, Scope& scope, const Imports& imports);
  Result<std::vector<EvalValue>> callFunction(const Function& function, KernelContext& ctx);
  Result<const EvalValue*> read(const Value* value, Scope& scope);

  const Model& model_;
  const EvalOptions& options_;
  std::unordered_map<const Node*, std::unique_ptr<FunctionBody>> operator_bodies_;
  std::unordered_map<const Graph*, std::vector<std::vector<const Value*>>> drops_;
  std::unordered_map<const Value*, EvalValue> initializers_;
  ThreadPool pool_;

 public:
  // The memory of one run's freed arrays, reused by the next allocations of the same size.
  BufferPool buffers_;
  // Where the walk is, for subgraph calls from kernels.
  Scope* current_scope_ = nullptr;
  const Imports* current_imports_ = nullptr;
  const Node* caller_ = nullptr;
  const Function* callee_ = nullptr;
  int depth_ = 0;
};

Status Executor::checkRunnable(const Graph& graph, const Imports& imports,
                               const std::string& path) {
  size_t index = 0;
  for (const Node* node : graph.nodes()) {
    std::string_view domain = node->domainOrDefault();
    std::optional<int64_t> opset = imports.versionOf(domain);
    const OpSchema* schema = opset ? findSchema(domain, node->opType(), *opset) : nullptr;
    bool local = model_.findFunction(domain, node->opType(),
                                     node->overload.value_or(std::string_view())) != nullptr;
    if (!local && !runnable(schema, opset)) {
      return notRunnable(*node, schema).within(path + ".node[" + std::to_string(index) + "]");
    }
    for (const Attribute* attribute : node->attributes) {
      if (attribute->g != nullptr) {
        ONYX_RETURN_IF_ERROR(
            checkRunnable(*attribute->g, imports, path + ".node[" + std::to_string(index) + "].g"));
      }
    }
    ++index;
  }
  return Status::ok();
}

Result<const EvalValue*> Executor::read(const Value* value, Scope& scope) {
  if (const EvalValue* found = scope.find(value)) return found;
  if (value->initializer != nullptr) {
    // Converted once and kept for every later run, as the weights of a loaded model are.
    auto cached = initializers_.find(value);
    if (cached != initializers_.end()) return &cached->second;
    Result<Array> array = arrayFromTensor(*value->initializer);
    if (!array)
      return Status(array.status().code(),
                    "initializer " + quoted(value->name) + ": " + array.status().message());
    auto [slot, inserted] = initializers_.emplace(value, EvalValue::of(std::move(*array)));
    return &slot->second;
  }
  return Status(ErrorCode::kInvalidArgument, quoted(value->name) + " has no value");
}

Status Executor::runNode(const Node& node, Scope& scope, const Imports& imports) {
  std::string_view domain = node.domainOrDefault();
  std::optional<int64_t> opset = imports.versionOf(domain);
  const OpSchema* schema = opset ? findSchema(domain, node.opType(), *opset) : nullptr;
  const Function* local =
      schema == nullptr
          ? model_.findFunction(domain, node.opType(), node.overload.value_or(std::string_view()))
          : nullptr;
  if (local == nullptr && !runnable(schema, opset)) return notRunnable(node, schema);
  static constexpr OpSchema kNoSignature{};
  KernelContext ctx(node, schema != nullptr ? *schema : kNoSignature, opset.value_or(0), *this);
  ctx.caller_ = caller_;
  ctx.callee_ = callee_;
  ctx.inputs_.resize(node.inputCount(), nullptr);
  for (size_t i = 0; i < node.inputCount(); ++i) {
    const Value* input = node.input(i);
    if (input == nullptr) continue;
    Result<const EvalValue*> value = read(input, scope);
    if (!value) return value.status();
    ctx.inputs_[i] = *value;
  }
  ctx.outputs_.resize(node.outputCount());
  ctx.wanted_.resize(node.outputCount());
  for (size_t i = 0; i < node.outputCount(); ++i) ctx.wanted_[i] = node.output(i) != nullptr;

  Scope* outer_scope = current_scope_;
  const Imports* outer_imports = current_imports_;
  current_scope_ = &scope;
  current_imports_ = &imports;
  Status status;
  if (local == nullptr && schema != nullptr && schema->kernel == nullptr) {
    Result<const Function*> body = operatorBody(node, *schema, *opset, imports);
    if (!body) {
      current_scope_ = outer_scope;
      current_imports_ = outer_imports;
      return body.status();
    }
    local = *body;
  }
  if (local != nullptr) {
    Result<std::vector<EvalValue>> outputs = callFunction(*local, ctx);
    if (outputs) {
      for (size_t i = 0; i < outputs->size() && i < ctx.outputs_.size(); ++i) {
        ctx.outputs_[i] = std::move((*outputs)[i]);
      }
    } else {
      status = outputs.status();
    }
  } else {
    status = schema->kernel(ctx);
  }
  current_scope_ = outer_scope;
  current_imports_ = outer_imports;
  if (!status.isOk()) return status;
  for (size_t i = 0; i < node.outputCount(); ++i) {
    if (const Value* output = node.output(i)) scope.values[output] = std::move(ctx.outputs_[i]);
  }
  return Status::ok();
}

Result<const Function*> Executor::operatorBody(const Node& node, const OpSchema& schema,
                                               int64_t opset, const Imports& imports) {
  auto found = operator_bodies_.find(&node);
  if (found != operator_bodies_.end()) return found->second->function;
  std::vector<OperatorSetId> opsets(imports.list->begin(), imports.list->end());
  Result<FunctionBody> body = functionBodyFor(schema, node, opset, opsets);
  if (!body) return body.status();
  auto owned = std::make_unique<FunctionBody>(std::move(body).value());
  const Function* function = owned->function;
  operator_bodies_.emplace(&node, std::move(owned));
  return function;
}

Result<std::vector<EvalValue>> Executor::runGraph(const Graph& graph, Scope& scope,
                                                  const Imports& imports,
                                                  std::span<const Value* const> kept) {
  auto cached = drops_.find(&graph);
  if (cached == drops_.end()) cached = drops_.emplace(&graph, lastReads(graph, kept)).first;
  const std::vector<std::vector<const Value*>>& drops = cached->second;
  size_t index = 0;
  for (const Node* node : graph.nodes()) {
    Status status = runNode(*node, scope, imports);
    if (!status.isOk()) {
      std::string where = "node[" + std::to_string(index) + "]";
      if (!node->nameOrEmpty().empty()) where += "(" + std::string(node->nameOrEmpty()) + ")";
      return status.within(where);
    }
    for (const Value* value : drops[index]) scope.values.erase(value);
    ++index;
  }
  std::vector<EvalValue> outputs;
  outputs.reserve(graph.outputs.size());
  for (const ValueInfo* output : graph.outputs) {
    const Value* value = output->bound();
    if (value == nullptr) return Status(ErrorCode::kInvalidArgument, "a graph output is unbound");
    Result<const EvalValue*> found = read(value, scope);
    if (!found) return found.status();
    outputs.push_back(**found);
  }
  return outputs;
}

Result<std::vector<EvalValue>> Executor::runSubgraph(const Graph& graph,
                                                     std::vector<EvalValue> inputs) {
  if (++depth_ > 256) {
    --depth_;
    return Status(ErrorCode::kLimitExceeded, "subgraphs nest deeper than 256");
  }
  Scope inner;
  inner.outer = current_scope_;
  for (size_t i = 0; i < graph.inputs.size() && i < inputs.size(); ++i) {
    if (const Value* formal = graph.inputs[i]->value) inner.values[formal] = std::move(inputs[i]);
  }
  Scope* outer = current_scope_;
  Result<std::vector<EvalValue>> outputs = runGraph(graph, inner, *current_imports_);
  current_scope_ = outer;
  --depth_;
  return outputs;
}

Result<std::vector<EvalValue>> Executor::callFunction(const Function& function,
                                                      KernelContext& ctx) {
  if (function.body == nullptr) return std::vector<EvalValue>{};
  if (++depth_ > 256) {
    --depth_;
    return Status(ErrorCode::kLimitExceeded, "function calls nest deeper than 256");
  }
  Scope body;  // closed: a function reads nothing outside it
  for (size_t i = 0; i < function.inputs.size() && i < ctx.inputCount(); ++i) {
    if (const Value* formal = function.inputs[i]; formal != nullptr && ctx.hasInput(i)) {
      body.values[formal] = *ctx.input(i);
    }
  }
  Imports imports{&function.opset_import};
  const Node* outer_caller = caller_;
  const Function* outer_callee = callee_;
  caller_ = &ctx.node();
  callee_ = &function;
  Scope* outer_scope = current_scope_;
  std::vector<EvalValue> outputs;
  std::vector<const Value*> function_outputs;
  for (const Use* output : function.outputs) function_outputs.push_back(output->value);
  Result<std::vector<EvalValue>> ran = runGraph(*function.body, body, imports, function_outputs);
  // Function outputs are uses without a node, not graph outputs: read them here.
  Status status = ran.isOk() ? Status::ok() : ran.status();
  if (status.isOk()) {
    for (const Use* output : function.outputs) {
      const EvalValue* value = output->value != nullptr ? body.find(output->value) : nullptr;
      outputs.push_back(value != nullptr ? *value : EvalValue{});
    }
  }
  current_scope_ = outer_scope;
  caller_ = outer_caller;
  callee_ = outer_callee;
  --depth_;
  if (!status.isOk()) return status;
  return outputs;
}

// Whether `value` fits the declared `type`: kind, element type, rank, known dims.
std::string mismatch(const EvalValue& value, const Type* type) {
  if (type == nullptr || type->kind != Type::Kind::kTensor) return {};
  if (!value.isTensor()) return "a tensor is declared";
  const Array& array = value.tensor;
  if (type->elem_type && *type->elem_type != static_cast<int32_t>(array.type())) {
    return std::string("the element type is ") + std::string(elementTypeName(array.type())) +
           ", declared " + std::string(elementTypeName(*type->elem_type));
  }
  if (type->shape == nullptr) return {};
  if (type->shape->rank() != array.rank()) {
    return "the rank is " + std::to_string(array.rank()) + ", declared " +
           std::to_string(type->shape->rank());
  }
  for (size_t axis = 0; axis < array.rank(); ++axis) {
    const Dimension& dim = type->shape->dims[axis];
    if (dim.dim_value && *dim.dim_value != array.dim(axis)) {
      return "dimension " + std::to_string(axis) + " is " + std::to_string(array.dim(axis)) +
             ", declared " + std::to_string(*dim.dim_value);
    }
  }
  return {};
}

}  // namespace eval_internal

Evaluator::Evaluator(const Model& model, EvalOptions options)
    : model_(model),
      options_(std::make_unique<EvalOptions>(options)),
      executor_(std::make_unique<eval_internal::Executor>(model, *options_)) {}

Evaluator::~Evaluator() = default;

Result<std::vector<EvalValue>> Evaluator::run(std::span<const NamedValue> inputs) {
  using eval_internal::Imports;
  using eval_internal::Scope;
  if (model_.graph == nullptr) {
    return Status(ErrorCode::kInvalidArgument, "the model has no graph");
  }
  const Graph& graph = *model_.graph;
  Imports imports{&model_.opset_import};
  if (!checked_) {
    ONYX_RETURN_IF_ERROR(executor_->checkRunnable(graph, imports, "graph"));
    checked_ = true;
  }
  BufferPoolScope reuse(executor_->buffers_);
  Scope scope;
  for (const NamedValue& input : inputs) {
    const Value* formal = graph.lookup(input.name);
    if (formal == nullptr || formal->input == nullptr) {
      return Status(ErrorCode::kInvalidArgument,
                    "the graph has no input named " + quoted(input.name));
    }
    if (std::string why = eval_internal::mismatch(input.value, formal->type()); !why.empty()) {
      return Status(ErrorCode::kInvalidArgument, "input " + quoted(input.name) + ": " + why);
    }
    scope.values[formal] = input.value;
  }
  for (const ValueInfo* declared : graph.inputs) {
    const Value* formal = declared->value;
    if (formal == nullptr || scope.values.contains(formal) || formal->initializer != nullptr) {
      continue;
    }
    return Status(ErrorCode::kInvalidArgument, "input " + quoted(formal->name) + " is not given");
  }
  return executor_->runGraph(graph, scope, imports);
}

Result<std::vector<EvalValue>> evaluate(const Model& model, std::span<const NamedValue> inputs,
                                        const EvalOptions& options) {
  Evaluator evaluator(model, options);
  return evaluator.run(inputs);
}

}  // namespace onyx
