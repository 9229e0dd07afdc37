// The QDQ matrix product: DequantizeLinear -> MatMul -> QuantizeLinear, as static quantizers
// write it, run as one int8 product (kernels/quantized_matmul.h) on the quantized operands,
// giving the quantized output. b is int8 weights through a DequantizeLinear of constants (a
// scale per column, zero points 0), or an activation quantized as a whole (attention's two
// products). As for the QDQ convolution (qdq_convolution.cc): a DequantizeLinear
// others read stays out, and what the kernel cannot take declines at the first run, for good.
#include <optional>
#include <vector>

#include "eval/fusions/quantized_operands.h"
#include "eval/kernels/quantized_matmul.h"
#include "onyx/ir/node.h"
#include "onyx/ir/opset_imports.h"

namespace onyx::eval_internal {

namespace {

struct QdqMatMul {
  const Node* matmul = nullptr;
  const Node* a_dequantize = nullptr;
  const Node* b_dequantize = nullptr;
  bool b_constant = false;  // weights: scales per column
  const Node* quantize = nullptr;
};

class QdqMatMulStep final : public FusedStep {
 public:
  explicit QdqMatMulStep(QdqMatMul group) : group_(group) {}

  const Value* output() const override { return group_.quantize->output(0); }
  bool bypasses(const Value* value) const override {
    return value == group_.a_dequantize->output(0) || value == group_.b_dequantize->output(0);
  }

  Result<bool> run(StepRun& run) override {
    if (!usable_) usable_ = prepare(run);
    if (!*usable_) return false;
    const Array* a = run.tensor(group_.a_dequantize->input(0));
    const Array* b = run.tensor(group_.b_dequantize->input(0));
    if (a == nullptr || b == nullptr || a->type() != a_.type || b->type() != b_.type) return false;
    KernelContext ctx = run.context(*group_.matmul);
    QuantizedMatMulCall call{.a = a,
                             .a_scale = a_.scale,
                             .a_zero = a_.zero,
                             .b = b,
                             .b_fixed = group_.b_constant,
                             .b_scales = b_scales_,
                             .b_zero = b_.zero,
                             .y_scale = y_.scale,
                             .y_zero = y_.zero,
                             .y_type = y_.type,
                             .threads = run.host().threads(),
                             .tier = run.host().cpuTier(),
                             .ctx = &ctx};
    Result<std::optional<Array>> result = product_.run(call);
    if (!result) return result.status();
    if (!*result) return false;
    run.write(output(), std::move(**result), false);
    return true;
  }

 private:
  std::unique_ptr<FusedStep> fresh() const override {
    return std::make_unique<QdqMatMulStep>(group_);
  }

  // Reads the constants once: false (for good) when the kernel cannot take them.
  bool prepare(StepRun& run) {
    std::optional<TensorQuantization> a = tensorQuantization(run, *group_.a_dequantize);
    std::optional<TensorQuantization> y = tensorQuantization(run, *group_.quantize);
    const Array* b = run.tensor(group_.b_dequantize->input(0));
    if (!a || !y || b == nullptr || b->rank() < 2) return false;
    if (group_.b_constant) {
      std::optional<std::vector<float>> scales =
          weightScales(run, *group_.b_dequantize, static_cast<size_t>(b->shape().back()),
                       static_cast<int64_t>(b->rank()) - 1, b->rank());
      if (!scales) return false;
      b_ = TensorQuantization{.scale = 1, .zero = 0, .type = ElementType::kInt8};
      b_scales_ = std::move(*scales);
    } else {
      std::optional<TensorQuantization> quantization =
          tensorQuantization(run, *group_.b_dequantize);
      if (!quantization) return false;
      b_ = *quantization;
      b_scales_ = {b_.scale};
    }
    a_ = *a;
    y_ = *y;
    return true;
  }

  QdqMatMul group_;
  std::optional<bool> usable_;  // whether its constants suit the kernel, from the first run
  TensorQuantization a_, b_, y_;
  std::vector<float> b_scales_;
  QuantizedMatMul product_;
};

class QdqMatMulPattern final : public FusionPattern {
 public:
  std::string_view name() const override { return "QDQ matrix product"; }

  std::optional<FusionMatch> match(const Node& anchor, const FusionGraph& graph) const override {
    if (!isStandardOperator(anchor, "MatMul") || anchor.inputCount() != 2 ||
        anchor.outputCount() != 1 || anchor.output(0) == nullptr) {
      return std::nullopt;
    }
    QdqMatMul group;
    group.matmul = &anchor;
    group.a_dequantize = quantizationNode(anchor.input(0), "DequantizeLinear", graph);
    group.b_dequantize = quantizationNode(anchor.input(1), "DequantizeLinear", graph);
    std::optional<QuantizedOutput> output = quantizedOutput(anchor, graph, false);
    if (group.a_dequantize == nullptr || group.b_dequantize == nullptr || !output) {
      return std::nullopt;
    }
    group.b_constant = graph.constant(group.b_dequantize->input(0));
    group.quantize = output->quantize;
    FusionMatch match;
    takeDequantize(group.a_dequantize, anchor, graph, match);
    if (group.b_dequantize != group.a_dequantize) {
      takeDequantize(group.b_dequantize, anchor, graph, match);
    }
    takeOutput(anchor, *output, match);
    match.step = std::make_unique<QdqMatMulStep>(group);
    return match;
  }
};

}  // namespace

const FusionPattern& qdqMatMulPattern() { return soleInstance<QdqMatMulPattern>(); }

}  // namespace onyx::eval_internal
