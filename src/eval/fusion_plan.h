// Internal to the evaluator: which nodes of a graph run fused, as one step.
//
// - A float 2-D Conv followed by what a convolution network puts after it — a residual Add
//   of a tensor of the same shape, a Relu, or both (Conv → Add → Relu) — runs as one oneDNN
//   convolution with the Add and Relu as post-operations (fused_convolution.h).
// - A float MatMul by a matrix followed by the Add of a bias row (a linear layer), and maybe
//   a Relu, runs as one matrix product that starts from the bias (fused_matmul.h).
//
// Each intermediate value must be read by the next node of the group alone. A group runs
// where its last node stands (a residual may be computed after the Conv), and the values
// passed from one fused convolution to another stay in channels-last layout (NHWC), the
// layout oneDNN's fast convolutions read and write.
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <unordered_set>
#include <vector>

#include "onyx/ir/graph.h"

namespace onyx::eval_internal {

struct FusedGroup {
  enum class Kind { kConvolution, kMatMul };
  struct Member {
    const Node* node = nullptr;
    size_t index = 0;  // in the graph's node order
  };
  Kind kind = Kind::kConvolution;
  Member anchor;            // the Conv or MatMul
  Member add;               // the residual or bias Add, if any (node null when none)
  size_t addend_input = 0;  // the Add's input that is not the anchor's output
  Member relu;              // if any
  /// The node whose place the group runs at: the last of its members.
  const Member& last() const;
  /// The value the group produces (the output of `last`).
  const Value* output() const;
  /// The group's nodes in graph order.
  std::vector<Member> members() const;
  /// The value the Add adds (null when there is no Add).
  const Value* addend() const;
};

struct FusionPlan {
  std::vector<FusedGroup> groups;
  /// For each node of the graph: the index of its group in `groups`, or -1.
  std::vector<int> group_of;
  /// For each node: the index of the node it runs with (its group's last node; itself when
  /// it is in no group).
  std::vector<size_t> runs_at;
  /// Convolution group outputs that only other convolution groups read (as their Conv's
  /// input or as their residual): these are kept in channels-last layout.
  std::unordered_set<const Value*> channels_last;
};

/// The fusion plan of `graph`; `kept` are values read after the graph ends besides its
/// outputs (they are never fused away).
FusionPlan planFusion(const Graph& graph, std::span<const Value* const> kept);

}  // namespace onyx::eval_internal
