// Internal to the evaluator: a fused step's view of the frame it runs in (fusion_pattern.h's
// StepRun): values found through the plan's slots and constants, the step's drop list for
// what it may take over.
#pragma once

#include "eval/engine/frame.h"
#include "eval/engine/plan.h"
#include "eval/fusions/fusion_pattern.h"

namespace onyx::eval_internal {

class FrameStepRun final : public StepRun {
 public:
  /// `caller` and `callee`: the function call the step runs in, if any.
  FrameStepRun(KernelHost& host, PlanContext& plans, const GraphPlan& plan, const PlanStep& step,
               Frame& frame, const Node* caller, const Function* callee)
      : host_(host),
        plans_(plans),
        plan_(plan),
        step_(step),
        frame_(frame),
        caller_(caller),
        callee_(callee) {}

  const Array* tensor(const Value* value) override;
  bool channelsLast(const Value* value) const override;
  std::optional<Array> takeIfLastRead(const Value* value) override;
  void restore(const Value* value, Array array) override;
  void write(const Value* value, Array array, bool channels_last, bool wide) override;
  KernelContext context(const Node& node) override;
  KernelHost& host() override { return host_; }
  std::shared_ptr<const void> modelBytes() const override { return plans_.modelBytes(); }

 private:
  std::optional<uint32_t> ownSlot(const Value* value) const;

  KernelHost& host_;
  PlanContext& plans_;
  const GraphPlan& plan_;
  const PlanStep& step_;
  Frame& frame_;
  const Node* caller_;
  const Function* callee_;
};

}  // namespace onyx::eval_internal
