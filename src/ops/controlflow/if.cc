// If (ai.onnx), versions 1, 11, 13, 16, 19, 21, 23, 24, 25.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include <cstddef>
#include <string>

#include "onyx/core/element_type.h"
#include "onyx/ir/attribute.h"
#include "onyx/ir/graph.h"
#include "onyx/ir/type.h"
#include "onyx/ir/value.h"
#include "ops/kernels.h"
#include "ops/lib/subgraph_types.h"
#include "ops/node_draft.h"
#include "ops/schema_dsl.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

std::string kindText(const InferredType& type) {
  switch (type.kind) {
    case InferredType::Kind::kTensor: {
      const ElementTypeInfo* info = elementTypeInfo(type.elem_type);
      return info != nullptr ? "a tensor of " + std::string(info->shortName) : "a tensor";
    }
    case InferredType::Kind::kSparseTensor: return "a sparse tensor";
    case InferredType::Kind::kSequence: return "a sequence";
    case InferredType::Kind::kOptional: return "an optional";
    case InferredType::Kind::kMap: return "a map";
    default: return "a value";
  }
}

// Whether the two branches give values that cannot be the same output: other kinds, or
// tensors of other element types.
bool contradicts(const InferredType& a, const InferredType& b) {
  if (!a.isKnown() || !b.isKnown()) return false;
  if (a.kind != b.kind) return true;
  return a.isTensorLike() && a.elem_type != 0 && b.elem_type != 0 && a.elem_type != b.elem_type;
}

void inferIf(InferenceContext& ctx) {
  const Graph* then_branch = ctx.graphAttribute("then_branch");
  const Graph* else_branch = ctx.graphAttribute("else_branch");
  if (then_branch == nullptr || else_branch == nullptr) return;
  // A condition known from constants picks the branch that runs; otherwise both are
  // inferred, and what a branch's rules refuse is not an error (it may be dead code for
  // these shapes, as in functions that branch on the input's rank).
  if (const Dims* condition = ctx.inputData(0);
      condition != nullptr && condition->size() == 1 && (*condition)[0].isKnown()) {
    const Graph* taken = (*condition)[0].value() != 0 ? then_branch : else_branch;
    std::vector<InferredType> types = ctx.inferSubgraph(*taken, {});
    for (size_t i = 0; i < ctx.outputCount() && i < types.size(); ++i) {
      if (ctx.hasOutput(i)) ctx.setOutputType(i, std::move(types[i]));
    }
    return;
  }
  std::vector<InferredType> then_types = ctx.inferSubgraph(*then_branch, {}, true);
  std::vector<InferredType> else_types = ctx.inferSubgraph(*else_branch, {}, true);
  if (then_types.size() != else_types.size()) {
    ctx.fail("then_branch has " + std::to_string(then_types.size()) + " outputs, else_branch " +
             std::to_string(else_types.size()));
    return;
  }
  if (ctx.outputCount() > then_types.size()) {
    ctx.fail("If has " + std::to_string(ctx.outputCount()) + " outputs, its branches " +
             std::to_string(then_types.size()));
    return;
  }
  for (size_t i = 0; i < ctx.outputCount(); ++i) {
    if (contradicts(then_types[i], else_types[i])) {
      ctx.fail("output " + std::to_string(i) + " is " + kindText(then_types[i]) +
               " in then_branch but " + kindText(else_types[i]) + " in else_branch");
      return;
    }
  }
  for (size_t i = 0; i < ctx.outputCount(); ++i) {
    if (!ctx.hasOutput(i)) continue;
    InferredType merged = unionOfTypes(ctx.dims(), then_types[i], else_types[i]);
    if (merged.isKnown()) ctx.setOutputType(i, std::move(merged));
  }
}

Status runIf(KernelContext& ctx) {
  const Array* cond = ctx.inputArray(0);
  if (cond == nullptr || cond->type() != ElementType::kBool || cond->size() != 1) {
    return ctx.fail("cond must be one bool element");
  }
  bool taken = cond->data<bool>()[0];
  const Graph* branch = ctx.graphAttribute(taken ? "then_branch" : "else_branch");
  if (branch == nullptr) return ctx.fail("a branch is missing");
  Result<std::vector<EvalValue>> outputs = ctx.runSubgraph(*branch, {});
  if (!outputs) return outputs.status();
  if (outputs->size() < ctx.outputCount()) {
    return ctx.fail(std::string(taken ? "then_branch" : "else_branch") + " gives " +
                    std::to_string(outputs->size()) + " outputs, If has " +
                    std::to_string(ctx.outputCount()));
  }
  for (size_t i = 0; i < ctx.outputCount(); ++i) ctx.setOutput(i, std::move((*outputs)[i]));
  return Status::ok();
}

// Whether two declared types are tensors whose shapes are known to differ: in rank, or in a
// dimension both give as a number.
bool shapesDiffer(const Type* a, const Type* b) {
  if (a == nullptr || b == nullptr || !a->isTensor() || !b->isTensor()) return false;
  if (a->shape == nullptr || b->shape == nullptr) return false;
  if (a->shape->rank() != b->shape->rank()) return true;
  for (size_t i = 0; i < a->shape->rank(); ++i) {
    const Dimension& x = a->shape->dims[i];
    const Dimension& y = b->shape->dims[i];
    if (x.isKnown() && y.isKnown() && x.dim_value != y.dim_value) return true;
  }
  return false;
}

// Down to version 1, where the branches' outputs must have one shape (version 11 lets them
// differ): refused when the branches declare shapes known to differ.
Status branchesOfOneShape(NodeDraft& draft) {
  const Attribute* then_branch = draft.attribute("then_branch");
  const Attribute* else_branch = draft.attribute("else_branch");
  if (then_branch == nullptr || else_branch == nullptr || then_branch->g == nullptr ||
      else_branch->g == nullptr) {
    return Status::ok();  // the signature check or the checker says what is wrong
  }
  const Graph& a = *then_branch->g;
  const Graph& b = *else_branch->g;
  for (size_t i = 0; i < a.outputs.size() && i < b.outputs.size(); ++i) {
    if (a.outputs[i] != nullptr && b.outputs[i] != nullptr &&
        shapesDiffer(a.outputs[i]->type, b.outputs[i]->type)) {
      return draft.refuse("the branches give output " + std::to_string(i) +
                          " in shapes that differ");
    }
  }
  return Status::ok();
}

}  // namespace

constexpr Formals kInputs1 = {{"cond", "B"}};
constexpr Formals kOutputs1 = {heterogeneous("outputs", "V", 1)};
constexpr Attributes kAttributes1 = {required("else_branch", kGraph),
                                     required("then_branch", kGraph)};
constexpr Constraints kConstraints1 = {{"V", tensor(kIr3Types)}, {"B", tensor("bool")}};

extern const Operator kIf;
constexpr Operator kIf{
    .domain = kOnnxDomain,
    .name = "If",
    .versions = {
        {.since_version = 1,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = kAttributes1,
         .constraints = kConstraints1,
         .infer = inferIf,
         .kernel = runIf},
        {.since_version = 11,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = kAttributes1,
         .constraints = kConstraints1,
         .infer = inferIf,
         .kernel = runIf,
         .step = {.reviewed = true,
                  .change = "the branches may give outputs of different shapes",
                  .down = branchesOfOneShape,
                  .down_refuses = "branches declaring outputs of shapes known to differ"}},
        {.since_version = 13,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = kAttributes1,
         .constraints = {{"V", tensor(kIr3Types) | sequence(kIr3Types)}, {"B", tensor("bool")}},
         .infer = inferIf,
         .kernel = runIf,
         .step = typesOnly("sequence types added")},
        {.since_version = 16,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = kAttributes1,
         .constraints = {{"V", tensor(kIr4Types) | sequence(kIr4Types) | optionalTensor(kIr4Types) |
                                   optionalSequence(kIr4Types)},
                         {"B", tensor("bool")}},
         .infer = inferIf,
         .kernel = runIf,
         .step = typesOnly("bfloat16 and optional types added")},
        {.since_version = 19,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = kAttributes1,
         .constraints = {{"V", tensor(kIr9Types) | sequence(kIr9Types) | optionalTensor(kIr9Types) |
                                   optionalSequence(kIr4Types)},
                         {"B", tensor("bool")}},
         .infer = inferIf,
         .kernel = runIf,
         .step = typesOnly("float8 types added")},
        {.since_version = 21,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = kAttributes1,
         .constraints = {{"V", tensor(kIr10Types) | sequence(kIr10Types) |
                                   optionalTensor(kIr10Types) | optionalSequence(kIr4Types)},
                         {"B", tensor("bool")}},
         .infer = inferIf,
         .kernel = runIf,
         .step = typesOnly("int4 and uint4 added")},
        {.since_version = 23,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = kAttributes1,
         .constraints = {{"V", tensor(kIr11Types) | sequence(kIr11Types) |
                                   optionalTensor(kIr11Types) | optionalSequence(kIr4Types)},
                         {"B", tensor("bool")}},
         .infer = inferIf,
         .kernel = runIf,
         .step = typesOnly("float4e2m1 added")},
        {.since_version = 24,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = kAttributes1,
         .constraints = {{"V", tensor(kIr12Types) | sequence(kIr12Types) |
                                   optionalTensor(kIr12Types) | optionalSequence(kIr4Types)},
                         {"B", tensor("bool")}},
         .infer = inferIf,
         .kernel = runIf,
         .step = typesOnly("float8e8m0 added")},
        {.since_version = 25,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = kAttributes1,
         .constraints = {{"V", tensor(kIr13Types) | sequence(kIr13Types) |
                                   optionalTensor(kIr13Types) | optionalSequence(kIr4Types)},
                         {"B", tensor("bool")}},
         .infer = inferIf,
         .kernel = runIf,
         .step = typesOnly("int2 and uint2 added")},
    }};
static_assert(isWellFormed(kIf));

}  // namespace onyx::ops::ai_onnx
