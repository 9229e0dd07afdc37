// Where the plan converts values back to their declared form (src/eval/engine/form_plan.h):
// a step that writes another form declares it, a step that reads declares what it takes, and
// the planning pass lists the conversions in between, on a plan built by hand. A toy form
// (negated values) shows what a new form takes: one declaration and the steps that give and
// take it.
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

// The toy form: a FLOAT tensor held negated.
void negatedBack(EvalValue& value, const KernelContext*) {
  Array back(ElementType::kFloat, value.tensor.shape());
  for (size_t i = 0; i < back.size(); ++i) back.data<float>()[i] = -value.tensor.data<float>()[i];
  value.tensor = std::move(back);
}
const FormSet kNegated = declareForm({"negated", negatedBack});

// A kernel whose node takes and gives `forms`.
class Giving final : public ProvidedKernel {
 public:
  explicit Giving(FormSet forms) : forms_(forms) {}
  Result<bool> run(KernelContext&) override { return false; }
  FormSet forms() const override { return forms_; }
  std::unique_ptr<ProvidedKernel> fresh() const override {
    return std::make_unique<Giving>(forms_);
  }

 private:
  FormSet forms_;
};

// A fused step that writes `output` channels-last and reads `wide_input` as floats.
class ToyFused final : public FusedStep {
 public:
  ToyFused(const Value* output, const Value* wide_input)
      : output_(output), wide_input_(wide_input) {}
  Result<bool> run(StepRun&) override { return false; }
  const Value* output() const override { return output_; }
  FormSet takes(const Value* value) const override {
    return value == wide_input_ ? kFloatForHalf : 0;
  }
  FormSet mayGive() const override { return kChannelsLast | kFloatForHalf; }

 private:
  std::unique_ptr<FusedStep> fresh() const override {
    return std::make_unique<ToyFused>(output_, wide_input_);
  }

  const Value* output_;
  const Value* wide_input_;
};

// x -> [a = Relu] -> [b = Sigmoid] -> [c = Add(a, b)] (fused, with d = Neg(c)) -> Abs(d)
// Relu runs float16 on floats and gives the toy form too; Sigmoid runs on its channels-last
// kernel; the fused step writes channels-last and reads b as floats; Abs takes the toy form.
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
  plan.nodes[0].provided = std::make_unique<Giving>(kFloatForHalf | kNegated);
  plan.nodes[4].provided = std::make_unique<Giving>(kNegated);
  plan.nodes[1].channels_last = true;
  for (size_t n : {0, 1, 4}) plan.steps.emplace_back().members = {n};
  PlanStep& fused = plan.steps.emplace_back();
  fused.members = {2, 3};
  fused.fused = std::make_unique<ToyFused>(graph.lookup("d"), graph.lookup("b"));
  fused.fused->setWritesChannelsLast(true);
  plan.keeps_declared.assign(plan.slot_count, false);
  return made;
}

TEST(FormPlan, EachReaderConvertsWhatItCannotTakeInTheFormItsWriterMayGive) {
  std::unique_ptr<HandPlan> made = handPlan();
  GraphPlan& plan = made->plan;
  planConversions(plan);
  auto slotOf = [&](const char* name) { return plan.slot_of.at(made->model.graph->lookup(name)); };
  auto converts = [](uint32_t slot, FormSet drop) { return Conversion{slot, drop}; };
  // Relu reads the graph's input: declared.
  EXPECT_TRUE(plan.nodes[0].alone.empty());
  // Sigmoid, alone, reads Relu's value, which may be floats and negated: both go back.
  EXPECT_EQ(plan.nodes[1].alone, Conversions{converts(slotOf("a"), kFloatForHalf | kNegated)});
  // Add, alone when the fused step declines: a as for Sigmoid, and b, which the
  // channels-last kernel gives channels-last and as floats.
  EXPECT_EQ(plan.nodes[2].alone,
            (Conversions{converts(slotOf("a"), kFloatForHalf | kNegated),
                         converts(slotOf("b"), kChannelsLast | kFloatForHalf)}));
  // Abs takes d negated, but not channels-last or as floats, which the fused step gives.
  EXPECT_EQ(plan.nodes[4].alone, Conversions{converts(slotOf("d"), kChannelsLast | kFloatForHalf)});
  // The fused step takes b as floats (not channels-last), and a in none of its forms; its
  // own value c needs nothing.
  EXPECT_EQ(plan.steps[3].before, (Conversions{converts(slotOf("a"), kFloatForHalf | kNegated),
                                               converts(slotOf("b"), kChannelsLast)}));
}

TEST(FormPlan, AFrameConvertsWhatItHoldsInADroppedFormAndLeavesTheRest) {
  std::unique_ptr<HandPlan> made = handPlan();
  GraphPlan& plan = made->plan;
  Frame frame(plan, nullptr);
  uint32_t a = plan.slot_of.at(made->model.graph->lookup("a"));
  uint32_t b = plan.slot_of.at(made->model.graph->lookup("b"));
  Array floats(ElementType::kFloat, {4});
  for (size_t i = 0; i < 4; ++i) floats.data<float>()[i] = 1.0f / 3.0f + static_cast<float>(i);
  frame.store(a, EvalValue::of(floats), kFloatForHalf | kNegated, nullptr);
  frame.store(b, EvalValue::of(floats), 0, nullptr);
  frame.convert({{a, kNegated}, {b, kFloatForHalf | kNegated}});
  // a: negated back, still floats for FLOAT16.
  EXPECT_EQ(frame.forms[a], kFloatForHalf);
  EXPECT_EQ(frame.slots[a]->tensor.data<float>()[1], -(1.0f / 3.0f + 1.0f));
  frame.convert({{a, kFloatForHalf}});
  EXPECT_EQ(frame.forms[a], 0);
  EXPECT_EQ(frame.slots[a]->tensor.type(), ElementType::kFloat16);
  // b was declared: as it was.
  EXPECT_EQ(frame.forms[b], 0);
  EXPECT_EQ(frame.slots[b]->tensor.data<float>()[1], 1.0f / 3.0f + 1.0f);
}

}  // namespace
}  // namespace onyx::eval_internal
