#include "eval/fusion_plan.h"

#include <unordered_map>

#include "onyx/ir/node.h"
#include "onyx/ir/opset_imports.h"
#include "onyx/ir/value.h"

namespace onyx::eval_internal {

namespace {

bool isOnnxOperator(const Node& node, std::string_view op_type) {
  return node.opType() == op_type && canonicalDomain(node.domainOrDefault()).empty();
}

// The node that alone reads `value`, once: null when a graph output, a kept value, a subgraph
// or more than one input slot reads it.
const Node* soleReader(const Value* value, const Graph& graph,
                       const std::unordered_set<const Value*>& kept) {
  if (value == nullptr || kept.contains(value)) return nullptr;
  const Node* reader = nullptr;
  for (const Use& use : value->uses()) {
    if (use.user == nullptr || use.user->graph != &graph || reader != nullptr) return nullptr;
    reader = use.user;
  }
  return reader;
}

bool singleOutput(const Node& node) { return node.outputCount() == 1 && node.output(0) != nullptr; }

bool fusibleConv(const Node& node) {
  return isOnnxOperator(node, "Conv") && singleOutput(node) && node.inputCount() >= 2 &&
         node.input(0) != nullptr && node.input(1) != nullptr;
}

// A MatMul of anything by a matrix (the bias Add checks the rest when it runs).
bool fusibleMatMul(const Node& node) {
  return isOnnxOperator(node, "MatMul") && singleOutput(node) && node.inputCount() == 2 &&
         node.input(0) != nullptr && node.input(1) != nullptr;
}

bool fusibleRelu(const Node& node) {
  return isOnnxOperator(node, "Relu") && singleOutput(node) && node.inputCount() == 1;
}

// The Adds of opsets before 7 broadcast only by attribute; those are left alone.
bool fusibleAdd(const Node& node) {
  return isOnnxOperator(node, "Add") && singleOutput(node) && node.inputCount() == 2 &&
         node.input(0) != nullptr && node.input(1) != nullptr &&
         node.attribute("broadcast") == nullptr && node.attribute("axis") == nullptr;
}

}  // namespace

const FusedGroup::Member& FusedGroup::last() const {
  return relu.node != nullptr ? relu : add.node != nullptr ? add : anchor;
}

const Value* FusedGroup::output() const { return last().node->output(0); }

const Value* FusedGroup::addend() const {
  return add.node != nullptr ? add.node->input(addend_input) : nullptr;
}

std::vector<FusedGroup::Member> FusedGroup::members() const {
  std::vector<Member> in_order = {anchor};
  if (add.node != nullptr) in_order.push_back(add);
  if (relu.node != nullptr) in_order.push_back(relu);
  return in_order;
}

FusionPlan planFusion(const Graph& graph, std::span<const Value* const> kept) {
  std::unordered_set<const Value*> kept_values(kept.begin(), kept.end());
  std::unordered_map<const Node*, size_t> index_of;
  std::vector<const Node*> nodes;
  for (const Node* node : graph.nodes()) {
    index_of.emplace(node, nodes.size());
    nodes.push_back(node);
  }
  FusionPlan plan;
  plan.group_of.assign(nodes.size(), -1);
  plan.runs_at.resize(nodes.size());
  for (size_t i = 0; i < nodes.size(); ++i) plan.runs_at[i] = i;

  for (size_t i = 0; i < nodes.size(); ++i) {
    const Node& anchor = *nodes[i];
    if (plan.group_of[i] >= 0) continue;
    FusedGroup group;
    if (fusibleConv(anchor)) {
      group.kind = FusedGroup::Kind::kConvolution;
    } else if (fusibleMatMul(anchor)) {
      group.kind = FusedGroup::Kind::kMatMul;
    } else {
      continue;
    }
    group.anchor = {&anchor, i};
    const Node* next = soleReader(anchor.output(0), graph, kept_values);
    if (next != nullptr && plan.group_of[index_of.at(next)] < 0 && fusibleAdd(*next)) {
      group.add = {next, index_of.at(next)};
      group.addend_input = next->input(0) == anchor.output(0) ? 1 : 0;
      next = soleReader(next->output(0), graph, kept_values);
    }
    if (next != nullptr && plan.group_of[index_of.at(next)] < 0 && fusibleRelu(*next)) {
      group.relu = {next, index_of.at(next)};
    }
    // A Conv alone still gains from oneDNN's convolution and the channels-last chain; a
    // MatMul alone is a MatMul.
    if (group.kind == FusedGroup::Kind::kMatMul && group.add.node == nullptr) continue;
    int id = static_cast<int>(plan.groups.size());
    for (const FusedGroup::Member& member : group.members()) {
      plan.group_of[member.index] = id;
      plan.runs_at[member.index] = group.last().index;
    }
    plan.groups.push_back(group);
  }

  for (const FusedGroup& group : plan.groups) {
    const Value* out = group.output();
    if (group.kind != FusedGroup::Kind::kConvolution || kept_values.contains(out) ||
        !out->hasUses()) {
      continue;
    }
    bool only_groups_read = true;
    for (const Use& use : out->uses()) {
      bool fused_read = false;
      if (use.user != nullptr && use.user->graph == &graph) {
        int reader = plan.group_of[index_of.at(use.user)];
        if (reader >= 0) {
          const FusedGroup& other = plan.groups[static_cast<size_t>(reader)];
          fused_read = other.kind == FusedGroup::Kind::kConvolution &&
                       ((use.user == other.anchor.node && use.index() == 0) ||
                        (use.user == other.add.node && use.index() == other.addend_input));
        }
      }
      only_groups_read = only_groups_read && fused_read;
    }
    if (only_groups_read) plan.channels_last.insert(out);
  }
  return plan;
}

}  // namespace onyx::eval_internal
