// Internal to the evaluator: a graph compiled once into what runs it.
//
// Compiling a graph (the main graph, a subgraph, a function body) binds each node once: the
// operator version it calls, its kernel (a provider's first, providers/provider.h) or the plan
// of the function body it calls, and where it reads and writes its values. Values live in
// numbered slots of a Frame (frame.h) instead of maps keyed by pointer: an initializer is a
// constant the plan holds, a value of an enclosing graph is a slot of an outer frame, found
// by how many frames out it is. Nodes are grouped into steps (a node alone, or a fused group
// from the providers' patterns, fusion_pattern.h), and each step lists the slots no later step
// reads, which are dropped when it ends. A graph whose nodes are out of topological order
// runs in that order all the same; the plan says it reordered them.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "eval/layout/value_form.h"
#include "eval/providers/provider.h"
#include "onyx/ir/constant_value.h"
#include "onyx/ir/graph.h"
#include "onyx/ir/opset_imports.h"
#include "onyx/ops/callee.h"
#include "onyx/ops/eval_value.h"
#include "onyx/ops/function_body.h"

namespace onyx::eval_internal {

class FusedStep;
struct ChannelsLastKernel;
struct GraphPlan;

/// Where a node reads a value.
struct Operand {
  enum class From : uint8_t {
    kAbsent,    // an omitted optional input
    kSlot,      // a slot of the frame `depth` frames out (0: this graph's)
    kConstant,  // an initializer or a Constant node's tensor (`value`), converted once
  };
  From from = From::kAbsent;
  uint32_t depth = 0;
  uint32_t slot = 0;
  /// kConstant: the value, and its array once converted. Compiling converts every constant a
  /// node alone or a fused step may read as an array; one that only fused steps reading the
  /// tensor's bytes themselves read (FusedStep::readsBytes: int4 weights, which an array
  /// would hold one byte per element) stays null, converted only if a node that reads it
  /// runs after all (PlanContext::constant, at run time).
  const Value* value = nullptr;
  const EvalValue* constant = nullptr;
};

/// A slot of this frame a step brings back from the forms `drop` before it runs, where it
/// reads the slot, cannot take those forms, and a step before may have given them
/// (layout/value_form.h). Planned once (form_plan.h); at run time a slot not held so costs a
/// compare.
struct Conversion {
  uint32_t slot = 0;
  FormSet drop = 0;
  bool operator==(const Conversion&) const = default;
};
using Conversions = std::vector<Conversion>;

/// What a node that repeats (BoundNode::repeats) gave at its first run, read by every later
/// run on any thread: set once, under `mutex`, and then `ready`.
struct KeptOutputs {
  std::mutex mutex;
  std::atomic<bool> ready = false;
  std::vector<EvalValue> values;
};

/// One node, bound once. What it holds is the same for every run; a run's own state (the
/// kernel's context) is its executor's (executor.h).
struct BoundNode {
  const Node* node = nullptr;
  size_t index = 0;  // in the graph's node list, for error paths
  /// Its number among the nodes of every plan of its PlanStore: where an executor keeps
  /// what a run of it needs (its kernel's context, its provided kernel).
  uint32_t run_index = 0;
  const OpSchema* schema = nullptr;
  int64_t opset = 0;
  Kernel kernel = nullptr;  // the built-in kernel (null for a call)
  /// Asked before `kernel`, when present; never run itself: each executor runs its own
  /// copy (ProvidedKernel::fresh), by `run_index`.
  std::unique_ptr<ProvidedKernel> provided;
  std::string_view provider;  // the name of the provider of `provided`
  /// A call: the function it runs (model-local, or the operator's own body).
  const Function* function = nullptr;
  std::vector<Operand> inputs;
  std::vector<int32_t> outputs;  // slot per output, -1 where the output is omitted
  /// Per input: whether no later step reads it (KernelContext::reusableInput).
  std::vector<bool> last_read;
  /// What it converts when it runs alone on its provided or built-in kernel (not its
  /// channels-last one, which reads values as the plan keeps them).
  Conversions alone;
  /// Its kernel for channels-last values (channels_last_kernels.h), when it runs alone and
  /// has one, and whether the plan keeps its images and output channels-last.
  const ChannelsLastKernel* channels_last_kernel = nullptr;
  std::string channels_last_by;  // "<provider> (channels-last)", what profiles name it by
  bool channels_last = false;
  /// Whether it gives the same outputs on every run: its kernel draws no random numbers and
  /// it reads only constants and the outputs of such nodes (a Constant -> Cast -> Reshape
  /// chain), and no output goes to the caller. It then runs once; later runs read `kept`.
  bool repeats = false;
  std::unique_ptr<KeptOutputs> kept;  // for a node that repeats
};

/// What runs at one place of the order: a node, or a fused group of nodes.
struct PlanStep {
  std::vector<size_t> members;  // indices into GraphPlan::nodes, in run order
  /// Null: members.size() == 1, run alone. Never run itself: each executor runs its own
  /// copy (FusedStep::replica), by `run_index`.
  std::unique_ptr<FusedStep> fused;
  uint32_t run_index = 0;           // for a fused step, from PlanContext::nextRunIndex
  std::string fused_by;             // "<provider>: <pattern>", what profiles name it by
  std::vector<uint32_t> drops;      // slots no later step reads
  std::vector<const Value*> reads;  // a fused step's reads besides its members' inputs
  /// What a fused step converts before it runs: what it reads and cannot read as the plan
  /// may hold it (its members convert their own when they run alone).
  Conversions before;
  /// A node alone that every reader reads around (FusedStep::bypasses): it runs only when a
  /// fused step that reads its output declines.
  bool deferred = false;
};

struct GraphPlan {
  GraphPlan();  // out of line, with the destructor: FusedStep is incomplete here
  ~GraphPlan();

  const Graph* graph = nullptr;
  const OpsetImports* imports = nullptr;
  uint32_t slot_count = 0;
  std::unordered_map<const Value*, uint32_t> slot_of;
  std::vector<BoundNode> nodes;  // in run order
  std::vector<PlanStep> steps;
  std::vector<int32_t> input_slots;  // per graph input (-1 when it has no value)
  std::vector<Operand> outputs;      // the graph's outputs, or the function's
  /// Per slot: whether it must hold its value in the declared form (layout/value_form.h):
  /// what the graph gives back, what a subgraph reads, what a node that runs once keeps.
  std::vector<bool> keeps_declared;
  /// The deferred step that writes each slot a deferred node writes.
  std::unordered_map<uint32_t, size_t> deferred_steps;
  /// Whether the nodes were out of topological order in the file.
  bool reordered = false;

  /// The operand that reads `value` here; kAbsent when no graph in reach defines it.
  Operand operandOf(const Value* value) const;
  /// The plan this one is nested in (a subgraph's), or null.
  const GraphPlan* outer = nullptr;
  /// The plans of the graphs this graph's nodes hold.
  std::unordered_map<const Graph*, std::unique_ptr<GraphPlan>> subgraphs;
};

/// What compiling needs from the evaluator: constants, callees, kernel providers, fusions.
class PlanContext {
 public:
  virtual ~PlanContext() = default;
  virtual const CalleeResolver& callees() const = 0;
  /// The initializer `value` holds, converted once for every run (an error names it).
  virtual Result<const EvalValue*> constant(const Value& value) = 0;
  /// The body of a standard operator onyx runs as a function, built once per node.
  virtual Result<const Function*> operatorBody(const Node& node, const OpSchema& schema,
                                               int64_t opset, const OpsetImports& imports) = 0;
  virtual std::span<const Provider* const> providers() const = 0;
  virtual bool fusions() const = 0;
  /// EvalOptions::int8_activations.
  virtual bool int8Activations() const = 0;
  /// The session's CPU tier (EvalOptions::max_isa under the CPU's): a fused step may take a
  /// path of its own below a tier, and ask for other layouts there.
  virtual CpuTier cpuTier() const = 0;
  /// What the initializers listed as graph inputs are: constants, whose inputs take no
  /// value from the caller, or defaults (onyx/ir/constant_value.h).
  virtual InitializerInputs initializerInputs() const = 0;
  /// A number for the next node bound or group fused (BoundNode::run_index,
  /// PlanStep::run_index), from 0 up.
  virtual uint32_t nextRunIndex() = 0;
  /// What keeps the model's bytes alive (Model::bytesOwner): the views of its tensors'
  /// bytes (rawBytes) are valid while it lives.
  virtual std::shared_ptr<const void> modelBytes() const = 0;
};

/// Compiles `graph` (nested in `outer`, or null) with its formal `inputs` and the values it
/// gives back (a graph's inputs and outputs, or a function's), and the graphs inside it.
/// An error names the node, as a path from `graph`.
Result<std::unique_ptr<GraphPlan>> compileGraph(const Graph& graph, const OpsetImports& imports,
                                                const GraphPlan* outer,
                                                std::span<const Value* const> inputs,
                                                std::span<const Value* const> outputs,
                                                PlanContext& context);

/// The formal inputs and the outputs of a graph, as compileGraph takes them.
std::vector<const Value*> graphInputs(const Graph& graph);
std::vector<const Value*> graphOutputs(const Graph& graph);

/// Whether onyx can run what a node calls.
bool runnable(const Callee& callee);

}  // namespace onyx::eval_internal
