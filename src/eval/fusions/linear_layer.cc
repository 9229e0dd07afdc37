// A linear layer: a float MatMul by a matrix, the Add of a bias row, maybe a Relu, as one
// matrix product that starts from the bias (fused_matmul.h); or a Gemm of the same (alpha and
// beta 1, A as it is), maybe a Relu, its B read transposed when transB says so (packed from
// there when fixed). A float16 one runs on floats: its weights and bias widened once (at the
// AVX2 tier, fixed weights straight into the kernel's panels), its input wide or widened, its
// result left wide (engine/frame.h).
#include <algorithm>
#include <memory>

#include "eval/fusions/convolution_chain.h"
#include "eval/fusions/fusion_pattern.h"
#include "eval/kernels/fused_matmul.h"
#include "eval/kernels/halves_as_floats.h"
#include "eval/kernels/packed_linear_layer.h"
#include "onyx/ir/node.h"

namespace onyx::eval_internal {

namespace {

// What the product reads: A, B as it is or transposed (a Gemm's transB), the bias or none.
struct LinearOperands {
  const Value* a;
  const Value* b;
  bool transposed_b;
  const Value* bias;  // null: none (a Gemm without C)
};

class LinearLayerStep final : public FusedStep {
 public:
  LinearLayerStep(const Node& product, LinearOperands operands, const Node* relu,
                  const Value* output, std::vector<bool> constant)
      : product_(product),
        operands_(operands),
        relu_(relu),
        output_(output),
        constants_(std::move(constant)) {}

  const Value* output() const override { return output_; }
  FormSet takes(const Value* value) const override {
    return value == operands_.a ? kFloatForHalf : 0;
  }
  FormSet mayGive() const override { return kFloatForHalf; }

  Result<bool> run(StepRun& run) override {
    const Array* a = run.tensor(operands_.a);
    const Array* b = run.tensor(operands_.b);
    if (a == nullptr || b == nullptr || b->rank() != 2 ||
        (b->type() != ElementType::kFloat && b->type() != ElementType::kFloat16)) {
      return false;
    }
    // Gemm: A is a matrix (the node's own kernel says so when it is not).
    bool transposed_b = operands_.transposed_b;
    if (transposed_b && a->rank() != 2) return false;
    const Array* bias = operands_.bias != nullptr ? run.tensor(operands_.bias)
                                                  : &noBias(b->dim(transposed_b ? 0 : 1));
    if (bias == nullptr) return false;
    KernelContext ctx = run.context(product_);
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
      // kernel reads (panel_linear_layer.h), never into a float copy of their own. Elsewhere a
      // fixed B under transB is widened into its copy transposed, as a MatMul reads it: sgemm
      // on a transposed B took 16 ms where it takes 12 on the same product laid out so.
      if (!PackedLinearLayer::takesHalfWeights(ctx, *b, transposed_b) ||
          !constants_.constant()[0]) {
        if (transposed_b && constants_.constant()[0]) {
          b = &widenedTransposedOnce(*b);
          transposed_b = false;
        } else {
          b = &constants_.widened(0, *b, &ctx, made_b);
        }
      }
      if (operands_.bias != nullptr) bias = &constants_.widened(1, *bias, &ctx, made_bias);
    }
    // Widened float16 weights are fixed too, but kept as the float16 path keeps them.
    const bool packable = !halves || b->type() == ElementType::kFloat16;
    PackedLinearLayer* packed = packable && constants_.constant()[0] ? &packed_ : nullptr;
    std::optional<Array> result =
        multiplyAddBias(ctx, *a, *b, *bias, relu_ != nullptr, packed, transposed_b);
    if (!result) return false;
    run.write(output_, std::move(*result), false, halves);
    return true;
  }

 private:
  std::unique_ptr<FusedStep> fresh() const override {
    return std::make_unique<LinearLayerStep>(product_, operands_, relu_, output_,
                                             constants_.constant());
  }

  // A fixed float16 B (N, K) widened into a (K, N) float copy, once per process.
  const Array& widenedTransposedOnce(const Array& half) {
    if (widened_transposed_ == nullptr || widened_source_ != half.bytes().data()) {
      widened_transposed_ = sharedWidenedTransposedHalves(half);
      widened_source_ = half.bytes().data();
    }
    return *widened_transposed_;
  }

  // `columns` float zeros, for a Gemm without C.
  const Array& noBias(int64_t columns) {
    if (zeros_.size() != static_cast<size_t>(columns)) {
      zeros_ = Array(ElementType::kFloat, {columns});
      std::fill_n(zeros_.data<float>(), zeros_.size(), 0.0f);
    }
    return zeros_;
  }

  const Node& product_;
  LinearOperands operands_;
  const Node* relu_;
  const Value* output_;
  WidenedConstants constants_;                       // b and the bias, when constant and FLOAT16
  PackedLinearLayer packed_;                         // for constant float b
  std::shared_ptr<const Array> widened_transposed_;  // a fixed float16 B under transB
  const void* widened_source_ = nullptr;
  Array zeros_;
};

// The Relu that alone reads `last`'s output, added to `match`; else null.
const Node* followingRelu(const Node& last, const FusionGraph& graph, FusionMatch& match) {
  const Node* relu = graph.soleReader(last.output(0));
  if (relu == nullptr || graph.fused(*relu) || !isStandardOperator(*relu, "Relu") ||
      !singleInOut(*relu) || relu->inputCount() != 1) {
    return nullptr;
  }
  match.members.push_back(relu);
  return relu;
}

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
    const Node* relu = followingRelu(*add, graph, match);
    match.step = std::make_unique<LinearLayerStep>(
        anchor, LinearOperands{anchor.input(0), anchor.input(1), false, bias}, relu,
        match.members.back()->output(0),
        std::vector<bool>{graph.constant(anchor.input(1)), graph.constant(bias)});
    return match;
  }
};

class GemmLayerPattern final : public FusionPattern {
 public:
  std::string_view name() const override { return "linear layer (Gemm)"; }
  std::optional<FusionMatch> match(const Node& anchor, const FusionGraph& graph) const override {
    if (!isStandardOperator(anchor, "Gemm") || anchor.inputCount() < 2 || anchor.inputCount() > 3 ||
        anchor.input(0) == nullptr || anchor.input(1) == nullptr || anchor.outputCount() != 1 ||
        anchor.output(0) == nullptr) {
      return std::nullopt;
    }
    // Before version 7 C broadcasts only by attribute; alpha and beta other than 1 and a
    // transposed A are left to the node.
    const OpSchema* schema = graph.schema(anchor);
    const Value* bias = anchor.inputCount() == 3 ? anchor.input(2) : nullptr;
    bool transposed_b = anchor.intAttr("transB").value_or(0) != 0;
    if (schema == nullptr || schema->since_version < 7 ||
        anchor.intAttr("transA").value_or(0) != 0 ||
        anchor.floatAttr("alpha").value_or(1.0f) != 1.0f ||
        (bias != nullptr && anchor.floatAttr("beta").value_or(1.0f) != 1.0f)) {
      return std::nullopt;
    }
    FusionMatch match;
    match.members = {&anchor};
    const Node* relu = followingRelu(anchor, graph, match);
    match.step = std::make_unique<LinearLayerStep>(
        anchor, LinearOperands{anchor.input(0), anchor.input(1), transposed_b, bias}, relu,
        match.members.back()->output(0),
        std::vector<bool>{graph.constant(anchor.input(1)),
                          bias == nullptr || graph.constant(bias)});
    return match;
  }
};

}  // namespace

const FusionPattern& linearLayerPattern() { return soleInstance<LinearLayerPattern>(); }

const FusionPattern& gemmLayerPattern() { return soleInstance<GemmLayerPattern>(); }

}  // namespace onyx::eval_internal
