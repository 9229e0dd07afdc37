// Where a compiled graph converts values back to their declared form (form_plan.h).
#include "eval/engine/form_plan.h"

#include <algorithm>
#include <vector>

#include "eval/fusions/fusion_pattern.h"
#include "onyx/ir/node.h"

namespace onyx::eval_internal {

namespace {

// The forms a slot of the plan may be written in besides the declared one.
struct MayHold {
  std::vector<bool> channels_last;
  std::vector<bool> for_half;
};

MayHold formsWritten(const GraphPlan& plan) {
  MayHold may{std::vector<bool>(plan.slot_count, false), std::vector<bool>(plan.slot_count, false)};
  auto mark = [&](std::vector<bool>& in, const Value* value) {
    auto found = value != nullptr ? plan.slot_of.find(value) : plan.slot_of.end();
    if (found != plan.slot_of.end()) in[found->second] = true;
  };
  for (const BoundNode& bound : plan.nodes) {
    // Its channels-last kernel runs float16 on floats too.
    bool for_half = bound.channels_last ||
                    (bound.provided != nullptr && bound.provided->forms().float_for_half);
    for (size_t o = 0; o < bound.node->outputCount(); ++o) {
      if (bound.channels_last) mark(may.channels_last, bound.node->output(o));
      if (for_half) mark(may.for_half, bound.node->output(o));
    }
  }
  for (const PlanStep& step : plan.steps) {
    if (step.fused == nullptr) continue;
    if (step.fused->writesChannelsLast()) mark(may.channels_last, step.fused->output());
    if (step.fused->mayGive().float_for_half) mark(may.for_half, step.fused->output());
  }
  return may;
}

// The slot of this frame `operand` reads, if it reads one.
std::optional<uint32_t> ownSlot(const Operand& operand) {
  if (operand.from != Operand::From::kSlot || operand.depth != 0) return std::nullopt;
  return operand.slot;
}

void add(std::vector<uint32_t>& list, uint32_t slot) {
  if (std::find(list.begin(), list.end(), slot) == list.end()) list.push_back(slot);
}

}  // namespace

void planConversions(GraphPlan& plan) {
  MayHold may = formsWritten(plan);
  // A node alone reads everything declared, but for a node that runs float16 on floats.
  for (BoundNode& bound : plan.nodes) {
    bound.alone = {};
    bool takes_for_half = bound.provided != nullptr && bound.provided->forms().float_for_half;
    for (const Operand& input : bound.inputs) {
      std::optional<uint32_t> slot = ownSlot(input);
      if (!slot) continue;
      if (may.channels_last[*slot]) add(bound.alone.to_declared_layout, *slot);
      if (may.for_half[*slot] && !takes_for_half) add(bound.alone.to_exact, *slot);
    }
  }
  // A fused step reads either layout (StepRun::channelsLast), and floats for FLOAT16 where
  // it says so.
  for (PlanStep& step : plan.steps) {
    step.before = {};
    if (step.fused == nullptr) continue;
    auto read = [&](const Value* value) {
      if (value == nullptr || step.fused->takes(value).float_for_half) return;
      std::optional<uint32_t> slot = ownSlot(plan.operandOf(value));
      if (slot && may.for_half[*slot]) add(step.before.to_exact, *slot);
    };
    for (size_t member : step.members) {
      const Node& node = *plan.nodes[member].node;
      for (size_t i = 0; i < node.inputCount(); ++i) read(node.input(i));
    }
    for (const Value* value : step.reads) read(value);
  }
}

}  // namespace onyx::eval_internal
