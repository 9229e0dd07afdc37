#include "eval/kernels/integer_matmul.h"

#include <array>
#include <cstdint>
#include <unordered_map>
#include <vector>

#include "eval/kernels/int8_operands.h"
#include "eval/kernels/onednn_primitive_cache.h"
#include "eval/kernels/onednn_support.h"
#include "eval/kernels/openmp_threads.h"

namespace onyx::eval_internal {

namespace {

using dnnl::memory;
using Tag = memory::format_tag;

struct PrimitiveKey {
  int64_t rows = 0, inner = 0, columns = 0;  // M (all of a's leading dims), K, N
  bool a_signed = false;
  bool compensated = false;  // one more column of ones: the rows' sums
  int threads = 1;
  bool operator==(const PrimitiveKey&) const = default;
};

}  // namespace

// What each key binds beside the primitive.
struct IntegerMatMulBound {
  memory a, y;
  std::optional<Array> y_scratch;  // the result with its column of sums
};

struct IntegerMatMul::Cache : OneDnnPrimitiveCache<PrimitiveKey, dnnl::matmul, IntegerMatMulBound> {
};

IntegerMatMul::IntegerMatMul() = default;
IntegerMatMul::~IntegerMatMul() = default;

Result<std::optional<Array>> IntegerMatMul::run(const IntegerMatMulCall& call) {
  if (!isByteArray(call.a) || !isByteArray(call.b) || call.a->rank() < 1 || call.b->rank() != 2 ||
      !int8ProductsExact(call.tier)) {
    return notHandled();
  }
  const std::vector<int64_t>& a_shape = call.a->shape();
  const int64_t inner = a_shape.back();
  const int64_t columns = call.b->dim(1);
  if (call.b->dim(0) != inner || inner == 0 || columns == 0) return notHandled();
  const int64_t rows = inner == 0 ? 0 : static_cast<int64_t>(call.a->size()) / inner;
  if (rows == 0) return notHandled();
  if (call.a_zero != nullptr &&
      (call.a_zero->type() != call.a->type() || call.a_zero->size() != 1)) {
    return notHandled();
  }
  const size_t n = static_cast<size_t>(columns);
  if (call.b_zero != nullptr &&
      (call.b_zero->type() != call.b->type() ||
       (call.b_zero->size() != 1 &&
        (call.b_zero->size() != n || call.b_zero->shape().back() != columns)))) {
    return notHandled();
  }
  std::vector<int32_t> b_zeros = shiftedZeroPoints(*call.b, call.b_zero, n);
  bool compensated = false;
  for (int32_t zero : b_zeros) compensated |= zero != 0;
  const int64_t wide = columns + (compensated ? 1 : 0);

  PrimitiveKey key{.rows = rows,
                   .inner = inner,
                   .columns = columns,
                   .a_signed = call.a->type() == ElementType::kInt8,
                   .compensated = compensated,
                   .threads = call.threads};
  try {
    OpenMpThreads threads(call.threads);
    if (cache_ == nullptr) cache_ = std::make_unique<Cache>();
    Cache& cache = *cache_;
    const memory::data_type a_type = byteType(key.a_signed);
    memory::desc a_plain({rows, inner}, a_type, Tag::ab);
    memory::desc y_plain({rows, wide}, memory::data_type::s32, Tag::ab);
    Cache::Entry* entry = cache.find(
        key,
        [&](const dnnl::engine& engine) {
          memory::desc b({inner, wide}, memory::data_type::s8, Tag::any);
          return dnnl::matmul::primitive_desc(dnnl::matmul::desc(a_plain, b, y_plain),
                                              keptPrimitiveAttributes(), engine);
        },
        [&](Cache::Entry& made) {
          made.bound.a = memory(a_plain, cache.engine(), nullptr);
          made.bound.y = memory(y_plain, cache.engine(), nullptr);
          made.arguments = {{DNNL_ARG_SRC, made.bound.a}, {DNNL_ARG_DST, made.bound.y}};
        });
    if (entry == nullptr) return notHandled();
    IntegerMatMulBound& bound = entry->bound;

    auto make = [&] {
      // b as int8, with a last column of ones when compensated.
      std::vector<int8_t> plain(static_cast<size_t>(inner * wide), 1);
      for (size_t k = 0; k < static_cast<size_t>(inner); ++k) {
        shiftedToInt8(*call.b, k * n, n, plain.data() + k * static_cast<size_t>(wide));
      }
      memory given(memory::desc({inner, wide}, memory::data_type::s8, Tag::ab), cache.engine(),
                   plain.data());
      memory b(entry->description.weights_desc(), cache.engine());
      dnnl::reorder(given, b).execute(cache.stream(), given, b);
      cache.stream().wait();
      std::vector<uint32_t> column_sums(n, 0);
      // Restrict: the byte reads might alias the sums, and the loop would stay scalar.
      uint32_t* __restrict sums = column_sums.data();
      for (size_t k = 0; k < static_cast<size_t>(inner); ++k) {
        const int8_t* __restrict row = plain.data() + k * static_cast<size_t>(wide);
        for (size_t j = 0; j < n; ++j) sums[j] += static_cast<uint32_t>(int32_t{row[j]});
      }
      return std::optional(OneDnnWeights{std::move(b), std::move(column_sums)});
    };
    // The zero points decide only whether there is a column of ones, which the key holds.
    if (entry->needsWeights(call.b->bytes().data(), call.b_fixed) &&
        !entry->prepareWeights(*call.b, call.b_fixed, "imatmul", make)) {
      return notHandled();
    }

    std::vector<int64_t> shape(a_shape.begin(), a_shape.end() - 1);
    shape.push_back(columns);
    Result<Array> made = Array::allocate(ElementType::kInt32, shape);
    if (!made) return notHandled();
    Array y = std::move(*made);
    Array* sums =
        compensated ? reusedScratch(bound.y_scratch, ElementType::kInt32, {rows, wide}) : &y;
    if (sums == nullptr) return notHandled();
    bound.a.set_data_handle(handleOf(*call.a));
    bound.y.set_data_handle(handleOf(*sums));
    entry->primitive.execute(cache.stream(), entry->arguments);
    cache.stream().wait();
    // (a - za)(b - zb) = a b - za colsum(b) - zb rowsum(a) + K za zb, each column j with its
    // own zb, in 32 bits with wrap-around (unsigned arithmetic).
    const uint32_t a_zero =
        call.a_zero != nullptr ? static_cast<uint32_t>(byteAt(*call.a_zero, 0)) : 0;
    if (compensated || a_zero != 0) {
      std::vector<uint32_t> shift(n);
      for (size_t j = 0; j < n; ++j) {
        uint32_t zb = static_cast<uint32_t>(b_zeros[j]);
        shift[j] = static_cast<uint32_t>(inner) * a_zero * zb - a_zero * entry->weights->sums[j];
      }
      const uint32_t* from = reinterpret_cast<const uint32_t*>(sums->data<int32_t>());
      int32_t* to = y.data<int32_t>();
      for (size_t r = 0; r < static_cast<size_t>(rows); ++r) {
        const uint32_t* row = from + r * static_cast<size_t>(wide);
        uint32_t row_sum = compensated ? row[n] : 0;
        for (size_t j = 0; j < n; ++j) {
          uint32_t value = row[j] + shift[j] - static_cast<uint32_t>(b_zeros[j]) * row_sum;
          to[r * n + j] = static_cast<int32_t>(value);
        }
      }
    }
    return std::optional<Array>(std::move(y));
  } catch (const dnnl::error&) {
    if (cache_ != nullptr) cache_->forget();
    return notHandled();
  }
}

}  // namespace onyx::eval_internal
