#include "eval/engine/plan.h"

#include <algorithm>
#include <unordered_set>

#include "core/place_path.h"
#include "eval/engine/form_plan.h"
#include "eval/engine/layout_plan.h"
#include "eval/fusions/fusion_pattern.h"
#include "ir/graph_place.h"
#include "ir/nested_reads.h"
#include "onyx/core/quote.h"
#include "onyx/ir/attribute.h"
#include "onyx/ir/constant_value.h"
#include "onyx/ir/node.h"
#include "onyx/ir/opset_imports.h"
#include "onyx/ir/tensor.h"
#include "onyx/ir/topo_sort.h"
#include "onyx/ir/value.h"

namespace onyx::eval_internal {

GraphPlan::GraphPlan() = default;
GraphPlan::~GraphPlan() = default;

Operand GraphPlan::operandOf(const Value* value) const {
  uint32_t depth = 0;
  for (const GraphPlan* plan = this; plan != nullptr; plan = plan->outer, ++depth) {
    auto found = plan->slot_of.find(value);
    if (found != plan->slot_of.end()) {
      return {.from = Operand::From::kSlot, .depth = depth, .slot = found->second};
    }
  }
  return {};
}

bool runnable(const Callee& callee) {
  return callee.function != nullptr ||
         (callee.schema != nullptr && (callee.schema->kernel != nullptr || callee.operator_body));
}

std::vector<const Value*> graphInputs(const Graph& graph) {
  std::vector<const Value*> values;
  for (const ValueInfo* input : graph.inputs) values.push_back(input->value);
  return values;
}

std::vector<const Value*> graphOutputs(const Graph& graph) {
  std::vector<const Value*> values;
  for (const ValueInfo* output : graph.outputs) values.push_back(output->bound());
  return values;
}

namespace {

Status notRunnable(const Node& node, const OpSchema* schema) {
  std::string what = std::string(node.opType());
  std::string_view domain = node.domainOrDefault();
  if (!canonicalDomain(domain).empty()) what = std::string(domain) + "." + what;
  return Status(ErrorCode::kUnsupported, schema == nullptr
                                             ? what + " is not a known operator at this opset"
                                             : what + "-" + std::to_string(schema->since_version) +
                                                   " has no kernel in onyx yet");
}

class Compiler final : public FusionGraph {
 public:
  Compiler(GraphPlan& plan, PlanContext& context, std::span<const Value* const> outputs)
      : plan_(plan), context_(context), results_(outputs.begin(), outputs.end()) {}

  Status compile(std::span<const Value* const> inputs, std::span<const Value* const> outputs);

  // FusionGraph
  const Node* soleReader(const Value* value) const override {
    if (value == nullptr || results_.contains(value)) return nullptr;
    const Node* reader = nullptr;
    for (const Use& use : value->uses()) {
      if (use.user() == nullptr || use.user()->graph() != plan_.graph || reader != nullptr) {
        return nullptr;
      }
      reader = use.user();
    }
    return reader;
  }
  bool fused(const Node& node) const override { return claimed_.contains(&node); }
  CpuTier cpuTier() const override { return context_.cpuTier(); }
  bool int8Activations() const override { return context_.int8Activations(); }
  const OpSchema* schema(const Node& node) const override {
    return plan_.nodes[position_.at(&node)].schema;
  }
  std::vector<const Node*> readers(const Value* value) const override {
    std::vector<const Node*> nodes;
    if (value == nullptr || results_.contains(value)) return nodes;
    for (const Use& use : value->uses()) {
      if (use.user() == nullptr || use.user()->graph() != plan_.graph) return {};
      nodes.push_back(use.user());
    }
    return nodes;
  }
  const Tensor* fixedTensor(const Value* value) const override {
    return constantTensor(value, context_.initializerInputs());
  }
  bool constant(const Value* value) const override {
    return fixedTensor(value) != nullptr || repeated_.contains(value);
  }

 private:
  Status order(std::vector<const Node*>& nodes);
  Status bind(BoundNode& bound);
  Result<Operand> operand(const Value* value);
  void planRepeats();
  void planSteps();
  void planDeferred();
  Status resolveConstants();
  void planNarrow();
  void planDrops();

  GraphPlan& plan_;
  PlanContext& context_;
  std::unordered_set<const Value*> results_;
  std::unordered_map<const Node*, size_t> position_;  // in plan_.nodes
  std::unordered_set<const Node*> claimed_;
  std::unordered_set<const Value*> repeated_;  // outputs of the nodes that run once
};

Status Compiler::order(std::vector<const Node*>& nodes) {
  std::unordered_set<const Node*> seen;
  bool sorted = true;
  for (const Node* node : plan_.graph->nodes()) {
    auto early = [&](const Value* value) {
      if (value != nullptr && value->producer() != nullptr && value->graph() == plan_.graph &&
          !seen.contains(value->producer())) {
        sorted = false;
      }
    };
    for (size_t i = 0; i < node->inputCount() && sorted; ++i) early(node->input(i));
    if (sorted) forEachNestedRead(*node, early);
    seen.insert(node);
    nodes.push_back(node);
  }
  if (sorted) return Status::ok();
  Result<std::vector<const Node*>> ordered = topologicalOrder(*plan_.graph);
  if (!ordered) return ordered.status();
  nodes = std::move(ordered).value();
  plan_.reordered = true;
  return Status::ok();
}

Result<Operand> Compiler::operand(const Value* value) {
  Operand found = plan_.operandOf(value);
  if (found.from != Operand::From::kAbsent) return found;
  if (value->initializer() != nullptr ||
      constantTensor(value, context_.initializerInputs()) != nullptr) {
    // Converted by resolveConstants, once the steps that read it are known.
    return Operand{.from = Operand::From::kConstant, .value = value};
  }
  return Status(ErrorCode::kInvalidArgument, quoted(value->name()) + " has no value");
}

Status Compiler::bind(BoundNode& bound) {
  const Node& node = *bound.node;
  Callee callee = context_.callees().resolve(node, *plan_.imports);
  if (!runnable(callee)) return notRunnable(node, callee.schema);
  bound.schema = callee.schema;
  bound.opset = callee.opset.value_or(0);
  bound.function = callee.function;
  if (bound.function == nullptr) {
    if (bound.schema->kernel != nullptr) {
      bound.kernel = bound.schema->kernel;
    } else {
      Result<const Function*> body =
          context_.operatorBody(node, *bound.schema, bound.opset, *plan_.imports);
      if (!body) return body.status();
      bound.function = *body;
    }
    for (const Provider* provider : context_.providers()) {
      bound.provided =
          provider->kernel(node, *bound.schema, bound.opset, context_.initializerInputs());
      if (bound.provided == nullptr) continue;
      bound.provider = provider->name();
      break;
    }
  }
  for (size_t i = 0; i < node.inputCount(); ++i) {
    const Value* input = node.input(i);
    if (input == nullptr) {
      bound.inputs.emplace_back();
      continue;
    }
    Result<Operand> read = operand(input);
    if (!read) return read.status();
    bound.inputs.push_back(*read);
  }
  for (size_t i = 0; i < node.outputCount(); ++i) {
    const Value* output = node.output(i);
    bound.outputs.push_back(output != nullptr ? static_cast<int32_t>(plan_.slot_of.at(output))
                                              : -1);
  }
  return Status::ok();
}

Status Compiler::compile(std::span<const Value* const> inputs,
                         std::span<const Value* const> outputs) {
  std::vector<const Node*> nodes;
  ONYX_RETURN_IF_ERROR(order(nodes));
  // A Constant node's tensor is read where it lies, as an initializer is: no step runs it, and
  // fusions and layouts see a constant (exporters write weights and statistics so).
  std::erase_if(nodes, [&](const Node* node) {
    return node->outputCount() == 1 && node->output(0) != nullptr &&
           constantTensor(node->output(0), context_.initializerInputs()) != nullptr;
  });
  auto newSlot = [&](const Value* value) {
    return plan_.slot_of.try_emplace(value, plan_.slot_count++).first->second;
  };
  for (const Value* input : inputs) {
    // An input whose initializer is a constant takes no value: nodes read the initializer.
    bool takes_value =
        input != nullptr && fixedInitializer(input, context_.initializerInputs()) == nullptr;
    plan_.input_slots.push_back(takes_value ? static_cast<int32_t>(newSlot(input)) : -1);
  }
  for (const Node* node : nodes) {
    for (size_t i = 0; i < node->outputCount(); ++i) {
      if (const Value* output = node->output(i)) newSlot(output);
    }
  }
  plan_.nodes.resize(nodes.size());
  for (size_t i = 0; i < nodes.size(); ++i) {
    position_.emplace(nodes[i], i);
    plan_.nodes[i].node = nodes[i];
    plan_.nodes[i].run_index = context_.nextRunIndex();
  }
  // Each node's place in the file, for error paths.
  size_t file_index = 0;
  for (const Node* node : plan_.graph->nodes()) {
    auto planned = position_.find(node);
    if (planned != position_.end()) plan_.nodes[planned->second].index = file_index;
    ++file_index;
  }

  for (BoundNode& bound : plan_.nodes) {
    Status status = bind(bound);
    if (status.isOk()) {
      forEachGraphOf(*bound.node, [&](const Graph& graph) {
        if (!status.isOk()) return;
        Result<std::unique_ptr<GraphPlan>> inner = compileGraph(
            graph, *plan_.imports, &plan_, graphInputs(graph), graphOutputs(graph), context_);
        if (!inner) {
          status = std::move(inner).takeStatus();
          status.within(graphPathInNode(*bound.node, graph));
          return;
        }
        plan_.subgraphs.emplace(&graph, std::move(inner).value());
      });
    }
    if (!status.isOk()) {
      return status.within(pathSegment("node", bound.index, bound.node->nameOrEmpty()));
    }
  }
  for (const Value* output : outputs) {
    if (output == nullptr) {
      plan_.outputs.emplace_back();
      continue;
    }
    Result<Operand> read = operand(output);
    if (!read) return read.status();
    plan_.outputs.push_back(*read);
  }
  planRepeats();
  planSteps();
  planDeferred();
  ONYX_RETURN_IF_ERROR(resolveConstants());
  planDrops();
  planNarrow();
  if (context_.fusions()) {
    planLayouts(plan_, context_.providers(), results_, context_.initializerInputs());
  }
  planConversions(plan_);
  return Status::ok();
}

void Compiler::planRepeats() {
  // repeated_: the outputs of the nodes marked, which with the constants are the values
  // that are the same on every run.
  for (BoundNode& bound : plan_.nodes) {
    const Node& node = *bound.node;
    bool holds_graph = false;
    forEachGraphOf(node, [&](const Graph&) { holds_graph = true; });
    // A function's body may draw random numbers. A DequantizeLinear of constant weights (the
    // QDQ form) runs once too: the node stays in the plan for what fuses it.
    if (holds_graph || bound.kernel == nullptr || bound.function != nullptr ||
        bound.schema == nullptr || hasTraits(bound.schema->traits, OpTraits::kNondeterministic)) {
      continue;
    }
    bool fixed_inputs = true;
    for (size_t i = 0; i < bound.inputs.size() && fixed_inputs; ++i) {
      const Operand& input = bound.inputs[i];
      fixed_inputs = input.from == Operand::From::kAbsent ||
                     input.from == Operand::From::kConstant ||
                     (input.from == Operand::From::kSlot && input.depth == 0 &&
                      repeated_.contains(node.input(i)));
    }
    // What goes to the caller is the caller's to change: it is never shared with `kept`.
    bool to_caller = false;
    for (size_t i = 0; i < node.outputCount(); ++i) to_caller |= results_.contains(node.output(i));
    if (!fixed_inputs || to_caller) continue;
    bound.repeats = true;
    bound.kept = std::make_unique<KeptOutputs>();
    for (size_t i = 0; i < node.outputCount(); ++i) {
      if (node.output(i) != nullptr) repeated_.insert(node.output(i));
    }
  }
}

void Compiler::planSteps() {
  // Where each fused group runs: at its last member.
  std::vector<std::unique_ptr<FusedStep>> group_at(plan_.nodes.size());
  std::vector<std::vector<size_t>> members_at(plan_.nodes.size());
  std::vector<std::vector<const Value*>> reads_at(plan_.nodes.size());
  std::vector<std::string> by_at(plan_.nodes.size());
  if (context_.fusions()) {
    for (size_t i = 0; i < plan_.nodes.size(); ++i) {
      const Node& anchor = *plan_.nodes[i].node;
      if (claimed_.contains(&anchor)) continue;
      std::optional<FusionMatch> match;
      std::string by;
      for (const Provider* provider : context_.providers()) {
        for (const FusionPattern* pattern : provider->fusions()) {
          match = pattern->match(anchor, *this);
          if (!match) continue;
          by = std::string(provider->name()) + ": " + std::string(pattern->name());
          break;
        }
        if (match) break;
      }
      if (!match) continue;
      size_t last = 0;
      std::vector<size_t> members;
      for (const Node* member : match->members) {
        claimed_.insert(member);
        members.push_back(position_.at(member));
        last = std::max(last, members.back());
      }
      members_at[last] = std::move(members);
      reads_at[last] = std::move(match->reads);
      group_at[last] = std::move(match->step);
      by_at[last] = std::move(by);
    }
  }
  for (size_t i = 0; i < plan_.nodes.size(); ++i) {
    if (group_at[i] != nullptr) {
      PlanStep step;
      step.members = std::move(members_at[i]);
      step.fused = std::move(group_at[i]);
      step.run_index = context_.nextRunIndex();
      step.fused_by = std::move(by_at[i]);
      step.reads = std::move(reads_at[i]);
      plan_.steps.push_back(std::move(step));
    } else if (!claimed_.contains(plan_.nodes[i].node)) {
      PlanStep step;
      step.members = {i};
      plan_.steps.push_back(std::move(step));
    }
  }
}

void Compiler::planDeferred() {
  std::unordered_map<const Node*, size_t> step_of;
  for (size_t s = 0; s < plan_.steps.size(); ++s) {
    for (size_t member : plan_.steps[s].members) step_of.emplace(plan_.nodes[member].node, s);
  }
  for (size_t s = 0; s < plan_.steps.size(); ++s) {
    PlanStep& step = plan_.steps[s];
    const BoundNode& bound = plan_.nodes[step.members.front()];
    if (step.fused != nullptr || bound.node->outputCount() == 0) continue;
    // Every reader of every output a fused step that reads around it, and reads this node's
    // inputs itself, so that they live until a decline asks for the node.
    bool deferred = true;
    for (size_t i = 0; i < bound.node->outputCount() && deferred; ++i) {
      const Value* output = bound.node->output(i);
      if (output == nullptr) continue;
      std::vector<const Node*> readers = this->readers(output);
      deferred = !readers.empty() && !results_.contains(output);
      for (const Node* reader : readers) {
        const PlanStep& reading = plan_.steps[step_of.at(reader)];
        deferred = deferred && reading.fused != nullptr && reading.fused->bypasses(output);
        for (size_t k = 0; k < bound.node->inputCount() && deferred; ++k) {
          const Value* input = bound.node->input(k);
          deferred = input == nullptr || std::find(reading.reads.begin(), reading.reads.end(),
                                                   input) != reading.reads.end();
        }
      }
    }
    if (!deferred) continue;
    step.deferred = true;
    for (int32_t slot : bound.outputs) {
      if (slot >= 0) plan_.deferred_steps.emplace(static_cast<uint32_t>(slot), s);
    }
  }
}

Status Compiler::resolveConstants() {
  // A constant stays unconverted when every step that may read its array never does: each
  // fused step that reads it reads the tensor's bytes itself, and each node that reads it
  // runs only inside such a group or deferred behind one (it then converts the constant if
  // a group declines).
  std::unordered_map<const Value*, bool> unread;  // constant -> no array read of it planned
  auto note = [&](const Operand& operand, bool read_as_array) {
    if (operand.from != Operand::From::kConstant) return;
    auto [at, added] = unread.try_emplace(operand.value, true);
    at->second = at->second && !read_as_array;
  };
  for (const PlanStep& step : plan_.steps) {
    for (size_t member : step.members) {
      const BoundNode& bound = plan_.nodes[member];
      for (size_t i = 0; i < bound.inputs.size(); ++i) {
        const Operand& operand = bound.inputs[i];
        bool read_as_array =
            step.fused != nullptr ? !step.fused->readsBytes(operand.value) : !step.deferred;
        note(operand, read_as_array);
      }
    }
  }
  // A deferred node's constants read by a group as an array (FusionMatch::reads).
  for (const PlanStep& step : plan_.steps) {
    if (step.fused == nullptr) continue;
    for (const Value* value : step.reads) {
      auto found = unread.find(value);
      if (found != unread.end() && !step.fused->readsBytes(value)) found->second = false;
    }
  }
  for (BoundNode& bound : plan_.nodes) {
    for (Operand& operand : bound.inputs) {
      if (operand.from != Operand::From::kConstant) continue;
      if (auto found = unread.find(operand.value); found != unread.end() && found->second) {
        continue;
      }
      Result<const EvalValue*> constant = context_.constant(*operand.value);
      if (!constant) {
        return std::move(constant).takeStatus().within(
            pathSegment("node", bound.index, bound.node->nameOrEmpty()));
      }
      operand.constant = *constant;
    }
  }
  for (Operand& operand : plan_.outputs) {
    if (operand.from != Operand::From::kConstant) continue;
    Result<const EvalValue*> constant = context_.constant(*operand.value);
    if (!constant) return constant.status();
    operand.constant = *constant;
  }
  return Status::ok();
}

void Compiler::planNarrow() {
  plan_.keeps_declared.assign(plan_.slot_count, false);
  auto keep = [&](const Value* value) {
    auto found = plan_.slot_of.find(value);
    if (found != plan_.slot_of.end()) plan_.keeps_declared[found->second] = true;
  };
  for (const Value* result : results_) keep(result);
  for (const BoundNode& bound : plan_.nodes) {
    forEachNestedRead(*bound.node, keep);
    // What a node that runs once keeps for every later run is kept declared.
    if (bound.repeats) {
      for (size_t o = 0; o < bound.node->outputCount(); ++o) keep(bound.node->output(o));
    }
  }
}

void Compiler::planDrops() {
  // The last step that reads each slot of this frame (reads from inside subgraphs count at
  // the step of the node that holds them).
  std::vector<int64_t> last(plan_.slot_count, -1);
  for (size_t s = 0; s < plan_.steps.size(); ++s) {
    auto note = [&](const Value* value) {
      auto found = plan_.slot_of.find(value);
      if (found != plan_.slot_of.end()) last[found->second] = static_cast<int64_t>(s);
    };
    for (size_t member : plan_.steps[s].members) {
      const Node& node = *plan_.nodes[member].node;
      for (size_t i = 0; i < node.inputCount(); ++i) {
        if (const Value* input = node.input(i)) note(input);
      }
      forEachNestedRead(node, note);
    }
    for (const Value* value : plan_.steps[s].reads) note(value);
    // An output nothing reads is dropped at once.
    for (size_t member : plan_.steps[s].members) {
      for (int32_t slot : plan_.nodes[member].outputs) {
        if (slot < 0) continue;
        if (last[static_cast<size_t>(slot)] < 0)
          last[static_cast<size_t>(slot)] = static_cast<int64_t>(s);
      }
    }
  }
  for (const Operand& output : plan_.outputs) {
    if (output.from == Operand::From::kSlot && output.depth == 0) last[output.slot] = -1;
  }
  for (uint32_t slot = 0; slot < plan_.slot_count; ++slot) {
    if (last[slot] >= 0) plan_.steps[static_cast<size_t>(last[slot])].drops.push_back(slot);
  }
  // A node alone may write its output over an input it reads last (and once).
  for (const PlanStep& step : plan_.steps) {
    if (step.fused != nullptr) continue;
    BoundNode& bound = plan_.nodes[step.members.front()];
    bound.last_read.assign(bound.inputs.size(), false);
    for (size_t i = 0; i < bound.inputs.size(); ++i) {
      const Operand& input = bound.inputs[i];
      if (input.from != Operand::From::kSlot || input.depth != 0 ||
          std::find(step.drops.begin(), step.drops.end(), input.slot) == step.drops.end()) {
        continue;
      }
      size_t reads = 0;
      for (const Operand& other : bound.inputs) {
        reads += other.from == input.from && other.depth == 0 && other.slot == input.slot;
      }
      bound.last_read[i] = reads == 1;
    }
  }
}

}  // namespace

Result<std::unique_ptr<GraphPlan>> compileGraph(const Graph& graph, const OpsetImports& imports,
                                                const GraphPlan* outer,
                                                std::span<const Value* const> inputs,
                                                std::span<const Value* const> outputs,
                                                PlanContext& context) {
  auto plan = std::make_unique<GraphPlan>();
  plan->graph = &graph;
  plan->imports = &imports;
  plan->outer = outer;
  Compiler compiler(*plan, context, outputs);
  ONYX_RETURN_IF_ERROR(compiler.compile(inputs, outputs));
  return plan;
}

}  // namespace onyx::eval_internal
