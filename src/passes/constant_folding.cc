// `constant-folding`: a node whose inputs are all constants (initializers that no graph input
// overrides, Constant nodes' values) is run once, through PassContext::node_evaluator, and
// its outputs become constants (folding.h: initializers in the main graph, Constant nodes
// elsewhere) under the names the outputs had. One sweep per graph in list order (sorted by
// then), so a chain of such nodes folds in one run: a node reading a folded output reads the
// folded tensor. The folds of every graph are recorded and applied together (all or
// nothing); then each If on a constant condition is replaced by the branch it takes, each
// inlining all or nothing across the graphs it touches.
//
// Never folded: Constant itself; random operators (OpTraits::kNondeterministic: their value
// differs from run to run); quantization (OpTraits::kQuantization: QuantizeLinear,
// DequantizeLinear, DynamicQuantizeLinear, the structure a runtime turns into integer
// kernels: onnxruntime keeps DequantizeLinear on weights too);
// operators onyx does not know (custom domains: they may have side effects); nodes that hold
// graphs or refer to a calling function's attributes; nodes nothing reads (dead-code's); any
// model with training_info, whose algorithm updates the initializers a fold would bake in.
//
// The size limit: a fold may grow the model by at most PassContext::fold_limit bytes per
// output beyond the bytes of the constants it leaves unread (those only this node reads).
// The outputs' sizes come from shape inference before anything runs, so that a
// ConstantOfShape, Expand or Tile to a large tensor is refused without being computed
// (onnxsim#309's tenfold growth); a node whose output shapes inference cannot give is not
// folded. Without a node evaluator the pass changes nothing.
#include <unordered_map>
#include <vector>

#include "onyx/core/element_type.h"
#include "onyx/ir/constant_value.h"
#include "onyx/ir/editor.h"
#include "onyx/ir/graph_scope.h"
#include "onyx/ir/opset_imports.h"
#include "onyx/ir/tensor_array.h"
#include "onyx/ir/walk.h"
#include "onyx/ops/registry.h"
#include "onyx/passes/standard_passes.h"
#include "passes/folding.h"
#include "passes/inline_internal.h"
#include "passes/pass_helpers.h"
#include "passes/pass_patches.h"

namespace onyx {

namespace {

using passes_internal::FoldedOutput;
using passes_internal::isKnownOperator;
using passes_internal::replaceByConstants;
using passes_internal::tensorBytes;

bool holdsGraphsOrReferences(const Node& node) {
  if (node.holdsGraphs()) return true;
  for (const Attribute* attribute : node.attributes) {
    if (attribute->isReference()) return true;
  }
  return false;
}

// The bytes of a tensor output as inference types it; nullopt when its element type or a
// dimension is unknown, or its elements are strings.
std::optional<uint64_t> predictedBytes(const Type* type) {
  if (type == nullptr || !type->isTensor() || !type->elem_type || type->shape == nullptr) {
    return std::nullopt;
  }
  std::vector<int64_t> dims;
  for (const Dimension& dim : type->shape->dims) {
    if (!dim.dim_value) return std::nullopt;
    dims.push_back(*dim.dim_value);
  }
  Result<uint64_t> count = elementCount(dims);
  if (!count) return std::nullopt;
  Result<uint64_t> bytes = packedByteSize(static_cast<ElementType>(*type->elem_type), *count);
  if (!bytes) return std::nullopt;
  return *bytes;
}

class ConstantFoldingPass final : public passes_internal::RecordingGraphPass {
 public:
  std::string_view name() const override { return "constant-folding"; }
  std::string_view summary() const override {
    return "compute nodes whose inputs are all constants once, through the evaluator's "
           "kernels, and keep their outputs as constants (never growing the model beyond "
           "--fold-limit)";
  }
  Preserves preserves() const override {
    return Preserves::kNodeOrder | Preserves::kFunctionsAndImports;
  }

 protected:
  void started() override { folded_.clear(); }

  Result<PassResult> recordGraph(Model& model, Graph& graph, const GraphScope& scope,
                                 PassContext& context,
                                 passes_internal::PassPatches& patches) override {
    PassResult result;
    if (context.node_evaluator == nullptr || !model.training_info.empty()) return result;
    Folds folds{model, context, patches, folded_};
    for (Node* node : graph.nodes()) {
      if (candidate(*node, scope, folds)) folds.fold(*node, result);
    }
    return result;
  }

  // Once the folds are applied: each If on a constant condition, innermost first.
  Status committed(Model& model, PassContext& context, PassResult& result) override {
    folded_.clear();
    if (context.node_evaluator == nullptr || !model.training_info.empty()) return Status::ok();
    std::vector<Graph*> graphs;
    forEachGraph(model, [&graphs](Graph& graph) { graphs.push_back(&graph); });
    for (auto graph = graphs.rbegin(); graph != graphs.rend(); ++graph) {
      GraphScope scope = scopeOf(model, **graph);
      std::vector<Node*> nodes((*graph)->nodes().begin(), (*graph)->nodes().end());
      for (Node* node : nodes) {
        if (node->graph() != *graph) continue;
        std::optional<bool> taken = constantCondition(model, *node, scope, context);
        if (!taken) continue;
        size_t before = (*graph)->nodeCount();
        if (passes_internal::inlineIfBranch(model, *node, *taken).isOk()) {
          ++result.nodes_removed;
          result.nodes_added += (*graph)->nodeCount() + 1 - before;
        }
      }
    }
    return Status::ok();
  }

 private:
  // The condition of a standard If read from a constant (a one-element bool tensor), for
  // putting the branch it takes in its place; nullopt for any other node.
  static std::optional<bool> constantCondition(const Model& model, const Node& node,
                                               const GraphScope& scope, PassContext& context) {
    if (node.opType() != "If" || node.inputCount() != 1 || !isStandardOperator(node, "If") ||
        scope.opset() < 1) {
      return std::nullopt;
    }
    const Tensor* condition = constantTensor(node.input(0), context.initializerInputs(model));
    if (condition == nullptr) return std::nullopt;
    Result<Array> array = arrayFromTensor(*condition);
    if (!array || array->type() != ElementType::kBool || array->size() != 1) return std::nullopt;
    return array->data<bool>()[0];
  }

  // The folds of one run, recorded: a node reading an output folded before it reads the
  // folded tensor.
  struct Folds {
    Model& model;
    PassContext& context;
    passes_internal::PassPatches& patches;
    std::unordered_map<const Value*, const Tensor*>& folded;

    const Tensor* constantOf(const Value* value) const {
      auto found = folded.find(value);
      if (found != folded.end()) return found->second;
      return constantTensor(value, context.initializerInputs(model));
    }

    // The bytes of the constants `node` reads that nothing else reads (a graph input stays).
    uint64_t freedBytes(const Node& node) const {
      uint64_t freed = 0;
      for (size_t i = 0; i < node.inputCount(); ++i) {
        const Value* input = node.input(i);
        if (input == nullptr) continue;
        bool first = true;  // a constant read twice counts once
        for (size_t j = 0; j < i; ++j) first = first && node.input(j) != input;
        bool only_here = true;
        for (const Use& use : input->uses()) only_here = only_here && use.user() == &node;
        if (first && only_here && !input->isGraphInput()) freed += tensorBytes(*constantOf(input));
      }
      return freed;
    }

    void fold(Node& node, PassResult& result) {
      const InferredTypes& types = context.inferredTypes(model);
      uint64_t allowed = freedBytes(node);
      uint64_t predicted = 0;
      for (size_t i = 0; i < node.outputCount(); ++i) {
        if (node.output(i) == nullptr) continue;
        std::optional<uint64_t> bytes = predictedBytes(types.typeOf(*node.output(i)));
        if (!bytes) return;
        predicted += *bytes;
        allowed += context.fold_limit;
      }
      if (predicted > allowed) return;
      std::vector<EvalValue> inputs(node.inputCount());
      for (size_t i = 0; i < node.inputCount(); ++i) {
        if (node.input(i) == nullptr) continue;
        Result<Array> array = arrayFromTensor(*constantOf(node.input(i)));
        if (!array) return;
        inputs[i] = EvalValue::of(std::move(*array));
      }
      // A node the evaluator cannot run alone (or whose inputs its kernel refuses) stays as
      // it is: the model runs as before, and `onyx run` reports what it reports.
      Result<std::vector<EvalValue>> outputs = context.node_evaluator->run(model, node, inputs);
      if (!outputs || outputs->size() != node.outputCount()) return;
      std::vector<FoldedOutput> made;
      uint64_t bytes = 0;
      for (size_t i = 0; i < node.outputCount(); ++i) {
        if (node.output(i) == nullptr) continue;
        const EvalValue& value = (*outputs)[i];
        if (!value.isTensor() || value.tensor.isString()) return;
        Tensor* tensor = GraphEditor(model).tensorFromArray(value.tensor);
        bytes += tensorBytes(*tensor);
        made.push_back({i, tensor});
      }
      if (bytes > allowed) return;  // inference said less than the kernel made
      if (!replaceByConstants(patches.of(*node.graph()), node, made, result)) return;
      for (const FoldedOutput& one : made) folded.emplace(node.output(one.output), one.tensor);
    }
  };

  static bool candidate(const Node& node, const GraphScope& scope, Folds& folds) {
    OpTraits traits = traitsOf(node, scope);
    if (node.opType() == "Constant" || node.inputCount() == 0 || !node.hasUses() ||
        hasTraits(traits, OpTraits::kNondeterministic) ||
        hasTraits(traits, OpTraits::kQuantization) || holdsGraphsOrReferences(node) ||
        !isKnownOperator(node, folds.context.callees(folds.model))) {
      return false;
    }
    bool any = false;
    for (size_t i = 0; i < node.inputCount(); ++i) {
      if (node.input(i) == nullptr) continue;
      if (folds.constantOf(node.input(i)) == nullptr) return false;
      any = true;
    }
    return any;
  }

  std::unordered_map<const Value*, const Tensor*> folded_;  // this run's, by output
};

}  // namespace

std::unique_ptr<Pass> makeConstantFoldingPass() { return std::make_unique<ConstantFoldingPass>(); }

}  // namespace onyx
