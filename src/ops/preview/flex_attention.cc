// FlexAttention (ai.onnx.preview), versions 1.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "onyx/core/quote.h"
#include "onyx/ir/clone.h"
#include "onyx/ir/editor.h"
#include "onyx/ir/graph.h"
#include "onyx/ir/unique_names.h"
#include "onyx/ops/inference_context.h"
#include "onyx/text/printer.h"
#include "ops/body_text.h"
#include "ops/lib/real_kernels.h"
#include "ops/schema_dsl.h"

namespace onyx::ops::ai_onnx_preview {
using namespace dsl;

namespace {

bool isSoftmaxType(int64_t type) {
  return type == body::kFloat || type == body::kFloat16 || type == body::kBfloat16 ||
         type == body::kDouble;
}

// Writes the nodes of a modifier graph (one input, one output) into the body: its input read
// as `input`, its output written as `output`, its other values prefixed with `prefix`, its
// initializers as Constant nodes. A graph that reads values from outside itself cannot be
// written into a function body.
Status addModifier(body::BodyText& out, const Graph& modifier, std::string_view input,
                   std::string_view output, std::string_view prefix) {
  Model scratch;
  GraphEditor edit(scratch);
  Graph* copy = edit.cloneGraph(modifier);
  Value* formal_input = copy->inputs[0]->value;
  Value* formal_output = copy->outputs[0]->bound();
  std::vector<Value*> values;
  for (Value* value : copy->values()) {
    if (value->graph() != copy) continue;
    if (value->isUndefined()) {
      return body::refuse("the modifier graph reads " + quoted(value->name()) +
                          ", which it does not define");
    }
    values.push_back(value);
  }
  for (Value* value : values) {
    if (value == formal_input || value == formal_output) continue;
    ONYX_RETURN_IF_ERROR(edit.rename(value, std::string(prefix) + std::string(value->name())));
  }
  if (formal_output == formal_input) {
    return body::refuse("the modifier graph's output is its input, but it has nodes");
  }
  ONYX_RETURN_IF_ERROR(edit.rename(formal_input, input));
  ONYX_RETURN_IF_ERROR(edit.rename(formal_output, output));
  if (!copy->sparse_initializers.empty()) {
    return body::refuse("the modifier graph has sparse initializers");
  }
  PrintOptions options;
  options.loss_comments = false;
  for (const Tensor* initializer : copy->initializers) {
    out.addf("{} = Constant <value = {}> ()", initializer->nameOrEmpty(),
             printTensor(*initializer, options));
  }
  for (const Node* node : copy->nodes()) out.add(printNode(*node, options));
  return Status::ok();
}

// FlexAttention as the spec defines it: K and V heads repeated to Q's, scores Q K^T with
// sqrt(scale) on each side (scale defaults to 1/sqrt(head size)), in softmax_precision, the
// score_mod graph applied, a Softmax over the keys, prob_mod applied, then the product with V.
// The modifier graphs are written into the body. The body needs the element types of Q, K
// and V (all the same) and ai.onnx imported beside ai.onnx.preview.
Result<std::string> buildFlexAttention1(const FunctionBodyContext& context) {
  Result<int32_t> q_type = body::requireElementType(context, 0);
  if (!q_type) return q_type.status();
  Result<int32_t> k_type = body::requireElementType(context, 1);
  if (!k_type) return k_type.status();
  Result<int32_t> v_type = body::requireElementType(context, 2);
  if (!v_type) return v_type.status();
  if (*k_type != *q_type || *v_type != *q_type) {
    return body::refuse("Q, K and V must have one element type");
  }
  const int64_t type = *q_type;
  const int64_t softmax_type = context.intAttr("softmax_precision")
                                   .value_or(type == body::kDouble ? body::kDouble : body::kFloat);
  if (!isSoftmaxType(softmax_type)) return body::refuse("softmax_precision must be a float type");
  std::optional<int64_t> onnx_opset = context.imports.versionOf("");
  if (!onnx_opset || *onnx_opset < 15) {
    return body::refuse("the body needs ai.onnx at opset 15 or later imported beside it");
  }
  // A modifier that is there must be a graph of one input and one output; one whose output
  // is its input without nodes changes nothing.
  const Graph* modifiers[2] = {nullptr, nullptr};
  const char* names[2] = {"score_mod", "prob_mod"};
  for (int i = 0; i < 2; ++i) {
    const Attribute* attribute = context.attribute(names[i]);
    if (attribute == nullptr) continue;
    const Graph* graph = attribute->g;
    if (graph == nullptr || graph->inputs.size() != 1 || graph->outputs.size() != 1) {
      return body::refuse(std::string(names[i]) + " must be a graph of one input and one output");
    }
    bool identity = graph->nodeCount() == 0 && graph->inputs[0]->value != nullptr &&
                    graph->inputs[0]->value == graph->outputs[0]->bound();
    if (!identity) modifiers[i] = graph;
  }

  body::BodyText out(context, "FlexAttention", "ai.onnx.preview");
  out.import("", *onnx_opset);
  out.add("batch = Shape <start = 0, end = 1> (Q)")
      .add("kv_len = Shape <start = -2, end = -1> (K)")
      .add("q_heads = Shape <start = 1, end = 2> (Q)")
      .add("kv_heads = Shape <start = 1, end = 2> (K)")
      .add("repeats = Div (q_heads, kv_heads)")
      .ints("axis_2", {2})
      .add("k_unsqueezed = Unsqueeze (K, axis_2)")
      .add("k_head_size = Shape <start = 3, end = 4> (K)")
      .add("k_expand_shape = Concat <axis = 0> (batch, kv_heads, repeats, kv_len, k_head_size)")
      .add("k_expanded = Expand (k_unsqueezed, k_expand_shape)")
      .add("k_shape = Concat <axis = 0> (batch, q_heads, kv_len, k_head_size)")
      .add("k_all_heads = Reshape (k_expanded, k_shape)")
      .add("v_unsqueezed = Unsqueeze (V, axis_2)")
      .add("v_head_size = Shape <start = 3, end = 4> (V)")
      .add("v_expand_shape = Concat <axis = 0> (batch, kv_heads, repeats, kv_len, v_head_size)")
      .add("v_expanded = Expand (v_unsqueezed, v_expand_shape)")
      .add("v_shape = Concat <axis = 0> (batch, q_heads, kv_len, v_head_size)")
      .add("v_all_heads = Reshape (v_expanded, v_shape)");
  if (std::optional<float> scale = context.floatAttr("scale")) {
    out.scalarFloat("scale_f", *scale);
  } else {
    out.add("q_shape = Shape (Q)")
        .scalarInt("head_axis", 3)
        .add("head_size = Gather <axis = 0> (q_shape, head_axis)")
        .add("head_size_f = Cast <to = 1> (head_size)")
        .add("sqrt_head_size = Sqrt (head_size_f)")
        .scalarFloat("one_f", 1.0f)
        .add("default_scale = Div (one_f, sqrt_head_size)")
        .add("scale_f = Identity (default_scale)");
  }
  out.add("scale_sqrt_f = Sqrt (scale_f)")
      .addf("scale_sqrt = Cast <to = {}> (scale_sqrt_f)", type)
      .add("q_scaled = Mul (Q, scale_sqrt)")
      .add("k_scaled = Mul (k_all_heads, scale_sqrt)")
      .add("k_transposed = Transpose <perm = [0, 1, 3, 2]> (k_scaled)")
      .add("scores = MatMul (q_scaled, k_transposed)")
      .addf("scores_s = Cast <to = {}> (scores)", softmax_type);
  if (modifiers[0] != nullptr) {
    ONYX_RETURN_IF_ERROR(
        addModifier(out, *modifiers[0], "scores_s", "scores_modified", "score_mod_"));
  } else {
    out.add("scores_modified = Identity (scores_s)");
  }
  out.add("probabilities = Softmax <axis = 3> (scores_modified)");
  if (modifiers[1] != nullptr) {
    ONYX_RETURN_IF_ERROR(
        addModifier(out, *modifiers[1], "probabilities", "probabilities_modified", "prob_mod_"));
  } else {
    out.add("probabilities_modified = Identity (probabilities)");
  }
  if (softmax_type != type) {
    out.addf("v_s = Cast <to = {}> (v_all_heads)", softmax_type)
        .add("y_s = MatMul (probabilities_modified, v_s)")
        .addf("Y = Cast <to = {}> (y_s)", type);
  } else {
    out.add("Y = MatMul (probabilities_modified, v_all_heads)");
  }
  return out.finish();
}

constexpr int32_t kFloatElement = 1;
constexpr int32_t kDoubleElement = 11;

// Whether two dims that must be equal provably differ (then the node fails).
bool differ(InferenceContext& ctx, DimValue a, DimValue b, const char* what) {
  if (!a.isKnown() || !b.isKnown() || a.value() == b.value()) return false;
  ctx.fail(std::string(what) + " differs: " + std::to_string(a.value()) + " and " +
           std::to_string(b.value()));
  return true;
}

// Y is (batch, q heads, q length, v head size). score_mod and prob_mod see the scores,
// (batch, q heads, q length, kv length) in softmax_precision.
void inferFlexAttention(InferenceContext& ctx) {
  const Dims* q = ctx.inputShape(0);
  const Dims* k = ctx.inputShape(1);
  const Dims* v = ctx.inputShape(2);
  for (size_t i = 0; i < 3; ++i) {
    std::optional<size_t> rank = ctx.inputRank(i);
    if (rank && *rank != 4) {
      ctx.fail("input " + std::to_string(i) + " has rank " + std::to_string(*rank) + ", not 4");
      return;
    }
  }
  if (q != nullptr && k != nullptr) {
    if (differ(ctx, (*q)[0], (*k)[0], "the batch size of Q and K") ||
        differ(ctx, (*q)[3], (*k)[3], "the head size of Q and K")) {
      return;
    }
    if ((*q)[1].isKnown() && (*k)[1].isKnown() && (*k)[1].value() > 0 &&
        (*q)[1].value() % (*k)[1].value() != 0) {
      ctx.fail("Q's " + std::to_string((*q)[1].value()) + " heads are not a multiple of K's " +
               std::to_string((*k)[1].value()));
      return;
    }
  }
  if (k != nullptr && v != nullptr &&
      (differ(ctx, (*k)[0], (*v)[0], "the batch size of K and V") ||
       differ(ctx, (*k)[1], (*v)[1], "the number of heads of K and V") ||
       differ(ctx, (*k)[2], (*v)[2], "the sequence length of K and V"))) {
    return;
  }
  DimValue batch = q != nullptr ? (*q)[0] : v != nullptr ? (*v)[0] : ctx.dims().fresh();
  if (q != nullptr && (*q)[0].isSymbolic() && v != nullptr && (*v)[0].isKnown()) batch = (*v)[0];
  DimValue heads = q != nullptr ? (*q)[1] : ctx.dims().fresh();
  DimValue length = q != nullptr ? (*q)[2] : ctx.dims().fresh();
  if (q != nullptr || v != nullptr) {
    ctx.setOutputShape(0, {batch, heads, length, v != nullptr ? (*v)[3] : ctx.dims().fresh()});
  }
  int32_t elem_type = ctx.inputElemType(0);
  int64_t precision = ctx.intAttribute("softmax_precision")
                          .value_or(elem_type == kDoubleElement ? kDoubleElement : kFloatElement);
  DimValue kv_length = k != nullptr ? (*k)[2] : v != nullptr ? (*v)[2] : ctx.dims().fresh();
  InferredType scores =
      InferredType::tensor(static_cast<int32_t>(precision), {batch, heads, length, kv_length});
  for (const char* name : {"score_mod", "prob_mod"}) {
    const Graph* modifier = ctx.graphAttribute(name);
    if (modifier != nullptr) ctx.inferSubgraph(*modifier, std::span(&scores, 1));
  }
}

// Runs a modifier graph (one tensor in, one tensor out of the same shape) on `values`, held
// as `type` while the graph sees them.
Status applyModifier(KernelContext& ctx, const Graph& graph, std::vector<double>& values,
                     const std::vector<int64_t>& shape, ElementType type, const char* name) {
  Result<std::vector<EvalValue>> outputs =
      ctx.runSubgraph(graph, {EvalValue::of(arrayOfReals(values, shape, type))});
  if (!outputs) return outputs.status();
  if (outputs->size() != 1 || !(*outputs)[0].isTensor() || (*outputs)[0].tensor.shape() != shape) {
    return ctx.fail(std::string(name) + " must give one tensor of the scores' shape " +
                    shapeText(shape));
  }
  values = realsOf(arrayOfReals(realsOf((*outputs)[0].tensor), shape, type));
  return Status::ok();
}

// Q (B, Hq, L, E), K (B, Hkv, S, E), V (B, Hkv, S, Ev): scores of each query head against its
// group's key head, scaled, through score_mod, softmaxed over the keys, through prob_mod, times
// V. The modifiers see the scores in softmax_precision (FLOAT for the narrow types).
Status runFlexAttention(KernelContext& ctx) {
  const Array* q = ctx.inputArray(0);
  const Array* k = ctx.inputArray(1);
  const Array* v = ctx.inputArray(2);
  if (q == nullptr || k == nullptr || v == nullptr) return ctx.fail("needs Q, K and V tensors");
  if (q->rank() != 4 || k->rank() != 4 || v->rank() != 4) {
    return ctx.fail("Q, K and V must be 4-D");
  }
  const size_t batch = static_cast<size_t>(q->dim(0));
  const size_t q_heads = static_cast<size_t>(q->dim(1));
  const size_t length = static_cast<size_t>(q->dim(2));
  const size_t e = static_cast<size_t>(q->dim(3));
  const size_t kv_heads = static_cast<size_t>(k->dim(1));
  const size_t keys = static_cast<size_t>(k->dim(2));
  const size_t ev = static_cast<size_t>(v->dim(3));
  if (static_cast<size_t>(k->dim(0)) != batch || static_cast<size_t>(v->dim(0)) != batch ||
      static_cast<size_t>(k->dim(3)) != e || static_cast<size_t>(v->dim(1)) != kv_heads ||
      static_cast<size_t>(v->dim(2)) != keys) {
    return ctx.fail("Q " + shapeText(q->shape()) + ", K " + shapeText(k->shape()) + " and V " +
                    shapeText(v->shape()) + " do not fit together");
  }
  if (kv_heads == 0 || q_heads % kv_heads != 0) {
    return ctx.fail("Q's heads are not a multiple of K's");
  }
  ElementType compute =
      q->type() == ElementType::kDouble ? ElementType::kDouble : ElementType::kFloat;
  if (std::optional<int64_t> precision = ctx.intAttribute("softmax_precision")) {
    compute = static_cast<ElementType>(*precision);
    if (!isRealType(compute) || elementTypeInfo(static_cast<int32_t>(*precision)) == nullptr) {
      return ctx.fail("softmax_precision must be a floating-point type");
    }
  }
  const std::vector<int64_t> score_shape = {int64_t(batch), int64_t(q_heads), int64_t(length),
                                            int64_t(keys)};
  Result<Array> check = Array::allocate(ElementType::kDouble, score_shape);
  if (!check) return check.status();
  std::optional<float> scale_attr = ctx.floatAttribute("scale");
  double scale = scale_attr ? *scale_attr : 1.0 / std::sqrt(static_cast<double>(e));
  const double factor = std::sqrt(scale);
  std::vector<double> qs = realsOf(*q);
  std::vector<double> ks = realsOf(*k);
  const std::vector<double> vs = realsOf(*v);
  for (double& value : qs) value *= factor;
  for (double& value : ks) value *= factor;
  const size_t group = q_heads / kv_heads;
  std::vector<double> scores(batch * q_heads * length * keys);
  parallelFor(ctx, batch * q_heads, 1, [&](size_t begin, size_t end) {
    for (size_t pair = begin; pair < end; ++pair) {
      size_t kv = (pair / q_heads) * kv_heads + (pair % q_heads) / group;
      attentionProduct(qs.data() + pair * length * e, ks.data() + kv * keys * e,
                       scores.data() + pair * length * keys, length, e, keys, true);
    }
  });
  // The scores as the softmax's type sees them.
  scores = realsOf(arrayOfReals(scores, score_shape, compute));
  if (const Graph* graph = ctx.graphAttribute("score_mod")) {
    ONYX_RETURN_IF_ERROR(applyModifier(ctx, *graph, scores, score_shape, compute, "score_mod"));
  }
  for (size_t row = 0; row < batch * q_heads * length; ++row) {
    double* r = scores.data() + row * keys;
    double top = -std::numeric_limits<double>::infinity();
    for (size_t j = 0; j < keys; ++j) top = std::max(top, r[j]);
    double sum = 0;
    for (size_t j = 0; j < keys; ++j) {
      r[j] = std::exp(r[j] - top);
      sum += r[j];
    }
    for (size_t j = 0; j < keys; ++j) r[j] /= sum;
  }
  if (const Graph* graph = ctx.graphAttribute("prob_mod")) {
    ONYX_RETURN_IF_ERROR(applyModifier(ctx, *graph, scores, score_shape, compute, "prob_mod"));
  }
  std::vector<double> y(batch * q_heads * length * ev);
  parallelFor(ctx, batch * q_heads, 1, [&](size_t begin, size_t end) {
    for (size_t pair = begin; pair < end; ++pair) {
      size_t kv = (pair / q_heads) * kv_heads + (pair % q_heads) / group;
      attentionProduct(scores.data() + pair * length * keys, vs.data() + kv * keys * ev,
                       y.data() + pair * length * ev, length, keys, ev, false);
    }
  });
  ctx.setOutput(0, arrayOfReals(y, {int64_t(batch), int64_t(q_heads), int64_t(length), int64_t(ev)},
                                q->type()));
  return Status::ok();
}

}  // namespace

extern const Operator kFlexAttention;
constexpr Operator kFlexAttention{
    .domain = kPreviewDomain,
    .name = "FlexAttention",
    .versions = {
        {.since_version = 1,
         .inputs = {{"Q", "T1"}, {"K", "T1"}, {"V", "T1"}},
         .outputs = {{"Y", "T1"}},
         .attributes = {attr("prob_mod", kGraph), attr("scale", kFloat), attr("score_mod", kGraph),
                        attr("softmax_precision", kInt)},
         .constraints = {{"T1", tensor("bfloat16 float16 float double")}},
         .build_function_body = buildFlexAttention1,
         .infer = inferFlexAttention,
         .kernel = runFlexAttention},
    }};
static_assert(isWellFormed(kFlexAttention));

}  // namespace onyx::ops::ai_onnx_preview
