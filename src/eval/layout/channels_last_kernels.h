// Internal to the evaluator: nodes that run alone on channels-last values.
//
// oneDNN's convolutions read and write channels-last tensors (N, H, W, C), and a chain of
// convolutions keeps the values between them so (fusion_pattern.h). What a convolution
// network puts between two convolutions (pooling, upsampling, concatenation on the
// channels, elementwise functions) runs on such values too, through the kernels here, so
// that a value changes layout only where it enters or leaves the part of the graph that
// can hold it channels-last: the graph's inputs and outputs, and values an operator without
// such a kernel reads. The plan decides which values stay channels-last (plan.cc); only
// when fusions are on, so the literal path never sees one.
//
// A kernel here gives exactly the elements the operator's own kernel gives, placed
// channels-last, on every thread count. A new one is a function and a line in the table
// (channels_last_kernels.cc).
#pragma once

#include <cstddef>

#include "onyx/ir/graph.h"
#include "onyx/ops/kernel_context.h"

namespace onyx::eval_internal {

struct ChannelsLastKernel {
  /// Whether the kernel takes `node` (its operator and attributes, one output; `schema` the
  /// version it binds to, or null); what only a run can tell (shapes, types) it checks when
  /// it runs.
  bool (*takes)(const Node& node, const OpSchema* schema) = nullptr;
  /// Whether input `i` is an image: read channels-last when the node runs so. Its other
  /// inputs (sizes, scales) never are.
  bool (*image)(size_t i) = nullptr;
  /// Runs the node on `ctx`'s inputs, every image channels-last (N, H, W, C) or a tensor of
  /// one element (the same in both layouts), and sets its output, channels-last: true.
  /// False when it declines, having set nothing. `kernel` is the operator's own.
  Result<bool> (*run)(KernelContext& ctx, Kernel kernel) = nullptr;
};

/// Whether the operator version is elementwise (OpTraits::kElementwise) with one output whose
/// element type is that of an input (not Cast, the comparisons, IsNaN).
bool elementwiseKeepingType(const OpSchema& schema);

/// The channels-last kernel for `node`, which binds to `schema` (null: none), or null.
const ChannelsLastKernel* channelsLastKernel(const Node& node, const OpSchema* schema);

}  // namespace onyx::eval_internal
