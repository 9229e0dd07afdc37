// A float MatMul by weights that a DequantizeLinear of constants gives: int4, uint4, int8 or
// uint8 codes, in blocks along the depth (opset 21's block_size, axis 0), per column (axis 1)
// or per tensor, with float scales. The product reads the codes packed as the model holds
// them, laid out in tiles once per process (kernels/block_quantized_matmul.h), whose pages of
// the model's file it then lets go of: the DequantizeLinear never runs, and its weights are
// never widened to floats, nor to the one byte per element an INT4 array takes (the plan
// leaves the codes unconverted, FusedStep::readsBytes).
//
// The weights must be 2-D, [depth, columns]; the other input any float of depth elements a
// row. A DequantizeLinear that other nodes read too stays out of the group and runs for them.
// What the kernel cannot take (another input type, codes whose bytes cannot be viewed) runs
// on the codes' array, or declines at the first run for good.
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/sole_instance.h"
#include "eval/fusions/fusion_pattern.h"
#include "eval/fusions/quantized_operands.h"
#include "eval/kernels/block_quantized_int8_matmul.h"
#include "eval/kernels/block_quantized_matmul.h"
#include "eval/kernels/shared_preparation.h"
#include "onyx/core/array_elements.h"
#include "onyx/core/mapped_file.h"
#include "onyx/ir/node.h"
#include "onyx/ir/opset_imports.h"
#include "onyx/ir/tensor_data.h"

namespace onyx::eval_internal {

namespace {

// The blocking of a DequantizeLinear of weights [depth, columns], from its attributes and
// its scale's shape as the model declares them.
struct WeightsLayout {
  size_t depth = 0;
  size_t columns = 0;
  size_t block = 0;  // rows per scale; depth: a scale per column or for the whole tensor
  bool per_tensor = false;
};

std::optional<WeightsLayout> weightsLayout(const Node& dequantize, const Tensor& codes,
                                           const Tensor& scale) {
  if (codes.dims.size() != 2 || codes.dims[0] <= 0 || codes.dims[1] <= 0) return std::nullopt;
  WeightsLayout layout{.depth = static_cast<size_t>(codes.dims[0]),
                       .columns = static_cast<size_t>(codes.dims[1])};
  const Attribute* block_attribute = dequantize.attribute("block_size");
  const int64_t block = block_attribute != nullptr ? block_attribute->i.value_or(0) : 0;
  const Attribute* axis_attribute = dequantize.attribute("axis");
  int64_t axis = axis_attribute != nullptr ? axis_attribute->i.value_or(1) : 1;
  if (axis < 0) axis += 2;
  size_t scale_elements = 1;
  for (int64_t dim : scale.dims) scale_elements *= static_cast<size_t>(std::max<int64_t>(dim, 0));
  if (block > 0) {
    const size_t blocks =
        (layout.depth + static_cast<size_t>(block) - 1) / static_cast<size_t>(block);
    if (axis != 0 || scale.dims.size() != 2 || static_cast<size_t>(scale.dims[0]) != blocks ||
        static_cast<size_t>(scale.dims[1]) != layout.columns) {
      return std::nullopt;
    }
    layout.block = static_cast<size_t>(block);
    return layout;
  }
  layout.block = layout.depth;
  if (scale.dims.empty() || (scale.dims.size() == 1 && scale_elements == 1)) {
    layout.per_tensor = true;
    return layout;
  }
  if (axis != 1 || scale.dims.size() != 1 || scale_elements != layout.columns) return std::nullopt;
  return layout;
}

bool quantizedCodes(ElementType type) {
  return type == ElementType::kInt4 || type == ElementType::kUint4 || type == ElementType::kInt8 ||
         type == ElementType::kUint8;
}

struct DequantizedWeights {
  const Node* matmul = nullptr;
  const Node* dequantize = nullptr;
  const Tensor* codes = nullptr;
  WeightsLayout layout;
  bool int8_activations = false;  // EvalOptions::int8_activations
};

class DequantizedWeightsMatMulStep final : public FusedStep {
 public:
  explicit DequantizedWeightsMatMulStep(DequantizedWeights group) : group_(group) {}

  const Value* output() const override { return group_.matmul->output(0); }
  bool bypasses(const Value* value) const override { return value == group_.dequantize->output(0); }
  bool readsBytes(const Value* value) const override {
    return value == group_.dequantize->input(0);
  }

  Result<bool> run(StepRun& run) override {
    if (!usable_) usable_ = prepare(run);
    if (!*usable_) return false;
    const Array* a = run.tensor(group_.matmul->input(0));
    if (a == nullptr || a->type() != ElementType::kFloat || a->rank() == 0 ||
        static_cast<size_t>(a->shape().back()) != group_.layout.depth) {
      return false;
    }
    std::vector<int64_t> shape = a->shape();
    shape.back() = static_cast<int64_t>(group_.layout.columns);
    Result<Array> made = Array::allocate(ElementType::kFloat, shape);
    if (!made) return made.status();
    KernelContext ctx = run.context(*group_.matmul);
    const size_t rows = a->size() / group_.layout.depth;
    if (quads_ != nullptr) {
      int8InputProduct(ctx, a->data<float>(), rows, *quads_, made->data<float>());
    } else {
      blockQuantizedProduct(ctx, a->data<float>(), rows, tiled_->layout, made->data<float>());
    }
    run.write(output(), std::move(*made), false);
    return true;
  }

 private:
  std::unique_ptr<FusedStep> fresh() const override {
    return std::make_unique<DequantizedWeightsMatMulStep>(group_);
  }

  // Reads the codes, scales and zero points once, into the tiles the kernel reads (made once
  // per process: sessions of one model share them): false (for good) when the kernel cannot
  // take them.
  bool prepare(StepRun& run) {
    const Node& dequantize = *group_.dequantize;
    const WeightsLayout& layout = group_.layout;
    const auto type = static_cast<ElementType>(group_.codes->data_type.value_or(0));
    const bool four_bits = type == ElementType::kInt4 || type == ElementType::kUint4;
    BlockQuantizedWeights weights{
        .bits = four_bits ? 4 : 8,
        .signed_codes = type == ElementType::kInt4 || type == ElementType::kInt8,
        .depth = layout.depth,
        .columns = layout.columns,
        .block = layout.block};
    const size_t elements = layout.depth * layout.columns;
    BytesSource codes;
    Result<TensorBytes> bytes = rawBytes(*group_.codes);
    if (bytes && bytes->isView() &&
        bytes->bytes().size() == (four_bits ? (elements + 1) / 2 : elements)) {
      // A view of the model's bytes, which their owner keeps.
      codes = {.bytes = std::as_bytes(std::span(bytes->bytes())), .owner = run.modelBytes()};
    } else {
      // Codes in a typed field: their array, one (sign-extended) byte per element.
      const Array* array = run.tensor(dequantize.input(0));
      if (array == nullptr || array->size() != elements) return false;
      codes = {.bytes = array->bytes(), .owner = std::make_shared<Array>(*array)};
      weights.bits = 8;
    }
    weights.codes = reinterpret_cast<const uint8_t*>(codes.bytes.data());
    const Array* scale = run.tensor(dequantize.input(1));
    if (scale == nullptr || scale->type() != ElementType::kFloat) return false;
    const size_t blocks = (layout.depth + layout.block - 1) / layout.block;
    std::vector<float> scales;  // a per-tensor scale, once per column
    if (layout.per_tensor) {
      if (scale->size() != 1) return false;
      scales.assign(layout.columns, scale->data<float>()[0]);
      weights.scales = scales.data();
    } else {
      if (scale->size() != blocks * layout.columns) return false;
      weights.scales = scale->data<float>();
    }
    const Value* zero = dequantize.inputCount() > 2 ? dequantize.input(2) : nullptr;
    const Array* points = zero != nullptr ? run.tensor(zero) : nullptr;
    std::vector<float> zeros;
    if (zero != nullptr) {
      if (points == nullptr || points->type() != type ||
          points->size() != (layout.per_tensor ? 1 : blocks * layout.columns)) {
        return false;
      }
      zeros.resize(blocks * layout.columns);
      for (size_t i = 0; i < zeros.size(); ++i) {
        zeros[i] = static_cast<float>(elementAsDouble(*points, layout.per_tensor ? 0 : i));
      }
      weights.zeros = zeros.data();
    }
    const std::string recipe =
        "block-quantized weights in tiles: " + std::to_string(weights.bits) + " bits" +
        (weights.signed_codes ? " signed" : "") + ", [" + std::to_string(layout.depth) + ", " +
        std::to_string(layout.columns) + "] in blocks of " + std::to_string(layout.block);
    // The tiles (or quads) are all the kernel reads: the pages of the scales (when they lie in
    // a mapped file, as the codes' do, which laying them out lets go of) need not stay
    // resident.
    const auto release_scales = [&] {
      const std::span<const std::byte> scale_bytes = scale->bytes();
      MappedFile::releasePagesOf(
          std::string_view(reinterpret_cast<const char*>(scale_bytes.data()), scale_bytes.size()));
    };
    if (group_.int8_activations && quadsTake(weights, run.host().cpuTier())) {
      quads_ = sharedPreparation<QuadBlockQuantizedWeights>(
          codes, {scale, points}, recipe + ", in quads",
          [&]() -> std::optional<QuadBlockQuantizedWeights> {
            QuadBlockQuantizedWeights made = quadBlockQuantizedWeights(weights);
            release_scales();
            return made;
          });
      return quads_ != nullptr;
    }
    tiled_ = sharedPreparation<TiledBlockQuantizedWeights>(
        codes, {scale, points}, recipe, [&]() -> std::optional<TiledBlockQuantizedWeights> {
          TiledBlockQuantizedWeights made = tileBlockQuantizedWeights(weights);
          release_scales();
          return made;
        });
    return tiled_ != nullptr;
  }

  DequantizedWeights group_;
  std::optional<bool> usable_;  // whether the kernel takes its constants, from the first run
  std::shared_ptr<const TiledBlockQuantizedWeights> tiled_;
  std::shared_ptr<const QuadBlockQuantizedWeights> quads_;  // rounding inputs to int8
};

class DequantizedWeightsMatMulPattern final : public FusionPattern {
 public:
  std::string_view name() const override { return "dequantized weights matrix product"; }

  std::optional<FusionMatch> match(const Node& anchor, const FusionGraph& graph) const override {
    if (!isStandardOperator(anchor, "MatMul") || anchor.inputCount() != 2 ||
        anchor.input(0) == nullptr || anchor.input(1) == nullptr || anchor.outputCount() != 1 ||
        anchor.output(0) == nullptr) {
      return std::nullopt;
    }
    const Node* dequantize = anchor.input(1)->producer();
    if (dequantize == nullptr || !isStandardOperator(*dequantize, "DequantizeLinear") ||
        graph.fused(*dequantize) || dequantize->inputCount() < 2 ||
        dequantize->outputCount() != 1 || anchor.input(0) == anchor.input(1)) {
      return std::nullopt;
    }
    const Tensor* codes = graph.fixedTensor(dequantize->input(0));
    const Tensor* scale = graph.fixedTensor(dequantize->input(1));
    const Value* zero = dequantize->inputCount() > 2 ? dequantize->input(2) : nullptr;
    const Attribute* output_type = dequantize->attribute("output_dtype");
    if (output_type != nullptr && output_type->i.value_or(0) != 0 &&
        output_type->i.value_or(0) != static_cast<int64_t>(ElementType::kFloat)) {
      return std::nullopt;
    }
    if (codes == nullptr || scale == nullptr || (zero != nullptr && !graph.constant(zero)) ||
        !quantizedCodes(static_cast<ElementType>(codes->data_type.value_or(0)))) {
      return std::nullopt;
    }
    std::optional<WeightsLayout> layout = weightsLayout(*dequantize, *codes, *scale);
    if (!layout) return std::nullopt;
    FusionMatch match;
    takeDequantize(dequantize, anchor, graph, match);
    match.members.push_back(&anchor);
    match.step = std::make_unique<DequantizedWeightsMatMulStep>(
        DequantizedWeights{.matmul = &anchor,
                           .dequantize = dequantize,
                           .codes = codes,
                           .layout = *layout,
                           .int8_activations = graph.int8Activations()});
    return match;
  }
};

}  // namespace

const FusionPattern& dequantizedWeightsMatMulPattern() {
  return soleInstance<DequantizedWeightsMatMulPattern>();
}

}  // namespace onyx::eval_internal
