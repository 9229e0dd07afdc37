#include "eval/kernels/integer_convolution.h"

#include <dnnl.hpp>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <functional>
#include <string>
#include <unordered_map>
#include <vector>

#include "eval/kernels/int8_operands.h"
#include "eval/kernels/integer_sums.h"
#include "eval/kernels/onednn_primitive_cache.h"
#include "eval/kernels/onednn_support.h"
#include "eval/kernels/openmp_threads.h"
#include "eval/kernels/packed_integer_weights.h"
#include "ops/kernels.h"

namespace onyx::eval_internal {

namespace {

using dnnl::memory;
using Tag = memory::format_tag;

// What the primitive was made for; a call with other sizes or types makes a new one.
struct PrimitiveKey {
  std::array<int64_t, 4> x{};  // N, C, H, W
  std::array<int64_t, 4> w{};  // M, C / group, KH, KW
  int64_t group = 1;
  std::array<int64_t, 2> strides{}, dilations{}, pad_begin{}, pad_end{};
  bool x_signed = false;
  bool compensated = false;  // one more output channel per group: the window's sum
  int threads = 1;
  bool operator==(const PrimitiveKey&) const = default;
};

// Runs body over [0, count) on the call's kernel threads (ops::parallelFor), or here alone
// when the call has no context.
void parallelOver(const IntegerConvolutionCall& call, size_t count,
                  const std::function<void(size_t, size_t)>& body) {
  if (call.ctx != nullptr) {
    ops::parallelFor(*call.ctx, count, 1, body);
  } else {
    body(0, count);
  }
}

// Whether onyx's own kernel (its VNNI products, byte_quad_gemm.h) beats oneDNN's int8
// primitive: for small weights (outputs x depth at most 64K: 3x3 convolutions of 64 channels
// into 64 and smaller, 1x1 ones of 256 into 256), where the layout steps around the primitive
// (the input put channels-last, the sums back with the zero points taken out) cost more than
// the products, and for 1x1 convolutions over at least 128 pixels, which read the image in
// place. Measured per node on ResNet-50 (bench/README.md): there the own kernel took 0.5-0.9x
// oneDNN's time; 1.2-1.7x for larger 3x3 weights and 1x1 convolutions over 49 pixels.
bool ownKernelFaster(const ops::nn::ConvShape& s) {
  const int64_t depth = s.channels / s.group * static_cast<int64_t>(s.window.kernelVolume());
  const bool small = s.outputs / s.group * depth <= 65536;
  const bool pointwise = s.window.kernelVolume() == 1 && s.window.columnVolume() >= 128;
  return small || pointwise;
}

// Whether the call's sums are onyx's own kernel's: below VNNI (oneDNN's byte products
// saturate there), or where that kernel is the faster.
bool ownKernelRuns(const IntegerConvolutionCall& call) {
  return !int8ProductsExact(call.tier) || ownKernelFaster(*call.shape);
}

}  // namespace

// What each key binds beside the primitive.
struct IntegerConvolutionBound {
  memory x_last, y_last;
  std::optional<Array> x_scratch, y_scratch;
};

struct IntegerConvolution::Cache
    : OneDnnPrimitiveCache<PrimitiveKey, dnnl::convolution_forward, IntegerConvolutionBound> {};

IntegerConvolution::IntegerConvolution() = default;
IntegerConvolution::~IntegerConvolution() = default;

bool IntegerConvolution::ownKernelTakes(const IntegerConvolutionCall& call) const {
  const size_t outputs = static_cast<size_t>(call.shape->outputs);
  return call.ctx != nullptr && isByteArray(call.x) && isByteArray(call.weights) &&
         (call.x_zero == nullptr ||
          (call.x_zero->type() == call.x->type() && call.x_zero->size() == 1)) &&
         (call.w_zero == nullptr || (call.w_zero->type() == call.weights->type() &&
                                     (call.w_zero->size() == 1 || call.w_zero->size() == outputs)));
}

void IntegerConvolution::ownTiles(const IntegerConvolutionCall& call, int32_t* into,
                                  const SumsConsumer& consume) {
  if (own_weights_ == nullptr) own_weights_ = std::make_unique<PackedIntegerWeights>();
  const ops::nn::IntegerConvolutionWeights& weights = own_weights_->get(
      *call.shape, *call.weights, call.w_zero, call.weights_fixed, call.ctx->cpuTier());
  const int32_t x_zero = call.x_zero != nullptr ? byteAt(*call.x_zero, 0) : 0;
  ops::nn::integerConvolutionTiles(*call.ctx, *call.shape, *call.x, x_zero, weights, nullptr, into,
                                   consume);
}

// onyx's own exact kernel (ops::nn::integerConvolutionTiles, on the node's threads) with the
// constant weights packed once; unfixed weights are left to the node's kernel, which packs
// them each run as this would.
Result<std::optional<Array>> IntegerConvolution::ownSums(const IntegerConvolutionCall& call) {
  if (!call.weights_fixed || !ownKernelTakes(call)) return notHandled();
  const ops::nn::ConvShape& s = *call.shape;
  std::vector<int64_t> dims = {s.batch, s.outputs};
  dims.insert(dims.end(), s.window.columns.begin(), s.window.columns.end());
  Result<Array> made = Array::allocate(ElementType::kInt32, dims);
  if (!made) return made.status();
  Array y = std::move(*made);
  if (y.size() > 0) ownTiles(call, y.data<int32_t>(), [](const ops::nn::IntegerSumsTile&) {});
  ran_own_ = true;
  return std::optional<Array>(std::move(y));
}

Result<bool> IntegerConvolution::runInto(const IntegerConvolutionCall& call,
                                         const SumsConsumer& consume) {
  const ops::nn::ConvShape& s = *call.shape;
  if (ownKernelRuns(call)) {
    if (!ownKernelTakes(call)) return false;
    ownTiles(call, nullptr, consume);
    ran_own_ = true;
    return true;
  }
  Result<std::optional<Array>> sums = run(call);
  if (!sums) return sums.status();
  if (!*sums) return false;
  const int32_t* all = (*sums)->data<int32_t>();
  const size_t outputs = static_cast<size_t>(s.outputs);
  const size_t columns = s.window.columnVolume();
  parallelOver(call, static_cast<size_t>(s.batch) * outputs, [&](size_t begin, size_t end) {
    for (size_t row = begin; row < end; ++row) {
      consume(ops::nn::IntegerSumsTile{.image = row / outputs,
                                       .first_output = row % outputs,
                                       .outputs = 1,
                                       .begin = 0,
                                       .end = columns,
                                       .sums = all + row * columns,
                                       .ld = columns});
    }
  });
  return true;
}

Result<std::optional<Array>> IntegerConvolution::run(const IntegerConvolutionCall& call) {
  const ops::nn::ConvShape& s = *call.shape;
  const ops::nn::Window& window = s.window;
  if (!isByteArray(call.x) || !isByteArray(call.weights)) return notHandled();
  if (ownKernelRuns(call)) return ownSums(call);
  if (window.rank() != 2) return notHandled();
  if (s.batch == 0 || s.channels == 0 || s.outputs == 0 || window.columnVolume() == 0) {
    return notHandled();
  }
  const int64_t n = s.batch, c = s.channels, m = s.outputs, g = s.group;
  const int64_t h = window.image[0], w = window.image[1];
  const int64_t oh = window.columns[0], ow = window.columns[1];
  const int64_t kh = window.kernel[0], kw = window.kernel[1];
  const int64_t padded_h = h + window.pad_begin[0] + window.pad_end[0];
  const int64_t padded_w = w + window.pad_begin[1] + window.pad_end[1];
  const int64_t per_group = m / g;
  if (call.x_zero != nullptr &&
      (call.x_zero->type() != call.x->type() || call.x_zero->size() != 1)) {
    return notHandled();
  }
  const size_t outputs = static_cast<size_t>(m);
  if (call.w_zero != nullptr && (call.w_zero->type() != call.weights->type() ||
                                 (call.w_zero->size() != 1 && call.w_zero->size() != outputs))) {
    return notHandled();
  }
  // The weights' zero points after the shift to int8.
  std::vector<int32_t> weight_zeros = shiftedZeroPoints(*call.weights, call.w_zero, outputs);
  bool compensated = false;
  for (int32_t zero : weight_zeros) compensated |= zero != 0;
  const int64_t group_columns = per_group + (compensated ? 1 : 0);  // output channels a group
  const int64_t columns = g * group_columns;

  PrimitiveKey key{.x = {n, c, h, w},
                   .w = {m, c / g, kh, kw},
                   .group = g,
                   .strides = {window.strides[0], window.strides[1]},
                   .dilations = {window.dilations[0], window.dilations[1]},
                   .pad_begin = {window.pad_begin[0], window.pad_begin[1]},
                   .pad_end = {window.pad_end[0], window.pad_end[1]},
                   .x_signed = call.x->type() == ElementType::kInt8,
                   .compensated = compensated,
                   .threads = call.threads};
  try {
    OpenMpThreads threads(call.threads);
    if (cache_ == nullptr) cache_ = std::make_unique<Cache>();
    Cache& cache = *cache_;
    const memory::data_type x_type = byteType(key.x_signed);
    // The input padded by onyx with its zero point: the primitive pads nothing.
    memory::desc x_desc({n, c, padded_h, padded_w}, x_type, Tag::nhwc);
    memory::desc y_desc({n, columns, oh, ow}, memory::data_type::s32, Tag::nhwc);
    Cache::Entry* entry = cache.find(
        key,
        [&](const dnnl::engine& engine) {
          memory::desc weights({columns, c / g, kh, kw}, memory::data_type::s8, Tag::any);
          if (g > 1) {
            weights =
                memory::desc({g, group_columns, c / g, kh, kw}, memory::data_type::s8, Tag::any);
          }
          dnnl::convolution_forward::desc description = convolutionDescription(
              x_desc, weights, nullptr, y_desc, key.strides, key.dilations, {0, 0}, {0, 0});
          return dnnl::convolution_forward::primitive_desc(description, keptPrimitiveAttributes(),
                                                           engine);
        },
        [&](Cache::Entry& made) {
          made.bound.x_last = memory(x_desc, cache.engine(), nullptr);
          made.bound.y_last = memory(y_desc, cache.engine(), nullptr);
          made.arguments = {{DNNL_ARG_SRC, made.bound.x_last}, {DNNL_ARG_DST, made.bound.y_last}};
        });
    if (entry == nullptr) return notHandled();
    IntegerConvolutionBound& bound = entry->bound;

    auto make = [&] {
      // The weights as int8, with a channel of ones after each group's when compensated.
      const size_t depth = static_cast<size_t>(c / g * kh * kw);
      std::vector<int8_t> plain(static_cast<size_t>(columns) * depth, 1);
      for (int64_t group = 0; group < g; ++group) {
        for (int64_t o = 0; o < per_group; ++o) {
          size_t from = static_cast<size_t>(group * per_group + o) * depth;
          size_t to = static_cast<size_t>(group * group_columns + o) * depth;
          shiftedToInt8(*call.weights, from, depth, plain.data() + to);
        }
      }
      memory::desc plain_desc =
          g > 1 ? memory::desc({g, group_columns, c / g, kh, kw}, memory::data_type::s8, Tag::goihw)
                : memory::desc({columns, c / g, kh, kw}, memory::data_type::s8, Tag::oihw);
      memory given(plain_desc, cache.engine(), plain.data());
      memory reordered(entry->description.weights_desc(), cache.engine());
      dnnl::reorder(given, reordered).execute(cache.stream(), given, reordered);
      cache.stream().wait();
      std::vector<uint32_t> weight_sums(outputs, 0);
      for (size_t channel = 0; channel < outputs; ++channel) {
        size_t group = channel / static_cast<size_t>(per_group);
        size_t row =
            group * static_cast<size_t>(group_columns) + channel % static_cast<size_t>(per_group);
        const int8_t* weights = plain.data() + row * depth;
        uint32_t sum = 0;  // a local, or the byte reads might alias it and the loop stay scalar
        for (size_t k = 0; k < depth; ++k) sum += static_cast<uint32_t>(int32_t{weights[k]});
        weight_sums[channel] = sum;
      }
      return std::optional(OneDnnWeights{std::move(reordered), std::move(weight_sums)});
    };
    // The zero points decide only whether each group has a channel of ones, which the key
    // holds.
    if (entry->needsWeights(call.weights->bytes().data(), call.weights_fixed) &&
        !entry->prepareWeights(*call.weights, call.weights_fixed, "iconv", make)) {
      return notHandled();
    }

    Array* x_last = reusedScratch(bound.x_scratch, call.x->type(), {n, padded_h, padded_w, c});
    Array* y_last = reusedScratch(bound.y_scratch, ElementType::kInt32, {n, oh, ow, columns});
    Result<Array> made = Array::allocate(ElementType::kInt32, {n, m, oh, ow});
    if (x_last == nullptr || y_last == nullptr || !made) return notHandled();
    Array y = std::move(*made);

    // Channels-last, padded with the zero point: (x - x_zero) is 0 there, as the spec pads.
    const int32_t x_zero = call.x_zero != nullptr ? byteAt(*call.x_zero, 0) : 0;
    {
      const auto* from = reinterpret_cast<const uint8_t*>(call.x->bytes().data());
      auto* to = reinterpret_cast<uint8_t*>(x_last->bytes().data());
      std::memset(to, static_cast<uint8_t>(x_zero), x_last->size());
      const size_t image = static_cast<size_t>(c * h * w);
      const size_t padded = static_cast<size_t>(c * padded_h * padded_w);
      const size_t rows = static_cast<size_t>(h);
      parallelOver(call, static_cast<size_t>(n) * rows, [&](size_t begin, size_t end) {
        for (size_t task = begin; task < end; ++task) {
          size_t b = task / rows, row = task % rows;
          bytesChannelsLast(from + b * image, static_cast<size_t>(c), static_cast<size_t>(h),
                            static_cast<size_t>(w), row, row + 1,
                            static_cast<size_t>(window.pad_begin[0]),
                            static_cast<size_t>(window.pad_begin[1]), static_cast<size_t>(padded_w),
                            to + b * padded);
        }
      });
    }
    bound.x_last.set_data_handle(handleOf(*x_last));
    bound.y_last.set_data_handle(handleOf(*y_last));
    entry->primitive.execute(cache.stream(), entry->arguments);
    cache.stream().wait();
    ran_own_ = false;

    // (x - zx)(w - zw) summed = sum x w - zx sum w - zw sum x + K zx zw, each output channel
    // with its own zw, in 32 bits with wrap-around (unsigned arithmetic).
    const uint32_t zx = static_cast<uint32_t>(x_zero);
    const uint32_t depth = static_cast<uint32_t>(c / g * kh * kw);
    std::vector<ChannelTerms> terms(outputs);
    for (size_t channel = 0; channel < outputs; ++channel) {
      size_t group = channel / static_cast<size_t>(per_group);
      uint32_t zw = static_cast<uint32_t>(weight_zeros[channel]);
      terms[channel] = {.column = group * static_cast<size_t>(group_columns) +
                                  channel % static_cast<size_t>(per_group),
                        .window_column = compensated ? group * static_cast<size_t>(group_columns) +
                                                           static_cast<size_t>(per_group)
                                                     : kNoWindowSums,
                        .shift = depth * zx * zw - zx * entry->weights->sums[channel],
                        .weight_zero = zw};
    }
    const size_t pixels = static_cast<size_t>(oh * ow);
    // In blocks of 32 pixels (the tile finishSums works in) spread over the threads.
    const size_t blocks = (pixels + 31) / 32;
    const uint32_t* all_sums = reinterpret_cast<const uint32_t*>(y_last->data<int32_t>());
    uint32_t* all_out = reinterpret_cast<uint32_t*>(y.data<int32_t>());
    parallelOver(call, static_cast<size_t>(n) * blocks, [&](size_t begin, size_t end) {
      for (size_t task = begin; task < end; ++task) {
        size_t b = task / blocks, block = task % blocks;
        finishSums(all_sums + b * pixels * static_cast<size_t>(columns),
                   static_cast<size_t>(columns), pixels, block * 32,
                   std::min(pixels, block * 32 + 32), terms, all_out + b * outputs * pixels);
      }
    });
    return std::optional<Array>(std::move(y));
  } catch (const dnnl::error&) {
    if (cache_ != nullptr) cache_->forget();
    return notHandled();
  }
}

}  // namespace onyx::eval_internal
