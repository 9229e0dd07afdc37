// Internal: the inference walk. One Engine per inferModel call.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "infer/value_states.h"
#include "onyx/infer/infer.h"
#include "onyx/ops/inference_context.h"

namespace onyx::infer {

class Engine final : public InferenceHost {
 public:
  Engine(Model& model, const InferOptions& options, InferResult& result);

  void run();

  std::vector<InferredType> inferSubgraph(const Graph& graph,
                                          std::span<const InferredType> inputs) override;

 private:
  struct OpsetEntry {
    std::string_view domain;  // "" for ai.onnx
    int64_t version;
  };

  // A scope of values with types: the main graph with its subgraphs, or one call of a
  // model-local function (its body is closed, so it needs nothing from outside).
  struct Frame {
    ValueStates values;
    std::vector<OpsetEntry> opsets;
    bool write_back = false;
    const Node* caller = nullptr;
    const Function* callee = nullptr;
    int depth = 0;
  };

  void inferGraph(Graph& graph, const std::string& path);
  void inferNode(Node& node, const std::string& node_path);
  /// The outputs of a call of a model-local function, typed through its body.
  void inferCall(const Function& function, InferenceContext& ctx, const std::string& node_path);
  void writeBack(Graph& graph);

  ValueState& stateOf(const Value& value);
  /// Records a node output: merged with its declaration (a conflict is R36).
  void setOutput(const Value& value, InferenceContext::OutputSlot slot, const std::string& path);
  std::optional<int64_t> opsetOf(std::string_view domain) const;
  /// The dim_param text of a symbolic dimension, in the model's arena (made once).
  std::string_view declaredText(DimValue dim);

  Model& model_;
  const InferOptions& options_;
  InferResult& result_;
  SymbolicDims dims_;
  std::vector<std::string_view> declared_text_;  // by expression index; empty: not made yet
  Frame* frame_ = nullptr;
  // Where the walk is, for paths of subgraphs: the node being inferred and its path.
  const Node* current_node_ = nullptr;
  const std::string* current_path_ = nullptr;
};

}  // namespace onyx::infer
