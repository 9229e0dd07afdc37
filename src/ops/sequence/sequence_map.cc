// SequenceMap (ai.onnx), versions 17.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include <string>
#include <vector>

#include "onyx/ir/graph.h"
#include "onyx/ops/inference_context.h"
#include "ops/schema_dsl.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

// The body runs once per element: it takes the sequences' elements and the tensors as
// they are, and each of its outputs becomes a sequence.
void inferSequenceMap(InferenceContext& ctx) {
  const Graph* body = ctx.graphAttribute("body");
  if (body == nullptr) return;
  if (body->inputs.size() != ctx.inputCount()) {
    ctx.fail("the body takes " + std::to_string(body->inputs.size()) +
             " inputs, SequenceMap gives " + std::to_string(ctx.inputCount()));
    return;
  }
  if (ctx.outputCount() > body->outputs.size()) {
    ctx.fail("SequenceMap has " + std::to_string(ctx.outputCount()) + " outputs, its body " +
             std::to_string(body->outputs.size()));
    return;
  }
  std::vector<InferredType> inputs(ctx.inputCount());
  for (size_t i = 0; i < ctx.inputCount(); ++i) {
    const InferredType* type = ctx.inputType(i);
    if (type == nullptr) continue;
    if (type->kind == InferredType::Kind::kSequence) {
      if (type->elem != nullptr) inputs[i] = *type->elem;
    } else {
      inputs[i] = *type;
    }
  }
  std::vector<InferredType> outputs = ctx.inferSubgraph(*body, inputs);
  for (size_t i = 0; i < ctx.outputCount() && i < outputs.size(); ++i) {
    if (ctx.hasOutput(i) && outputs[i].isKnown()) {
      ctx.setOutputType(i, InferredType::sequence(std::move(outputs[i])));
    }
  }
}

}  // namespace

extern const Operator kSequenceMap;
constexpr Operator kSequenceMap{
    .domain = kOnnxDomain,
    .name = "SequenceMap",
    .versions = {
        {.since_version = 17,
         .inputs = {{"input_sequence", "S"}, heterogeneous("additional_inputs", "V", 0)},
         .outputs = {heterogeneous("out_sequence", "S", 1)},
         .attributes = {required("body", kGraph)},
         .constraints = {{"S", sequence(kIr3Types)},
                         {"V", tensor(kIr3Types) | sequence(kIr3Types)}},
         .infer = inferSequenceMap},
    }};
static_assert(isWellFormed(kSequenceMap));

}  // namespace onyx::ops::ai_onnx
