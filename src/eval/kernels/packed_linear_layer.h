// Internal to the evaluator: a linear layer whose weights are fixed, on oneDNN's matmul with
// the weights packed once per process (shared_preparation.h), for the shapes where that beats
// sgemm (fused_matmul.h); at the AVX2 tier, on onyx's own kernel over weights laid out in
// panels once per process (panel_linear_layer.h), for every shape.
//
// sgemm packs the weight matrix again on every call, and a linear layer calls it once per
// block of rows; a wide weight matrix (many output columns) is then packed more often than
// its product takes. Here the product runs in blocks of kBlockRows rows too, one oneDNN
// thread per block and the blocks spread over the step's threads, so that each output
// element is one block's sum whatever the thread count: the bits depend on the shapes alone.
#pragma once

#include <memory>

#include "eval/kernels/panel_linear_layer.h"
#include "onyx/core/array.h"
#include "onyx/ops/kernel_context.h"

namespace onyx::eval_internal {

class PackedLinearLayer {
 public:
  static constexpr int64_t kBlockRows = 64;
  /// The fewest output columns it takes: narrower products run as fast on sgemm (bench/
  /// README.md, "Serving with turns").
  static constexpr int64_t kWideColumns = 1024;

  PackedLinearLayer();
  ~PackedLinearLayer();
  PackedLinearLayer(const PackedLinearLayer&) = delete;
  PackedLinearLayer& operator=(const PackedLinearLayer&) = delete;

  /// The fewest output columns the AVX2 kernel takes: one panel.
  static constexpr int64_t kPanelColumns = 16;

  /// Whether run() takes float16 weights `b` as they are on this context's tier: at the AVX2
  /// tier, where they are widened into the kernel's panels, with at least kPanelColumns
  /// columns (its rows when `transposed_b`).
  static bool takesHalfWeights(const KernelContext& ctx, const Array& b, bool transposed_b = false);

  /// Writes a * b + bias into `out` (a's shape, N last) and returns true, for a float
  /// (..., M, K) whose rows (the elements over K) are a multiple of kBlockRows, b float (K, N)
  /// fixed for the model's life with N at least kWideColumns, and N bias floats, all as
  /// multiplyAddBias checked them; at the AVX2 tier, for any rows and N of at least
  /// kPanelColumns, b float or (takesHalfWeights) float16. b is (N, K) when `transposed_b` (a
  /// Gemm's transB), packed from there. False for other shapes or when oneDNN cannot; `out`
  /// may then hold part of the product (the caller runs sgemm over it).
  bool run(const KernelContext& ctx, const Array& a, const Array& b, const Array& bias, Array& out,
           bool transposed_b = false);

 private:
  bool runPanels(const KernelContext& ctx, const Array& a, const Array& b, const Array& bias,
                 Array& out, bool transposed_b);

  struct Cache;
  std::unique_ptr<Cache> cache_;
  std::shared_ptr<const panel_linear::Panels> panels_;  // at the AVX2 tier
  const void* panels_source_ = nullptr;                 // the weights they were laid out from
};

}  // namespace onyx::eval_internal
