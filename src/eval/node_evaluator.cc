// One node run alone with the evaluator's kernels, for constant folding: the node's operator
// version is resolved where the node is (the model's imports, or those of the function whose
// body holds it), a provider is asked first as a plan asks it, and the kernel runs in a
// context that gives no input's storage away (the inputs are the model's constants).
#include "onyx/eval/node_evaluator.h"

#include "eval/kernels/native_kernel_table.h"
#include "eval/kernels/onednn_support.h"
#include "eval/providers/provider.h"
#include "onyx/core/quote.h"
#include "onyx/ir/attribute.h"
#include "onyx/ir/function.h"
#include "onyx/ir/graph_scope.h"
#include "onyx/ir/node.h"
#include "onyx/ops/callee.h"
#include "onyx/ops/kernel_context.h"

namespace onyx {

namespace {

// The host of a node run alone: one thread (results do not depend on it), the evaluator's
// native kernels, no subgraphs (nodes that hold graphs are refused before).
class AloneHost final : public KernelHost {
 public:
  Result<std::vector<EvalValue>> runSubgraph(const Graph&, std::vector<EvalValue>) override {
    return Status(ErrorCode::kUnsupported, "a node run alone has no subgraphs");
  }
  const NativeKernels* nativeKernels() const override { return &eval_internal::nativeKernels(); }
};

Status refused(const Node& node, std::string_view why) {
  return Status(ErrorCode::kUnsupported, std::string(node.opType()) + " " +
                                             quoted(node.nameOrEmpty()) + ": " + std::string(why));
}

}  // namespace

Result<std::vector<EvalValue>> KernelNodeEvaluator::run(const Model& model, const Node& node,
                                                        std::span<const EvalValue> inputs) {
  for (const Attribute* attribute : node.attributes) {
    if (attribute->isReference()) return refused(node, "an attribute refers to a caller's");
    if (attribute->g != nullptr || !attribute->rare().graphs.empty()) {
      return refused(node, "it holds a graph");
    }
  }
  if (inputs.size() != node.inputCount()) {
    return Status(ErrorCode::kInvalidArgument, "one value per input of the node is needed");
  }
  CalleeResolver callees(model);
  Callee callee = callees.resolve(node, scopeOf(model, node).imports);
  if (callee.schema == nullptr) return refused(node, "not a standard operator at this opset");
  if (callee.schema->kernel == nullptr) return refused(node, "onyx runs it as a function");
  eval_internal::capOneDnnIsa();
  AloneHost host;
  KernelContext ctx(node, *callee.schema, callee.opset.value_or(0), host);
  ctx.inputs_.resize(inputs.size(), nullptr);
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (node.input(i) != nullptr) ctx.inputs_[i] = &inputs[i];
  }
  ctx.last_read_.assign(inputs.size(), false);  // every input stays the model's
  ctx.outputs_.resize(node.outputCount());
  ctx.wanted_.resize(node.outputCount());
  for (size_t i = 0; i < node.outputCount(); ++i) ctx.wanted_[i] = node.output(i) != nullptr;
  for (const eval_internal::Provider* provider : eval_internal::providers()) {
    std::unique_ptr<eval_internal::ProvidedKernel> provided =
        // Run once and dropped: nothing it could prepare once is kept, so no input is taken
        // for a constant.
        provider->kernel(node, *callee.schema, callee.opset.value_or(0),
                         InitializerInputs::kOverridable);
    if (provided == nullptr) continue;
    Result<bool> ran = provided->run(ctx);
    if (!ran) return ran.status();
    if (*ran) return std::move(ctx.outputs_);
    break;  // declined: the built-in kernel runs, as in a plan
  }
  ONYX_RETURN_IF_ERROR(callee.schema->kernel(ctx));
  return std::move(ctx.outputs_);
}

}  // namespace onyx
