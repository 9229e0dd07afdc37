// Internal to the evaluator: which nodes of a graph run as one fused convolution.
//
// A float 2-D Conv followed by what a convolution network puts after it — a residual Add of
// a tensor of the same shape, a Relu, or both (Conv → Add → Relu) — runs as one oneDNN
// convolution with the Add and Relu as post-operations, where each intermediate value is
// read by the next node alone. The group runs where its last node stands (the residual
// may be computed after the Conv), and the values passed from one fused convolution to
// another stay in channels-last layout (NHWC), the layout oneDNN's fast convolutions read
// and write; see fused_convolution.h.
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <unordered_set>
#include <vector>

#include "onyx/ir/graph.h"

namespace onyx::eval_internal {

struct ConvGroup {
  struct Member {
    const Node* node = nullptr;
    size_t index = 0;  // in the graph's node order
  };
  Member conv;
  Member add;                 // the residual Add, if any (node null when none)
  size_t residual_input = 0;  // the Add's input that is not the Conv's output
  Member relu;                // if any
  /// The node whose place the group runs at: the last of its members.
  const Member& last() const;
  /// The value the group produces (the output of `last`).
  const Value* output() const;
  /// The group's nodes in graph order.
  std::vector<Member> members() const;
};

struct FusionPlan {
  std::vector<ConvGroup> groups;
  /// For each node of the graph: the index of its group in `groups`, or -1.
  std::vector<int> group_of;
  /// For each node: the index of the node it runs with (its group's last node; itself when
  /// it is in no group).
  std::vector<size_t> runs_at;
  /// Group outputs that only other groups read (as their Conv's input or as their residual):
  /// these are kept in channels-last layout.
  std::unordered_set<const Value*> channels_last;
};

/// The fusion plan of `graph`; `kept` are values read after the graph ends besides its
/// outputs (they are never fused away).
FusionPlan planConvFusion(const Graph& graph, std::span<const Value* const> kept);

}  // namespace onyx::eval_internal
