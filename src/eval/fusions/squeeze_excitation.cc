// Squeeze-excitation, as MobileNetV3 and EfficientNet exporters write it: a
// GlobalAveragePool of x, a 1x1 Conv, an activation, a second 1x1 Conv, a gate (HardSigmoid
// or Sigmoid), and the Mul of x by the gate, channel by channel. One step reads x in either
// layout and writes the product in the plan's layout, so the convolution chains around it
// stay channels-last; the two convolutions of a 1x1 image are matrix-vector products.
#include <cmath>

#include "eval/fusions/convolution_chain.h"
#include "eval/fusions/fusion_pattern.h"
#include "onyx/ir/attribute.h"
#include "onyx/ir/node.h"
#include "ops/kernels.h"
#include "ops/matrix_multiply.h"

namespace onyx::eval_internal {

namespace {

enum class Gate { kRelu, kHardSigmoid, kSigmoid };

struct Activation {
  Gate gate = Gate::kRelu;
  float alpha = 0;
  float beta = 0;

  float operator()(float x) const {
    switch (gate) {
      case Gate::kRelu: return x < 0.0f ? 0.0f : x;
      case Gate::kHardSigmoid: return std::fmax(0.0f, std::fmin(1.0f, alpha * x + beta));
      case Gate::kSigmoid: return 1.0f / (1.0f + std::exp(-x));
    }
    return x;
  }
};

std::optional<Activation> activationOf(const Node& node) {
  if (!singleInOut(node) || node.inputCount() != 1) return std::nullopt;
  if (isStandardOperator(node, "Relu")) return Activation{Gate::kRelu};
  if (isStandardOperator(node, "Sigmoid")) return Activation{Gate::kSigmoid};
  if (isStandardOperator(node, "HardSigmoid")) {
    const Attribute* alpha = node.attribute("alpha");
    const Attribute* beta = node.attribute("beta");
    return Activation{Gate::kHardSigmoid, alpha != nullptr ? alpha->f.value_or(0.2f) : 0.2f,
                      beta != nullptr ? beta->f.value_or(0.5f) : 0.5f};
  }
  return std::nullopt;
}

// A Conv whose window cannot matter on a 1x1 image: no pads, group 1.
bool pointwiseConv(const Node& node, const FusionGraph& graph) {
  if (!isStandardOperator(node, "Conv") || node.inputCount() < 2 || node.outputCount() != 1 ||
      node.output(0) == nullptr || !graph.constant(node.input(1)) ||
      (node.inputCount() > 2 && node.input(2) != nullptr && !graph.constant(node.input(2)))) {
    return false;
  }
  for (const Attribute* attribute : node.attributes) {
    std::string_view name = attribute->nameOrEmpty();
    bool harmless = name == "kernel_shape" || name == "strides" || name == "dilations" ||
                    (name == "group" && attribute->i.value_or(1) == 1) ||
                    (name == "auto_pad" && attribute->s.value_or("NOTSET") == "NOTSET") ||
                    (name == "pads" && std::all_of(attribute->ints.begin(), attribute->ints.end(),
                                                   [](int64_t pad) { return pad == 0; }));
    if (!harmless) return false;
  }
  return true;
}

class SqueezeExcitationStep final : public FusedStep {
 public:
  SqueezeExcitationStep(const Node& pool, const Node& reduce, Activation inner, const Node& expand,
                        Activation gate, const Node& mul)
      : pool_(pool), reduce_(reduce), inner_(inner), expand_(expand), gate_(gate), mul_(mul) {}

  const Value* output() const override { return mul_.output(0); }
  FormSet takes(const Value* value) const override {
    return value == pool_.input(0) ? kChannelsLast : 0;
  }
  FormSet mayGive() const override { return kChannelsLast; }

  Result<bool> run(StepRun& run) override {
    const Value* x_value = pool_.input(0);
    const Array* x = run.tensor(x_value);
    const Array* w1 = run.tensor(reduce_.input(1));
    const Array* w2 = run.tensor(expand_.input(1));
    const Array* b1 = reduce_.inputCount() > 2 ? run.tensor(reduce_.input(2)) : nullptr;
    const Array* b2 = expand_.inputCount() > 2 ? run.tensor(expand_.input(2)) : nullptr;
    if (x == nullptr || w1 == nullptr || w2 == nullptr || x->type() != ElementType::kFloat ||
        x->rank() != 4 || !matrix(w1) || !matrix(w2)) {
      return false;
    }
    bool x_last = run.channelsLast(x_value);
    int64_t n = x->dim(0), c = x_last ? x->dim(3) : x->dim(1);
    int64_t pixels = x_last ? x->dim(1) * x->dim(2) : x->dim(2) * x->dim(3);
    int64_t m = w1->dim(0);
    if (w1->dim(1) != c || w2->dim(0) != c || w2->dim(1) != m || !vector(b1, m) || !vector(b2, c) ||
        pixels == 0) {
      return false;
    }
    KernelContext ctx = run.context(mul_);
    const float* in = x->data<float>();
    std::vector<float> scale(static_cast<size_t>(n * c));
    std::vector<float> mean(static_cast<size_t>(c));
    std::vector<float> hidden(static_cast<size_t>(m));
    for (int64_t b = 0; b < n; ++b) {
      const float* image = in + b * c * pixels;
      std::fill(mean.begin(), mean.end(), 0.0f);
      if (x_last) {
        for (int64_t p = 0; p < pixels; ++p) {
          for (int64_t k = 0; k < c; ++k) mean[size_t(k)] += image[p * c + k];
        }
      } else {
        for (int64_t k = 0; k < c; ++k) {
          float sum = 0.0f;
          for (int64_t p = 0; p < pixels; ++p) sum += image[k * pixels + p];
          mean[size_t(k)] = sum;
        }
      }
      for (float& value : mean) value /= static_cast<float>(pixels);
      multiply(ctx, *w1, b1, mean.data(), hidden.data(), m, c, inner_);
      multiply(ctx, *w2, b2, hidden.data(), scale.data() + b * c, c, m, gate_);
    }
    bool out_last = writesChannelsLast();
    std::vector<int64_t> shape = x->shape();
    if (out_last != x_last) {
      shape = out_last ? std::vector<int64_t>{shape[0], shape[2], shape[3], shape[1]}
                       : std::vector<int64_t>{shape[0], shape[3], shape[1], shape[2]};
    }
    Array y(ElementType::kFloat, shape);
    float* out = y.data<float>();
    // Each element written once: the same bits on any thread count.
    size_t channels = size_t(c), area = size_t(pixels);
    ops::parallelFor(ctx, size_t(n) * area, 1024, [&](size_t begin, size_t end) {
      for (size_t at = begin; at < end; ++at) {
        size_t b = at / area, p = at % area;
        const float* s = scale.data() + b * channels;
        size_t image = b * channels * area;
        if (x_last && out_last) {
          const float* from = in + image + p * channels;
          float* to = out + image + p * channels;
          for (size_t k = 0; k < channels; ++k) to[k] = from[k] * s[k];
        } else if (x_last) {
          const float* from = in + image + p * channels;
          for (size_t k = 0; k < channels; ++k) out[image + k * area + p] = from[k] * s[k];
        } else if (out_last) {
          float* to = out + image + p * channels;
          for (size_t k = 0; k < channels; ++k) to[k] = in[image + k * area + p] * s[k];
        } else {
          for (size_t k = 0; k < channels; ++k) {
            out[image + k * area + p] = in[image + k * area + p] * s[k];
          }
        }
      }
    });
    run.write(output(), std::move(y), out_last);
    return true;
  }

 private:
  std::unique_ptr<FusedStep> fresh() const override {
    return std::make_unique<SqueezeExcitationStep>(pool_, reduce_, inner_, expand_, gate_, mul_);
  }

  static bool matrix(const Array* w) {
    return w->type() == ElementType::kFloat && w->rank() == 4 && w->dim(2) == 1 && w->dim(3) == 1;
  }
  static bool vector(const Array* b, int64_t size) {
    return b == nullptr || (b->type() == ElementType::kFloat && b->size() == size_t(size));
  }
  // to = f(w · from + bias), w of shape (rows, columns, 1, 1), through the evaluator's
  // matrix product (a scalar loop could not vectorise the sum).
  static void multiply(const KernelContext& ctx, const Array& w, const Array* bias,
                       const float* from, float* to, int64_t rows, int64_t columns, Activation f) {
    for (int64_t r = 0; r < rows; ++r) to[r] = bias != nullptr ? bias->data<float>()[r] : 0.0f;
    ops::multiplyFloat(ctx, false, false, size_t(rows), 1, size_t(columns), 1.0f, w.data<float>(),
                       size_t(columns), from, 1, 1.0f, to, 1);
    for (int64_t r = 0; r < rows; ++r) to[r] = f(to[r]);
  }

  const Node& pool_;
  const Node& reduce_;
  Activation inner_;
  const Node& expand_;
  Activation gate_;
  const Node& mul_;
};

class SqueezeExcitationPattern final : public FusionPattern {
 public:
  std::string_view name() const override { return "squeeze-excitation"; }
  std::optional<FusionMatch> match(const Node& anchor, const FusionGraph& graph) const override {
    if (!isStandardOperator(anchor, "GlobalAveragePool") || !singleInOut(anchor)) {
      return std::nullopt;
    }
    const Value* x = anchor.input(0);
    const Node* reduce = next(anchor, graph);
    if (reduce == nullptr || !pointwiseConv(*reduce, graph) || reduce->input(0) != anchor.output(0))
      return std::nullopt;
    const Node* inner = next(*reduce, graph);
    std::optional<Activation> inner_activation;
    if (inner != nullptr) inner_activation = activationOf(*inner);
    if (!inner_activation) return std::nullopt;
    const Node* expand = next(*inner, graph);
    if (expand == nullptr || !pointwiseConv(*expand, graph) || expand->input(0) != inner->output(0))
      return std::nullopt;
    const Node* gate = next(*expand, graph);
    std::optional<Activation> gate_activation;
    if (gate != nullptr) gate_activation = activationOf(*gate);
    if (!gate_activation || gate_activation->gate == Gate::kRelu) return std::nullopt;
    const Node* mul = next(*gate, graph);
    if (mul == nullptr || !isStandardOperator(*mul, "Mul") || mul->inputCount() != 2 ||
        mul->outputCount() != 1 || mul->output(0) == nullptr ||
        !((mul->input(0) == x && mul->input(1) == gate->output(0)) ||
          (mul->input(1) == x && mul->input(0) == gate->output(0)))) {
      return std::nullopt;
    }
    FusionMatch match;
    match.members = {&anchor, reduce, inner, expand, gate, mul};
    match.step = std::make_unique<SqueezeExcitationStep>(anchor, *reduce, *inner_activation,
                                                         *expand, *gate_activation, *mul);
    return match;
  }

 private:
  static const Node* next(const Node& node, const FusionGraph& graph) {
    const Node* reader = graph.soleReader(node.output(0));
    return reader != nullptr && !graph.fused(*reader) ? reader : nullptr;
  }
};

}  // namespace

const FusionPattern& squeezeExcitationPattern() { return soleInstance<SqueezeExcitationPattern>(); }

}  // namespace onyx::eval_internal
