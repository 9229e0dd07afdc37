// SiLU as exporters spell it, Mul(x, Sigmoid(x)), and the gated form of a decoder's SwiGLU
// MLP, Mul(Mul(x, Sigmoid(x)), up) with up of x's shape: one pass over x (and up) instead
// of two or three, each writing a whole array. The step computes what the nodes compute, in
// their order and with the same sigmoid (vector_math.h), so its bits are theirs. Any other
// element type, or an up that broadcasts, declines: the nodes then run one by one. The loops
// are vector_math's (an ops file: the ThreadSanitizer build leaves those uninstrumented, and
// their ifuncs would crash it instrumented).
#include "eval/fusions/fusion_pattern.h"
#include "onyx/ir/node.h"
#include "ops/kernels.h"
#include "ops/lib/elementwise_kernels.h"
#include "ops/math/vector_math.h"

namespace onyx::eval_internal {

namespace {

class GatedSiluStep final : public FusedStep {
 public:
  GatedSiluStep(const Node& sigmoid, const Node& silu, const Node* gate)
      : sigmoid_(sigmoid), silu_(silu), gate_(gate) {}

  const Value* output() const override { return (gate_ != nullptr ? gate_ : &silu_)->output(0); }

  Result<bool> run(StepRun& run) override {
    const Array* x = run.tensor(sigmoid_.input(0));
    if (x == nullptr || x->type() != ElementType::kFloat) return false;
    const Array* up = nullptr;
    if (gate_ != nullptr) {
      up = run.tensor(upOf(*gate_, silu_));
      if (up == nullptr || up->type() != ElementType::kFloat || up->shape() != x->shape()) {
        return false;
      }
    }
    Result<Array> made = Array::allocate(ElementType::kFloat, x->shape());
    if (!made) return made.status();
    KernelContext ctx = run.context(gate_ != nullptr ? *gate_ : silu_);
    const float* from = x->data<float>();
    const float* other = up != nullptr ? up->data<float>() : nullptr;
    float* to = made->data<float>();
    ops::parallelFor(ctx, x->size(), ops::elementwise::kGrain, [&](size_t begin, size_t end) {
      if (other != nullptr) {
        ops::vector_math::gatedSiluFloats(from + begin, other + begin, to + begin, end - begin);
      } else {
        ops::vector_math::siluFloats(from + begin, to + begin, end - begin);
      }
    });
    run.write(output(), std::move(*made), false);
    return true;
  }

  // The gate's other operand: the one that is not the SiLU's output.
  static const Value* upOf(const Node& gate, const Node& silu) {
    return gate.input(0) == silu.output(0) ? gate.input(1) : gate.input(0);
  }

 private:
  std::unique_ptr<FusedStep> fresh() const override {
    return std::make_unique<GatedSiluStep>(sigmoid_, silu_, gate_);
  }

  const Node& sigmoid_;
  const Node& silu_;
  const Node* gate_;  // null: SiLU alone
};

// A two-input Mul of opset 7 on (numpy broadcasting; earlier ones broadcast by attribute).
bool plainMul(const Node& node) {
  return isStandardOperator(node, "Mul") && node.inputCount() == 2 && node.input(0) != nullptr &&
         node.input(1) != nullptr && node.outputCount() == 1 && node.output(0) != nullptr &&
         node.attribute("broadcast") == nullptr && node.attribute("axis") == nullptr;
}

class GatedSiluPattern final : public FusionPattern {
 public:
  std::string_view name() const override { return "SiLU, gated or not"; }

  std::optional<FusionMatch> match(const Node& anchor, const FusionGraph& graph) const override {
    if (!isStandardOperator(anchor, "Sigmoid") || anchor.inputCount() != 1 ||
        anchor.input(0) == nullptr || anchor.outputCount() != 1 || anchor.output(0) == nullptr) {
      return std::nullopt;
    }
    const Value* x = anchor.input(0);
    const Node* silu = graph.soleReader(anchor.output(0));
    if (silu == nullptr || graph.fused(*silu) || !plainMul(*silu)) return std::nullopt;
    const Value* other = silu->input(0) == anchor.output(0) ? silu->input(1) : silu->input(0);
    if (other != x) return std::nullopt;
    const Node* gate = graph.soleReader(silu->output(0));
    if (gate != nullptr &&
        (graph.fused(*gate) || !plainMul(*gate) || gate->input(0) == gate->input(1))) {
      gate = nullptr;
    }
    FusionMatch match;
    match.members = {&anchor, silu};
    if (gate != nullptr) match.members.push_back(gate);
    match.step = std::make_unique<GatedSiluStep>(anchor, *silu, gate);
    return match;
  }
};

}  // namespace

const FusionPattern& gatedSiluPattern() { return soleInstance<GatedSiluPattern>(); }

}  // namespace onyx::eval_internal
