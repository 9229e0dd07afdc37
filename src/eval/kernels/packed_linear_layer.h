// Internal to the evaluator: a linear layer whose weights are fixed, on oneDNN's matmul with
// the weights packed once per process (shared_preparation.h), for the shapes where that beats
// sgemm (fused_matmul.h).
//
// sgemm packs the weight matrix again on every call, and a linear layer calls it once per
// block of rows; a wide weight matrix (many output columns) is then packed more often than
// its product takes. Here the product runs in blocks of kBlockRows rows too, one oneDNN
// thread per block and the blocks spread over the step's threads, so that each output
// element is one block's sum whatever the thread count: the bits depend on the shapes alone.
#pragma once

#include <memory>

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

  /// Writes a * b + bias into `out` (a's shape, N last) and returns true, for a float
  /// (..., M, K) whose rows (the elements over K) are a multiple of kBlockRows, b float (K, N)
  /// fixed for the model's life with N at least kWideColumns, and N bias floats, all as
  /// multiplyAddBias checked them. False for other shapes or when oneDNN cannot; `out` may
  /// then hold part of the product (the caller runs sgemm over it).
  bool run(const KernelContext& ctx, const Array& a, const Array& b, const Array& bias, Array& out);

 private:
  struct Cache;
  std::unique_ptr<Cache> cache_;
};

}  // namespace onyx::eval_internal
