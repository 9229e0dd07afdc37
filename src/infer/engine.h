// Internal: the inference walk. One Engine per inferModel call.
#pragma once

#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

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
  struct ValueState {
    InferredType type;
    std::optional<Dims> data;
    const Tensor* constant = nullptr;
    bool improves_declaration = false;  // write back: the type says more than the model did
  };

  struct OpsetEntry {
    std::string_view domain;  // "" for ai.onnx
    int64_t version;
  };

  // A scope of values with types: the main graph with its subgraphs, or one call of a
  // model-local function (its body is closed, so it needs nothing from outside).
  struct Frame {
    std::unordered_map<const Value*, ValueState> values;
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

  Model& model_;
  const InferOptions& options_;
  InferResult& result_;
  SymbolicDims dims_;
  Frame* frame_ = nullptr;
  // Where the walk is, for paths of subgraphs: the node being inferred and its path.
  const Node* current_node_ = nullptr;
  const std::string* current_path_ = nullptr;
  // The subgraphs of the main frame inferred so far, written back after the walk.
  std::vector<Graph*> subgraphs_;
};

}  // namespace onyx::infer
