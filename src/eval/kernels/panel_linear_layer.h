// Internal to the evaluator: a float linear layer (a * b + bias) whose weights b are fixed, at
// the AVX2 tier, on b laid out once in panels of 16 columns (PackedLinearLayer's path there).
//
// oneDNN's AVX2 float kernels pack the weights again on every call and reach under half of a
// core's 256-bit FMA peak on the encoder's products (bench/README.md, "Serving on an AMD
// EPYC"); an AVX2-only server CPU meets exactly those. Here each panel holds, for every inner
// index, 16 consecutive columns of b (the last panel's missing columns 0), and a tile of 6 rows
// by 16 columns sums in 12 registers, the panel's slice of 256 inner indices staying in the
// first-level cache while every row of the block passes over it. Each output element is one
// sequence of FMAs in inner order starting from its bias, so the bits depend on the shapes
// alone, never on how rows are shared among threads.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>

#include "onyx/core/array.h"

namespace onyx::eval_internal::panel_linear {

struct Panels {
  Array floats;  // panels x inner x 16
  int64_t inner = 0;
  int64_t columns = 0;
};

/// b (inner, columns), or (columns, inner) when `transposed` (a Gemm's transB), FLOAT or
/// FLOAT16 (widened), laid out in panels; nullopt when it cannot be allocated.
std::optional<Panels> packPanels(const Array& b, bool transposed = false);

/// Whether this build has the kernel (x86-64); a CPU at the AVX2 tier runs it (the tier
/// implies AVX2 and FMA, onyx/core/cpu_tier.h).
#if defined(__x86_64__) && defined(__GNUC__)
#define ONYX_PANEL_LINEAR 1
inline constexpr bool kBuilt = true;
#else
inline constexpr bool kBuilt = false;
#endif

/// out[r, :] = a[r, :] * b + bias for `rows` rows: a row-major with `inner` columns, out
/// row-major with b's columns.
void multiplyAddBias(const float* a, size_t rows, const Panels& b, const float* bias, float* out);

}  // namespace onyx::eval_internal::panel_linear
