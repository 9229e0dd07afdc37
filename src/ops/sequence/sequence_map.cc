// SequenceMap (ai.onnx), versions 17.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include <string>
#include <vector>
#include "onyx/core/quote.h"
#include "onyx/ir/clone.h"
#include "onyx/ir/editor.h"
#include "onyx/ir/graph.h"
#include "onyx/ir/type.h"
#include "onyx/ir/unique_names.h"
#include "onyx/ops/inference_context.h"
#include "onyx/text/printer.h"
#include "ops/body_text.h"
#include "ops/lib/sequence_kernels.h"
#include "ops/schema_dsl.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

// SequenceMap as the spec defines it: a Loop over the first sequence's positions whose body is
// `body` itself, its inputs taken from each sequence at the position (SequenceAt) or passed as
// they are, its outputs appended to one sequence each (SequenceInsert). The function has an
// input per node input and an output per node output (named after the variadic parameters);
// the body needs the element type of each `body` output, and reads nothing from outside.
Result<std::string> buildSequenceMap17(const FunctionBodyContext& context) {
  const Attribute* body_attribute = context.attribute("body");
  if (body_attribute == nullptr || body_attribute->g == nullptr) {
    return body::refuse("the required graph attribute body is missing");
  }
  const Graph& body_graph = *body_attribute->g;
  size_t inputs = body_graph.inputs.size();
  size_t outputs = body_graph.outputs.size();
  if (inputs < 1 || outputs < 1) return body::refuse("body needs an input and an output");
  if (context.node.inputCount() != inputs || context.node.outputCount() != outputs) {
    return body::refuse("the node's inputs and outputs must match body's");
  }
  for (size_t i = 0; i < inputs; ++i) {
    if (!context.hasInput(i)) return body::refuse("every input is needed");
  }
  for (size_t i = 0; i < outputs; ++i) {
    if (!context.hasOutput(i)) return body::refuse("every output is needed");
  }
  const Type* first = context.inputType(0);
  if (first == nullptr || first->kind != Type::Kind::kSequence) {
    return body::refuse("the body needs input_sequence's type, a sequence");
  }

  std::vector<std::string> formal_inputs{"input_sequence"};
  for (size_t i = 1; i < inputs; ++i)
    formal_inputs.push_back("additional_inputs_" + std::to_string(i));
  std::vector<std::string> formal_outputs;
  for (size_t i = 0; i < outputs; ++i)
    formal_outputs.push_back("out_sequence_" + std::to_string(i));

  // The loop is built as a graph, then printed: a scratch model whose main graph has the
  // function's inputs, and a Loop node holding a copy of `body`, turned into the loop's body.
  Model scratch;
  GraphEditor edit(scratch);
  scratch.graph = edit.newGraph();
  Graph& outer = *scratch.graph;
  std::vector<Value*> function_inputs;
  for (const std::string& name : formal_inputs) {
    function_inputs.push_back(edit.addInput(outer, name).value());
  }
  // The loop's other inputs are written as text below; here they are names the Loop reads.
  body::BodyText out(context, "SequenceMap");
  out.parameters(formal_inputs, formal_outputs);
  out.add("length = SequenceLength (input_sequence)").add("go = Constant <value = bool {1}> ()");
  std::vector<Value*> loop_inputs{edit.addInput(outer, "length").value(),
                                  edit.addInput(outer, "go").value()};
  for (size_t i = 0; i < outputs; ++i) {
    const Type* type = body_graph.outputs[i]->type;
    if (type == nullptr || type->kind != Type::Kind::kTensor || !type->elem_type) {
      return body::refuse("the body needs the element type of each of body's outputs");
    }
    std::string empty = "empty_" + std::to_string(i);
    out.addf("{} = SequenceEmpty <dtype = {}> ()", empty, *type->elem_type);
    loop_inputs.push_back(edit.addInput(outer, empty).value());
  }
  Node* loop = edit.createNode(outer, "Loop", loop_inputs, 0);
  for (const std::string& name : formal_outputs) (void)edit.addOutputNamed(loop, name);
  outer.appendNode(loop);

  Graph* step = edit.cloneGraph(body_graph, &outer, loop);
  edit.setGraphAttr(loop, "body", step);
  step->name = std::string_view("sequence_map_step");
  for (Value* value : step->values()) {
    if (value->graph() == step && value->isUndefined()) {
      return body::refuse("body reads " + quoted(value->name()) + ", which it does not define");
    }
  }
  // body's inputs become values computed at the top of the step; then the step's own inputs.
  std::vector<Value*> formal_values;
  for (const ValueInfo* input : step->inputs) formal_values.push_back(input->value);
  Value* iteration = nullptr;
  Value* keep_going = nullptr;
  std::vector<Node*> leading;
  for (size_t j = 0; j < inputs; ++j) {
    Value* formal = formal_values[j];
    std::string name(formal->name());
    const Type* type = context.inputType(j);
    bool sequence = type != nullptr && type->kind == Type::Kind::kSequence;
    Node* take = edit.createNode(*step, sequence ? "SequenceAt" : "Identity", {function_inputs[j]});
    formal->replaceAllUsesWith(take->output(0));
    ONYX_RETURN_IF_ERROR(step->removeInput(formal));
    ONYX_RETURN_IF_ERROR(edit.rename(take->output(0), name));
    leading.push_back(take);
  }
  iteration = edit.addInput(*step, edit.uniqueName(*step, "iteration"),
                            edit.tensorType(static_cast<int32_t>(body::kInt64), {}))
                  .value();
  keep_going = edit.addInput(*step, edit.uniqueName(*step, "keep_going"),
                             edit.tensorType(static_cast<int32_t>(body::kBool), {}))
                   .value();
  for (Node* take : leading) {
    if (take->opType() == "SequenceAt") edit.addInput(take, iteration);
  }
  Node* keep = edit.createNode(*step, "Identity", {keep_going});
  ONYX_RETURN_IF_ERROR(edit.rename(keep->output(0), edit.uniqueName(*step, "keep_going_out")));
  for (auto it = leading.rbegin(); it != leading.rend(); ++it) step->prependNode(*it);
  step->prependNode(keep);

  std::vector<Value*> produced;
  for (const ValueInfo* output : step->outputs) produced.push_back(output->bound());
  while (!step->outputs.empty()) ONYX_RETURN_IF_ERROR(step->removeOutput(0));
  edit.addOutput(*step, keep->output(0));
  edit.setType(keep->output(0), edit.tensorType(static_cast<int32_t>(body::kBool), {}));
  for (size_t i = 0; i < outputs; ++i) {
    Type* sequence_type = edit.sequenceType(edit.cloneType(*body_graph.outputs[i]->type));
    std::string stem = "accumulated_" + std::to_string(i);
    Value* before =
        edit.addInput(*step, edit.uniqueName(*step, stem + "_in"), sequence_type).value();
    Node* insert = edit.createNode(*step, "SequenceInsert", {before, produced[i]});
    ONYX_RETURN_IF_ERROR(edit.rename(insert->output(0), edit.uniqueName(*step, stem + "_out")));
    step->appendNode(insert);
    edit.setType(insert->output(0), edit.cloneType(*sequence_type));
    edit.addOutput(*step, insert->output(0));
  }

  PrintOptions options;
  options.loss_comments = false;
  out.add(printNode(*loop, options));
  return out.finish();
}

// The body runs once per element: it takes the sequences' elements and the tensors as
// they are, and each of its outputs becomes a sequence.
void inferSequenceMap(InferenceContext& ctx) {
  const Graph* body = ctx.graphAttribute("body");
  if (body == nullptr) return;
  if (body->passedInputCount() != ctx.inputCount()) {
    ctx.fail("the body takes " + std::to_string(body->passedInputCount()) +
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

Status runSequenceMap(KernelContext& ctx) {
  const Graph* body = ctx.graphAttribute("body");
  if (body == nullptr) return ctx.fail("the required graph attribute body is missing");
  const EvalValue* first = ctx.input(0);
  if (first == nullptr || first->kind != EvalValue::Kind::kSequence) {
    return ctx.fail("input_sequence is not a sequence");
  }
  size_t count = first->items.size();
  for (size_t i = 1; i < ctx.inputCount(); ++i) {
    const EvalValue* input = ctx.input(i);
    if (input == nullptr) return ctx.fail("input " + std::to_string(i) + " is missing");
    if (input->kind == EvalValue::Kind::kSequence && input->items.size() != count) {
      return ctx.fail("input " + std::to_string(i) + " holds " +
                      std::to_string(input->items.size()) + " elements, input_sequence " +
                      std::to_string(count));
    }
  }
  if (body->passedInputCount() != ctx.inputCount()) {
    return ctx.fail("the body takes " + std::to_string(body->passedInputCount()) + " inputs, not " +
                    std::to_string(ctx.inputCount()));
  }
  std::vector<std::vector<EvalValue>> results(ctx.outputCount());
  for (size_t position = 0; position < count; ++position) {
    std::vector<EvalValue> arguments;
    arguments.reserve(ctx.inputCount());
    for (size_t i = 0; i < ctx.inputCount(); ++i) {
      const EvalValue* input = ctx.input(i);
      arguments.push_back(input->kind == EvalValue::Kind::kSequence ? input->items[position]
                                                                    : *input);
    }
    Result<std::vector<EvalValue>> outputs = ctx.runSubgraph(*body, std::move(arguments));
    if (!outputs) return outputs.status();
    if (outputs->size() < ctx.outputCount()) {
      return ctx.fail("the body gives fewer outputs than SequenceMap has");
    }
    for (size_t k = 0; k < ctx.outputCount(); ++k) results[k].push_back(std::move((*outputs)[k]));
  }
  for (size_t k = 0; k < ctx.outputCount(); ++k) {
    ctx.setOutput(k, EvalValue::sequence(std::move(results[k])));
  }
  return Status::ok();
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
         .build_function_body = buildSequenceMap17,
         .infer = inferSequenceMap,
         .kernel = runSequenceMap},
    }};
static_assert(isWellFormed(kSequenceMap));

}  // namespace onyx::ops::ai_onnx
