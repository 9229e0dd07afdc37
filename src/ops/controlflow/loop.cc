// Loop (ai.onnx), versions 1, 11, 13, 16, 19, 21, 23, 24, 25.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include <string>

#include "onyx/core/element_type.h"
#include "onyx/ir/type.h"
#include "onyx/ir/value.h"
#include "ops/controlflow/control_kernels.h"
#include "ops/kernels.h"
#include "ops/lib/subgraph_types.h"
#include "ops/schema_dsl.h"
#include "ops/type_conversion.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

constexpr int32_t kInt64Element = 7;
constexpr int32_t kBoolElement = 9;

// Body inputs: the iteration number, the condition, then the loop-carried values. Body
// outputs: the condition, the carried values, then the scan outputs, which the Loop stacks
// along a new first axis of one length per run (the trip count when nothing else can stop
// the loop, else unknown).
void inferLoop(InferenceContext& ctx) {
  const Graph* body = ctx.graphAttribute("body");
  if (body == nullptr) return;
  size_t carried_count = ctx.inputCount() > 2 ? ctx.inputCount() - 2 : 0;
  if (body->passedInputCount() != carried_count + 2) {
    ctx.fail("the body takes " + std::to_string(body->passedInputCount()) +
             " inputs, Loop gives 2 + " + std::to_string(carried_count) + " loop-carried values");
    return;
  }
  if (body->outputs.size() < carried_count + 1) {
    ctx.fail("the body has " + std::to_string(body->outputs.size()) + " outputs, fewer than 1 + " +
             std::to_string(carried_count) + " loop-carried values");
    return;
  }
  size_t scan_count = body->outputs.size() - 1 - carried_count;
  if (ctx.outputCount() > carried_count + scan_count) {
    ctx.fail("Loop has " + std::to_string(ctx.outputCount()) + " outputs, its body gives " +
             std::to_string(carried_count) + " loop-carried values and " +
             std::to_string(scan_count) + " scan outputs");
    return;
  }
  std::vector<InferredType> inputs;
  inputs.reserve(carried_count + 2);
  // Scalars by the spec; but exporters declare them as [1] too and runtimes accept that,
  // so a declared body input keeps its own shape.
  auto counter = [&](size_t i, int32_t elem_type) {
    const Value* formal = body->inputs[i] != nullptr ? body->inputs[i]->value : nullptr;
    bool declared = formal != nullptr && formal->type() != nullptr;
    return declared ? InferredType::tensor(elem_type) : InferredType::tensor(elem_type, {});
  };
  inputs.push_back(counter(0, kInt64Element));
  inputs.push_back(counter(1, kBoolElement));
  for (size_t k = 0; k < carried_count; ++k) {
    const InferredType* type = ctx.inputType(k + 2);
    inputs.push_back(type != nullptr ? *type : InferredType{});
  }
  std::vector<InferredType> carried;
  std::vector<InferredType> outputs =
      inferLoopBody(ctx, *body, std::move(inputs), 2, 1, carried_count, carried);
  for (size_t k = 0; k < carried_count && k < ctx.outputCount(); ++k) {
    if (ctx.hasOutput(k) && carried[k].isKnown()) ctx.setOutputType(k, std::move(carried[k]));
  }
  if (ctx.outputCount() <= carried_count) return;
  DimValue iterations = ctx.dims().fresh();
  const Dims* trip_count = ctx.inputData(0);
  // Constant's rule keeps a `value` tensor as a constant, not as data.
  std::optional<Dims> constant_trip_count;
  if (trip_count == nullptr && ctx.inputConstant(0) != nullptr) {
    constant_trip_count = ops::integerElements(*ctx.inputConstant(0));
    if (constant_trip_count) trip_count = &*constant_trip_count;
  }
  if (!ctx.hasInput(1) && trip_count != nullptr && trip_count->size() == 1 &&
      (*trip_count)[0].isKnown() && (*trip_count)[0].value() >= 0) {
    iterations = (*trip_count)[0];
  }
  for (size_t j = 0; carried_count + j < ctx.outputCount(); ++j) {
    if (!ctx.hasOutput(carried_count + j)) continue;
    const InferredType& slice = outputs[1 + carried_count + j];
    if (!slice.isKnown()) continue;
    ctx.setOutputType(carried_count + j, withAxisInserted(slice, 0, iterations));
  }
}

Status runLoop(KernelContext& ctx) {
  const Graph* body = ctx.graphAttribute("body");
  if (body == nullptr) return ctx.fail("the required graph attribute body is missing");
  size_t carried_count = ctx.inputCount() > 2 ? ctx.inputCount() - 2 : 0;
  if (body->passedInputCount() != carried_count + 2) {
    return ctx.fail("the body takes " + std::to_string(body->passedInputCount()) +
                    " inputs, Loop gives 2 + " + std::to_string(carried_count));
  }
  if (body->outputs.size() < carried_count + 1) {
    return ctx.fail("the body has fewer outputs than 1 + the loop-carried values");
  }
  size_t scan_count = body->outputs.size() - 1 - carried_count;
  std::optional<int64_t> trip_count;
  if (const Array* m = ctx.inputArray(0)) {
    trip_count = singleInteger(*m);
    if (!trip_count) return ctx.fail("M must be one int64 element");
  }
  bool use_cond = ctx.hasInput(1);
  bool cond = true;
  if (use_cond) {
    const Array* c = ctx.inputArray(1);
    if (c == nullptr || c->type() != ElementType::kBool || c->size() != 1) {
      return ctx.fail("cond must be one bool element");
    }
    cond = c->data<bool>()[0];
  }
  std::vector<EvalValue> carried(carried_count);
  for (size_t k = 0; k < carried_count; ++k) {
    if (const EvalValue* value = ctx.input(k + 2)) carried[k] = *value;
  }
  std::vector<std::vector<Array>> scans(scan_count);
  int64_t bound = ctx.maxIterations();
  int64_t iteration = 0;
  for (; cond && (!trip_count || iteration < *trip_count); ++iteration) {
    if (iteration >= bound) {
      return ctx.fail("the loop runs past " + std::to_string(bound) +
                      " iterations, the evaluator's bound");
    }
    std::vector<EvalValue> arguments;
    arguments.reserve(carried_count + 2);
    arguments.push_back(EvalValue::of(Array::scalar(ElementType::kInt64, iteration)));
    arguments.push_back(EvalValue::of(Array::scalar(ElementType::kBool, cond)));
    for (EvalValue& value : carried) arguments.push_back(std::move(value));
    Result<std::vector<EvalValue>> outputs = ctx.runSubgraph(*body, std::move(arguments));
    if (!outputs) return outputs.status();
    if (outputs->size() != carried_count + 1 + scan_count) {
      return ctx.fail("the body gave " + std::to_string(outputs->size()) + " outputs");
    }
    if (use_cond) {
      const EvalValue& next = (*outputs)[0];
      if (!next.isTensor() || next.tensor.type() != ElementType::kBool || next.tensor.size() != 1) {
        return ctx.fail("the body's condition output is not one bool element");
      }
      cond = next.tensor.data<bool>()[0];
    }
    for (size_t k = 0; k < carried_count; ++k) carried[k] = std::move((*outputs)[1 + k]);
    for (size_t j = 0; j < scan_count; ++j) {
      const EvalValue& slice = (*outputs)[1 + carried_count + j];
      if (!slice.isTensor()) return ctx.fail("scan output " + std::to_string(j) + " is no tensor");
      if (!scans[j].empty() && (slice.tensor.shape() != scans[j][0].shape() ||
                                slice.tensor.type() != scans[j][0].type())) {
        return ctx.fail("scan output " + std::to_string(j) +
                        " changes its shape or element type between iterations");
      }
      scans[j].push_back(slice.tensor);
    }
  }
  for (size_t k = 0; k < carried_count && k < ctx.outputCount(); ++k) {
    ctx.setOutput(k, std::move(carried[k]));
  }
  for (size_t j = 0; j < scan_count && carried_count + j < ctx.outputCount(); ++j) {
    if (scans[j].empty()) {
      ctx.setOutput(carried_count + j, emptyScanOutput(*body, 1 + carried_count + j));
      continue;
    }
    std::string error;
    std::optional<Array> stacked = stackAlongAxis(scans[j], 0, error);
    if (!stacked) return ctx.fail("scan output " + std::to_string(j) + ": " + error);
    ctx.setOutput(carried_count + j, std::move(*stacked));
  }
  return Status::ok();
}

}  // namespace

constexpr Formals kInputs11 = {optional("M", "I"), optional("cond", "B"),
                               heterogeneous("v_initial", "V", 0)};
constexpr Formals kOutputs1 = {heterogeneous("v_final_and_scan_outputs", "V", 1)};
constexpr Attributes kAttributes1 = {required("body", kGraph)};
constexpr Constraints kConstraints1 = {
    {"V", tensor(kIr3Types)}, {"I", tensor("int64")}, {"B", tensor("bool")}};

extern const Operator kLoop;
constexpr Operator kLoop{
    .domain = kOnnxDomain,
    .name = "Loop",
    .versions = {
        {.since_version = 1,
         .inputs = {optional("M", "I"), optional("cond", "B"), heterogeneous("v_initial", "V", 1)},
         .outputs = kOutputs1,
         .attributes = kAttributes1,
         .constraints = kConstraints1,
         .infer = inferLoop,
         .kernel = runLoop},
        {.since_version = 11,
         .inputs = kInputs11,
         .outputs = kOutputs1,
         .attributes = kAttributes1,
         .constraints = kConstraints1,
         .infer = inferLoop,
         .kernel = runLoop,
         .step = {.reviewed = true,
                  .change = "loop-carried values optional (v_initial may be empty)",
                  .down_refuses = "a node without loop-carried values"}},
        {.since_version = 13,
         .inputs = kInputs11,
         .outputs = kOutputs1,
         .attributes = kAttributes1,
         .constraints = {{"V", tensor(kIr3Types) | sequence(kIr3Types)},
                         {"I", tensor("int64")},
                         {"B", tensor("bool")}},
         .infer = inferLoop,
         .kernel = runLoop,
         .step = typesOnly("sequence types added")},
        {.since_version = 16,
         .inputs = kInputs11,
         .outputs = kOutputs1,
         .attributes = kAttributes1,
         .constraints = {{"V", tensor(kIr4Types) | sequence(kIr4Types) | optionalTensor(kIr4Types) |
                                   optionalSequence(kIr4Types)},
                         {"I", tensor("int64")},
                         {"B", tensor("bool")}},
         .infer = inferLoop,
         .kernel = runLoop,
         .step = typesOnly("bfloat16 and optional types added")},
        {.since_version = 19,
         .inputs = kInputs11,
         .outputs = kOutputs1,
         .attributes = kAttributes1,
         .constraints = {{"V", tensor(kIr9Types) | sequence(kIr9Types) | optionalTensor(kIr9Types) |
                                   optionalSequence(kIr4Types)},
                         {"I", tensor("int64")},
                         {"B", tensor("bool")}},
         .infer = inferLoop,
         .kernel = runLoop,
         .step = typesOnly("float8 types added")},
        {.since_version = 21,
         .inputs = kInputs11,
         .outputs = kOutputs1,
         .attributes = kAttributes1,
         .constraints = {{"V", tensor(kIr10Types) | sequence(kIr10Types) |
                                   optionalTensor(kIr10Types) | optionalSequence(kIr4Types)},
                         {"I", tensor("int64")},
                         {"B", tensor("bool")}},
         .infer = inferLoop,
         .kernel = runLoop,
         .step = typesOnly("int4 and uint4 added")},
        {.since_version = 23,
         .inputs = kInputs11,
         .outputs = kOutputs1,
         .attributes = kAttributes1,
         .constraints = {{"V", tensor(kIr11Types) | sequence(kIr11Types) |
                                   optionalTensor(kIr11Types) | optionalSequence(kIr4Types)},
                         {"I", tensor("int64")},
                         {"B", tensor("bool")}},
         .infer = inferLoop,
         .kernel = runLoop,
         .step = typesOnly("float4e2m1 added")},
        {.since_version = 24,
         .inputs = kInputs11,
         .outputs = kOutputs1,
         .attributes = kAttributes1,
         .constraints = {{"V", tensor(kIr12Types) | sequence(kIr12Types) |
                                   optionalTensor(kIr12Types) | optionalSequence(kIr4Types)},
                         {"I", tensor("int64")},
                         {"B", tensor("bool")}},
         .infer = inferLoop,
         .kernel = runLoop,
         .step = typesOnly("float8e8m0 added")},
        {.since_version = 25,
         .inputs = kInputs11,
         .outputs = kOutputs1,
         .attributes = kAttributes1,
         .constraints = {{"V", tensor(kIr13Types) | sequence(kIr13Types) |
                                   optionalTensor(kIr13Types) | optionalSequence(kIr4Types)},
                         {"I", tensor("int64")},
                         {"B", tensor("bool")}},
         .infer = inferLoop,
         .kernel = runLoop,
         .step = typesOnly("int2 and uint2 added")},
    }};
static_assert(isWellFormed(kLoop));

}  // namespace onyx::ops::ai_onnx
