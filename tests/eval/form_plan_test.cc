// Where the plan converts values back to their declared form (src/eval/engine/form_plan.h):
// a step that writes another form declares it, a step that reads declares what it takes, and
// the planning pass lists the conversions in between, on a plan built by hand.
#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "eval/engine/form_plan.h"
#include "eval/engine/frame.h"
#include "eval/fusions/fusion_pattern.h"
#include "onyx/ir/node.h"
#include "onyx/text/parser.h"

namespace onyx::eval_internal {
namespace {

// A kernel that runs float16 on floats: its outputs may be held as floats for FLOAT16.
class Widening final : public ProvidedKernel {
 public:
  Result<bool> run(KernelContext&) override { return false; }
  OtherForms forms() const override { return {.float_for_half = true}; }
};

// A fused step that writes `output` channels-last and reads `wide_input` as floats.
class ToyFused final : public FusedStep {
 public:
  ToyFused(const Value* output, const Value* wide_input)
      : output_(output), wide_input_(wide_input) {}
  Result<bool> run(StepRun&) override { return false; }
  const Value* output() const override { return output_; }
  OtherForms takes(const Value* value) const override {
    return {.float_for_half = value == wide_input_};
  }
  OtherForms mayGive() const override { return {.channels_last = true, .float_for_half = true}; }

 private:
  const Value* output_;
  const Value* wide_input_;
};

// x -> [a = Relu] -> [b = Sigmoid] -> [c = Add(a, b)] (fused, with d = Neg(c)) -> Abs(d)
struct HandPlan {
  Model model;
  GraphPlan plan;
  std::vector<const Node*> nodes;
};

std::unique_ptr<HandPlan> handPlan() {
  auto made = std::make_unique<HandPlan>();
  Result<Model> model = parseText(R"(<ir_version: 10, opset_import: ["" : 21]>
    g (float16[4] x) => (float16[4] y) {
      a = Relu (x)
      b = Sigmoid (a)
      c = Add (a, b)
      d = Neg (c)
      y = Abs (d)
    })");
  EXPECT_TRUE(model) << model.status().toString();
  made->model = std::move(model).value();
  GraphPlan& plan = made->plan;
  const Graph& graph = *made->model.graph;
  for (const Node* node : graph.nodes()) made->nodes.push_back(node);
  auto slot = [&](const Value* value) {
    auto [found, fresh] = plan.slot_of.emplace(value, plan.slot_count);
    if (fresh) ++plan.slot_count;
    return found->second;
  };
  for (const Node* node : made->nodes) {
    BoundNode& bound = plan.nodes.emplace_back();
    bound.node = node;
    for (size_t i = 0; i < node->inputCount(); ++i) {
      bound.inputs.push_back(
          {.from = Operand::From::kSlot, .depth = 0, .slot = slot(node->input(i))});
    }
    bound.outputs.push_back(static_cast<int32_t>(slot(node->output(0))));
  }
  // Relu runs on a kernel that widens; Sigmoid on its channels-last kernel.
  plan.nodes[0].provided = std::make_unique<Widening>();
  plan.nodes[1].channels_last = true;
  for (size_t n : {0, 1, 4}) plan.steps.emplace_back().members = {n};
  PlanStep& fused = plan.steps.emplace_back();
  fused.members = {2, 3};
  fused.fused = std::make_unique<ToyFused>(graph.lookup("d"), graph.lookup("b"));
  fused.fused->setWritesChannelsLast(true);
  plan.keeps_exact.assign(plan.slot_count, false);
  return made;
}

TEST(FormPlan, EachReaderConvertsWhatItCannotTakeInTheFormItsWriterMayGive) {
  std::unique_ptr<HandPlan> made = handPlan();
  GraphPlan& plan = made->plan;
  planConversions(plan);
  auto slotOf = [&](const char* name) { return plan.slot_of.at(made->model.graph->lookup(name)); };
  using Slots = std::vector<uint32_t>;
  // Relu reads the graph's input: declared.
  EXPECT_TRUE(plan.nodes[0].alone.empty());
  // Sigmoid, alone, reads Relu's floats-for-FLOAT16 value: rounded first.
  EXPECT_EQ(plan.nodes[1].alone.to_exact, Slots{slotOf("a")});
  EXPECT_TRUE(plan.nodes[1].alone.to_declared_layout.empty());
  // Add, alone when the fused step declines: a (floats) and b (floats, channels-last).
  EXPECT_EQ(plan.nodes[2].alone.to_exact, (Slots{slotOf("a"), slotOf("b")}));
  EXPECT_EQ(plan.nodes[2].alone.to_declared_layout, Slots{slotOf("b")});
  // Abs reads d, which the fused step writes channels-last and maybe as floats.
  EXPECT_EQ(plan.nodes[4].alone.to_declared_layout, Slots{slotOf("d")});
  EXPECT_EQ(plan.nodes[4].alone.to_exact, Slots{slotOf("d")});
  // The fused step reads b as floats itself, and a only exact; its own value c needs nothing.
  EXPECT_EQ(plan.steps[3].before.to_exact, Slots{slotOf("a")});
  EXPECT_TRUE(plan.steps[3].before.to_declared_layout.empty());
}

TEST(FormPlan, AFrameAppliesTheConversionsAndLeavesADeclaredValueAlone) {
  std::unique_ptr<HandPlan> made = handPlan();
  GraphPlan& plan = made->plan;
  Frame frame(plan, nullptr);
  uint32_t a = plan.slot_of.at(made->model.graph->lookup("a"));
  uint32_t b = plan.slot_of.at(made->model.graph->lookup("b"));
  Array floats(ElementType::kFloat, {4});
  for (size_t i = 0; i < 4; ++i) floats.data<float>()[i] = 1.0f / 3.0f + static_cast<float>(i);
  frame.store(a, EvalValue::of(floats), {Layout::kDeclared, Precision::kFloatForHalf}, nullptr);
  frame.store(b, EvalValue::of(floats), kDeclaredForm, nullptr);
  frame.convert({.to_declared_layout = {}, .to_exact = {a, b}});
  EXPECT_EQ(frame.forms[a], kDeclaredForm);
  EXPECT_EQ(frame.slots[a]->tensor.type(), ElementType::kFloat16);
  EXPECT_EQ(frame.slots[b]->tensor.type(), ElementType::kFloat);  // declared already: as it was
}

}  // namespace
}  // namespace onyx::eval_internal
