// A linear layer: a float MatMul by a matrix, the Add of a bias row, maybe a Relu, as one
// matrix product that starts from the bias (fused_matmul.h). A float16 one runs on floats:
// its weights and bias widened once (at the AVX2 tier, fixed weights straight into the
// kernel's panels), its input wide or widened, its result left wide (engine/frame.h).
#include "eval/fusions/convolution_chain.h"
#include "eval/fusions/fusion_pattern.h"
#include "eval/kernels/fused_matmul.h"
#include "eval/kernels/halves_as_floats.h"
#include "eval/kernels/packed_linear_layer.h"
#include "onyx/ir/node.h"

namespace onyx::eval_internal {

namespace {

class LinearLayerStep final : public FusedStep {
 public:
  LinearLayerStep(const Node& matmul, const Value* bias, const Node* relu, const Value* output,
                  std::vector<bool> constant)
      : matmul_(matmul),
        bias_(bias),
        relu_(relu),
        output_(output),
        constants_(std::move(constant)) {}

  const Value* output() const override { return output_; }
  FormSet takes(const Value* value) const override {
    return value == matmul_.input(0) ? kFloatForHalf : 0;
  }
  FormSet mayGive() const override { return kFloatForHalf; }

  Result<bool> run(StepRun& run) override {
    const Array* a = run.tensor(matmul_.input(0));
    const Array* b = run.tensor(matmul_.input(1));
    const Array* bias = run.tensor(bias_);
    if (a == nullptr || b == nullptr || bias == nullptr) return false;
    KernelContext ctx = run.context(matmul_);
    // float16: b and the bias FLOAT16, a FLOAT16 or a wide FLOAT.
    const bool halves = b->type() == ElementType::kFloat16;
    std::optional<Array> wide_a, made_b, made_bias;
    if (halves) {
      if (bias->type() != ElementType::kFloat16 ||
          (a->type() != ElementType::kFloat16 && a->type() != ElementType::kFloat)) {
        return false;
      }
      if (a->type() == ElementType::kFloat16) a = &wide_a.emplace(widenedHalves(*a, &ctx));
      // Fixed float16 weights at the AVX2 tier are widened straight into the panels the
      // kernel reads (panel_linear_layer.h), never into a float copy of their own.
      if (!PackedLinearLayer::takesHalfWeights(ctx, *b) || !constants_.constant()[0]) {
        b = &constants_.widened(0, *b, &ctx, made_b);
      }
      bias = &constants_.widened(1, *bias, &ctx, made_bias);
    }
    // Widened float16 weights are fixed too, but kept as the float16 path keeps them.
    const bool packable = !halves || b->type() == ElementType::kFloat16;
    PackedLinearLayer* packed = packable && constants_.constant()[0] ? &packed_ : nullptr;
    std::optional<Array> result = multiplyAddBias(ctx, *a, *b, *bias, relu_ != nullptr, packed);
    if (!result) return false;
    run.write(output_, std::move(*result), false, halves);
    return true;
  }

 private:
  std::unique_ptr<FusedStep> fresh() const override {
    return std::make_unique<LinearLayerStep>(matmul_, bias_, relu_, output_, constants_.constant());
  }

  const Node& matmul_;
  const Value* bias_;
  const Node* relu_;
  const Value* output_;
  WidenedConstants constants_;  // b and the bias, when constant and FLOAT16
  PackedLinearLayer packed_;    // for constant float b
};

bool binary(const Node& node) {
  return node.inputCount() == 2 && node.input(0) != nullptr && node.input(1) != nullptr &&
         node.outputCount() == 1 && node.output(0) != nullptr;
}

class LinearLayerPattern final : public FusionPattern {
 public:
  std::string_view name() const override { return "linear layer"; }
  std::optional<FusionMatch> match(const Node& anchor, const FusionGraph& graph) const override {
    if (!isStandardOperator(anchor, "MatMul") || !binary(anchor)) return std::nullopt;
    const Node* add = graph.soleReader(anchor.output(0));
    // The Adds of opsets before 7 broadcast only by attribute; those are left alone.
    if (add == nullptr || graph.fused(*add) || !isStandardOperator(*add, "Add") || !binary(*add) ||
        add->attribute("broadcast") != nullptr || add->attribute("axis") != nullptr) {
      return std::nullopt;
    }
    const Value* bias = add->input(0) == anchor.output(0) ? add->input(1) : add->input(0);
    if (bias == anchor.output(0)) return std::nullopt;
    FusionMatch match;
    match.members = {&anchor, add};
    const Node* relu = graph.soleReader(add->output(0));
    if (relu != nullptr && !graph.fused(*relu) && isStandardOperator(*relu, "Relu") &&
        singleInOut(*relu) && relu->inputCount() == 1) {
      match.members.push_back(relu);
    } else {
      relu = nullptr;
    }
    match.step = std::make_unique<LinearLayerStep>(
        anchor, bias, relu, match.members.back()->output(0),
        std::vector<bool>{graph.constant(anchor.input(1)), graph.constant(bias)});
    return match;
  }
};

}  // namespace

const FusionPattern& linearLayerPattern() { return soleInstance<LinearLayerPattern>(); }

}  // namespace onyx::eval_internal
