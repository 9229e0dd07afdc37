#include "eval/kernels/fused_matmul.h"

#include <algorithm>

#include "eval/kernels/packed_linear_layer.h"
#include "ops/kernels.h"
#include "ops/matrix_multiply.h"

namespace onyx::eval_internal {

std::optional<Array> multiplyAddBias(const KernelContext& ctx, const Array& a, const Array& b,
                                     const Array& bias, bool relu, PackedLinearLayer* packed,
                                     bool transposed_b) {
  // float16 weights only as the packed layer takes them (PackedLinearLayer::takesHalfWeights).
  const bool half_weights = b.type() == ElementType::kFloat16 && packed != nullptr;
  if (a.type() != ElementType::kFloat || (b.type() != ElementType::kFloat && !half_weights) ||
      bias.type() != ElementType::kFloat || a.rank() < 2 || b.rank() != 2 ||
      bias.rank() > a.rank()) {
    return std::nullopt;
  }
  int64_t k = b.dim(transposed_b ? 1 : 0), n = b.dim(transposed_b ? 0 : 1);
  if (a.shape().back() != k || static_cast<int64_t>(bias.size()) != n) return std::nullopt;
  for (size_t axis = 0; axis + 1 < bias.rank(); ++axis) {
    if (bias.dim(axis) != 1) return std::nullopt;
  }
  std::vector<int64_t> shape = a.shape();
  shape.back() = n;
  Result<Array> made = Array::allocate(ElementType::kFloat, shape);
  if (!made) return std::nullopt;
  Array out = std::move(*made);
  float* result = out.data<float>();
  const bool done = packed != nullptr && packed->run(ctx, a, b, bias, out, transposed_b);
  if (!done && half_weights) return std::nullopt;
  if (!done) {
    size_t columns = static_cast<size_t>(n);
    size_t rows = columns == 0 ? 0 : out.size() / columns;
    const float* row = bias.data<float>();
    for (size_t i = 0; i < rows; ++i) std::copy_n(row, columns, result + i * columns);
    ops::multiplyFloat(ctx, false, transposed_b, rows, columns, static_cast<size_t>(k), 1.0f,
                       a.data<float>(), static_cast<size_t>(k), b.data<float>(),
                       transposed_b ? static_cast<size_t>(k) : columns, 1.0f, result, columns);
  }
  if (relu) {
    // As the Relu kernel: NaN and -0 pass through.
    ops::parallelFor(ctx, out.size(), size_t{1} << 16, [&](size_t begin, size_t end) {
      for (size_t i = begin; i < end; ++i) result[i] = result[i] < 0.0f ? 0.0f : result[i];
    });
  }
  return out;
}

}  // namespace onyx::eval_internal
