#include "eval/kernels/quantized_matmul.h"

#include <dnnl.hpp>

#include <algorithm>
#include <array>
#include <unordered_map>
#include <vector>

#include "eval/kernels/int8_operands.h"
#include "eval/kernels/onednn_primitive_cache.h"
#include "eval/kernels/onednn_support.h"
#include "eval/kernels/openmp_threads.h"
#include "eval/kernels/requantize.h"
#include "ops/lib/quantization_kernels.h"

namespace onyx::eval_internal {

namespace {

using dnnl::memory;
using Tag = memory::format_tag;

// What the primitive was made for, its output scales included (oneDNN 2.6 fixes them when it
// makes the primitive); the zero points are its run-time arguments.
struct PrimitiveKey {
  std::array<int64_t, 4> sizes{};  // batch, M, K, N
  bool a_signed = false, y_signed = false;
  bool a_zero = false, b_zero = false, y_zero = false;  // whether a zero point is not 0
  bool b_fixed = false;
  bool per_column = false;
  int threads = 1;
  std::vector<float> scales;  // a_scale * b_scale / y_scale, per column or one
  bool operator==(const PrimitiveKey&) const = default;
};

}  // namespace

// What each key binds beside the primitive.
struct QuantizedMatMulBound {
  memory a, y;
  memory a_zero, b_zero, y_zero;   // the run-time zero points
  std::optional<Array> b_shifted;  // uint8 b moved to int8
};

struct QuantizedMatMul::Cache
    : OneDnnPrimitiveCache<PrimitiveKey, dnnl::matmul, QuantizedMatMulBound> {};

QuantizedMatMul::QuantizedMatMul() = default;
QuantizedMatMul::~QuantizedMatMul() = default;

namespace {

// Below VNNI: the exact sums of onyx's own kernel (ops::quant::byteMatMulSums, on the MatMul
// node's threads), requantized as oneDNN's epilogue does (requantize.h).
Result<std::optional<Array>> ownProductsRequantized(const QuantizedMatMulCall& call,
                                                    std::span<const float> scales) {
  if (call.ctx == nullptr) return notHandled();
  const KernelContext& ctx = *call.ctx;
  using ops::quant::MatrixParameter;
  Result<ops::quant::MatrixProduct> product = ops::quant::matrixProduct(ctx, *call.a, *call.b);
  Result<Array> a_zero = byteScalar(call.a->type(), call.a_zero);
  Result<Array> b_zero = byteScalar(call.b->type(), call.b_zero);
  if (!product || !a_zero || !b_zero) return notHandled();
  Result<MatrixParameter> a_parameter =
      MatrixParameter::of(ctx, "a_zero_point", &*a_zero, MatrixParameter::Side::kRows, *product);
  Result<MatrixParameter> b_parameter =
      MatrixParameter::of(ctx, "b_zero_point", &*b_zero, MatrixParameter::Side::kColumns, *product);
  if (!a_parameter || !b_parameter) return notHandled();
  if (!ops::quant::isByteProduct(*call.a, *call.b, *a_parameter, *b_parameter)) {
    return notHandled();
  }
  Result<Array> y = Array::allocate(call.y_type, product->result);
  if (!y) return notHandled();
  const size_t columns = product->columns;
  const size_t rows = product->a_index.size() * product->rows;
  std::vector<int32_t> sums(rows * columns);
  ops::quant::byteMatMulSums(ctx, *call.a, *call.b, *product, *a_parameter, *b_parameter,
                             sums.data());
  const Requantization how{.scales = scales, .zero = call.y_zero, .type = call.y_type};
  std::byte* out = y->bytes().data();
  ops::parallelFor(ctx, rows, std::max<size_t>(1, 4096 / std::max<size_t>(columns, 1)),
                   [&](size_t begin, size_t end) {
                     requantizeByColumn(sums.data() + begin * columns, end - begin, columns, how,
                                        out + begin * columns);
                   });
  return std::optional<Array>(std::move(*y));
}

}  // namespace

Result<std::optional<Array>> QuantizedMatMul::run(const QuantizedMatMulCall& call) {
  if (!isByteArray(call.a) || !isByteArray(call.b) || call.a->rank() < 2 ||
      (call.y_type != ElementType::kUint8 && call.y_type != ElementType::kInt8)) {
    return notHandled();
  }
  const std::vector<int64_t>& a_shape = call.a->shape();
  const std::vector<int64_t>& b_shape = call.b->shape();
  const size_t rank = a_shape.size();
  const int64_t inner = a_shape.back(), columns = b_shape.back();
  // b a matrix: a's leading dimensions are rows; else a batch of equal leading dimensions.
  const bool batched = b_shape.size() != 2;
  if (batched && (b_shape.size() != rank ||
                  !std::equal(a_shape.begin(), a_shape.end() - 2, b_shape.begin()))) {
    return notHandled();
  }
  if (b_shape[b_shape.size() - 2] != inner || inner == 0 || columns == 0 || call.a->size() == 0) {
    return notHandled();
  }
  const int64_t batch = batched ? static_cast<int64_t>(call.b->size()) / (inner * columns) : 1;
  const int64_t rows = static_cast<int64_t>(call.a->size()) / inner / batch;
  if ((call.b_scales.size() != 1 && call.b_scales.size() != static_cast<size_t>(columns)) ||
      !(call.y_scale > 0)) {
    return notHandled();
  }
  const bool b_unsigned = call.b->type() == ElementType::kUint8;
  const int32_t b_zero = call.b_zero - int8Shift(*call.b);
  std::vector<float> scales(call.b_scales.size());
  for (size_t i = 0; i < scales.size(); ++i) {
    scales[i] = call.a_scale * call.b_scales[i] / call.y_scale;
  }
  if (!int8ProductsExact(call.tier)) return ownProductsRequantized(call, scales);
  PrimitiveKey key{.sizes = {batch, rows, inner, columns},
                   .a_signed = call.a->type() == ElementType::kInt8,
                   .y_signed = call.y_type == ElementType::kInt8,
                   .a_zero = call.a_zero != 0,
                   .b_zero = b_zero != 0,
                   .y_zero = call.y_zero != 0,
                   .b_fixed = call.b_fixed,
                   .per_column = scales.size() != 1,
                   .threads = call.threads,
                   .scales = scales};
  try {
    OpenMpThreads threads(call.threads);
    if (cache_ == nullptr) cache_ = std::make_unique<Cache>();
    Cache& cache = *cache_;
    memory::desc a({batch, rows, inner}, byteType(key.a_signed), Tag::abc);
    memory::desc y({batch, rows, columns}, byteType(key.y_signed), Tag::abc);
    Cache::Entry* entry = cache.find(
        key,
        [&](const dnnl::engine& engine) {
          // Fixed b is reordered once into the primitive's layout; b of each run is read as it
          // is.
          memory::desc b({batch, inner, columns}, memory::data_type::s8,
                         call.b_fixed ? Tag::any : Tag::abc);
          dnnl::primitive_attr attributes = keptPrimitiveAttributes();
          attributes.set_output_scales(key.per_column ? 1 << 2 : 0, scales);
          if (key.a_zero) attributes.set_zero_points(DNNL_ARG_SRC, 0, {DNNL_RUNTIME_S32_VAL});
          if (key.b_zero) attributes.set_zero_points(DNNL_ARG_WEIGHTS, 0, {DNNL_RUNTIME_S32_VAL});
          if (key.y_zero) attributes.set_zero_points(DNNL_ARG_DST, 0, {DNNL_RUNTIME_S32_VAL});
          return dnnl::matmul::primitive_desc(dnnl::matmul::desc(a, b, y), attributes, engine);
        },
        [&](Cache::Entry& made) {
          QuantizedMatMulBound& bound = made.bound;
          bound.a = memory(a, cache.engine(), nullptr);
          bound.y = memory(y, cache.engine(), nullptr);
          auto zero = [&cache]() {
            return memory({{1}, memory::data_type::s32, Tag::x}, cache.engine());
          };
          bound.a_zero = zero();
          bound.b_zero = zero();
          bound.y_zero = zero();
          made.arguments = {{DNNL_ARG_SRC, bound.a}, {DNNL_ARG_DST, bound.y}};
          if (key.a_zero)
            made.arguments.emplace(DNNL_ARG_ATTR_ZERO_POINTS | DNNL_ARG_SRC, bound.a_zero);
          if (key.b_zero) {
            made.arguments.emplace(DNNL_ARG_ATTR_ZERO_POINTS | DNNL_ARG_WEIGHTS, bound.b_zero);
          }
          if (key.y_zero)
            made.arguments.emplace(DNNL_ARG_ATTR_ZERO_POINTS | DNNL_ARG_DST, bound.y_zero);
        });
    if (entry == nullptr) return notHandled();
    QuantizedMatMulBound& bound = entry->bound;
    *static_cast<int32_t*>(bound.a_zero.get_data_handle()) = call.a_zero;
    *static_cast<int32_t*>(bound.b_zero.get_data_handle()) = b_zero;
    *static_cast<int32_t*>(bound.y_zero.get_data_handle()) = call.y_zero;

    auto make = [&]() -> std::optional<OneDnnWeights> {
      const Array* b = call.b;
      if (b_unsigned) {
        Array* shifted =
            reusedScratch(bound.b_shifted, ElementType::kInt8, {batch, inner, columns});
        if (shifted == nullptr) return std::nullopt;
        const uint8_t* from = call.b->data<uint8_t>();
        int8_t* to = shifted->data<int8_t>();
        for (size_t i = 0; i < call.b->size(); ++i) to[i] = static_cast<int8_t>(from[i] - 128);
        b = shifted;
      }
      memory plain({{batch, inner, columns}, memory::data_type::s8, Tag::abc}, cache.engine(),
                   handleOf(*b));
      if (!call.b_fixed) return OneDnnWeights{std::move(plain), {}};
      memory reordered(entry->description.weights_desc(), cache.engine());
      dnnl::reorder(plain, reordered).execute(cache.stream(), plain, reordered);
      cache.stream().wait();
      return OneDnnWeights{std::move(reordered), {}};
    };
    if (entry->needsWeights(call.b->bytes().data(), call.b_fixed) &&
        !entry->prepareWeights(*call.b, call.b_fixed, b_unsigned ? "qmatmul u8" : "qmatmul s8",
                               make)) {
      return notHandled();
    }
    std::vector<int64_t> shape = a_shape;
    shape.back() = columns;
    Result<Array> out = Array::allocate(call.y_type, std::move(shape));
    if (!out) return notHandled();
    bound.a.set_data_handle(handleOf(*call.a));
    bound.y.set_data_handle(handleOf(*out));
    entry->primitive.execute(cache.stream(), entry->arguments);
    cache.stream().wait();
    return std::optional<Array>(std::move(*out));
  } catch (const dnnl::error&) {
    if (cache_ != nullptr) cache_->forget();
    return notHandled();
  }
}

}  // namespace onyx::eval_internal
