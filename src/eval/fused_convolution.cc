#include "eval/fused_convolution.h"

#include <dnnl.hpp>

#include <cstring>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "eval/openmp_threads.h"

namespace onyx::eval_internal {

namespace {

using dnnl::memory;
using Tag = memory::format_tag;
constexpr memory::data_type kF32 = memory::data_type::f32;

// What the primitive was made for; a call with other sizes makes a new one.
struct PrimitiveKey {
  std::vector<int64_t> x;  // N, C, H, W
  std::vector<int64_t> w;  // M, C / group, KH, KW
  int64_t group = 1;
  std::vector<int64_t> strides, dilations, pad_begin, pad_end;
  bool bias = false;
  bool residual = false;
  std::vector<ConvolutionActivation> activations;
  int threads = 1;  // oneDNN fixes a primitive's thread count when it makes it
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
    case Kind::kTanh: return dnnl::algorithm::eltwise_tanh;
    case Kind::kLinear: return dnnl::algorithm::eltwise_linear;
  }
  return dnnl::algorithm::eltwise_relu;
}

// The fused path does not apply: the caller runs the nodes one by one.
Result<std::optional<Array>> notHandled() { return std::optional<Array>(); }

bool isFloat(const Array* array) {
  return array == nullptr || array->type() == ElementType::kFloat;
}

// oneDNN's memory objects take non-const handles; it only reads sources.
void* handleOf(const Array& array) { return const_cast<float*>(array.data<float>()); }

}  // namespace

struct FusedConvolution::Cache {
  dnnl::engine engine{dnnl::engine::kind::cpu, 0};
  dnnl::stream stream{engine};
  std::optional<PrimitiveKey> key;
  bool refused = false;  // oneDNN has only its slow reference code for this key
  dnnl::convolution_forward::primitive_desc description;
  dnnl::convolution_forward primitive;
  memory weights;                        // reordered into the primitive's own layout
  const void* weights_source = nullptr;  // fixed weights it was reordered from
  // The layout changes around the primitive, made once per key: making a reorder costs more
  // than running it on a small image.
  std::optional<dnnl::reorder> input_to_channels_last;
  std::optional<dnnl::reorder> residual_to_channels_last;
  std::optional<dnnl::reorder> output_to_channels_first;
};

FusedConvolution::FusedConvolution() = default;
FusedConvolution::~FusedConvolution() = default;

Result<std::optional<Array>> FusedConvolution::run(FusedConvolutionCall& call) {
  const ops::nn::ConvShape& s = *call.shape;
  const ops::nn::Window& window = s.window;
  if (window.rank() != 2 || !isFloat(call.x) || !isFloat(call.weights) || !isFloat(call.bias) ||
      !isFloat(call.residual) || call.x == nullptr || call.weights == nullptr) {
    return notHandled();
  }
  if (s.batch == 0 || s.channels == 0 || s.outputs == 0 || window.columnVolume() == 0) {
    return notHandled();
  }
  const int64_t n = s.batch, c = s.channels, m = s.outputs, g = s.group;
  const int64_t h = window.image[0], w = window.image[1];
  const int64_t oh = window.columns[0], ow = window.columns[1];
  const int64_t kh = window.kernel[0], kw = window.kernel[1];
  if (call.residual != nullptr) {
    std::vector<int64_t> expected = call.residual_channels_last
                                        ? std::vector<int64_t>{n, oh, ow, m}
                                        : std::vector<int64_t>{n, m, oh, ow};
    if (call.residual->shape() != expected) return notHandled();
  }
  PrimitiveKey key{.x = {n, c, h, w},
                   .w = {m, c / g, kh, kw},
                   .group = g,
                   .strides = window.strides,
                   .dilations = window.dilations,
                   .pad_begin = window.pad_begin,
                   .pad_end = window.pad_end,
                   .bias = call.bias != nullptr,
                   .residual = call.residual != nullptr,
                   .activations = call.activations,
                   .threads = call.threads};
  bool overwriting = false;
  try {
    OpenMpThreads threads(call.threads);
    if (cache_ == nullptr) cache_ = std::make_unique<Cache>();
    Cache& cache = *cache_;
    if (!cache.key || *cache.key != key) {
      cache.key = key;
      cache.refused = false;
      cache.weights = memory();
      cache.weights_source = nullptr;
      cache.input_to_channels_last.reset();
      cache.residual_to_channels_last.reset();
      cache.output_to_channels_first.reset();
      memory::desc src({n, c, h, w}, kF32, Tag::nhwc);
      memory::desc weights({m, c / g, kh, kw}, kF32, Tag::any);
      if (g > 1) weights = memory::desc({g, m / g, c / g, kh, kw}, kF32, Tag::any);
      memory::desc bias({m}, kF32, Tag::x);
      memory::desc dst({n, m, oh, ow}, kF32, Tag::nhwc);
      memory::dims strides = window.strides;
      memory::dims dilations = {window.dilations[0] - 1, window.dilations[1] - 1};
      dnnl::convolution_forward::desc description =
          call.bias != nullptr
              ? dnnl::convolution_forward::desc(
                    dnnl::prop_kind::forward_inference, dnnl::algorithm::convolution_direct, src,
                    weights, bias, dst, strides, dilations, window.pad_begin, window.pad_end)
              : dnnl::convolution_forward::desc(
                    dnnl::prop_kind::forward_inference, dnnl::algorithm::convolution_direct, src,
                    weights, dst, strides, dilations, window.pad_begin, window.pad_end);
      dnnl::post_ops post;
      if (call.residual != nullptr) post.append_sum(1.0f);
      for (const ConvolutionActivation& activation : call.activations) {
        post.append_eltwise(1.0f, algorithmOf(activation.kind), activation.alpha, activation.beta);
      }
      dnnl::primitive_attr attributes;
      attributes.set_post_ops(post);
      cache.description =
          dnnl::convolution_forward::primitive_desc(description, attributes, cache.engine);
      // The reference implementation is slower than onyx's own im2col + sgemm.
      if (std::string(cache.description.impl_info_str()).starts_with("ref")) {
        cache.refused = true;
        return notHandled();
      }
      cache.primitive = dnnl::convolution_forward(cache.description);
    }
    if (cache.refused) return notHandled();

    const void* weights_source = call.weights->data<float>();
    if (!cache.weights || !call.weights_fixed || cache.weights_source != weights_source) {
      memory::desc plain = g > 1 ? memory::desc({g, m / g, c / g, kh, kw}, kF32, Tag::goihw)
                                 : memory::desc({m, c / g, kh, kw}, kF32, Tag::oihw);
      memory given(plain, cache.engine, handleOf(*call.weights));
      cache.weights = memory(cache.description.weights_desc(), cache.engine);
      dnnl::reorder(given, cache.weights).execute(cache.stream, given, cache.weights);
      cache.weights_source = call.weights_fixed ? weights_source : nullptr;
    }

    Array src_storage;
    const Array* src = call.x;
    if (!call.x_channels_last) {
      Result<Array> made = Array::allocate(ElementType::kFloat, {n, h, w, c});
      if (!made) return notHandled();
      src_storage = std::move(*made);
      memory from({{n, c, h, w}, kF32, Tag::nchw}, cache.engine, handleOf(*call.x));
      memory to({{n, c, h, w}, kF32, Tag::nhwc}, cache.engine, handleOf(src_storage));
      if (!cache.input_to_channels_last) cache.input_to_channels_last.emplace(from, to);
      cache.input_to_channels_last->execute(cache.stream, from, to);
      src = &src_storage;
    }

    Array out;
    if (!call.output_channels_last) {
      Result<Array> made = Array::allocate(ElementType::kFloat, {n, m, oh, ow});
      if (!made) return notHandled();
      out = std::move(*made);
    }
    Array dst;
    memory::desc dst_desc({n, m, oh, ow}, kF32, Tag::nhwc);
    if (call.residual_storage && call.residual_channels_last) {
      // From here on the residual is overwritten: a failure is an error, not a fallback.
      overwriting = true;
      dst = std::move(*call.residual_storage);
    } else {
      Result<Array> made = Array::allocate(ElementType::kFloat, {n, oh, ow, m});
      if (!made) return notHandled();
      dst = std::move(*made);
      if (call.residual != nullptr && call.residual_channels_last) {
        std::memcpy(dst.data<float>(), call.residual->data<float>(), dst.size() * sizeof(float));
      } else if (call.residual != nullptr) {
        memory from({{n, m, oh, ow}, kF32, Tag::nchw}, cache.engine, handleOf(*call.residual));
        memory to(dst_desc, cache.engine, handleOf(dst));
        if (!cache.residual_to_channels_last) cache.residual_to_channels_last.emplace(from, to);
        cache.residual_to_channels_last->execute(cache.stream, from, to);
      }
    }

    memory src_memory({{n, c, h, w}, kF32, Tag::nhwc}, cache.engine, handleOf(*src));
    memory dst_memory(dst_desc, cache.engine, handleOf(dst));
    std::unordered_map<int, memory> arguments = {
        {DNNL_ARG_SRC, src_memory}, {DNNL_ARG_WEIGHTS, cache.weights}, {DNNL_ARG_DST, dst_memory}};
    if (call.bias != nullptr) {
      arguments.emplace(DNNL_ARG_BIAS,
                        memory({{m}, kF32, Tag::x}, cache.engine, handleOf(*call.bias)));
    }
    cache.primitive.execute(cache.stream, arguments);
    if (call.output_channels_last) {
      cache.stream.wait();
      return std::optional<Array>(std::move(dst));
    }
    memory to({{n, m, oh, ow}, kF32, Tag::nchw}, cache.engine, handleOf(out));
    if (!cache.output_to_channels_first) cache.output_to_channels_first.emplace(dst_memory, to);
    cache.output_to_channels_first->execute(cache.stream, dst_memory, to);
    cache.stream.wait();
    return std::optional<Array>(std::move(out));
  } catch (const dnnl::error& error) {
    if (cache_ != nullptr) cache_->key.reset();
    if (overwriting) {
      return Status(ErrorCode::kInternal,
                    std::string("oneDNN's convolution failed: ") + error.what());
    }
    return notHandled();
  }
}

Array channelsFirst(const Array& channels_last) {
  const std::vector<int64_t>& shape = channels_last.shape();
  size_t n = static_cast<size_t>(shape[0]), h = static_cast<size_t>(shape[1]),
         w = static_cast<size_t>(shape[2]), c = static_cast<size_t>(shape[3]);
  Array out(ElementType::kFloat, {shape[0], shape[3], shape[1], shape[2]});
  const float* from = channels_last.data<float>();
  float* to = out.data<float>();
  for (size_t b = 0; b < n; ++b) {
    for (size_t pixel = 0; pixel < h * w; ++pixel) {
      for (size_t k = 0; k < c; ++k)
        to[(b * c + k) * h * w + pixel] = from[(b * h * w + pixel) * c + k];
    }
  }
  return out;
}

}  // namespace onyx::eval_internal
