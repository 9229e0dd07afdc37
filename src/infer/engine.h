// Internal: the inference walk. One Engine per inferModel call.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "infer/value_states.h"
#include "onyx/infer/infer.h"
#include "onyx/ir/constant_value.h"
#include "onyx/ir/opset_imports.h"
#include "onyx/ops/callee.h"
#include "onyx/ops/inference_context.h"

namespace onyx::infer {

class Engine final : public InferenceHost {
 public:
  /// `writable`: the same model when the inferred types may be written back into it
  /// (InferOptions::write_back), else null.
  Engine(const Model& model, Model* writable, const InferOptions& options, InferResult& result);

  void run();

  std::vector<InferredType> inferSubgraph(const Graph& graph, std::span<const InferredType> inputs,
                                          bool may_not_run) override;

 private:
  // A scope of values with types: the main graph with its subgraphs, or one call of a
  // model-local function (its body is closed, so it needs nothing from outside).
  struct Frame {
    ValueStates values;
    OpsetImports imports;
    bool write_back = false;
    const Node* caller = nullptr;
    const Function* callee = nullptr;
    int depth = 0;
  };

  void inferGraph(const Graph& graph, const std::string& path);
  // Strict inference: R84 for a graph input declared a tensor without a known element type.
  void checkInputElementTypes(const Graph& graph, const std::string& path);
  // R36 for a graph input whose initializer holds another type than the input declares.
  void checkInitializedInputs(const Graph& graph, const std::string& path);
  // A node being inferred, and where: its path is made only for a diagnostic or a note.
  struct NodePlace {
    const std::string* graph_path;
    size_t index;
    const Node* node;
    std::string path() const;
  };

  void inferNode(const Node& node, const NodePlace& place);
  /// The outputs of a call of a model-local function, typed through its body.
  void inferCall(const Function& function, InferenceContext& ctx, const NodePlace& place);
  void writeBack();

  ValueState& stateOf(const Value& value);
  /// Records a node output: merged with its declaration (a conflict is R36).
  ValueState& setOutput(Value& value, InferenceContext::OutputSlot slot,
                        const std::function<std::string()>& path);
  /// A tensor type whose every dimension is a number or a named expression.
  bool isComplete(const InferredType& type) const;
  /// The dim_param text of a symbolic dimension, in the model's arena (made once).
  std::string_view declaredText(DimValue dim);
  /// The type `value` is declared with, as InferOptions::trust_value_info says; null when
  /// none counts.
  const Type* declaredType(const Value& value) const;
  /// Records what is known of `value` in InferResult::values (InferOptions::keep_values),
  /// for the values of the main graph and the graphs nested in it.
  void keep(const Value& value, const ValueState& state);

  const Model& model_;
  Model* writable_;  // model_ when its types may be written back
  const InferOptions& options_;
  // Whether the initializers listed as graph inputs are constants (onyx/ir/constant_value.h).
  InitializerInputs initializer_inputs_;
  CalleeResolver callees_;
  InferResult& result_;
  SymbolicDims& dims_;  // the result's: callers read dimensions and elements through it
  std::vector<std::string_view> declared_text_;  // by expression index; empty: not made yet
  Frame* frame_ = nullptr;
  // Where the walk is, for paths of subgraphs: the node being inferred.
  const NodePlace* current_place_ = nullptr;
  // How many branches that may not run enclose the walk.
  int speculative_depth_ = 0;
  std::vector<InferenceContext::InputSlot> scratch_inputs_;
  std::vector<InferenceContext::OutputSlot> scratch_outputs_;
  // Node outputs of the main frame whose type says more than the model declares, written
  // back once after the walk: a rule may infer a body more than once (Loop's carried
  // values, until their types settle), and a type written back after the first pass would
  // read as a declaration in the second. A value may be listed twice; its last state wins.
  std::vector<std::pair<Value*, const ValueState*>> to_write_back_;
};

}  // namespace onyx::infer
