// onyx/ops/inference_context.h — what an operator's shape-inference rule sees and sets.
//
// A rule is a plain function beside the operator's signature (OpSchema::infer):
//
//   void inferTranspose(InferenceContext& ctx) {
//     const Dims* in = ctx.inputShape(0);
//     if (in == nullptr) return;            // rank unknown: nothing more to say
//     ...
//     ctx.setOutputShape(0, std::move(out));
//   }
//
// Before the rule runs, the engine has already given each output the element type its
// type variable implies (an output typed T when an input typed T is known, a fixed type
// such as tensor(int64)); the rule adds the shape, or sets a type the signature cannot
// imply (Cast's `to`). A rule that finds the node's inputs inconsistent calls fail(), which
// becomes a diagnostic naming the node; it never throws and never reads past what it checked.
//
// Data propagation: for small integer tensors (shapes, axes, pads, ...) the engine keeps
// their elements as DimValues, known or symbolic, so that Shape → Gather → Concat →
// Reshape gives Reshape a symbolic target shape. Rules for operators that compute such
// values call setOutputData().
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "onyx/core/status.h"
#include "onyx/ops/inferred_type.h"
#include "onyx/ops/node_context.h"
#include "onyx/ops/op_schema.h"

// Exported from the shared libraries: the public API (see src/CMakeLists.txt).
#pragma GCC visibility push(default)

namespace onyx {

struct Attribute;
struct Function;
struct Graph;
struct Node;
struct Tensor;

/// The engine's side of a context: what needs the engine's state.
class InferenceHost {
 public:
  virtual ~InferenceHost() = default;
  /// Infers `graph` (a graph attribute of the node) with its formal inputs typed `inputs`
  /// (fewer than its inputs: the rest keep their declared types); the output types, one per
  /// graph output (unknown where not inferred). `may_not_run`: the graph is a branch that
  /// may be dead for these inputs (an If whose condition is unknown), so what its nodes'
  /// rules refuse is a note, not an error.
  virtual std::vector<InferredType> inferSubgraph(const Graph& graph,
                                                  std::span<const InferredType> inputs,
                                                  bool may_not_run) = 0;
};

/// The largest integer tensor whose elements are propagated as data.
inline constexpr size_t kMaxPropagatedElements = 1024;

class InferenceContext : public NodeContext {
 public:
  SymbolicDims& dims() { return *dims_; }

  // ---- inputs ---------------------------------------------------------------------------

  /// The node's input slots, omitted optional ones ("") included.
  size_t inputCount() const { return inputs_.size(); }
  /// Whether input `i` exists and is not omitted.
  bool hasInput(size_t i) const { return i < inputs_.size() && inputs_[i].present; }
  /// Its type; null when the input is absent or its type unknown.
  const InferredType* inputType(size_t i) const;
  /// The element type of a tensor input; 0 when unknown.
  int32_t inputElemType(size_t i) const;
  /// The dims of a tensor input; null when absent or of unknown rank.
  const Dims* inputShape(size_t i) const;
  /// The rank of a tensor input, when known.
  std::optional<size_t> inputRank(size_t i) const;
  /// The elements of an integer tensor input of rank 0 or 1 (a scalar gives one element),
  /// where the engine knows them (from a constant, or propagated); null otherwise.
  const Dims* inputData(size_t i) const;
  /// The value of an input that is a constant (an initializer not overridable as a graph
  /// input, or a Constant node's output); null otherwise.
  const Tensor* inputConstant(size_t i) const;

  // ---- outputs --------------------------------------------------------------------------

  /// The node's output slots, omitted optional ones ("") included.
  size_t outputCount() const { return outputs_.size(); }
  bool hasOutput(size_t i) const { return i < outputs_.size() && outputs_[i].present; }
  /// What is set so far (by the engine from the signature, or by the rule).
  const InferredType& outputType(size_t i) const { return outputs_[i].type; }
  int32_t outputElemType(size_t i) const { return outputs_[i].type.elem_type; }

  void setOutputType(size_t i, InferredType type);
  /// A tensor output of this element type; the rank stays as it was (unknown at first).
  void setOutputElemType(size_t i, int32_t elem_type);
  /// A tensor output with these dims; its element type stays as it was.
  void setOutputShape(size_t i, Dims dims);
  /// A tensor output of rank `rank` with every dimension unknown (a fresh symbol each). A
  /// rank above kMaxPropagatedElements (from an absurd length in a crafted model) leaves the
  /// rank unknown instead.
  void setOutputRank(size_t i, size_t rank);
  /// A tensor output of this element type and these dims.
  void setOutputTensor(size_t i, int32_t elem_type, Dims dims);
  /// Output `i`'s elements (an integer tensor of rank 0 or 1), for the rules downstream.
  void setOutputData(size_t i, Dims data);
  /// Output `i` is this constant tensor (a Constant's value), which it outlives.
  void setOutputConstant(size_t i, const Tensor* tensor);

  // ---- results that are not types -------------------------------------------------------

  /// The node's inputs or attributes do not fit the operator (incompatible broadcast, a
  /// Reshape to a different element count, an axis out of range): an error diagnostic.
  void fail(std::string message);
  /// Why an output stays unknown, for `--verbose` and strict mode.
  void note(std::string reason);

  /// Infers a graph attribute of this node (see InferenceHost::inferSubgraph).
  std::vector<InferredType> inferSubgraph(const Graph& graph, std::span<const InferredType> inputs,
                                          bool may_not_run = false) {
    return host_->inferSubgraph(graph, inputs, may_not_run);
  }

  // ---- for the engine -------------------------------------------------------------------

  struct InputSlot {
    bool present = false;
    const InferredType* type = nullptr;
    const Dims* data = nullptr;
    const Tensor* constant = nullptr;
    // Set when the rule asked for the input's elements and they were not known: the
    // outputs then depend on values inference cannot see.
    mutable bool data_wanted = false;
  };
  struct OutputSlot {
    bool present = false;
    InferredType type;
    std::optional<Dims> data;
    const Tensor* constant = nullptr;
  };

  InferenceContext(const Node& node, const OpSchema& schema, int64_t opset, SymbolicDims& dims,
                   InferenceHost& host)
      : NodeContext(node, schema, opset), dims_(&dims), host_(&host) {}

  std::vector<InputSlot> inputs_;
  std::vector<OutputSlot> outputs_;
  std::vector<std::string> failures_;
  std::vector<std::string> notes_;

 private:
  SymbolicDims* dims_;
  InferenceHost* host_;
};

/// An operator version's rule (OpSchema::infer).
using InferenceRule = void (*)(InferenceContext&);

}  // namespace onyx

#pragma GCC visibility pop
