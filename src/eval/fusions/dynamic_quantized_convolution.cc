// The dynamically quantized convolution, as onnxruntime's quantize_dynamic writes it:
//   ConvInteger -> Cast(to FLOAT) -> Mul(by x_scale * w_scale) [-> Add(bias)] [-> Relu]
// run as one step: the integer sums (kernels/integer_convolution.h) turned into the float
// result while they are in cache, where the nodes would write and read the whole image four
// or five times (int32 sums, their float cast, the scaled, the biased, the rectified). Each
// element goes through the same operations in the same order as the nodes (float of the
// sum, times the scale, plus the bias, Relu; no product and sum contracted into one: the
// file is built with -ffp-contract=off), so the result has the nodes' bits.
//
// The scale is read at each run (it holds the input's scale, which DynamicQuantizeLinear
// computes); it and the bias may be one value or one per output channel ([M, 1, 1] or
// [1, M, 1, 1]). Any other shape or type, or a convolution the kernel does not take, and the
// step declines that run: the nodes run one by one.
#include <algorithm>
#include <optional>
#include <vector>

#include "eval/fusions/convolution_chain.h"
#include "eval/fusions/fusion_pattern.h"
#include "eval/fusions/quantized_operands.h"
#include "eval/kernels/integer_convolution.h"
#include "onyx/ir/attribute.h"
#include "onyx/ir/node.h"
#include "onyx/ir/opset_imports.h"
#include "ops/nn/conv_kernels.h"

namespace onyx::eval_internal {

namespace {

struct DynamicConvolution {
  const Node* conv = nullptr;
  const Node* cast = nullptr;
  const Node* scale = nullptr;  // the Mul
  const Node* bias = nullptr;   // the Add, or null
  const Node* relu = nullptr;   // or null
  const Node* last = nullptr;   // whose output the group gives
};

// The operand of a two-input node that is not `from`; null when both are.
const Value* otherOperand(const Node& node, const Value* from) {
  if (node.inputCount() != 2 || node.input(0) == nullptr || node.input(1) == nullptr ||
      node.input(0) == node.input(1)) {
    return nullptr;
  }
  return node.input(0) == from ? node.input(1) : node.input(0);
}

// A FLOAT value of one element, or one per output channel shaped [M, 1, 1] or [1, M, 1, 1]:
// its element for each channel; empty when it is not one of those.
std::vector<float> perChannel(const Array* array, size_t outputs) {
  // Of rank 4 at most: a larger rank would broadcast the nodes' result to it.
  if (array == nullptr || array->type() != ElementType::kFloat || array->rank() > 4) return {};
  const float* values = array->data<float>();
  if (array->size() == 1) return std::vector<float>(outputs, values[0]);
  const std::vector<int64_t>& shape = array->shape();
  const bool channels = array->size() == outputs && shape.size() >= 3 &&
                        shape[shape.size() - 1] == 1 && shape[shape.size() - 2] == 1;
  if (!channels) return {};
  return std::vector<float>(values, values + outputs);
}

class DynamicConvolutionStep final : public FusedStep {
 public:
  explicit DynamicConvolutionStep(DynamicConvolution group, bool weights_fixed)
      : group_(group), weights_fixed_(weights_fixed) {}

  const Value* output() const override { return group_.last->output(0); }

  // Its provider is oneDNN's, but small weights take onyx's own kernel (integer_convolution.h).
  std::string_view ranBy() const override {
    return convolution_.ranOwnKernel() ? "onyx: dynamically quantized convolution"
                                       : "oneDNN: dynamically quantized convolution";
  }

  Result<bool> run(StepRun& run) override {
    const Node& conv = *group_.conv;
    const Array* x = run.tensor(conv.input(0));
    const Array* weights = run.tensor(conv.input(1));
    const Array* x_zero =
        conv.inputCount() > 2 && conv.input(2) != nullptr ? run.tensor(conv.input(2)) : nullptr;
    const Array* w_zero =
        conv.inputCount() > 3 && conv.input(3) != nullptr ? run.tensor(conv.input(3)) : nullptr;
    if (x == nullptr || weights == nullptr || x->rank() != 4 || weights->rank() != 4 ||
        (conv.inputCount() > 2 && conv.input(2) != nullptr && x_zero == nullptr) ||
        (conv.inputCount() > 3 && conv.input(3) != nullptr && w_zero == nullptr)) {
      return false;
    }
    KernelContext ctx = run.context(conv);
    Result<ops::nn::ConvShape> shape = ops::nn::convShape(ctx, x->shape(), weights->shape());
    if (!shape) return false;
    const size_t outputs = static_cast<size_t>(shape->outputs);
    const std::vector<float> scales =
        perChannel(run.tensor(otherOperand(*group_.scale, group_.cast->output(0))), outputs);
    std::vector<float> biases;
    if (group_.bias != nullptr) {
      biases = perChannel(run.tensor(otherOperand(*group_.bias, group_.scale->output(0))), outputs);
      if (biases.empty()) return false;
    }
    if (scales.empty()) return false;
    std::vector<int64_t> dims = {shape->batch, shape->outputs};
    dims.insert(dims.end(), shape->window.columns.begin(), shape->window.columns.end());
    Result<Array> made = Array::allocate(ElementType::kFloat, dims);
    if (!made) return made.status();
    Array y = std::move(*made);
    float* all_out = y.data<float>();
    const size_t columns = shape->window.columnVolume();
    const bool relu = group_.relu != nullptr;
    IntegerConvolutionCall call{.shape = &*shape,
                                .x = x,
                                .x_zero = x_zero,
                                .weights = weights,
                                .weights_fixed = weights_fixed_,
                                .w_zero = w_zero,
                                .threads = run.host().threads(),
                                .tier = run.host().cpuTier(),
                                .ctx = &ctx};
    Result<bool> ran = convolution_.runInto(call, [&](const ops::nn::IntegerSumsTile& tile) {
      const size_t width = tile.end - tile.begin;
      for (size_t m = 0; m < tile.outputs; ++m) {
        const size_t channel = tile.first_output + m;
        const float scale = scales[channel];
        const int32_t* __restrict sums = tile.sums + m * tile.ld;
        float* __restrict out = all_out + (tile.image * outputs + channel) * columns + tile.begin;
        // As the nodes compute: Cast, Mul, Add, Relu (select, as the Relu kernel's).
        for (size_t j = 0; j < width; ++j) out[j] = static_cast<float>(sums[j]) * scale;
        if (!biases.empty()) {
          const float bias = biases[channel];
          for (size_t j = 0; j < width; ++j) out[j] = out[j] + bias;
        }
        if (relu) {
          for (size_t j = 0; j < width; ++j) out[j] = out[j] < 0.0f ? 0.0f : out[j];
        }
      }
    });
    if (!ran) return ran.status();
    if (!*ran) return false;
    run.write(output(), std::move(y), false);
    return true;
  }

 private:
  std::unique_ptr<FusedStep> fresh() const override {
    return std::make_unique<DynamicConvolutionStep>(group_, weights_fixed_);
  }

  DynamicConvolution group_;
  bool weights_fixed_;
  IntegerConvolution convolution_;
};

class DynamicConvolutionPattern final : public FusionPattern {
 public:
  std::string_view name() const override { return "dynamically quantized convolution"; }

  std::optional<FusionMatch> match(const Node& anchor, const FusionGraph& graph) const override {
    if (!isStandardOperator(anchor, "ConvInteger") || anchor.inputCount() < 2 ||
        anchor.input(0) == nullptr || anchor.input(1) == nullptr || anchor.outputCount() != 1 ||
        anchor.output(0) == nullptr) {
      return std::nullopt;
    }
    DynamicConvolution group;
    group.conv = &anchor;
    group.cast = soleReaderOf(anchor.output(0), "Cast", graph);
    if (group.cast == nullptr) return std::nullopt;
    const Attribute* to = group.cast->attribute("to");
    if (to == nullptr || to->i.value_or(0) != static_cast<int64_t>(ElementType::kFloat)) {
      return std::nullopt;
    }
    group.scale = soleReaderOf(group.cast->output(0), "Mul", graph);
    if (group.scale == nullptr || otherOperand(*group.scale, group.cast->output(0)) == nullptr) {
      return std::nullopt;
    }
    group.last = group.scale;
    if (const Node* add = soleReaderOf(group.last->output(0), "Add", graph);
        add != nullptr && otherOperand(*add, group.last->output(0)) != nullptr) {
      group.bias = add;
      group.last = add;
    }
    if (const Node* relu = soleReaderOf(group.last->output(0), "Relu", graph);
        relu != nullptr && relu->inputCount() == 1) {
      group.relu = relu;
      group.last = relu;
    }
    FusionMatch match;
    for (const Node* member : {group.conv, group.cast, group.scale, group.bias, group.relu}) {
      if (member != nullptr) match.members.push_back(member);
    }
    match.step = std::make_unique<DynamicConvolutionStep>(
        group, graph.fixedTensor(anchor.input(1)) != nullptr);
    return match;
  }
};

}  // namespace

const FusionPattern& dynamicConvolutionPattern() {
  return soleInstance<DynamicConvolutionPattern>();
}

}  // namespace onyx::eval_internal
