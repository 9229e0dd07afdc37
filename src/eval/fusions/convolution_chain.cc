// The convolution chain (convolution_chain.h): the pattern that builds it, and the step that
// runs it through oneDNN, folding a BatchNormalization into the weights once.
#include "eval/fusions/convolution_chain.h"

#include <algorithm>
#include <cstdio>
#include <memory>

#include "eval/kernels/shared_preparation.h"
#include "onyx/ir/attribute.h"
#include "onyx/ir/node.h"
#include "onyx/ir/opset_imports.h"
#include "ops/nn/batch_norm_folding.h"
#include "ops/nn/conv_kernels.h"

namespace onyx::eval_internal {

bool isTranspose(const Node& node, std::initializer_list<int64_t> perm) {
  if (!isStandardOperator(node, "Transpose") || !singleInOut(node) || node.inputCount() != 1) {
    return false;
  }
  const Attribute* given = node.attribute("perm");
  return given != nullptr &&
         std::equal(given->ints.begin(), given->ints.end(), perm.begin(), perm.end());
}

bool fusibleConv(const Node& node) {
  return isStandardOperator(node, "Conv") && node.inputCount() >= 2 && node.input(0) != nullptr &&
         node.input(1) != nullptr && node.outputCount() == 1 && node.output(0) != nullptr;
}

bool singleInOut(const Node& node) {
  return node.inputCount() >= 1 && node.input(0) != nullptr && node.outputCount() == 1 &&
         node.output(0) != nullptr;
}

namespace {

class ConvolutionChainStep final : public FusedStep {
 public:
  explicit ConvolutionChainStep(ConvolutionChain chain) : chain_(std::move(chain)) {}

  const Value* output() const override { return chain_.end; }
  FormSet takes(const Value* value) const override {
    FormSet forms = 0;
    if ((value == chain_.x && chain_.input_transpose == nullptr) ||
        (value == chain_.residual && !chain_.output_transposed)) {
      forms |= kChannelsLast;
    }
    if (value == chain_.x || value == chain_.residual) forms |= kFloatForHalf;
    return forms;
  }
  FormSet mayGive() const override {
    return chain_.output_transposed ? kFloatForHalf : kChannelsLast | kFloatForHalf;
  }

  Result<bool> run(StepRun& run) override;

 private:
  std::unique_ptr<FusedStep> fresh() const override {
    return std::make_unique<ConvolutionChainStep>(chain_);
  }

  // The weights and bias with the BatchNormalization folded in, made at a first run
  // (ops/nn/batch_norm_folding.h) once per process (shared_preparation.h).
  struct Folded {
    Array weights, bias;
  };
  bool fold(StepRun& run, const Array& weights, const Array* bias);

  ConvolutionChain chain_;
  FusedConvolution convolution_;
  std::shared_ptr<const Folded> folded_;
  bool fold_refused_ = false;
};

bool ConvolutionChainStep::fold(StepRun& run, const Array& weights, const Array* bias) {
  if (folded_) return true;
  if (fold_refused_) return false;
  fold_refused_ = true;
  const Node& bn = *chain_.batch_norm;
  const Array* gamma = run.tensor(bn.input(1));
  const Array* beta = run.tensor(bn.input(2));
  const Array* mean = run.tensor(bn.input(3));
  const Array* variance = run.tensor(bn.input(4));
  std::optional<ops::nn::ChannelLayout> layout = ops::nn::convWeightsLayout(weights.shape());
  if (gamma == nullptr || beta == nullptr || mean == nullptr || variance == nullptr || !layout ||
      weights.type() != ElementType::kFloat ||
      (bias != nullptr && (bias->type() != ElementType::kFloat ||
                           bias->size() != static_cast<size_t>(layout->channels)))) {
    return false;
  }
  KernelContext ctx = run.context(bn);
  double epsilon = ctx.floatAttribute("epsilon").value_or(1e-5f);
  std::optional<ops::nn::ChannelAffine> affine =
      ops::nn::batchNormAffine(*gamma, *beta, *mean, *variance, epsilon, layout->channels);
  if (!affine) return false;
  char recipe[64];
  std::snprintf(recipe, sizeof recipe, "batch norm folded, epsilon %a", epsilon);
  folded_ = sharedPreparation<Folded>(
      {&weights, bias, gamma, beta, mean, variance}, recipe, [&]() -> std::optional<Folded> {
        Array zeros(ElementType::kFloat, {layout->channels});
        std::fill_n(zeros.data<float>(), zeros.size(), 0.0f);
        std::optional<Array> folded_weights =
            ops::nn::mapChannels(weights, *layout, affine->scale, {});
        std::optional<Array> folded_bias = ops::nn::mapChannels(
            bias != nullptr ? *bias : zeros, ops::nn::biasLayout(1, layout->channels),
            affine->scale, affine->shift);
        if (!folded_weights || !folded_bias) return std::nullopt;
        return Folded{std::move(*folded_weights), std::move(*folded_bias)};
      });
  if (!folded_) return false;
  fold_refused_ = false;
  return true;
}

Result<bool> ConvolutionChainStep::run(StepRun& run) {
  const Node& conv = *chain_.conv;
  const Value* x_value = chain_.x;
  const Value* w_value = conv.input(1);
  const Value* b_value = conv.inputCount() > 2 ? conv.input(2) : nullptr;
  const Value* r_value = chain_.residual;
  const Array* x = run.tensor(x_value);
  const Array* w = run.tensor(w_value);
  const Array* b = run.tensor(b_value);
  const Array* r = run.tensor(r_value);
  if (x == nullptr || w == nullptr || (b_value != nullptr && b == nullptr) ||
      (r_value != nullptr && r == nullptr) ||
      (x->type() != ElementType::kFloat && x->type() != ElementType::kFloat16) ||
      (w->type() != ElementType::kFloat && w->type() != ElementType::kFloat16) ||
      x->rank() != w->rank() || (x->rank() != 4 && x->rank() != 3)) {
    return false;
  }
  // float16 weights: a float16 group, whose FLOAT inputs stand for FLOAT16 ones and whose
  // result stays FLOAT (wide values, engine/frame.h).
  const bool halves = w->type() == ElementType::kFloat16;
  if (!halves && x->type() != ElementType::kFloat) return false;
  // A channels-last tensor: the input Transpose's input, or a value the plan kept so.
  bool x_channels_last = chain_.input_transpose != nullptr || run.channelsLast(x_value);
  // A 1-D convolution reads and writes channels-first values only.
  const bool one_d = x->rank() == 3;
  if (one_d && (x_channels_last || chain_.output_transposed)) return false;
  std::vector<int64_t> x_shape = x->shape();
  if (x_channels_last) x_shape = {x_shape[0], x_shape[3], x_shape[1], x_shape[2]};
  KernelContext ctx = run.context(conv);
  Result<ops::nn::ConvShape> shape = ops::nn::convShape(ctx, x_shape, w->shape());
  if (!shape) return false;
  FusedConvolutionCall call{.shape = &*shape,
                            .x = x,
                            .x_channels_last = x_channels_last,
                            .weights = w,
                            .weights_fixed = chain_.weights_constant,
                            .bias = b};
  if (chain_.batch_norm != nullptr) {
    if (!fold(run, *w, b)) return false;
    call.weights = &folded_->weights;
    call.weights_fixed = true;
    call.bias = &folded_->bias;
  }
  call.residual = r;
  call.residual_channels_last =
      r_value != nullptr && (chain_.output_transposed || run.channelsLast(r_value));
  call.activations = chain_.activations;
  call.output_channels_last = !one_d && (chain_.output_transposed || writesChannelsLast());
  call.threads = run.host().threads();
  call.ctx = &ctx;
  call.keep_wide = halves;
  // The residual's elements become the result's when this is their last read and no one
  // else holds them.
  if (call.residual_channels_last && r_value != x_value) {
    call.residual_storage = run.takeIfLastRead(r_value);
    if (call.residual_storage) call.residual = &*call.residual_storage;
  }
  Result<std::optional<Array>> result = convolution_.run(call);
  if (!result) return result.status();
  if (!*result) {
    if (call.residual_storage) run.restore(r_value, std::move(*call.residual_storage));
    return false;
  }
  // After an output Transpose, channels-last is the value's own layout.
  run.write(chain_.end, std::move(**result), !one_d && writesChannelsLast(), halves);
  return true;
}

class ConvolutionChainPattern final : public FusionPattern {
 public:
  std::string_view name() const override { return "convolution chain"; }
  std::optional<FusionMatch> match(const Node& anchor, const FusionGraph& graph) const override {
    if (!fusibleConv(anchor)) return std::nullopt;
    ConvolutionChain chain;
    chain.conv = &anchor;
    chain.x = anchor.input(0);
    const Node* transpose = anchor.input(0)->producer();
    if (transpose != nullptr && !graph.fused(*transpose) && isTranspose(*transpose, {0, 3, 1, 2}) &&
        graph.soleReader(anchor.input(0)) == &anchor) {
      chain.input_transpose = transpose;
      chain.x = transpose->input(0);
      chain.members.push_back(transpose);
    }
    chain.members.push_back(&anchor);
    chain.end = anchor.output(0);
    chain.weights_constant = graph.constant(anchor.input(1));
    for (bool grew = true; grew;) {
      grew = false;
      const Node* next = graph.soleReader(chain.end);
      if (next == nullptr) {
        for (const ConvolutionEpilogue* epilogue : convolutionEpilogues()) {
          std::vector<const Node*> spelled = epilogue->absorbSpelled(chain, graph);
          if (spelled.empty()) continue;
          chain.members.insert(chain.members.end(), spelled.begin(), spelled.end());
          chain.end = spelled.back()->output(0);
          grew = true;
          break;
        }
        continue;
      }
      if (graph.fused(*next)) break;
      for (const ConvolutionEpilogue* epilogue : convolutionEpilogues()) {
        if (epilogue->absorb(*next, chain, graph)) {
          chain.members.push_back(next);
          chain.end = next->output(0);
          grew = true;
          break;
        }
      }
    }
    FusionMatch match;
    match.members = chain.members;
    match.step = std::make_unique<ConvolutionChainStep>(std::move(chain));
    return match;
  }
};

}  // namespace

const FusionPattern& convolutionChainPattern() { return soleInstance<ConvolutionChainPattern>(); }

extern const ConvolutionEpilogue& convBatchNormEpilogue();
extern const ConvolutionEpilogue& convResidualAddEpilogue();
extern const ConvolutionEpilogue& convActivationEpilogue();
extern const ConvolutionEpilogue& convSpelledActivationEpilogue();
extern const ConvolutionEpilogue& convOutputTransposeEpilogue();

std::span<const ConvolutionEpilogue* const> convolutionEpilogues() {
  static const ConvolutionEpilogue* const kEpilogues[] = {
      &convBatchNormEpilogue(),         &convResidualAddEpilogue(),     &convActivationEpilogue(),
      &convSpelledActivationEpilogue(), &convOutputTransposeEpilogue(),
  };
  return kEpilogues;
}

}  // namespace onyx::eval_internal
