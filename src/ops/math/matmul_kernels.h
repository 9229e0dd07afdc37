// Internal: matrix products for MatMul, Gemm and Einsum-like kernels, in the plain loop order
// (i, k, j). Integer products wrap (computed unsigned, as numpy's do) instead of overflowing.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <type_traits>

#include "ops/kernels.h"

namespace onyx::ops {

/// acc + x * y, wrapping for integer types.
template <class T>
inline T mulAdd(T acc, T x, T y) {
  if constexpr (std::is_integral_v<T>) {
    using U = std::make_unsigned_t<T>;
    using Wide = std::conditional_t<(sizeof(U) < sizeof(unsigned)), unsigned, U>;
    Wide sum = static_cast<Wide>(static_cast<U>(acc)) +
               static_cast<Wide>(static_cast<U>(x)) * static_cast<Wide>(static_cast<U>(y));
    return static_cast<T>(static_cast<U>(sum));
  } else {
    return acc + x * y;
  }
}

/// Rows [row_begin, row_end) of c[n, m] = a[n, k] @ b[k, m], where a's element (i, p) is at
/// a[i * a_row + p * a_col] and b's (p, j) at b[p * b_row + j * b_col]; c is row-major.
template <class T>
void matmulRows(const T* a, size_t a_row, size_t a_col, const T* b, size_t b_row, size_t b_col,
                T* c, size_t k, size_t m, size_t row_begin, size_t row_end) {
  for (size_t i = row_begin; i < row_end; ++i) {
    T* out = c + i * m;
    std::fill(out, out + m, T(0));
    for (size_t p = 0; p < k; ++p) {
      T scale = a[i * a_row + p * a_col];
      const T* row = b + p * b_row;
      if (b_col == 1) {
        for (size_t j = 0; j < m; ++j) out[j] = mulAdd(out[j], scale, row[j]);
      } else {
        for (size_t j = 0; j < m; ++j) out[j] = mulAdd(out[j], scale, row[j * b_col]);
      }
    }
  }
}

/// `v` as integer type T: truncated toward zero, clamped to T's range, NaN as 0.
template <class T>
T integerFromDouble(double v) {
  if (std::isnan(v)) return T(0);
  if (v <= static_cast<double>(std::numeric_limits<T>::lowest())) {
    return std::numeric_limits<T>::lowest();
  }
  if (v >= static_cast<double>(std::numeric_limits<T>::max())) {
    return std::numeric_limits<T>::max();
  }
  return static_cast<T>(v);
}

/// Calls `f.template operator()<T>()` for the types matrix products compute natively (float,
/// double, the integers of 8 bits and more); false for others (widen the narrow floats first).
template <class F>
bool dispatchMatmul(ElementType type, F&& f) {
  if (dispatchFloat(type, f)) return true;
  return dispatchInteger(type, f);
}

}  // namespace onyx::ops
