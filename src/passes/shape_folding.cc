// `shape-folding`: what shape inference knows of shapes becomes constants, without fixing any
// dimension the model leaves open.
//
// Inference runs on the model as it is (nothing written back), keeping for each value of the
// main graph and its nested graphs its type and, for small integer tensors, its elements as
// numbers or symbolic expressions (InferOptions::keep_values; the engine propagates them
// through Shape, Size, Gather, Slice, Squeeze, Unsqueeze, Concat, Cast, arithmetic, Equal,
// ConstantOfShape, Range). value_info is not trusted for it: an exporter may have written
// the sizes of the one run it traced there, and only the graph's inputs and outputs say
// which dimensions are open. Then, per graph (innermost first):
//   - a node output whose elements are all numbers (a Shape or Size of static dimensions,
//     a Gather of such a Shape, a Concat of such pieces) becomes a constant (folding.h);
//   - a Reshape whose target has symbolic elements gets a constant target when each of them
//     is the input's dimension at the same position (0, "copy it", when allowzero is 0) or
//     when exactly one is left, which becomes -1 (unless the target has a -1 already);
//   - an Expand whose shape has symbolic elements gets a constant shape when each of them is
//     the input's dimension it lines up with (then 1: broadcasting keeps that dimension); an
//     Expand to all ones of at most the input's rank is bypassed, as it changes nothing.
// A symbolic element is never replaced by a number, so the model runs for every size of its
// open dimensions as before. The -1 carries Reshape's own caveat: with another target element
// 0 at run time it is ambiguous, where the original target was not (a batch of zero rows).
// What is left of Shape → Gather → Unsqueeze → Concat scaffolds goes to dead-code; Equal,
// Where or If on the folded constants to constant-folding.
// A model without a node that reads shapes (OpTraits::kReadsShape: Shape, Size) anywhere,
// nested graphs and function bodies included, is left without running inference: every element
// inference could know there comes from constants, which is constant-folding's work.
#include <algorithm>
#include <unordered_set>
#include <vector>

#include "onyx/infer/infer.h"
#include "onyx/ir/constant_value.h"
#include "onyx/ir/editor.h"
#include "onyx/ir/graph_scope.h"
#include "onyx/ir/opset_imports.h"
#include "onyx/ir/tensor_array.h"
#include "onyx/ir/walk.h"
#include "onyx/ops/registry.h"
#include "onyx/passes/standard_passes.h"
#include "passes/folding.h"
#include "passes/pass_helpers.h"
#include "passes/pass_patches.h"

namespace onyx {

namespace {

using passes_internal::addConstant;
using passes_internal::Bypass;
using passes_internal::Bypasses;
using passes_internal::FoldedOutput;
using passes_internal::isKnownOperator;
using passes_internal::replaceByConstants;

// The elements of `known` when every one is a number, as a tensor of its element type
// (INT64, INT32 or BOOL); null otherwise.
Tensor* tensorOfKnownElements(const KnownValue& known, const GraphEditor& edit) {
  const InferredType& type = known.type;
  if (!known.data || !type.isTensor() || !type.has_shape || type.rank() > 1) return nullptr;
  const Dims& data = *known.data;
  if (type.rank() == 1 && !type.dims[0].is(static_cast<int64_t>(data.size()))) return nullptr;
  if (type.rank() == 0 && data.size() != 1) return nullptr;
  for (DimValue element : data) {
    if (!element.isKnown()) return nullptr;
  }
  std::vector<int64_t> shape;
  if (type.rank() == 1) shape.push_back(static_cast<int64_t>(data.size()));
  auto element_type = static_cast<ElementType>(type.elem_type);
  if (element_type != ElementType::kInt64 && element_type != ElementType::kInt32 &&
      element_type != ElementType::kBool) {
    return nullptr;
  }
  Array array(element_type, shape);
  for (size_t i = 0; i < data.size(); ++i) {
    int64_t number = data[i].value();
    if (element_type == ElementType::kInt64) {
      array.data<int64_t>()[i] = number;
    } else if (element_type == ElementType::kInt32) {
      array.data<int32_t>()[i] = static_cast<int32_t>(number);
    } else {
      array.data<bool>()[i] = number != 0;
    }
  }
  return edit.tensorFromArray(array);
}

// Whether some node of `model` makes elements out of types (OpTraits::kReadsShape: Shape,
// Size), by the imports of its graph's scope.
bool readsShapes(const Model& model) {
  bool found = false;
  forEachGraph(model, [&](Graph& graph) {
    if (found) return;
    GraphScope scope = scopeOf(model, graph);
    for (const Node* node = graph.firstNode(); node != nullptr && !found; node = node->next()) {
      found = hasTraits(traitsOf(*node, scope), OpTraits::kReadsShape);
    }
  });
  return found;
}

Tensor* int64Tensor(const std::vector<int64_t>& values, const GraphEditor& edit) {
  Array array(ElementType::kInt64, {static_cast<int64_t>(values.size())});
  std::copy(values.begin(), values.end(), array.data<int64_t>());
  return edit.tensorFromArray(array);
}

class ShapeFoldingPass final : public Pass {
 public:
  std::string_view name() const override { return "shape-folding"; }
  std::string_view summary() const override {
    return "replace shapes inference knows by constants (Shape, Size and their Gather, Slice, "
           "Concat scaffolds; Reshape and Expand targets with 0, -1 and 1 where exact), never "
           "fixing an open dimension";
  }
  Preserves preserves() const override {
    return Preserves::kNodeOrder | Preserves::kFunctionsAndImports;
  }

  Result<PassResult> run(Model& model, PassContext& context) override {
    PassResult result;
    if (model.graph == nullptr || !readsShapes(model)) return result;
    InferOptions options;
    options.write_back = false;
    options.keep_values = true;
    options.trust_value_info = false;
    options.constant_initializers = context.constant_initializers;
    inferred_ = inferModel(model, options);
    model_ = &model;
    initializer_inputs_ = context.initializerInputs(model);
    // The main graph and the graphs nested in it (inference's main frame), innermost first.
    // Every decision reads inference's view of the model as it was, so the edits are recorded
    // and applied together at the end: all or nothing.
    std::vector<Graph*> graphs;
    forEachGraph(model, [&](Graph& graph) {
      if (model.graph->encloses(&graph)) graphs.push_back(&graph);
    });
    passes_internal::PassPatches patches(model, context);
    for (auto graph = graphs.rbegin(); graph != graphs.rend(); ++graph) {
      Bypasses bypasses(patches);
      patch_ = &patches.of(**graph);
      bypasses_ = &bypasses;
      for (Node* node : (*graph)->nodes()) {
        if (node->opType() == "Constant" || !isKnownOperator(*node, context.callees(model))) {
          continue;
        }
        if (foldKnownOutputs(*node, context.fold_limit, result)) continue;
        if (!isDefaultDomain(*node)) continue;
        if (node->opType() == "Reshape") foldReshapeTarget(*node, result);
        if (node->opType() == "Expand") foldExpandShape(*node, result);
      }
      ONYX_RETURN_IF_ERROR(patches.graphRecorded());
    }
    inferred_ = {};
    folded_.clear();
    ONYX_RETURN_IF_ERROR(patches.commit());
    return result;
  }

 private:
  const KnownValue* knownOf(const Value* value) const {
    if (value == nullptr) return nullptr;
    auto found = inferred_.values.find(value);
    return found != inferred_.values.end() ? &found->second : nullptr;
  }

  // Outputs whose elements are all known become constants, each of at most `limit` bytes
  // (constant-folding's limit: a Range or ConstantOfShape inference knows may be large); true
  // when the node went.
  bool foldKnownOutputs(Node& node, size_t limit, PassResult& result) {
    std::vector<FoldedOutput> folded;
    for (size_t i = 0; i < node.outputCount(); ++i) {
      const Value* output = node.output(i);
      if (output == nullptr || !output->hasUses()) continue;
      const KnownValue* known = knownOf(output);
      if (known == nullptr || !known->data ||
          known->data->size() * sizeof(int64_t) > std::max<size_t>(limit, sizeof(int64_t))) {
        continue;
      }
      if (Tensor* tensor = tensorOfKnownElements(*known, GraphEditor(*model_))) {
        folded.push_back({i, tensor});
      }
    }
    if (folded.empty()) return false;
    PassResult changes;
    if (!replaceByConstants(*patch_, node, folded, changes)) return false;
    for (const FoldedOutput& one : folded) folded_.insert(node.output(one.output));
    result += changes;
    return changes.nodes_removed > 0;
  }

  // The symbolic elements of the second input of `node` (a shape operand), with the dims of
  // its first input; false when either is not known or the operand is a constant already.
  bool shapeOperands(const Node& node, const Dims*& target, const InferredType*& input) const {
    if (node.inputCount() < 2 || node.input(0) == nullptr || node.input(1) == nullptr ||
        constantTensor(node.input(1), initializer_inputs_) != nullptr ||
        folded_.contains(node.input(1))) {
      return false;
    }
    const KnownValue* shape = knownOf(node.input(1));
    const KnownValue* data = knownOf(node.input(0));
    if (shape == nullptr || !shape->data || data == nullptr || !data->type.has_shape) {
      return false;
    }
    target = &*shape->data;
    input = &data->type;
    return true;
  }

  void foldReshapeTarget(Node& node, PassResult& result) {
    const Dims* target = nullptr;
    const InferredType* input = nullptr;
    if (!shapeOperands(node, target, input)) return;
    bool copies_zero = node.intAttr("allowzero").value_or(0) == 0;
    std::vector<int64_t> folded(target->size());
    std::vector<size_t> open;
    bool has_minus_one = false;
    for (size_t i = 0; i < target->size(); ++i) {
      DimValue element = (*target)[i];
      if (element.isKnown()) {
        folded[i] = element.value();
        has_minus_one = has_minus_one || element.value() == -1;
      } else if (copies_zero && i < input->rank() && input->dims[i] == element) {
        folded[i] = 0;
      } else {
        open.push_back(i);
      }
    }
    if (open.size() > 1 || (open.size() == 1 && has_minus_one)) return;
    if (open.size() == 1) folded[open[0]] = -1;
    setConstantShape(node, folded, result);
  }

  void foldExpandShape(Node& node, PassResult& result) {
    const Dims* target = nullptr;
    const InferredType* input = nullptr;
    if (!shapeOperands(node, target, input)) return;
    std::vector<int64_t> folded(target->size());
    size_t rank = input->rank();
    bool all_ones = true;
    for (size_t j = 0; j < target->size(); ++j) {
      DimValue element = (*target)[j];
      // The input axis this element lines up with, broadcasting from the right.
      auto axis = static_cast<int64_t>(j) - static_cast<int64_t>(target->size()) +
                  static_cast<int64_t>(rank);
      if (element.isKnown()) {
        folded[j] = element.value();
      } else if (axis >= 0 && input->dims[static_cast<size_t>(axis)] == element) {
        folded[j] = 1;
      } else {
        return;
      }
      all_ones = all_ones && folded[j] == 1;
    }
    if (all_ones && target->size() <= rank) {
      switch (bypasses_->bypass(node, 0, *node.input(0))) {
        case Bypass::kRefused: break;
        case Bypass::kDone: ++result.nodes_rewritten; return;
        case Bypass::kNodeRemoved: ++result.nodes_removed; return;
      }
    }
    setConstantShape(node, folded, result);
  }

  // Records `node`'s shape operand (input 1) replaced by a constant holding `shape`.
  void setConstantShape(Node& node, const std::vector<int64_t>& shape, PassResult& result) {
    Value* constant =
        addConstant(*patch_, node, int64Tensor(shape, GraphEditor(*model_)), node.input(1)->name());
    patch_->setInput(&node, 1, constant);
    countConstant(constant, result);
    ++result.nodes_rewritten;
  }

  static void countConstant(const Value* constant, PassResult& result) {
    if (constant->producer() != nullptr) {
      ++result.nodes_added;
    } else {
      ++result.entries_changed;
    }
  }

  Model* model_ = nullptr;
  InitializerInputs initializer_inputs_ = InitializerInputs::kOverridable;
  InferResult inferred_;
  Patch* patch_ = nullptr;                   // the graph's, while it is recorded
  Bypasses* bypasses_ = nullptr;             // the graph's, while it is recorded
  std::unordered_set<const Value*> folded_;  // outputs recorded replaced by constants
};

}  // namespace

std::unique_ptr<Pass> makeShapeFoldingPass() { return std::make_unique<ShapeFoldingPass>(); }

}  // namespace onyx
