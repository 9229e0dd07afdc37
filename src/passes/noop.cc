// `noop`: nodes that hand their input on unchanged are bypassed (their readers read the
// input), and pairs of Transposes and of Reshapes are composed into one node.
//
// What counts as unchanged, exactly (default domain only):
//   - Identity, and Concat of a single input;
//   - Dropout in inference: training_mode absent or a constant false (from opset 12), or, in
//     the main graph and the graphs nested in it, an opset from 7 to 11 (no training mode) or
//     is_test = 1 before; its mask output unread. The opset is the graph's scope's.
//   - Cast to the element type its input has, CastLike to its input's type;
//   - Transpose whose permutation is the identity;
//   - Pad whose pads are all zero;
//   - Slice whose steps are all 1 and whose output has its input's shape;
//   - Expand whose output has its input's shape;
//   - Unsqueeze of a Squeeze, or Squeeze of an Unsqueeze, of the same constant axes;
//   - Reshape, Squeeze, Unsqueeze and Flatten whose output has the shape of their input, or
//     of the input of a chain of such nodes above them (Squeeze then Unsqueeze of the same
//     axes): these never reorder elements (OpTraits::kShapeOnly), so equal shapes mean equal
//     tensors.
// Shapes are shape inference's (PassContext::inferredTypes), compared dimension by
// dimension: equal numbers, or the same symbol.
// Composed:
//   - Transpose of a Transpose: one Transpose with the composed permutation (none if it is
//     the identity);
//   - Reshape of a Reshape, Squeeze, Unsqueeze or Flatten reads that node's input instead,
//     when its target shape is a constant without 0 (a 0 copies a dimension of the input,
//     which differs) or allowzero is 1. The node it skipped is left to dead-code.
// A bypassed node whose output is a graph output keeps the output's name (Bypasses). The edits
// are recorded per graph and applied at the run's end (RecordingGraphPass); a rewrite that
// needs another applied first waits for the pass manager's next round.
#include <algorithm>
#include <numeric>
#include <vector>

#include "onyx/ir/constant_value.h"
#include "onyx/ir/editor.h"
#include "onyx/ir/tensor_array.h"
#include "onyx/ops/registry.h"
#include "onyx/passes/pattern.h"
#include "onyx/passes/standard_passes.h"
#include "passes/pass_helpers.h"
#include "passes/pass_patches.h"

namespace onyx {

namespace {

using passes_internal::Bypass;
using passes_internal::Bypasses;
using passes_internal::PassPatches;

constexpr size_t kChainLimit = 8;  // reshaping nodes walked up per node: keeps a run linear

class NoopPass final : public passes_internal::RecordingGraphPass {
 public:
  std::string_view name() const override { return "noop"; }
  std::string_view summary() const override {
    return "bypass nodes that change nothing (Identity, Dropout in inference, Cast to the same "
           "type, ...) and compose Transpose and Reshape pairs";
  }
  Preserves preserves() const override { return Preserves::kNodeOrder | Preserves::kInferredTypes; }

 protected:
  Result<PassResult> recordGraph(Model& model, Graph& graph, const GraphScope& scope,
                                 PassContext& context, PassPatches& patches) override {
    model_ = &model;
    graph_ = &graph;
    scope_ = &scope;
    context_ = &context;
    patches_ = &patches;
    Bypasses bypasses(patches);
    bypasses_ = &bypasses;
    PassResult result;
    for (Node* node : graph.nodes()) {
      if (!isDefaultDomain(*node)) continue;
      if (Value* same = unchangedInput(*node)) {
        switch (bypasses.bypass(*node, 0, *same)) {
          case Bypass::kRefused: break;
          case Bypass::kDone: ++result.nodes_rewritten; break;
          case Bypass::kNodeRemoved: ++result.nodes_removed; break;
        }
        continue;
      }
      if (compose(*node)) ++result.nodes_rewritten;
    }
    return result;
  }

 private:
  // Inference runs on the first question: a graph of Identities never pays for it.
  const Type* typeOf(const Value* value) const {
    if (value == nullptr) return nullptr;
    return context_->inferredTypes(*model_).typeOf(*value);
  }

  std::optional<int32_t> elemTypeOf(const Value* value) const {
    const Type* type = typeOf(value);
    if (type != nullptr && type->elem_type) return type->elem_type;
    return value != nullptr ? value->elemType() : std::nullopt;
  }

  const TensorShape* shapeOf(const Value* value) const {
    const Type* type = typeOf(value);
    return type != nullptr && type->isTensor() ? type->shape : nullptr;
  }

  bool sameShape(const Value* a, const Value* b) const {
    const TensorShape* x = shapeOf(a);
    const TensorShape* y = shapeOf(b);
    if (x == nullptr || y == nullptr || x->rank() != y->rank()) return false;
    for (size_t i = 0; i < x->rank(); ++i) {
      if (!MatchContext::sameDim(x->dims[i], y->dims[i])) return false;
    }
    return true;
  }

  // Reshape, Squeeze, Unsqueeze, Flatten: the elements of input 0, reshaped.
  bool isReshaping(const Node& node) const {
    return hasTraits(traitsOf(node, *scope_), OpTraits::kShapeOnly);
  }

  // The integers an operator took as attribute `name` before an opset moved them to its
  // second input (Pad's pads from 11, Squeeze's and Unsqueeze's axes from 13); nullopt when
  // neither is there, or the input is not constant.
  std::optional<std::vector<int64_t>> attributeOrInput(const Node& node,
                                                       std::string_view name) const {
    if (node.hasAttr(name)) {
      std::span<const int64_t> attr = node.intsAttr(name);
      return std::vector<int64_t>(attr.begin(), attr.end());
    }
    if (node.inputCount() > 1) return constantIntegers(node.input(1), initializerInputs());
    return std::nullopt;
  }

  static bool allEqual(const std::optional<std::vector<int64_t>>& values, int64_t expected) {
    if (!values) return false;
    for (int64_t value : *values) {
      if (value != expected) return false;
    }
    return true;
  }

  InitializerInputs initializerInputs() const { return context_->initializerInputs(*model_); }

  bool dropoutInInference(const Node& node) const {
    if (node.outputCount() > 1 && node.output(1) != nullptr && node.output(1)->hasUses()) {
      return false;
    }
    int64_t opset = scope_->opset();
    if (opset >= 12) {
      if (node.inputCount() < 3 || node.input(2) == nullptr) return true;
      const Tensor* mode = constantTensor(node.input(2), initializerInputs());
      if (mode == nullptr) return false;
      Result<Array> value = arrayFromTensor(*mode);
      return value && value->type() == ElementType::kBool && value->size() == 1 &&
             !value->data<bool>()[0];
    }
    // Before 12 the mode is the run's: an inference run of the main graph (or a graph nested
    // in it). A function body or a training graph may run in training.
    if (!model_->graph->encloses(graph_)) return false;
    if (opset >= 7) return true;
    return node.intAttr("is_test").value_or(0) == 1;
  }

  // The input `node` hands on unchanged as its output 0, or null.
  Value* unchangedInput(const Node& node) const {
    if (node.inputCount() == 0 || node.outputCount() == 0 || node.output(0) == nullptr) {
      return nullptr;
    }
    Value* input = node.input(0);
    Value* output = node.output(0);
    if (input == nullptr) return nullptr;
    std::string_view op = node.opType();
    if (op == "Identity") return input;
    if (op == "Concat") return node.inputCount() == 1 ? input : nullptr;
    if (op == "Dropout") return dropoutInInference(node) ? input : nullptr;
    if (op == "Cast") {
      std::optional<int64_t> to = node.intAttr("to");
      std::optional<int32_t> from = elemTypeOf(input);
      return to && from && *to == *from ? input : nullptr;
    }
    if (op == "CastLike") {
      std::optional<int32_t> from = elemTypeOf(input);
      std::optional<int32_t> to = node.inputCount() > 1 ? elemTypeOf(node.input(1)) : std::nullopt;
      return from && to && *from == *to ? input : nullptr;
    }
    if (op == "Transpose") return isIdentityTranspose(node) ? input : nullptr;
    if (op == "Pad") return allEqual(attributeOrInput(node, "pads"), 0) ? input : nullptr;
    if (op == "Slice") {
      bool unit_steps = node.inputCount() < 5 || node.input(4) == nullptr ||
                        allEqual(constantIntegers(node.input(4), initializerInputs()), 1);
      return unit_steps && sameShape(input, output) ? input : nullptr;
    }
    if (op == "Expand") return sameShape(input, output) ? input : nullptr;
    if (op == "Squeeze" || op == "Unsqueeze") {
      if (Value* restored = undoneBy(node)) return restored;
    }
    if (isReshaping(node)) {
      Value* candidate = input;
      for (size_t step = 0; step < kChainLimit && candidate != nullptr; ++step) {
        if (sameShape(candidate, output)) return candidate;
        const Node* producer = producerOf(candidate);
        if (producer == nullptr || !isReshaping(*producer)) break;
        candidate = producer->input(0);
      }
    }
    return nullptr;
  }

  // The axes of a Squeeze or Unsqueeze (attribute before opset 13, input from 13) made
  // non-negative against `rank` (the rank they count in); nullopt when not constant, or
  // negative and the rank unknown, or absent.
  std::optional<std::vector<int64_t>> axesOf(const Node& node, std::optional<size_t> rank) const {
    std::optional<std::vector<int64_t>> axes = attributeOrInput(node, "axes");
    if (!axes) return std::nullopt;
    for (int64_t& axis : *axes) {
      if (axis >= 0) continue;
      if (!rank) return std::nullopt;
      axis += static_cast<int64_t>(*rank);
    }
    std::sort(axes->begin(), axes->end());
    return axes;
  }

  // The node computing `value` once the recorded bypasses are applied; null for none, or one
  // outside the graph.
  Node* producerOf(Value* value) const {
    Node* producer = bypasses_->resolved(value)->producer();
    return producer != nullptr && producer->graph() == graph_ ? producer : nullptr;
  }

  // For Unsqueeze(Squeeze(x, A), A) and Squeeze(Unsqueeze(x, A), A): x. Both count the axes
  // in the same rank (the larger one), so equal sets of axes undo each other.
  Value* undoneBy(const Node& node) const {
    const Node* above = producerOf(node.input(0));
    if (above == nullptr || above->inputCount() == 0 || above->input(0) == nullptr ||
        !isReshaping(*above)) {
      return nullptr;
    }
    bool squeeze_first = above->opType() == "Squeeze" && node.opType() == "Unsqueeze";
    bool unsqueeze_first = above->opType() == "Unsqueeze" && node.opType() == "Squeeze";
    if (!squeeze_first && !unsqueeze_first) return nullptr;
    // The larger rank: the Squeeze's input, the Unsqueeze's output.
    const TensorShape* larger = shapeOf(squeeze_first ? above->input(0) : node.input(0));
    std::optional<size_t> rank;
    if (larger != nullptr) rank = larger->rank();
    std::optional<std::vector<int64_t>> inner = axesOf(*above, rank);
    std::optional<std::vector<int64_t>> outer = axesOf(node, rank);
    return inner && outer && !inner->empty() && *inner == *outer ? above->input(0) : nullptr;
  }

  // The permutation a Transpose applies: its perm, else the reversal of its input's dims.
  std::optional<std::vector<int64_t>> permutationOf(const Node& node) const {
    if (node.hasAttr("perm")) {
      std::span<const int64_t> perm = node.intsAttr("perm");
      return std::vector<int64_t>(perm.begin(), perm.end());
    }
    const TensorShape* shape = shapeOf(node.input(0));
    if (shape == nullptr) return std::nullopt;
    std::vector<int64_t> reversed(shape->rank());
    std::iota(reversed.rbegin(), reversed.rend(), 0);
    return reversed;
  }

  static bool isIdentity(const std::vector<int64_t>& perm) {
    for (size_t i = 0; i < perm.size(); ++i) {
      if (perm[i] != static_cast<int64_t>(i)) return false;
    }
    return true;
  }

  bool isIdentityTranspose(const Node& node) const {
    std::optional<std::vector<int64_t>> perm = permutationOf(node);
    return perm && isIdentity(*perm);
  }

  // Records `node` rewritten to skip the node above it; true when it did. The node above is
  // read as it was: what it computes stays the same whatever is recorded for it.
  bool compose(Node& node) const {
    if (node.inputCount() == 0 || node.input(0) == nullptr) return false;
    Node* above = producerOf(node.input(0));
    if (above == nullptr || above->inputCount() == 0 || above->input(0) == nullptr) {
      return false;
    }
    Patch& patch = patches_->of(*graph_);
    Value* skipped_to = bypasses_->resolved(above->input(0));
    if (!isDefaultDomain(*above)) return false;
    if (node.opType() == "Transpose" && above->opType() == "Transpose") {
      std::optional<std::vector<int64_t>> outer = permutationOf(node);
      std::optional<std::vector<int64_t>> inner = permutationOf(*above);
      if (!outer || !inner || outer->size() != inner->size()) return false;
      std::vector<int64_t> composed(outer->size());
      for (size_t i = 0; i < outer->size(); ++i) {
        int64_t axis = (*outer)[i];
        if (axis < 0 || axis >= static_cast<int64_t>(inner->size())) return false;
        composed[i] = (*inner)[static_cast<size_t>(axis)];
      }
      // An identity result is left as a Transpose with an identity perm, which the next
      // round bypasses under the rules for graph outputs.
      GraphEditor(*model_).setIntsAttr(&patch.attributesFor(&node), "perm", composed);
      patch.setInput(&node, 0, skipped_to);
      return true;
    }
    if (node.opType() == "Reshape" && isReshaping(*above) && node.inputCount() > 1) {
      std::optional<std::vector<int64_t>> target =
          constantIntegers(node.input(1), initializerInputs());
      if (!target) return false;
      bool literal_zeros = node.intAttr("allowzero").value_or(0) == 1;
      if (!literal_zeros) {
        for (int64_t dim : *target) {
          if (dim == 0) return false;
        }
      }
      patch.setInput(&node, 0, skipped_to);
      return true;
    }
    return false;
  }

  Model* model_ = nullptr;
  Graph* graph_ = nullptr;
  const GraphScope* scope_ = nullptr;
  PassContext* context_ = nullptr;
  PassPatches* patches_ = nullptr;
  Bypasses* bypasses_ = nullptr;
};

}  // namespace

std::unique_ptr<Pass> makeNoopPass() { return std::make_unique<NoopPass>(); }

}  // namespace onyx
