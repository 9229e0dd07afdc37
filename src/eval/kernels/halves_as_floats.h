// Internal to the evaluator: a float16 node run on its operator's float kernel, its float16
// inputs widened to float, its float outputs left wide for the executor to round where a
// value leaves the nodes that run so (engine/frame.h), as onnxruntime runs float16 on CPUs.
// For operators whose outputs are float16 exactly when their inputs are (the caller chooses
// them: providers/onyx/float16_on_floats.cc, the channels-last elementwise kernel).
#pragma once

#include <memory>
#include <optional>
#include <vector>

#include "onyx/ops/kernel_context.h"

namespace onyx::eval_internal {

/// FLOAT16 `half` widened to a new FLOAT array of its shape, and FLOAT `wide` rounded to a new
/// FLOAT16 one, split over `ctx`'s threads (this thread alone when null).
Array widenedHalves(const Array& half, const KernelContext* ctx);
/// widenedHalves() of elements that are the same on every run: made once per process and
/// shared (shared_preparation.h).
std::shared_ptr<const Array> sharedWidenedHalves(const Array& half, const KernelContext* ctx);
/// The FLOAT16 matrix `half` (rows, columns) widened to FLOAT and transposed, (columns, rows),
/// for elements the same on every run (a Gemm's fixed B under transB): once per process, shared.
std::shared_ptr<const Array> sharedWidenedTransposedHalves(const Array& half);
Array roundedToHalves(const Array& wide, const KernelContext* ctx);

/// Whether an input of the node is a FLOAT16 tensor.
bool hasHalfInput(const KernelContext& ctx);

/// The widened copies of a node's FLOAT16 inputs that are the same on every run (weights),
/// made once per process at a first run and kept.
class WidenedConstants {
 public:
  /// `constant[i]`: whether input i is the same tensor on every run.
  explicit WidenedConstants(std::vector<bool> constant);
  /// `half` (input i) widened: the kept copy for a constant input, else a new one in `made`.
  const Array& widened(size_t i, const Array& half, const KernelContext* ctx,
                       std::optional<Array>& made);
  const std::vector<bool>& constant() const { return constant_; }

 private:
  std::vector<bool> constant_;
  std::vector<const void*> sources_;  // the elements each kept copy was made from
  std::vector<std::shared_ptr<const Array>>
      kept_;  // shared by every executor (shared_preparation.h)
};

/// Runs the node's own kernel (its schema's) on its inputs with every FLOAT16 one widened to
/// FLOAT (constant ones kept in `constants` when given); its FLOAT outputs stand for FLOAT16
/// ones, not rounded yet.
Status runOnFloats(KernelContext& ctx, WidenedConstants* constants = nullptr);

}  // namespace onyx::eval_internal
