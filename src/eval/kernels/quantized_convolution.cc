#include "eval/kernels/quantized_convolution.h"

#include <dnnl.hpp>

#include <array>
#include <string>
#include <unordered_map>
#include <vector>

#include "eval/kernels/int8_operands.h"
#include "eval/kernels/onednn_primitive_cache.h"
#include "eval/kernels/onednn_support.h"
#include "eval/kernels/openmp_threads.h"
#include "eval/kernels/packed_integer_weights.h"
#include "eval/kernels/requantize.h"
#include "ops/kernels.h"

namespace onyx::eval_internal {

namespace {

using dnnl::memory;
using Tag = memory::format_tag;

// What the primitive was made for; a call with other sizes, types or epilogue makes a new
// one. The zero points are the primitive's run-time arguments; oneDNN 2.6 fixes a
// convolution's output scales when it makes it, so they are part of the key.
struct PrimitiveKey {
  std::array<int64_t, 4> x{};  // N, C, H, W
  std::array<int64_t, 4> w{};  // M, C / group, KH, KW
  int64_t group = 1;
  std::array<int64_t, 2> strides{}, dilations{}, pad_begin{}, pad_end{};
  bool x_signed = false, y_signed = false;
  bool x_zero = false, y_zero = false;  // whether a zero point is not 0
  bool per_channel = false;
  bool bias = false;
  bool relu = false;
  int threads = 1;
  std::vector<float> scales;  // x_scale * w_scale / y_scale, per output channel or one
  bool operator==(const PrimitiveKey&) const = default;
};

}  // namespace

// What each key binds beside the primitive.
struct QuantizedConvolutionBound {
  memory x_first, x_last, y_last, y_first, bias;
  memory x_zero, y_zero;  // the run-time arguments of the requantization
  std::optional<dnnl::reorder> input_to_channels_last, output_to_channels_first;
  std::optional<Array> x_scratch, y_scratch;
};

struct QuantizedConvolution::Cache
    : OneDnnPrimitiveCache<PrimitiveKey, dnnl::convolution_forward, QuantizedConvolutionBound> {};

QuantizedConvolution::QuantizedConvolution() = default;
QuantizedConvolution::~QuantizedConvolution() = default;

namespace {

// Below VNNI: the exact sums of onyx's own kernel (ops::nn::integerConvolutionTiles, on the
// Conv node's threads), channels-first in and out, each tile requantized as oneDNN's epilogue
// does (requantize.h) while it is in cache; the packed weights kept in `own_weights`.
Result<std::optional<Array>> ownProductsRequantized(const QuantizedConvolutionCall& call,
                                                    std::span<const float> scales,
                                                    PackedIntegerWeights& own_weights) {
  if (call.ctx == nullptr || call.x_channels_last || call.output_channels_last) {
    return notHandled();
  }
  const ops::nn::ConvShape& shape = *call.shape;
  std::vector<int64_t> dims = {shape.batch, shape.outputs};
  dims.insert(dims.end(), shape.window.columns.begin(), shape.window.columns.end());
  Result<Array> made = Array::allocate(call.y_type, dims);
  if (!made) return notHandled();
  Array y = std::move(*made);
  const size_t outputs = static_cast<size_t>(shape.outputs);
  const size_t columns = shape.window.columnVolume();
  const Requantization how{
      .scales = scales, .zero = call.y_zero, .type = call.y_type, .relu = call.relu};
  std::byte* all_out = y.bytes().data();
  const ops::nn::IntegerConvolutionWeights& weights =
      own_weights.get(shape, *call.weights, nullptr, call.weights_fixed, call.ctx->cpuTier());
  ops::nn::integerConvolutionTiles(
      *call.ctx, shape, *call.x, call.x_zero, weights,
      call.bias != nullptr ? call.bias->data<int32_t>() : nullptr, nullptr,
      [&](const ops::nn::IntegerSumsTile& tile) {
        std::byte* to = all_out + (tile.image * outputs + tile.first_output) * columns + tile.begin;
        requantize(tile.sums, tile.ld, tile.outputs, tile.end - tile.begin, tile.first_output, how,
                   to, columns);
      });
  return std::optional<Array>(std::move(y));
}

}  // namespace

Result<std::optional<Array>> QuantizedConvolution::run(const QuantizedConvolutionCall& call) {
  const ops::nn::ConvShape& s = *call.shape;
  const ops::nn::Window& window = s.window;
  if (window.rank() != 2 || call.x == nullptr || call.weights == nullptr ||
      !isByteType(call.x->type()) || call.weights->type() != ElementType::kInt8 ||
      !isByteType(call.y_type)) {
    return notHandled();
  }
  if (s.batch == 0 || s.channels == 0 || s.outputs == 0 || window.columnVolume() == 0) {
    return notHandled();
  }
  const int64_t n = s.batch, c = s.channels, m = s.outputs, g = s.group;
  const int64_t h = window.image[0], w = window.image[1];
  const int64_t oh = window.columns[0], ow = window.columns[1];
  const int64_t kh = window.kernel[0], kw = window.kernel[1];
  const size_t outputs = static_cast<size_t>(m);
  if ((call.w_scales.size() != 1 && call.w_scales.size() != outputs) ||
      (call.bias != nullptr &&
       (call.bias->type() != ElementType::kInt32 || call.bias->size() != outputs)) ||
      !(call.y_scale > 0)) {
    return notHandled();
  }
  // The requantization: x_scale * w_scale / y_scale, in float as onnxruntime computes it.
  std::vector<float> scales(call.w_scales.size());
  for (size_t i = 0; i < scales.size(); ++i) {
    scales[i] = call.x_scale * call.w_scales[i] / call.y_scale;
  }
  PrimitiveKey key{.x = {n, c, h, w},
                   .w = {m, c / g, kh, kw},
                   .group = g,
                   .strides = {window.strides[0], window.strides[1]},
                   .dilations = {window.dilations[0], window.dilations[1]},
                   .pad_begin = {window.pad_begin[0], window.pad_begin[1]},
                   .pad_end = {window.pad_end[0], window.pad_end[1]},
                   .x_signed = call.x->type() == ElementType::kInt8,
                   .y_signed = call.y_type == ElementType::kInt8,
                   .x_zero = call.x_zero != 0,
                   .y_zero = call.y_zero != 0,
                   .per_channel = call.w_scales.size() != 1,
                   .bias = call.bias != nullptr,
                   .relu = call.relu,
                   .threads = call.threads,
                   .scales = scales};
  if (!int8ProductsExact(call.tier)) {
    if (own_weights_ == nullptr) own_weights_ = std::make_unique<PackedIntegerWeights>();
    return ownProductsRequantized(call, scales, *own_weights_);
  }
  try {
    OpenMpThreads threads(call.threads);
    if (cache_ == nullptr) cache_ = std::make_unique<Cache>();
    Cache& cache = *cache_;
    const memory::data_type x_type = byteType(key.x_signed), y_type = byteType(key.y_signed);
    memory::desc x_last({n, c, h, w}, x_type, Tag::nhwc);
    memory::desc bias({m}, memory::data_type::s32, Tag::x);
    memory::desc y_last({n, m, oh, ow}, y_type, Tag::nhwc);
    Cache::Entry* entry = cache.find(
        key,
        [&](const dnnl::engine& engine) {
          memory::desc weights({m, c / g, kh, kw}, memory::data_type::s8, Tag::any);
          if (g > 1) {
            weights = memory::desc({g, m / g, c / g, kh, kw}, memory::data_type::s8, Tag::any);
          }
          dnnl::convolution_forward::desc description =
              convolutionDescription(x_last, weights, key.bias ? &bias : nullptr, y_last,
                                     key.strides, key.dilations, key.pad_begin, key.pad_end);
          dnnl::primitive_attr attributes = keptPrimitiveAttributes();
          // oneDNN's order: the int32 sum with the bias, times the output scale, the
          // post-operation, plus the output's zero point, rounded and saturated.
          attributes.set_output_scales(key.per_channel ? 1 << 1 : 0, scales);
          if (key.x_zero) attributes.set_zero_points(DNNL_ARG_SRC, 0, {DNNL_RUNTIME_S32_VAL});
          if (key.y_zero) attributes.set_zero_points(DNNL_ARG_DST, 0, {DNNL_RUNTIME_S32_VAL});
          if (key.relu) {
            dnnl::post_ops post;
            post.append_eltwise(1.0f, dnnl::algorithm::eltwise_relu, 0.0f, 0.0f);
            attributes.set_post_ops(post);
          }
          dnnl::convolution_forward::primitive_desc chosen(description, attributes, engine);
          // oneDNN's jit int8 convolution over its brgconv, where both exist: measured with
          // AMX, brgconv took 7.6 ms to make each primitive (670 ms of the QDQ U²-Net's first
          // run, 88 of them) against 0.25 ms, and ran no faster (its convolutions per run: 40
          // against 27-31 ms in U²-Net, 22-24 against 21-22 ms in ResNet-50).
          // Where only oneDNN's reference code comes after brgconv, brgconv stays.
          while (std::string(chosen.impl_info_str()).starts_with("brgconv") && chosen.next_impl()) {
          }
          if (onlyReference(chosen)) {
            chosen = dnnl::convolution_forward::primitive_desc(description, attributes, engine);
          }
          return chosen;
        },
        [&](Cache::Entry& made) {
          QuantizedConvolutionBound& bound = made.bound;
          bound.x_first = memory({{n, c, h, w}, x_type, Tag::nchw}, cache.engine(), nullptr);
          bound.x_last = memory(x_last, cache.engine(), nullptr);
          bound.y_last = memory(y_last, cache.engine(), nullptr);
          bound.y_first = memory({{n, m, oh, ow}, y_type, Tag::nchw}, cache.engine(), nullptr);
          bound.bias = memory(bias, cache.engine(), nullptr);
          bound.x_zero = memory({{1}, memory::data_type::s32, Tag::x}, cache.engine());
          bound.y_zero = memory({{1}, memory::data_type::s32, Tag::x}, cache.engine());
          made.arguments = {{DNNL_ARG_SRC, bound.x_last}, {DNNL_ARG_DST, bound.y_last}};
          if (key.bias) made.arguments.emplace(DNNL_ARG_BIAS, bound.bias);
          if (key.x_zero)
            made.arguments.emplace(DNNL_ARG_ATTR_ZERO_POINTS | DNNL_ARG_SRC, bound.x_zero);
          if (key.y_zero)
            made.arguments.emplace(DNNL_ARG_ATTR_ZERO_POINTS | DNNL_ARG_DST, bound.y_zero);
        });
    if (entry == nullptr) return notHandled();
    QuantizedConvolutionBound& bound = entry->bound;

    *static_cast<int32_t*>(bound.x_zero.get_data_handle()) = call.x_zero;
    *static_cast<int32_t*>(bound.y_zero.get_data_handle()) = call.y_zero;

    if (entry->needsWeights(call.weights->bytes().data(), call.weights_fixed) &&
        !entry->prepareWeights(
            *call.weights, call.weights_fixed, "qconv s8 " + std::to_string(g), [&] {
              return std::optional(OneDnnWeights{
                  reorderedWeights(*call.weights, memory::data_type::s8, {m, c / g, kh, kw}, g,
                                   entry->description.weights_desc(), cache.engine(),
                                   cache.stream()),
                  {}});
            })) {
      return notHandled();
    }

    const Array* x = call.x;
    if (!call.x_channels_last) {
      Array* copy = reusedScratch(bound.x_scratch, call.x->type(), {n, h, w, c});
      if (copy == nullptr) return notHandled();
      bound.x_first.set_data_handle(handleOf(*call.x));
      bound.x_last.set_data_handle(handleOf(*copy));
      if (!bound.input_to_channels_last) {
        bound.input_to_channels_last.emplace(bound.x_first, bound.x_last);
      }
      bound.input_to_channels_last->execute(cache.stream(), bound.x_first, bound.x_last);
      x = copy;
    }
    Array* y = nullptr;
    std::optional<Array> out;
    if (call.output_channels_last) {
      Result<Array> made = Array::allocate(call.y_type, {n, oh, ow, m});
      if (!made) return notHandled();
      out = std::move(*made);
      y = &*out;
    } else {
      y = reusedScratch(bound.y_scratch, call.y_type, {n, oh, ow, m});
      if (y == nullptr) return notHandled();
    }
    bound.x_last.set_data_handle(handleOf(*x));
    bound.y_last.set_data_handle(handleOf(*y));
    if (call.bias != nullptr) bound.bias.set_data_handle(handleOf(*call.bias));
    entry->primitive.execute(cache.stream(), entry->arguments);
    if (!call.output_channels_last) {
      Result<Array> made = Array::allocate(call.y_type, {n, m, oh, ow});
      if (!made) return notHandled();
      out = std::move(*made);
      bound.y_first.set_data_handle(handleOf(*out));
      if (!bound.output_to_channels_first) {
        bound.output_to_channels_first.emplace(bound.y_last, bound.y_first);
      }
      bound.output_to_channels_first->execute(cache.stream(), bound.y_last, bound.y_first);
    }
    cache.stream().wait();
    return out;
  } catch (const dnnl::error& error) {
    (void)error;
    if (cache_ != nullptr) cache_->forget();
    return notHandled();
  }
}

}  // namespace onyx::eval_internal
