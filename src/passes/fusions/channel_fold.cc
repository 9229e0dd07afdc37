#include "passes/fusions/channel_fold.h"

#include <algorithm>

#include "onyx/ir/editor.h"
#include "onyx/ir/tensor_array.h"
#include "onyx/ir/tensor_data.h"

namespace onyx::passes_internal {

namespace {

using ops::nn::ChannelLayout;

// The shape of `value` when every dim is a number (MatchContext::dimsOf).
std::optional<std::vector<int64_t>> knownShape(const Value* value, const MatchContext& context) {
  if (value == nullptr) return std::nullopt;
  std::optional<std::vector<Dimension>> dims = context.dimsOf(*value);
  if (!dims) return std::nullopt;
  std::vector<int64_t> shape;
  for (const Dimension& dim : *dims) {
    if (!dim.isKnown()) return std::nullopt;
    shape.push_back(*dim.dim_value);
  }
  return shape;
}

std::optional<Array> constantArray(const Value* value, const MatchContext& context) {
  const Tensor* tensor = context.constantOf(value);
  if (tensor == nullptr) return std::nullopt;
  Result<Array> array = arrayFromTensor(*tensor);
  if (!array) return std::nullopt;
  return std::move(*array);
}

std::optional<ChannelLayout> weightsLayout(const Node& node, std::span<const int64_t> shape) {
  std::string_view op = node.opType();
  if (op == "Conv") return ops::nn::convWeightsLayout(shape);
  if (op == "ConvTranspose") {
    return ops::nn::convTransposeWeightsLayout(shape, node.intAttr("group").value_or(1));
  }
  return ops::nn::gemmWeightsLayout(shape, node.intAttr("transB").value_or(0) != 0);
}

// The bias as a per-channel tensor with its layout: a Conv's (M), a Gemm's C of one element
// (made (N)), (N), (1, N) or (M, N).
std::optional<std::pair<Array, ChannelLayout>> biasOf(const Array& bias, int64_t channels) {
  if (bias.size() == 1 && channels != 1) {
    std::optional<std::vector<double>> one = ops::nn::perChannel(bias, channels);
    if (!one) return std::nullopt;
    Array expanded(bias.type(), {channels});
    if (bias.type() == ElementType::kFloat) {
      for (int64_t c = 0; c < channels; ++c)
        expanded.data<float>()[c] = static_cast<float>((*one)[c]);
    } else if (bias.type() == ElementType::kDouble) {
      for (int64_t c = 0; c < channels; ++c) expanded.data<double>()[c] = (*one)[c];
    } else {
      return std::nullopt;
    }
    return std::make_pair(std::move(expanded), ops::nn::biasLayout(1, channels));
  }
  if (bias.rank() == 0 || bias.rank() > 2 || bias.dim(bias.rank() - 1) != channels) {
    return std::nullopt;
  }
  int64_t rows = bias.rank() == 2 ? bias.dim(0) : 1;
  return std::make_pair(bias, ops::nn::biasLayout(rows, channels));
}

// Weights of this many bytes or more are computed from the old ones when read or written
// (ComputedBytes) rather than held: a model's weights are the bulk of it, and a model whose
// every layer folds a normalization would otherwise sit in memory twice. Below, computing
// them on every read would cost more than the memory saved.
constexpr uint64_t kComputedFrom = uint64_t{1} << 20;

// The old weights and the scale per output channel of weights computed on demand.
struct ScaledWeights {
  const Tensor* old;
  ElementType type;
  ChannelLayout layout;
  const double* scale;
  size_t channels;

  static Status compute(const void* state, uint64_t offset, std::span<std::byte> out) {
    const auto& self = *static_cast<const ScaledWeights*>(state);
    size_t element = self.type == ElementType::kFloat ? sizeof(float) : sizeof(double);
    std::span<const std::byte> from = out;
    TensorBytes old_bytes = TensorBytes::view({});
    if (tensorStorage(*self.old) == TensorStorage::kComputed) {
      // Weights scaled twice: the first scaling is computed into `out`, then mapped there.
      ONYX_RETURN_IF_ERROR(readRawBytes(*self.old, offset, out));
    } else {
      Result<TensorBytes> bytes = rawBytes(*self.old);
      if (!bytes) return std::move(bytes).takeStatus();
      old_bytes = std::move(*bytes);
      std::string_view all = old_bytes.bytes();
      if (offset > all.size() || out.size() > all.size() - offset) {
        return Status(ErrorCode::kInvalidArgument, "a read past the end of a tensor's bytes");
      }
      from = std::span<const std::byte>(reinterpret_cast<const std::byte*>(all.data()) + offset,
                                        out.size());
    }
    if (offset % element != 0 ||
        !ops::nn::mapChannelRange(self.type, from, out, self.layout, offset / element,
                                  std::span<const double>(self.scale, self.channels), {})) {
      return Status(ErrorCode::kInternal, "scaled weights computed out of their layout");
    }
    return Status::ok();
  }
};

// `old` with each output channel scaled: bytes computed on demand for large weights
// (kComputedFrom), written from the old bytes (a view of the mapped file for external
// data) straight into the model's arena otherwise. Null when the shapes or the element
// type do not fit.
Tensor* scaledWeights(const Node& node, const Tensor& old, const GraphEditor& edit,
                      std::span<const double> scale, int64_t channels) {
  std::vector<int64_t> shape(old.dims.begin(), old.dims.end());
  std::optional<ChannelLayout> layout = weightsLayout(node, shape);
  auto type = static_cast<ElementType>(old.data_type.value_or(0));
  if (!layout || layout->outputChannels() != channels ||
      (type != ElementType::kFloat && type != ElementType::kDouble)) {
    return nullptr;
  }
  size_t element = type == ElementType::kFloat ? sizeof(float) : sizeof(double);
  uint64_t size = static_cast<uint64_t>(layout->size()) * element;
  const ComputedBytes* old_computed = old.rare().computed;
  bool old_is_computed = tensorStorage(old) == TensorStorage::kComputed;
  Result<TensorBytes> bytes =
      old_is_computed ? Result<TensorBytes>(TensorBytes::view({})) : rawBytes(old);
  if (!bytes || (old_is_computed ? old_computed->size : bytes->bytes().size()) != size) {
    return nullptr;
  }
  Tensor* tensor = edit.arena().make<Tensor>();
  tensor->data_type = old.data_type;
  for (int64_t dim : shape) tensor->dims.values.push_back(edit.arena(), dim);
  if (size >= kComputedFrom || old_is_computed) {
    double* kept_scale = edit.arena().allocateArray<double>(scale.size());
    std::copy(scale.begin(), scale.end(), kept_scale);
    auto* state = edit.arena().make<ScaledWeights>(
        ScaledWeights{&old, type, *layout, kept_scale, scale.size()});
    edit.rare(tensor).computed =
        edit.arena().make<ComputedBytes>(ComputedBytes{size, &ScaledWeights::compute, state});
    return tensor;
  }
  std::string_view from = bytes->bytes();
  auto* to = static_cast<std::byte*>(edit.arena().allocate(std::max<size_t>(from.size(), 1), 64));
  if (!ops::nn::mapChannelBytes(
          type,
          std::span<const std::byte>(reinterpret_cast<const std::byte*>(from.data()), from.size()),
          std::span<std::byte>(to, from.size()), *layout, scale, {})) {
    return nullptr;
  }
  tensor->raw_data = std::string_view(reinterpret_cast<const char*>(to), from.size());
  return tensor;
}

}  // namespace

PatternNode weightedNode(Pattern& pattern, std::string_view op_type) {
  return pattern
      .op(op_type, {pattern.var("x"), pattern.var("weights"), pattern.var("bias").optional()})
      .anyOtherAttributes();
}

std::optional<Channels> channelsOf(const Node& node, const Value* weights,
                                   const MatchContext& context) {
  std::optional<std::vector<int64_t>> shape = knownShape(weights, context);
  if (!shape || shape->size() < 2) return std::nullopt;
  std::string_view op = node.opType();
  if (op == "Conv") return Channels{(*shape)[0], shape->size()};
  if (op == "ConvTranspose") {
    return Channels{(*shape)[1] * node.intAttr("group").value_or(1), shape->size()};
  }
  if ((op == "Gemm" || op == "MatMul") && shape->size() == 2) {
    bool transposed = node.intAttr("transB").value_or(0) != 0;
    return Channels{transposed ? (*shape)[0] : (*shape)[1], 2};
  }
  return std::nullopt;
}

bool broadcastsPerChannel(std::span<const int64_t> constant, const Channels& channels) {
  if (constant.size() > channels.output_rank) return false;
  size_t offset = channels.output_rank - constant.size();
  for (size_t a = 0; a < constant.size(); ++a) {
    bool channel_axis = a + offset == 1;
    if (constant[a] != 1 && !(channel_axis && constant[a] == channels.count)) return false;
  }
  return true;
}

std::optional<WeightedInputs> foldedInputs(const Node& node, WeightedInputs inputs,
                                           RewriteBuilder& builder, const MatchContext& context,
                                           std::span<const double> scale,
                                           std::span<const double> shift) {
  std::optional<Channels> channels = channelsOf(node, inputs.weights, context);
  if (!channels || channels->count <= 0) return std::nullopt;
  size_t count = static_cast<size_t>(channels->count);
  if ((!scale.empty() && scale.size() != count) || (!shift.empty() && shift.size() != count)) {
    return std::nullopt;
  }
  std::optional<int32_t> type = context.elemTypeOf(*inputs.weights);
  if (type != static_cast<int32_t>(ElementType::kFloat) &&
      type != static_cast<int32_t>(ElementType::kDouble)) {
    return std::nullopt;
  }
  // New weights when the scale is not 1.
  Tensor* new_weights = nullptr;
  if (!scale.empty()) {
    const Tensor* old = context.constantOf(inputs.weights);
    if (old == nullptr) return std::nullopt;
    new_weights = scaledWeights(node, *old, builder.editor(), scale, channels->count);
    if (new_weights == nullptr) return std::nullopt;
  }
  // The bias: b * beta * scale + shift (Gemm's beta goes into the new C, and becomes 1).
  double beta = node.opType() == "Gemm" ? node.floatAttr("beta").value_or(1.0f) : 1.0;
  std::optional<Array> new_bias;
  if (inputs.bias != nullptr) {
    std::optional<Array> old = constantArray(inputs.bias, context);
    if (!old) return std::nullopt;
    std::optional<std::pair<Array, ChannelLayout>> laid = biasOf(*old, channels->count);
    if (!laid) return std::nullopt;
    std::vector<double> bias_scale(count, beta);
    for (size_t c = 0; c < scale.size(); ++c) bias_scale[c] *= scale[c];
    new_bias = ops::nn::mapChannels(laid->first, laid->second, bias_scale, shift);
    if (!new_bias) return std::nullopt;
  } else if (!shift.empty()) {
    Array zeros(static_cast<ElementType>(*type), {channels->count});
    std::vector<double> ones(count, 1.0);
    std::fill(zeros.bytes().begin(), zeros.bytes().end(), std::byte{0});
    new_bias = ops::nn::mapChannels(zeros, ops::nn::biasLayout(1, channels->count), ones, shift);
    if (!new_bias) return std::nullopt;
  }
  WeightedInputs folded = inputs;
  if (new_weights != nullptr) {
    Result<Value*> made = builder.constant(new_weights, inputs.weights->name());
    if (!made) return std::nullopt;
    folded.weights = *made;
  }
  if (new_bias) {
    std::string_view hint = inputs.bias != nullptr ? inputs.bias->name() : std::string_view("bias");
    Result<Value*> made = builder.constant(*new_bias, hint);
    if (!made) return std::nullopt;
    folded.bias = *made;
  }
  return folded;
}

bool foldChannels(Node& node, RewriteBuilder& builder, const MatchContext& context,
                  std::span<const double> scale, std::span<const double> shift) {
  if (node.inputCount() < 2) return false;
  WeightedInputs inputs{node.input(1), node.inputCount() > 2 ? node.input(2) : nullptr};
  std::optional<WeightedInputs> folded = foldedInputs(node, inputs, builder, context, scale, shift);
  if (!folded) return false;
  if (folded->weights != inputs.weights) builder.setInput(node, 1, folded->weights);
  if (folded->bias != inputs.bias) {
    builder.setInput(node, 2, folded->bias);
    if (node.opType() == "Gemm" && node.floatAttr("beta").value_or(1.0f) != 1.0f) {
      builder.editor().setFloatAttr(&builder.attributesFor(node), "beta", 1.0f);
    }
  }
  return true;
}

}  // namespace onyx::passes_internal
