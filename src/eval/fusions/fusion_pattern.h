// Internal to the evaluator: nodes that run together as one step.
//
// When fusions are on (EvalOptions::fusions), compiling a graph asks the patterns that each
// provider offers (providers/provider.h), provider by provider and in each provider's order,
// at each node not yet fused: a pattern that matches returns the group's nodes and the step
// that runs them. A fused step gives the values of the group's nodes up to float rounding (it
// may fold constants, or keep the products of several nodes in registers); it may decline a
// call (an element type, a shape it does not handle), and the nodes then run one by one. A
// new fusion is a file in this folder and a line in its provider's list.
//
// Every value between two members must be read by the next member alone (FusionGraph::
// soleReader), so that the group can run where its last member stands. A step may keep its
// output channels-last (N, H, W, C) when every reader of it is a step that reads that layout
// (the chain of convolutions oneDNN runs fastest); nothing else ever sees such a value.
#pragma once

#include <memory>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "core/sole_instance.h"
#include "eval/layout/value_form.h"
#include "onyx/core/array.h"
#include "onyx/ir/graph.h"
#include "onyx/ir/opset_imports.h"
#include "onyx/ops/kernel_context.h"
#include "onyx/ops/op_schema.h"

namespace onyx::eval_internal {

class StepRun;

class FusedStep {
 public:
  virtual ~FusedStep() = default;
  /// Runs the group: true when it did (its output written); false when it declines this
  /// call, having written nothing: its nodes then run one by one.
  virtual Result<bool> run(StepRun& run) = 0;
  /// A step for the same group with nothing kept from runs and the plan's decisions
  /// (setWritesChannelsLast): the one an executor runs (engine/executor.h), while the plan
  /// keeps the first, which never runs.
  std::unique_ptr<FusedStep> replica() const {
    std::unique_ptr<FusedStep> made = fresh();
    made->writes_channels_last_ = writes_channels_last_;
    return made;
  }
  /// The value the group produces.
  virtual const Value* output() const = 0;
  /// What ran its last run, for profiles, when the step chooses a kernel per call; empty: its
  /// provider and pattern (PlanStep::fused_by) say it.
  virtual std::string_view ranBy() const { return {}; }
  /// The forms besides the declared one (layout/value_form.h) the step takes for `value`,
  /// one of the values it reads; the plan converts what it does not take before it runs.
  virtual FormSet takes(const Value* value) const {
    (void)value;
    return 0;
  }
  /// The forms besides the declared one it may give its output in: the plan chooses the
  /// layout (setWritesChannelsLast), the step says per run whether it gave floats for
  /// FLOAT16 (StepRun::write).
  virtual FormSet mayGive() const { return 0; }
  /// Whether the step reads around `value` (one of its members' inputs): it reads the
  /// inputs of the node outside the group that makes it (in FusionMatch::reads) instead, as
  /// a QDQ group reads a DequantizeLinear's quantized operand. When every reader of a node's
  /// outputs reads around them, the plan defers the node: it runs only if a group declines.
  virtual bool bypasses(const Value* value) const {
    (void)value;
    return false;
  }
  /// Whether the step reads `value`, a constant, from the model's tensor itself (its bytes as
  /// the file holds them) and never asks the run for its array: the plan then leaves it
  /// unconverted while nothing else reads it (Operand::value).
  virtual bool readsBytes(const Value* value) const {
    (void)value;
    return false;
  }
  /// The plan's decision that it writes its output channels-last.
  void setWritesChannelsLast(bool writes) { writes_channels_last_ = writes; }
  bool writesChannelsLast() const { return writes_channels_last_; }

 protected:
  /// The same step, as made by its pattern, before any run (replica() copies the rest).
  virtual std::unique_ptr<FusedStep> fresh() const = 0;

 private:
  bool writes_channels_last_ = false;
};

/// What a pattern may ask of the graph being compiled.
class FusionGraph {
 public:
  virtual ~FusionGraph() = default;
  /// The node of this graph that alone reads `value`, once; null when a graph output, a
  /// subgraph, a value read after the graph ends, or more than one input slot reads it.
  virtual const Node* soleReader(const Value* value) const = 0;
  /// Whether `node` is already in a group.
  virtual bool fused(const Node& node) const = 0;
  /// The version of its operator the node runs (null when none: a call).
  virtual const OpSchema* schema(const Node& node) const = 0;
  /// The nodes of this graph that read `value`, one per input slot that reads it; empty
  /// when a graph output or a subgraph reads it too.
  virtual std::vector<const Node*> readers(const Value* value) const = 0;
  /// The tensor `value` holds on every run (an initializer no input can override, or a
  /// Constant node's), or null.
  virtual const Tensor* fixedTensor(const Value* value) const = 0;
  /// Whether `value` is the same on every run: a fixed tensor, or the output of a node that
  /// runs once (BoundNode::repeats: a Constant -> Cast chain). Only a fixed tensor can be
  /// read before the run.
  virtual bool constant(const Value* value) const = 0;
  /// The session's CPU tier (PlanContext::cpuTier).
  virtual CpuTier cpuTier() const = 0;
  /// EvalOptions::int8_activations.
  virtual bool int8Activations() const = 0;
};

struct FusionMatch {
  std::vector<const Node*> members;  // in the order they would run alone
  std::unique_ptr<FusedStep> step;
  /// Values the step reads besides its members' inputs: the input of a node outside the
  /// group (a DequantizeLinear other nodes read too, whose quantized operand the step reads).
  std::vector<const Value*> reads = {};
};

class FusionPattern {
 public:
  virtual ~FusionPattern() = default;
  virtual std::string_view name() const = 0;
  /// The group that starts at `anchor`, or nullopt.
  virtual std::optional<FusionMatch> match(const Node& anchor, const FusionGraph& graph) const = 0;
};

/// A fused step's view of the run: the values it reads and writes, and the kernel host.
class StepRun {
 public:
  virtual ~StepRun() = default;
  /// The value `value` holds; null when it has none or is not a tensor.
  virtual const Array* tensor(const Value* value) = 0;
  virtual bool channelsLast(const Value* value) const = 0;
  /// The elements of `value` when this step is its last reader and nothing else holds
  /// them (taken out of the run: give them back with `restore` when declining), else null.
  virtual std::optional<Array> takeIfLastRead(const Value* value) = 0;
  virtual void restore(const Value* value, Array array) = 0;
  /// Writes the group's output: channels-last when the plan asked for it; `wide` when a
  /// FLOAT `array` stands for a FLOAT16 value (engine/frame.h), rounded here when the plan
  /// keeps the value narrow.
  virtual void write(const Value* value, Array array, bool channels_last, bool wide = false) = 0;
  /// A kernel context for `node` (a member), for reading its attributes.
  virtual KernelContext context(const Node& node) = 0;
  virtual KernelHost& host() = 0;
  /// What keeps the model's bytes alive: a step that keeps a view of a tensor's bytes, or
  /// something found by their address, beyond the run holds it too.
  virtual std::shared_ptr<const void> modelBytes() const = 0;
};

}  // namespace onyx::eval_internal
