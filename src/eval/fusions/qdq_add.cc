// The QDQ Add: DequantizeLinear of two quantized tensors -> Add [-> Relu] -> QuantizeLinear,
// as static quantizers leave a residual connection, run as one pass over the bytes
// (ops/quantization/quantize_floats.h, addQuantized): onnxruntime's QLinearAdd. It computes
// what the nodes compute, with the same float operations, so with the same bits. Operands of
// one shape (no broadcasting) and one type with the output, uint8 or int8, each with one
// scale and zero point; else the nodes run one by one. The operands' DequantizeLinears join
// the group when the Add alone reads them; else the step reads their quantized operands.
#include <optional>
#include <vector>

#include "eval/fusions/quantized_operands.h"
#include "eval/layout/channels_last_arrays.h"
#include "onyx/ir/node.h"
#include "onyx/ir/opset_imports.h"
#include "ops/lib/quantization_kernels.h"
#include "ops/quantization/quantize_floats.h"

namespace onyx::eval_internal {

namespace {

struct QdqAdd {
  std::array<const Node*, 2> dequantize{};
  const Node* relu = nullptr;
  const Node* quantize = nullptr;
};

class QdqAddStep final : public FusedStep {
 public:
  explicit QdqAddStep(QdqAdd group) : group_(group) {}

  const Value* output() const override { return group_.quantize->output(0); }
  FormSet takes(const Value* value) const override {
    for (const Node* dequantize : group_.dequantize) {
      if (value == dequantize->input(0) || value == dequantize->output(0)) return kChannelsLast;
    }
    return 0;
  }
  bool bypasses(const Value* value) const override {
    return value == group_.dequantize[0]->output(0) || value == group_.dequantize[1]->output(0);
  }
  FormSet mayGive() const override { return kChannelsLast; }

  Result<bool> run(StepRun& run) override {
    if (!usable_) usable_ = prepare(run);
    if (!*usable_) return false;
    const Value* a_value = group_.dequantize[0]->input(0);
    const Value* b_value = group_.dequantize[1]->input(0);
    const Array* a = run.tensor(a_value);
    const Array* b = run.tensor(b_value);
    if (a == nullptr || b == nullptr || a->type() != type_ || b->type() != type_) return false;
    // Both operands in one layout: a channels-last one made channels-first when the other
    // is not; the result in the layout the plan asked for.
    bool channels_last = run.channelsLast(a_value) && run.channelsLast(b_value);
    std::optional<Array> a_first, b_first;
    if (!channels_last && run.channelsLast(a_value)) a = &a_first.emplace(channelsFirst(*a));
    if (!channels_last && run.channelsLast(b_value)) b = &b_first.emplace(channelsFirst(*b));
    if (a->shape() != b->shape() || (writesChannelsLast() && !channels_last && a->rank() != 4)) {
      return false;
    }
    Result<Array> made = Array::allocate(type_, a->shape());
    if (!made) return false;
    Array out = std::move(*made);
    // Element by element, on the Add's threads.
    KernelContext ctx = run.context(*group_.quantize);
    ops::quant::forScaleRuns(ctx, a->size(), a->size(), [&](size_t begin, size_t count) {
      if (type_ == ElementType::kUint8) {
        ops::quant::addQuantized(a->data<uint8_t>() + begin, b->data<uint8_t>() + begin, count,
                                 how_, out.data<uint8_t>() + begin);
      } else {
        ops::quant::addQuantized(a->data<int8_t>() + begin, b->data<int8_t>() + begin, count, how_,
                                 out.data<int8_t>() + begin);
      }
    });
    if (writesChannelsLast() && !channels_last) out = channelsLast(out);
    if (!writesChannelsLast() && channels_last) out = channelsFirst(out);
    run.write(output(), std::move(out), writesChannelsLast());
    return true;
  }

 private:
  std::unique_ptr<FusedStep> fresh() const override { return std::make_unique<QdqAddStep>(group_); }

  // Reads the scales and zero points once: false (for good) when they are not one each, of
  // one type.
  bool prepare(StepRun& run) {
    std::optional<TensorQuantization> a = tensorQuantization(run, *group_.dequantize[0]);
    std::optional<TensorQuantization> b = tensorQuantization(run, *group_.dequantize[1]);
    std::optional<TensorQuantization> y = tensorQuantization(run, *group_.quantize);
    if (!a || !b || !y || a->type != y->type || b->type != y->type) return false;
    type_ = y->type;
    how_ = {.a_scale = a->scale,
            .a_zero = static_cast<float>(a->zero),
            .b_scale = b->scale,
            .b_zero = static_cast<float>(b->zero),
            .y_scale = y->scale,
            .y_zero = static_cast<float>(y->zero),
            .relu = group_.relu != nullptr};
    return true;
  }

  QdqAdd group_;
  std::optional<bool> usable_;  // whether its constants suit the kernel, from the first run
  ElementType type_ = ElementType::kUint8;
  ops::quant::QuantizedAddition how_;
};

class QdqAddPattern final : public FusionPattern {
 public:
  std::string_view name() const override { return "QDQ Add"; }

  std::optional<FusionMatch> match(const Node& anchor, const FusionGraph& graph) const override {
    if (!isStandardOperator(anchor, "Add") || anchor.inputCount() != 2 ||
        anchor.outputCount() != 1 || anchor.output(0) == nullptr) {
      return std::nullopt;
    }
    QdqAdd group;
    for (size_t i = 0; i < 2; ++i) {
      group.dequantize[i] = quantizationNode(anchor.input(i), "DequantizeLinear", graph);
      if (group.dequantize[i] == nullptr) return std::nullopt;
    }
    if (group.dequantize[0] == group.dequantize[1]) return std::nullopt;
    std::optional<QuantizedOutput> output = quantizedOutput(anchor, graph, true);
    if (!output) return std::nullopt;
    group.relu = output->relu;
    group.quantize = output->quantize;
    FusionMatch match;
    takeDequantize(group.dequantize[0], anchor, graph, match);
    takeDequantize(group.dequantize[1], anchor, graph, match);
    takeOutput(anchor, *output, match);
    match.step = std::make_unique<QdqAddStep>(group);
    return match;
  }
};

}  // namespace

const FusionPattern& qdqAddPattern() { return soleInstance<QdqAddPattern>(); }

}  // namespace onyx::eval_internal
