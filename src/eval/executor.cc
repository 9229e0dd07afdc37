// The evaluator's walk: scopes of values, kernels, function calls, subgraphs.
#include <algorithm>
#include <memory>
#include <string>
#include <thread>
#include <unordered_map>
#include <unordered_set>

#include "core/place_path.h"
#include "core/quote.h"
#include "eval/fused_convolution.h"
#include "eval/fused_matmul.h"
#include "eval/fusion_plan.h"
#include "eval/native_kernels.h"
#include "eval/thread_pool.h"
#include "ir/graph_place.h"
#include "onyx/core/buffer_pool.h"
#include "onyx/core/element_type.h"
#include "onyx/eval/evaluator.h"
#include "onyx/ir/attribute.h"
#include "onyx/ir/function.h"
#include "onyx/ir/graph.h"
#include "onyx/ir/node.h"
#include "onyx/ir/opset_imports.h"
#include "onyx/ir/tensor_array.h"
#include "onyx/ir/value.h"
#include "onyx/ops/callee.h"
#include "onyx/ops/function_body.h"
#include "onyx/ops/kernel_context.h"
#include "onyx/ops/registry.h"

namespace onyx {

namespace eval_internal {

// The values of one graph being run, with the scope that encloses it (a subgraph reads its
// outer graph's values; a function body reads nothing outside).
struct Scope {
  std::unordered_map<const Value*, EvalValue> values;
  // Those of `values` a fused convolution wrote channels-last (fused_convolution.h); only
  // fused convolutions read them.
  std::unordered_set<const Value*> channels_last;
  const Scope* outer = nullptr;

  const EvalValue* find(const Value* value) const {
    for (const Scope* scope = this; scope != nullptr; scope = scope->outer) {
      auto found = scope->values.find(value);
      if (found != scope->values.end()) return &found->second;
    }
    return nullptr;
  }
};

// Whether onyx can run what a node calls: a model-local function, or a standard operator with
// a kernel or a function body.
bool runnable(const Callee& callee) {
  return callee.function != nullptr ||
         (callee.schema != nullptr && (callee.schema->kernel != nullptr || callee.operator_body));
}

Status notRunnable(const Node& node, const OpSchema* schema) {
  std::string what = std::string(node.opType());
  std::string_view domain = node.domainOrDefault();
  if (!canonicalDomain(domain).empty()) what = std::string(domain) + "." + what;
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
      for (const Graph* graph_item : attribute->rare().graphs) forEachRead(*graph_item, visit);
    }
  }
}

// For each node of a graph, the values no later node (nor the graph's outputs) reads: they
// are dropped from the scope once the node has run, so memory follows the live values.
// `runs_at[i]`: where node i runs (a fused node runs with its group's last node).
std::vector<std::vector<const Value*>> lastReads(const Graph& graph,
                                                 std::span<const Value* const> kept,
                                                 const std::vector<size_t>& runs_at) {
  std::unordered_map<const Value*, size_t> last;
  size_t index = 0;
  for (const Node* node : graph.nodes()) {
    size_t at = runs_at[index];
    auto note = [&](const Value* value) { last[value] = std::max(last[value], at); };
    for (size_t i = 0; i < node->inputCount(); ++i) {
      if (const Value* input = node->input(i)) note(input);
    }
    for (const Attribute* attribute : node->attributes) {
      if (attribute->g != nullptr) forEachRead(*attribute->g, note);
      for (const Graph* graph_item : attribute->rare().graphs) forEachRead(*graph_item, note);
    }
    // An output nothing reads is dropped at once.
    for (size_t i = 0; i < node->outputCount(); ++i) {
      if (const Value* output = node->output(i)) last.try_emplace(output, at);
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
      : options_(options), callees_(model), model_imports_(model.opset_import), pool_(threads()) {}

  const OpsetImports& modelImports() const { return model_imports_; }

  Status checkRunnable(const Graph& graph, const OpsetImports& imports, const std::string& path);
  /// Runs `graph`'s nodes in `scope`; its outputs. `kept`: values read after the graph
  /// ends besides its outputs (a function body's outputs).
  Result<std::vector<EvalValue>> runGraph(const Graph& graph, Scope& scope,
                                          const OpsetImports& imports,
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
  const NativeKernels* nativeKernels() const override { return &eval_internal::nativeKernels(); }

 private:
  // The body of a function-operator node onyx has no kernel for, built once per node.
  Result<const Function*> operatorBody(const Node& node, const OpSchema& schema, int64_t opset,
                                       const OpsetImports& imports);

  Status runNode(const Node& node, Scope& scope, const OpsetImports& imports);
  // Runs a fused group where its last node stands; `dropped`: the values the graph drops
  // after it.
  Status runFusedGroup(const FusedGroup& group, const FusionPlan& plan, Scope& scope,
                       const OpsetImports& imports, const std::vector<const Value*>& dropped);
  // Runs a convolution group as one oneDNN convolution: whether it could.
  Result<bool> runFusedConvolution(const FusedGroup& group, const FusionPlan& plan, Scope& scope,
                                   const OpsetImports& imports,
                                   const std::vector<const Value*>& dropped);
  // Runs a MatMul + bias (+ Relu) group as one product: whether it could.
  bool runFusedMatMul(const FusedGroup& group, Scope& scope, const OpsetImports& imports);
  Result<std::vector<EvalValue>> callFunction(const Function& function, KernelContext& ctx);
  Result<const EvalValue*> read(const Value* value, Scope& scope);
  // The tensor `value` holds; null when it is absent, unreadable or not a tensor (a fused
  // step then runs node by node, whose kernels say what is wrong).
  const EvalValue* readTensor(Scope& scope, const Value* value) {
    if (value == nullptr) return nullptr;
    Result<const EvalValue*> found = read(value, scope);
    return found && (*found)->isTensor() ? *found : nullptr;
  }

  // The imports of a function's body, read once per function.
  const OpsetImports& importsOf(const Function& function) {
    auto found = function_imports_.find(&function);
    if (found == function_imports_.end()) {
      found = function_imports_.emplace(&function, OpsetImports(function.opset_import)).first;
    }
    return found->second;
  }

  const EvalOptions& options_;
  CalleeResolver callees_;
  OpsetImports model_imports_;
  std::unordered_map<const Function*, OpsetImports> function_imports_;
  std::unordered_map<const Node*, std::unique_ptr<FunctionBody>> operator_bodies_;
  // Per graph: what runs fused, and the values dropped after each node.
  struct GraphPlan {
    FusionPlan fusion;
    std::vector<std::vector<const Value*>> drops;
  };
  std::unordered_map<const Graph*, GraphPlan> plans_;
  std::unordered_map<const Node*, std::unique_ptr<FusedConvolution>> fused_convolutions_;
  std::unordered_map<const Value*, EvalValue> initializers_;
  ThreadPool pool_;

 public:
  // The memory of one run's freed arrays, reused by the next allocations of the same size.
  BufferPool buffers_;
  // Where the walk is, for subgraph calls from kernels.
  Scope* current_scope_ = nullptr;
  const OpsetImports* current_imports_ = nullptr;
  const Node* caller_ = nullptr;
  const Function* callee_ = nullptr;
  int depth_ = 0;
};

Status Executor::checkRunnable(const Graph& graph, const OpsetImports& imports,
                               const std::string& path) {
  size_t index = 0;
  for (const Node* node : graph.nodes()) {
    Callee callee = callees_.resolve(*node, imports);
    std::string node_path = path;
    appendSegment(node_path, "node", index, node->nameOrEmpty());
    if (!runnable(callee)) return notRunnable(*node, callee.schema).within(node_path);
    for (size_t a = 0; a < node->attributes.size(); ++a) {
      const Attribute* attribute = node->attributes[a];
      if (attribute->g != nullptr) {
        std::string body_path = node_path;
        appendSegment(body_path, "attribute", a, attribute->nameOrEmpty());
        ONYX_RETURN_IF_ERROR(checkRunnable(*attribute->g, imports, joinPath(body_path, "g")));
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

Status Executor::runNode(const Node& node, Scope& scope, const OpsetImports& imports) {
  Callee callee = callees_.resolve(node, imports);
  if (!runnable(callee)) return notRunnable(node, callee.schema);
  const OpSchema* schema = callee.schema;
  std::optional<int64_t> opset = callee.opset;
  const Function* local = callee.function;
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
  const OpsetImports* outer_imports = current_imports_;
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

Result<bool> Executor::runFusedConvolution(const FusedGroup& group, const FusionPlan& plan,
                                           Scope& scope, const OpsetImports& imports,
                                           const std::vector<const Value*>& dropped) {
  const Node& conv = *group.anchor.node;
  const Value* x_value = conv.input(0);
  const Value* w_value = conv.input(1);
  const Value* b_value = conv.inputCount() > 2 ? conv.input(2) : nullptr;
  const Value* r_value = group.addend();
  const EvalValue* x = readTensor(scope, x_value);
  const EvalValue* w = readTensor(scope, w_value);
  const EvalValue* b = readTensor(scope, b_value);
  const EvalValue* r = readTensor(scope, r_value);
  Callee callee = callees_.resolve(conv, imports);
  const OpSchema* schema = callee.schema;
  std::optional<int64_t> opset = callee.opset;
  bool usable = x != nullptr && w != nullptr && (b_value == nullptr || b != nullptr) &&
                (r_value == nullptr || r != nullptr) && schema != nullptr &&
                x->tensor.type() == ElementType::kFloat && x->tensor.rank() == 4;
  if (usable) {
    bool x_channels_last = scope.channels_last.contains(x_value);
    std::vector<int64_t> x_shape = x->tensor.shape();
    if (x_channels_last) x_shape = {x_shape[0], x_shape[3], x_shape[1], x_shape[2]};
    KernelContext ctx(conv, *schema, *opset, *this);
    Result<ops::nn::ConvShape> shape = ops::nn::convShape(ctx, x_shape, w->tensor.shape());
    if (shape) {
      FusedConvolutionCall call;
      call.shape = &*shape;
      call.x = &x->tensor;
      call.x_channels_last = x_channels_last;
      call.weights = &w->tensor;
      call.weights_fixed = w_value->initializer != nullptr && scope.find(w_value) == nullptr;
      call.bias = b != nullptr ? &b->tensor : nullptr;
      call.residual = r != nullptr ? &r->tensor : nullptr;
      call.residual_channels_last = r_value != nullptr && scope.channels_last.contains(r_value);
      call.relu = group.relu.node != nullptr;
      call.output_channels_last = plan.channels_last.contains(group.output());
      call.threads = threads();
      // The residual's elements become the result's when this is their last read and no
      // one else holds them.
      auto held = r_value != nullptr ? scope.values.find(r_value) : scope.values.end();
      if (call.residual_channels_last && held != scope.values.end() &&
          held->second.tensor.soleHandle() && r_value != x_value &&
          std::find(dropped.begin(), dropped.end(), r_value) != dropped.end()) {
        call.residual_storage = std::move(held->second.tensor);
        call.residual = &*call.residual_storage;
      }
      auto& fused = fused_convolutions_[&conv];
      if (fused == nullptr) fused = std::make_unique<FusedConvolution>();
      Result<std::optional<Array>> result = fused->run(call);
      if (!result) return result.status();
      if (*result) {
        const Value* output = group.output();
        scope.values[output] = EvalValue::of(std::move(**result));
        if (call.output_channels_last) scope.channels_last.insert(output);
        return true;
      }
      if (call.residual_storage) held->second.tensor = std::move(*call.residual_storage);
    }
  }
  return false;
}

bool Executor::runFusedMatMul(const FusedGroup& group, Scope& scope, const OpsetImports& imports) {
  const Node& matmul = *group.anchor.node;
  const EvalValue* a = readTensor(scope, matmul.input(0));
  const EvalValue* b = readTensor(scope, matmul.input(1));
  const EvalValue* bias = readTensor(scope, group.addend());
  Callee callee = callees_.resolve(matmul, imports);
  const OpSchema* schema = callee.schema;
  std::optional<int64_t> opset = callee.opset;
  if (a == nullptr || b == nullptr || bias == nullptr || schema == nullptr) return false;
  KernelContext ctx(matmul, *schema, *opset, *this);
  std::optional<Array> result =
      multiplyAddBias(ctx, a->tensor, b->tensor, bias->tensor, group.relu.node != nullptr);
  if (!result) return false;
  scope.values[group.output()] = EvalValue::of(std::move(*result));
  return true;
}

Status Executor::runFusedGroup(const FusedGroup& group, const FusionPlan& plan, Scope& scope,
                               const OpsetImports& imports,
                               const std::vector<const Value*>& dropped) {
  if (group.kind == FusedGroup::Kind::kConvolution) {
    Result<bool> ran = runFusedConvolution(group, plan, scope, imports, dropped);
    if (!ran) return ran.status();
    if (*ran) return Status::ok();
  } else if (runFusedMatMul(group, scope, imports)) {
    return Status::ok();
  }
  // Node by node, in the layout the kernels read.
  for (const FusedGroup::Member& member : group.members()) {
    for (size_t i = 0; i < member.node->inputCount(); ++i) {
      const Value* input = member.node->input(i);
      if (input == nullptr || !scope.channels_last.contains(input)) continue;
      EvalValue& held = scope.values.at(input);
      held.tensor = channelsFirst(held.tensor);
      scope.channels_last.erase(input);
    }
    Status status = runNode(*member.node, scope, imports);
    if (!status.isOk()) {
      return status.within(pathSegment("node", member.index, member.node->nameOrEmpty()));
    }
  }
  return Status::ok();
}

Result<const Function*> Executor::operatorBody(const Node& node, const OpSchema& schema,
                                               int64_t opset, const OpsetImports& imports) {
  auto found = operator_bodies_.find(&node);
  if (found != operator_bodies_.end()) return found->second->function;
  Result<FunctionBody> body = functionBodyFor(schema, node, opset, imports);
  if (!body) return body.status();
  auto owned = std::make_unique<FunctionBody>(std::move(body).value());
  const Function* function = owned->function;
  operator_bodies_.emplace(&node, std::move(owned));
  return function;
}

Result<std::vector<EvalValue>> Executor::runGraph(const Graph& graph, Scope& scope,
                                                  const OpsetImports& imports,
                                                  std::span<const Value* const> kept) {
  auto cached = plans_.find(&graph);
  if (cached == plans_.end()) {
    GraphPlan made;
    made.fusion = planFusion(graph, kept);
    made.drops = lastReads(graph, kept, made.fusion.runs_at);
    cached = plans_.emplace(&graph, std::move(made)).first;
  }
  const GraphPlan& plan = cached->second;
  size_t index = 0;
  for (const Node* node : graph.nodes()) {
    int group = plan.fusion.group_of[index];
    Status status;
    if (group < 0) {
      status = runNode(*node, scope, imports);
    } else if (plan.fusion.runs_at[index] == index) {
      // Names the member that failed itself.
      status = runFusedGroup(plan.fusion.groups[static_cast<size_t>(group)], plan.fusion, scope,
                             imports, plan.drops[index]);
      if (!status.isOk()) return status;
    }
    if (!status.isOk()) return status.within(pathSegment("node", index, node->nameOrEmpty()));
    for (const Value* value : plan.drops[index]) {
      scope.values.erase(value);
      scope.channels_last.erase(value);
    }
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
  if (!outputs && graph.owner != nullptr) {
    // Named as the checker names it: the node's path, then the attribute holding the graph.
    Status failed = std::move(outputs).takeStatus();
    return failed.within(graphPathInNode(*graph.owner, graph));
  }
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
  const OpsetImports& imports = importsOf(function);
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
  using eval_internal::Scope;
  if (model_.graph == nullptr) {
    return Status(ErrorCode::kInvalidArgument, "the model has no graph");
  }
  const Graph& graph = *model_.graph;
  const OpsetImports& imports = executor_->modelImports();
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
