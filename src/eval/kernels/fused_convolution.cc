#include "eval/kernels/fused_convolution.h"

#include <dnnl.hpp>

#include <algorithm>
#include <array>
#include <cstring>
#include <optional>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "eval/kernels/halves_as_floats.h"
#include "eval/kernels/onednn_primitive_cache.h"
#include "eval/kernels/onednn_support.h"
#include "eval/kernels/openmp_threads.h"
#include "eval/kernels/single_output_convolution.h"

namespace onyx::eval_internal {

namespace {

using dnnl::memory;
using Tag = memory::format_tag;
constexpr memory::data_type kF32 = memory::data_type::f32;

// What the primitive was made for; a call with other sizes or post-operations makes a new
// one. Apart from the few activations, fixed-size.
struct PrimitiveKey {
  std::array<int64_t, 4> x{};  // N, C, H, W
  std::array<int64_t, 4> w{};  // M, C / group, KH, KW
  int64_t group = 1;
  std::array<int64_t, 2> strides{}, dilations{}, pad_begin{}, pad_end{};
  bool bias = false;
  bool residual = false;
  int threads = 1;  // oneDNN fixes a primitive's thread count when it makes it
  std::vector<ConvolutionActivation> activations;  // the post-operations
  bool operator==(const PrimitiveKey&) const = default;
};

dnnl::algorithm algorithmOf(ConvolutionActivation::Kind kind) {
  using Kind = ConvolutionActivation::Kind;
  switch (kind) {
    case Kind::kRelu:
    case Kind::kLeakyRelu: return dnnl::algorithm::eltwise_relu;
    case Kind::kClip: return dnnl::algorithm::eltwise_clip_v2;
    case Kind::kHardSwish: return dnnl::algorithm::eltwise_hardswish;
    case Kind::kSigmoid: return dnnl::algorithm::eltwise_logistic;
    case Kind::kSwish: return dnnl::algorithm::eltwise_swish;  // x * sigmoid(alpha x)
    case Kind::kTanh: return dnnl::algorithm::eltwise_tanh;
    case Kind::kLinear: return dnnl::algorithm::eltwise_linear;
  }
  return dnnl::algorithm::eltwise_relu;
}

bool isFloat(const Array* array) {
  return array == nullptr || array->type() == ElementType::kFloat;
}

}  // namespace

// What each key binds beside the primitive. The memory objects and reorders are made once
// per key, each call pointing them at its arrays: making a memory object or a reorder costs
// more than running a small image's reorder.
struct FusedConvolutionBound {
  memory x_first, x_last, bias, residual_first, y_last, y_first;  // NCHW / NHWC
  std::optional<dnnl::reorder> input_to_channels_last;
  std::optional<dnnl::reorder> residual_to_channels_last;
  std::optional<dnnl::reorder> output_to_channels_first;
  // The channels-last copy of a channels-first input, and the channels-last result of a
  // call that writes channels-first, reused from call to call.
  std::optional<Array> x_scratch, y_scratch;
};

struct FusedConvolution::Cache
    : OneDnnPrimitiveCache<PrimitiveKey, dnnl::convolution_forward, FusedConvolutionBound> {
  // The call's key, made in place on every call so that its activations reuse their storage:
  // comparing it with the kept key then allocates nothing.
  PrimitiveKey probe;
};

FusedConvolution::FusedConvolution() = default;
FusedConvolution::~FusedConvolution() = default;

namespace {

bool isHalf(const Array* array) {
  return array == nullptr || array->type() == ElementType::kFloat16;
}

}  // namespace

struct FusedConvolution::HalfWeights {
  const void* source = nullptr;       // the fixed FLOAT16 weights `wide` holds
  std::shared_ptr<const Array> wide;  // fixed: shared by every executor (shared_preparation.h)
};

Result<std::optional<Array>> FusedConvolution::runHalves(FusedConvolutionCall& call) {
  // FLOAT16, or FLOAT standing for it where the call keeps values wide.
  auto fits = [&call](const Array* array) {
    return isHalf(array) || (call.keep_wide && array->type() == ElementType::kFloat);
  };
  if (call.weights == nullptr || !isHalf(call.weights) || !isHalf(call.bias) || !fits(call.x) ||
      (call.residual != nullptr && !fits(call.residual))) {
    return notHandled();
  }
  // Fixed weights are widened once, so that the float path sees the same array on every run
  // and reorders it once.
  if (half_ == nullptr) half_ = std::make_unique<HalfWeights>();
  const void* source = call.weights->bytes().data();
  if (!call.weights_fixed) {
    half_->wide = std::make_shared<const Array>(widenedHalves(*call.weights, call.ctx));
    half_->source = nullptr;
  } else if (half_->source != source || !half_->wide) {
    half_->wide = sharedWidenedHalves(*call.weights, call.ctx);
    half_->source = source;
  }
  std::optional<Array> x, bias, residual;
  if (call.x->type() == ElementType::kFloat16) x = widenedHalves(*call.x, call.ctx);
  if (call.bias != nullptr) bias = widenedHalves(*call.bias, call.ctx);
  if (call.residual != nullptr && call.residual->type() == ElementType::kFloat16) {
    residual = widenedHalves(*call.residual, call.ctx);
  }
  FusedConvolutionCall wide = call;
  wide.x = x ? &*x : call.x;
  wide.weights = half_->wide.get();
  wide.bias = bias ? &*bias : nullptr;
  wide.residual = residual ? &*residual : call.residual;
  wide.residual_storage = std::nullopt;
  Result<std::optional<Array>> result = run(wide);
  if (!result || !*result || call.keep_wide) return result;
  return std::optional<Array>(roundedToHalves(**result, call.ctx));
}

Result<std::optional<Array>> FusedConvolution::run(FusedConvolutionCall& call) {
  // float16: computed in float and rounded once, as onnxruntime computes it.
  if (call.weights != nullptr && call.weights->type() == ElementType::kFloat16) {
    return runHalves(call);
  }
  const ops::nn::ConvShape& s = *call.shape;
  const ops::nn::Window& window = s.window;
  const size_t rank = window.rank();
  // A 1-D convolution runs as a 2-D one of height 1, in the channels-first layout only.
  const bool one_d = rank == 1;
  if ((rank != 1 && rank != 2) || !isFloat(call.x) || !isFloat(call.weights) ||
      !isFloat(call.bias) || !isFloat(call.residual) || call.x == nullptr ||
      call.weights == nullptr ||
      (one_d &&
       (call.x_channels_last || call.residual_channels_last || call.output_channels_last))) {
    return notHandled();
  }
  if (s.batch == 0 || s.channels == 0 || s.outputs == 0 || window.columnVolume() == 0) {
    return notHandled();
  }
  // A bias of another length is the node's kernel's to report.
  if (call.bias != nullptr && call.bias->size() != static_cast<size_t>(s.outputs)) {
    return notHandled();
  }
  // A 1-D convolution over a few input channels and many output columns goes to onyx's own
  // kernel, by measurement: a spectrogram's Conv1d of one channel, 512 wide, over 101
  // columns ran 6x slower in oneDNN than onyx's matrix product; one 256 wide over 3 columns
  // (a voice detector's frame) ran 2x faster in oneDNN, and spared the first run the 65 ms in
  // which sgemm makes its kernels at its first call.
  constexpr int64_t kFewestOneDChannels = 8;
  constexpr int64_t kMostOneDColumnsOverFewChannels = 16;
  if (one_d && s.channels / s.group < kFewestOneDChannels &&
      window.columns[0] > kMostOneDColumnsOverFewChannels) {
    return notHandled();
  }
  // One output channel from a channels-last input (a segmentation net's side output): onyx's
  // own kernel, where oneDNN's would fill one lane in eight or sixteen.
  if (singleOutputConvolutionTakes(s) && call.x_channels_last && call.residual == nullptr &&
      call.activations.empty() && call.ctx != nullptr && call.x->rank() == 4) {
    const int64_t oh = window.columns[0], ow = window.columns[1];
    // One channel: (N, OH, OW, 1) and (N, 1, OH, OW) hold the same bytes.
    Result<Array> made = Array::allocate(
        ElementType::kFloat, call.output_channels_last ? std::vector<int64_t>{s.batch, oh, ow, 1}
                                                       : std::vector<int64_t>{s.batch, 1, oh, ow});
    if (!made) return made.status();
    singleOutputConvolution(*call.ctx, s, call.x->data<float>(), call.weights->data<float>(),
                            call.bias != nullptr ? call.bias->data<float>() : nullptr,
                            made->data<float>());
    return std::optional<Array>(std::move(*made));
  }
  auto lifted = [one_d](const std::vector<int64_t>& sizes, int64_t height) {
    return one_d ? std::array<int64_t, 2>{height, sizes[0]}
                 : std::array<int64_t, 2>{sizes[0], sizes[1]};
  };
  const int64_t n = s.batch, c = s.channels, m = s.outputs, g = s.group;
  const int64_t h = one_d ? 1 : window.image[0], w = window.image[rank - 1];
  const int64_t oh = one_d ? 1 : window.columns[0], ow = window.columns[rank - 1];
  const int64_t kh = one_d ? 1 : window.kernel[0], kw = window.kernel[rank - 1];
  if (call.residual != nullptr) {
    std::span<const int64_t> given = call.residual->shape();
    bool fits = call.residual_channels_last
                    ? std::ranges::equal(given, std::array<int64_t, 4>{n, oh, ow, m})
                : one_d ? std::ranges::equal(given, std::array<int64_t, 3>{n, m, ow})
                        : std::ranges::equal(given, std::array<int64_t, 4>{n, m, oh, ow});
    if (!fits) return notHandled();
  }
  const PrimitiveKey sizes{.x = {n, c, h, w},
                           .w = {m, c / g, kh, kw},
                           .group = g,
                           .strides = lifted(window.strides, 1),
                           .dilations = lifted(window.dilations, 1),
                           .pad_begin = lifted(window.pad_begin, 0),
                           .pad_end = lifted(window.pad_end, 0),
                           .bias = call.bias != nullptr,
                           .residual = call.residual != nullptr,
                           .threads = call.threads,
                           .activations = {}};
  bool overwriting = false;
  try {
    OpenMpThreads threads(call.threads);
    if (cache_ == nullptr) cache_ = std::make_unique<Cache>();
    Cache& cache = *cache_;
    PrimitiveKey& key = cache.probe;
    std::vector<ConvolutionActivation> activations = std::move(key.activations);
    key = sizes;
    activations.assign(call.activations.begin(), call.activations.end());
    key.activations = std::move(activations);
    memory::desc x_last({n, c, h, w}, kF32, Tag::nhwc);
    memory::desc bias({m}, kF32, Tag::x);
    memory::desc y_last({n, m, oh, ow}, kF32, Tag::nhwc);
    Cache::Entry* entry = cache.find(
        key,
        [&](const dnnl::engine& engine) {
          memory::desc weights({m, c / g, kh, kw}, kF32, Tag::any);
          if (g > 1) weights = memory::desc({g, m / g, c / g, kh, kw}, kF32, Tag::any);
          dnnl::convolution_forward::desc description =
              convolutionDescription(x_last, weights, key.bias ? &bias : nullptr, y_last,
                                     key.strides, key.dilations, key.pad_begin, key.pad_end);
          dnnl::post_ops post;
          if (key.residual) post.append_sum(1.0f);
          for (const ConvolutionActivation& activation : key.activations) {
            post.append_eltwise(1.0f, algorithmOf(activation.kind), activation.alpha,
                                activation.beta);
          }
          dnnl::primitive_attr attributes = keptPrimitiveAttributes();
          attributes.set_post_ops(post);
          // A key with only oneDNN's reference code is refused: it is slower than onyx's own
          // im2col + sgemm.
          return dnnl::convolution_forward::primitive_desc(description, attributes, engine);
        },
        [&](Cache::Entry& made) {
          FusedConvolutionBound& bound = made.bound;
          memory::desc x_first({n, c, h, w}, kF32, Tag::nchw);
          memory::desc y_first({n, m, oh, ow}, kF32, Tag::nchw);
          bound.x_first = memory(x_first, cache.engine(), nullptr);
          bound.x_last = memory(x_last, cache.engine(), nullptr);
          bound.bias = memory(bias, cache.engine(), nullptr);
          bound.residual_first = memory(y_first, cache.engine(), nullptr);
          bound.y_last = memory(y_last, cache.engine(), nullptr);
          bound.y_first = memory(y_first, cache.engine(), nullptr);
          made.arguments = {{DNNL_ARG_SRC, bound.x_last}, {DNNL_ARG_DST, bound.y_last}};
          if (key.bias) made.arguments.emplace(DNNL_ARG_BIAS, bound.bias);
        });
    if (entry == nullptr) return notHandled();
    FusedConvolutionBound& bound = entry->bound;

    if (entry->needsWeights(call.weights->data<float>(), call.weights_fixed) &&
        !entry->prepareWeights(
            *call.weights, call.weights_fixed, "conv f32 " + std::to_string(g), [&] {
              return std::optional(
                  OneDnnWeights{reorderedWeights(*call.weights, kF32, {m, c / g, kh, kw}, g,
                                                 entry->description.weights_desc(), cache.engine(),
                                                 cache.stream()),
                                {}});
            })) {
      return notHandled();
    }

    const Array* x = call.x;
    if (!call.x_channels_last) {
      Array* copy = reusedScratch(bound.x_scratch, ElementType::kFloat, {n, h, w, c});
      if (copy == nullptr) return notHandled();
      bound.x_first.set_data_handle(handleOf(*call.x));
      bound.x_last.set_data_handle(handleOf(*copy));
      if (!bound.input_to_channels_last) {
        bound.input_to_channels_last.emplace(bound.x_first, bound.x_last);
      }
      bound.input_to_channels_last->execute(cache.stream(), bound.x_first, bound.x_last);
      x = copy;
    }

    Array out;
    if (!call.output_channels_last) {
      std::vector<int64_t> shape =
          one_d ? std::vector<int64_t>{n, m, ow} : std::vector<int64_t>{n, m, oh, ow};
      Result<Array> made = Array::allocate(ElementType::kFloat, std::move(shape));
      if (!made) return notHandled();
      out = std::move(*made);
    }
    // The channels-last result: the array returned, or scratch before the last reorder.
    std::optional<Array> y_owned;
    Array* y = nullptr;
    if (call.residual_storage && call.residual_channels_last) {
      // From here on the residual is overwritten: a failure is an error, not a fallback.
      overwriting = true;
      y_owned = std::move(*call.residual_storage);
      y = &*y_owned;
    } else if (call.output_channels_last) {
      Result<Array> made = Array::allocate(ElementType::kFloat, {n, oh, ow, m});
      if (!made) return notHandled();
      y_owned = std::move(*made);
      y = &*y_owned;
    } else {
      y = reusedScratch(bound.y_scratch, ElementType::kFloat, {n, oh, ow, m});
      if (y == nullptr) return notHandled();
    }
    bound.y_last.set_data_handle(handleOf(*y));
    if (!overwriting && call.residual != nullptr && call.residual_channels_last) {
      std::memcpy(y->data<float>(), call.residual->data<float>(), y->size() * sizeof(float));
    } else if (!overwriting && call.residual != nullptr) {
      bound.residual_first.set_data_handle(handleOf(*call.residual));
      if (!bound.residual_to_channels_last) {
        bound.residual_to_channels_last.emplace(bound.residual_first, bound.y_last);
      }
      bound.residual_to_channels_last->execute(cache.stream(), bound.residual_first, bound.y_last);
    }

    bound.x_last.set_data_handle(handleOf(*x));
    if (call.bias != nullptr) bound.bias.set_data_handle(handleOf(*call.bias));
    entry->primitive.execute(cache.stream(), entry->arguments);
    if (call.output_channels_last) {
      cache.stream().wait();
      return std::optional<Array>(std::move(*y_owned));
    }
    bound.y_first.set_data_handle(handleOf(out));
    if (!bound.output_to_channels_first) {
      bound.output_to_channels_first.emplace(bound.y_last, bound.y_first);
    }
    bound.output_to_channels_first->execute(cache.stream(), bound.y_last, bound.y_first);
    cache.stream().wait();
    return std::optional<Array>(std::move(out));
  } catch (const dnnl::error& error) {
    if (cache_ != nullptr) cache_->forget();
    if (overwriting) {
      return Status(ErrorCode::kInternal,
                    std::string("oneDNN's convolution failed: ") + error.what());
    }
    return notHandled();
  }
}

}  // namespace onyx::eval_internal
