// The QDQ convolution: DequantizeLinear -> Conv [-> Relu] -> QuantizeLinear, as static
// quantizers write it, run as one int8 convolution (kernels/quantized_convolution.h) on the
// quantized input, giving the quantized output. Its input's DequantizeLinear joins the group
// when the Conv alone reads it; when other nodes read it too (a residual Add), it stays out
// and the step reads its quantized operand. The weights' and the bias's DequantizeLinears of
// constants join it when the Conv alone reads them: their float values are never made.
//
// Where the group's parameters are outside what the int8 kernel takes (weights that are not
// int8 with zero points of 0, scales per channel along another axis, a bias that does not fit
// in int32), it declines at the first run, and for good: the nodes run one by one.
#include <optional>
#include <vector>

#include "eval/fusions/convolution_chain.h"
#include "eval/fusions/quantized_operands.h"
#include "eval/kernels/onednn_support.h"
#include "eval/kernels/quantized_convolution.h"
#include "onyx/ir/node.h"
#include "onyx/ir/opset_imports.h"
#include "ops/nn/conv_kernels.h"

namespace onyx::eval_internal {

namespace {

struct QdqConvolution {
  const Node* input_dequantize = nullptr;
  const Node* weight_dequantize = nullptr;
  const Node* conv = nullptr;
  const Node* relu = nullptr;  // between the Conv and the QuantizeLinear, or null
  const Node* quantize = nullptr;
};

class QdqConvolutionStep final : public FusedStep {
 public:
  // `own_products`: the session's tier is below VNNI, where the products run through onyx's
  // own kernel, which reads and writes channels-first.
  QdqConvolutionStep(QdqConvolution group, bool own_products)
      : group_(group), own_products_(own_products) {}

  const Value* output() const override { return group_.quantize->output(0); }
  FormSet takes(const Value* value) const override {
    // Its input's DequantizeLinear's output, when that stays out, it does not read at all.
    bool image =
        value == group_.input_dequantize->input(0) || value == group_.input_dequantize->output(0);
    return !own_products_ && image ? kChannelsLast : 0;
  }
  bool bypasses(const Value* value) const override {
    return value == group_.input_dequantize->output(0);
  }
  FormSet mayGive() const override { return own_products_ ? 0 : kChannelsLast; }

  Result<bool> run(StepRun& run) override {
    if (!usable_) usable_ = prepare(run);
    if (!*usable_) return false;
    const Value* x_value = group_.input_dequantize->input(0);
    const Array* x = run.tensor(x_value);
    const Array* weights = run.tensor(group_.weight_dequantize->input(0));
    if (x == nullptr || x->type() != x_.type || x->rank() != 4 || weights == nullptr ||
        weights->type() != ElementType::kInt8 || weights->rank() != 4) {
      return false;
    }
    // Where onyx's own kernel runs (own_products_) the plan keeps the input and output
    // channels-first: the step neither reads nor writes them channels-last there.
    const bool x_channels_last = run.channelsLast(x_value);
    std::vector<int64_t> x_shape = x->shape();
    if (x_channels_last) x_shape = {x_shape[0], x_shape[3], x_shape[1], x_shape[2]};
    KernelContext ctx = run.context(*group_.conv);
    Result<ops::nn::ConvShape> shape = ops::nn::convShape(ctx, x_shape, weights->shape());
    if (!shape) return false;
    QuantizedConvolutionCall call{.shape = &*shape,
                                  .x = x,
                                  .x_channels_last = x_channels_last,
                                  .x_scale = x_.scale,
                                  .x_zero = x_.zero,
                                  .weights = weights,
                                  .weights_fixed = true,
                                  .w_scales = w_scales_,
                                  .bias = bias_ ? &*bias_ : nullptr,
                                  .y_scale = y_.scale,
                                  .y_zero = y_.zero,
                                  .y_type = y_.type,
                                  .relu = group_.relu != nullptr,
                                  .output_channels_last = writesChannelsLast(),
                                  .threads = run.host().threads(),
                                  .tier = run.host().cpuTier(),
                                  .ctx = &ctx};
    Result<std::optional<Array>> result = convolution_.run(call);
    if (!result) return result.status();
    if (!*result) return false;
    run.write(output(), std::move(**result), writesChannelsLast());
    return true;
  }

 private:
  std::unique_ptr<FusedStep> fresh() const override {
    return std::make_unique<QdqConvolutionStep>(group_, own_products_);
  }

  // Reads the constants once: false (for good) when the kernel cannot take them.
  bool prepare(StepRun& run) {
    std::optional<TensorQuantization> x = tensorQuantization(run, *group_.input_dequantize);
    std::optional<TensorQuantization> y = tensorQuantization(run, *group_.quantize);
    const Array* weights = run.tensor(group_.weight_dequantize->input(0));
    if (!x || !y || weights == nullptr || weights->rank() != 4) return false;
    const size_t outputs = static_cast<size_t>(weights->shape()[0]);
    std::optional<std::vector<float>> w_scales =
        weightScales(run, *group_.weight_dequantize, outputs, 0, 4);
    if (!w_scales) return false;
    const Node& conv = *group_.conv;
    if (conv.inputCount() > 2 && conv.input(2) != nullptr) {
      bias_ = accumulatorBias(run, conv.input(2), x->scale, *w_scales, outputs);
      if (!bias_) return false;
    }
    x_ = *x;
    y_ = *y;
    w_scales_ = std::move(*w_scales);
    return true;
  }

  QdqConvolution group_;
  bool own_products_;
  std::optional<bool> usable_;  // whether its constants suit the kernel, from the first run
  TensorQuantization x_, y_;
  std::vector<float> w_scales_;
  std::optional<Array> bias_;
  QuantizedConvolution convolution_;
};

class QdqConvolutionPattern final : public FusionPattern {
 public:
  std::string_view name() const override { return "QDQ convolution"; }

  std::optional<FusionMatch> match(const Node& anchor, const FusionGraph& graph) const override {
    if (!fusibleConv(anchor)) return std::nullopt;
    QdqConvolution group;
    group.conv = &anchor;
    group.input_dequantize = quantizationNode(anchor.input(0), "DequantizeLinear", graph);
    group.weight_dequantize = quantizationNode(anchor.input(1), "DequantizeLinear", graph, true);
    if (group.input_dequantize == nullptr || group.weight_dequantize == nullptr) {
      return std::nullopt;
    }
    const Value* bias = anchor.inputCount() > 2 ? anchor.input(2) : nullptr;
    const Node* bias_dequantize = nullptr;
    if (bias != nullptr) {
      bias_dequantize = quantizationNode(bias, "DequantizeLinear", graph, true);
      if (bias_dequantize == nullptr && graph.fixedTensor(bias) == nullptr) return std::nullopt;
    }
    std::optional<QuantizedOutput> output = quantizedOutput(anchor, graph, true);
    if (!output) return std::nullopt;
    group.relu = output->relu;
    group.quantize = output->quantize;
    FusionMatch match;
    takeDequantize(group.input_dequantize, anchor, graph, match);
    takeDequantize(group.weight_dequantize, anchor, graph, match);
    takeDequantize(bias_dequantize, anchor, graph, match);
    takeOutput(anchor, *output, match);
    match.step = std::make_unique<QdqConvolutionStep>(group, !int8ProductsExact(graph.cpuTier()));
    return match;
  }
};

}  // namespace

const FusionPattern& qdqConvolutionPattern() { return soleInstance<QdqConvolutionPattern>(); }

}  // namespace onyx::eval_internal
