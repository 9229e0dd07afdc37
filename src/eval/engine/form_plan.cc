// Where a compiled graph converts values back to their declared form (form_plan.h).
#include "eval/engine/form_plan.h"

#include <vector>

#include "eval/fusions/fusion_pattern.h"
#include "onyx/ir/node.h"

namespace onyx::eval_internal {

namespace {

// The forms each slot of the plan may be given in besides the declared one.
std::vector<FormSet> formsGiven(const GraphPlan& plan) {
  std::vector<FormSet> may(plan.slot_count, 0);
  auto give = [&](const Value* value, FormSet forms) {
    auto found = value != nullptr ? plan.slot_of.find(value) : plan.slot_of.end();
    if (found != plan.slot_of.end()) may[found->second] |= forms;
  };
  for (const BoundNode& bound : plan.nodes) {
    FormSet gives = bound.provided != nullptr ? bound.provided->forms() : 0;
    // Its channels-last kernel runs float16 on floats too.
    if (bound.channels_last) gives |= kChannelsLast | kFloatForHalf;
    for (size_t o = 0; o < bound.node->outputCount(); ++o) give(bound.node->output(o), gives);
  }
  for (const PlanStep& step : plan.steps) {
    if (step.fused == nullptr) continue;
    FormSet gives = step.fused->mayGive();
    if (!step.fused->writesChannelsLast()) gives &= ~kChannelsLast;
    give(step.fused->output(), gives);
  }
  return may;
}

// Adds the conversion of what `operand` reads, when it is a slot of this frame that may hold
// forms the reader does not take.
void convertRead(Conversions& list, const Operand& operand, const std::vector<FormSet>& may,
                 FormSet takes) {
  if (operand.from != Operand::From::kSlot || operand.depth != 0) return;
  FormSet drop = may[operand.slot] & ~takes;
  if (drop == 0) return;
  for (Conversion& listed : list) {
    if (listed.slot == operand.slot) {
      listed.drop |= drop;
      return;
    }
  }
  list.push_back({operand.slot, drop});
}

}  // namespace

void planConversions(GraphPlan& plan) {
  std::vector<FormSet> may = formsGiven(plan);
  // A node alone takes what its provided kernel takes (its channels-last kernel reads values
  // as they are held, and runs only when they are channels-last).
  for (BoundNode& bound : plan.nodes) {
    bound.alone.clear();
    FormSet takes = bound.provided != nullptr ? bound.provided->forms() : 0;
    for (const Operand& input : bound.inputs) convertRead(bound.alone, input, may, takes);
  }
  // A fused step takes what it declares for each value it reads; a member that runs alone
  // (the step declined) converts its own.
  for (PlanStep& step : plan.steps) {
    step.before.clear();
    if (step.fused == nullptr) continue;
    auto read = [&](const Value* value) {
      if (value != nullptr) {
        convertRead(step.before, plan.operandOf(value), may, step.fused->takes(value));
      }
    };
    for (size_t member : step.members) {
      const Node& node = *plan.nodes[member].node;
      for (size_t i = 0; i < node.inputCount(); ++i) read(node.input(i));
    }
    for (const Value* value : step.reads) read(value);
  }
}

}  // namespace onyx::eval_internal
