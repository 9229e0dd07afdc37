// Internal: operators on channels-last inputs. The evaluator keeps the values between two
// oneDNN convolutions channels-last (N, H, W, C; src/eval/layout/channels_last_kernels.h); these
// run what a convolution network puts between them on such values. Each gives exactly the
// elements the operator's own kernel gives for the channels-first input, placed
// channels-last, and is defined beside that kernel. nullopt: a call it does not handle
// (another element type or rank, an attribute it does not cover), having done nothing.
#pragma once

#include <optional>
#include <span>

#include "onyx/core/array.h"
#include "onyx/ops/kernel_context.h"

namespace onyx::ops {

/// MaxPool of a FLOAT (N, H, W, C) input, without the Indices output (nn/max_pool.cc).
Result<std::optional<Array>> maxPoolChannelsLast(const KernelContext& ctx, const Array& x);

/// Resize of a FLOAT (N, H, W, C) input, nearest, the batch and channels kept; the node's
/// other inputs from `ctx` (tensor/resize.cc).
Result<std::optional<Array>> resizeChannelsLast(const KernelContext& ctx, const Array& x);

/// Concat on the channel axis (1) of (N, H, W, C) inputs (tensor/concat.cc).
Result<std::optional<Array>> concatChannelsLast(const KernelContext& ctx,
                                                std::span<const Array* const> parts);

}  // namespace onyx::ops
