// LinearAttention (ai.onnx), versions 27.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include <cmath>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>

#include "onyx/core/quote.h"
#include "onyx/ops/inference_context.h"
#include "ops/body_text.h"
#include "ops/lib/real_kernels.h"
#include "ops/schema_dsl.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

// The recurrence step of each update rule, in float: state_in is (batch, kv heads, d_k, d_v),
// q_t, k_t, v_t (and decay_t, beta_t) one step of each. Leaves state_out.
constexpr const char* kLinearStep = R"ONNX(
    q_t_f = Cast <to = 1> (q_t)
    k_t_f = Cast <to = 1> (k_t)
    v_t_f = Cast <to = 1> (v_t)
    k_column = Unsqueeze (k_t_f, minus_one_1d)
    write_row = Unsqueeze (v_t_f, minus_two_1d)
    outer = MatMul (k_column, write_row)
    state_out = Add (state_in, outer))ONNX";

constexpr const char* kGatedStep = R"ONNX(
    q_t_f = Cast <to = 1> (q_t)
    k_t_f = Cast <to = 1> (k_t)
    v_t_f = Cast <to = 1> (v_t)
    decay_t_f = Cast <to = 1> (decay_t)
    decay_factor = Exp (decay_t_f)
    decay_column = Unsqueeze (decay_factor, minus_one_1d)
    decayed = Mul (state_in, decay_column)
    k_column = Unsqueeze (k_t_f, minus_one_1d)
    write_row = Unsqueeze (v_t_f, minus_two_1d)
    outer = MatMul (k_column, write_row)
    state_out = Add (decayed, outer))ONNX";

constexpr const char* kDeltaStep = R"ONNX(
    q_t_f = Cast <to = 1> (q_t)
    k_t_f = Cast <to = 1> (k_t)
    v_t_f = Cast <to = 1> (v_t)
    beta_t_f = Cast <to = 1> (beta_t)
    k_column = Unsqueeze (k_t_f, minus_one_1d)
    state_transposed = Transpose <perm = [0, 1, 3, 2]> (state_in)
    recalled = MatMul (state_transposed, k_column)
    recalled_row = Squeeze (recalled, minus_one_1d)
    error = Sub (v_t_f, recalled_row)
    correction = Mul (beta_t_f, error)
    write_row = Unsqueeze (correction, minus_two_1d)
    outer = MatMul (k_column, write_row)
    state_out = Add (state_in, outer))ONNX";

constexpr const char* kGatedDeltaStep = R"ONNX(
    q_t_f = Cast <to = 1> (q_t)
    k_t_f = Cast <to = 1> (k_t)
    v_t_f = Cast <to = 1> (v_t)
    decay_t_f = Cast <to = 1> (decay_t)
    beta_t_f = Cast <to = 1> (beta_t)
    decay_factor = Exp (decay_t_f)
    decay_column = Unsqueeze (decay_factor, minus_one_1d)
    decayed = Mul (state_in, decay_column)
    k_column = Unsqueeze (k_t_f, minus_one_1d)
    state_transposed = Transpose <perm = [0, 1, 3, 2]> (decayed)
    recalled = MatMul (state_transposed, k_column)
    recalled_row = Squeeze (recalled, minus_one_1d)
    error = Sub (v_t_f, recalled_row)
    correction = Mul (beta_t_f, error)
    write_row = Unsqueeze (correction, minus_two_1d)
    outer = MatMul (k_column, write_row)
    state_out = Add (decayed, outer))ONNX";

// LinearAttention as the spec defines it: a Scan over the sequence whose step updates the
// recurrent state by the update rule and reads the output as scale * q_t^T state (the state
// of each kv head shared by its group of query heads), in float; 3-D inputs unpacked to heads
// before and the output packed after. The body needs q_num_heads and kv_num_heads.
Result<std::string> buildLinearAttention27(const FunctionBodyContext& context) {
  std::string rule(context.stringAttr("update_rule").value_or("gated_delta"));
  std::optional<int64_t> q_heads = context.intAttr("q_num_heads");
  std::optional<int64_t> kv_heads = context.intAttr("kv_num_heads");
  if (!q_heads || !kv_heads) return body::refuse("q_num_heads and kv_num_heads are required");
  if (*q_heads <= 0 || *kv_heads <= 0 || *q_heads % *kv_heads != 0) {
    return body::refuse("q_num_heads must be a positive multiple of kv_num_heads");
  }
  const char* step = nullptr;
  std::string_view step_inputs;
  std::string_view scanned;
  int scanned_count = 0;
  if (rule == "linear") {
    step = kLinearStep;
    step_inputs = "state_in, q_t, k_t, v_t";
    scanned = "state_0, q_steps, k_steps, v_steps";
    scanned_count = 3;
  } else if (rule == "gated") {
    step = kGatedStep;
    step_inputs = "state_in, q_t, k_t, v_t, decay_t";
    scanned = "state_0, q_steps, k_steps, v_steps, decay_steps";
    scanned_count = 4;
  } else if (rule == "delta") {
    step = kDeltaStep;
    step_inputs = "state_in, q_t, k_t, v_t, beta_t";
    scanned = "state_0, q_steps, k_steps, v_steps, beta_steps";
    scanned_count = 4;
  } else if (rule == "gated_delta") {
    step = kGatedDeltaStep;
    step_inputs = "state_in, q_t, k_t, v_t, decay_t, beta_t";
    scanned = "state_0, q_steps, k_steps, v_steps, decay_steps, beta_steps";
    scanned_count = 5;
  } else {
    return body::refuse("update_rule must be linear, gated, delta or gated_delta");
  }
  const bool decayed = rule == "gated" || rule == "gated_delta";
  const bool corrected = rule == "delta" || rule == "gated_delta";
  const int64_t group = *q_heads / *kv_heads;
  const float scale = context.floatAttr("scale").value_or(0.0f);

  body::BodyText out(context, "LinearAttention");
  out.ints("minus_one_1d", {-1})
      .ints("one_1d", {1})
      .ints("q_heads", {*q_heads})
      .ints("kv_heads", {*kv_heads})
      .add("batch = Shape <start = 0, end = 1> (query)")
      .add("steps = Shape <start = 1, end = 2> (query)")
      .add("q_shape_4d = Concat <axis = 0> (batch, steps, q_heads, minus_one_1d)")
      .add("q_split = Reshape (query, q_shape_4d)")
      .add("q_steps = Transpose <perm = [1, 0, 2, 3]> (q_split)")
      .add("kv_shape_4d = Concat <axis = 0> (batch, steps, kv_heads, minus_one_1d)")
      .add("k_split = Reshape (key, kv_shape_4d)")
      .add("k_steps = Transpose <perm = [1, 0, 2, 3]> (k_split)")
      .add("v_split = Reshape (value, kv_shape_4d)")
      .add("v_steps = Transpose <perm = [1, 0, 2, 3]> (v_split)");
  if (decayed) {
    out.add("decay_split = Reshape (decay, kv_shape_4d)")
        .add("decay_steps = Transpose <perm = [1, 0, 2, 3]> (decay_split)");
  }
  if (corrected) {
    out.add("beta_shape_4d = Concat <axis = 0> (batch, steps, minus_one_1d, one_1d)")
        .add("beta_split = Reshape (beta, beta_shape_4d)")
        .add("beta_steps = Transpose <perm = [1, 0, 2, 3]> (beta_split)");
  }
  out.add("q_width = Shape <start = 2, end = 3> (query)")
      .add("v_width = Shape <start = 2, end = 3> (value)")
      .add("d_k = Div (q_width, q_heads)")
      .add("d_v = Div (v_width, kv_heads)");
  if (context.hasInput(3)) {
    out.add("state_0 = Cast <to = 1> (past_state)");
  } else {
    out.add("state_shape = Concat <axis = 0> (batch, kv_heads, d_k, d_v)")
        .add("state_0 = ConstantOfShape (state_shape)");
  }
  if (scale != 0.0f) {
    out.scalarFloat("scale_factor", scale);
  } else {
    out.add("d_k_s = Squeeze (d_k)")
        .add("d_k_f = Cast <to = 1> (d_k_s)")
        .add("sqrt_d_k = Sqrt (d_k_f)")
        .add("scale_factor = Reciprocal (sqrt_d_k)");
  }
  if (group > 1) {
    out.ints("group_size", {group})
        .ints("two_1d", {2})
        .add("state_expand_shape = Concat <axis = 0> (batch, kv_heads, group_size, d_k, d_v)")
        .add("state_read_shape = Concat <axis = 0> (batch, q_heads, d_k, d_v)");
  }
  out.ints("minus_two_1d", {-2});
  // The read: scale * (q_t^T state_out), back in the query's type; a kv head's state is
  // repeated for the query heads of its group first.
  std::string read = group > 1 ? R"ONNX(
    state_unsqueezed = Unsqueeze (state_out, two_1d)
    state_expanded = Expand (state_unsqueezed, state_expand_shape)
    state_read = Reshape (state_expanded, state_read_shape)
    q_row = Unsqueeze (q_t_f, minus_two_1d)
    read_row = MatMul (q_row, state_read))ONNX"
                               : R"ONNX(
    q_row = Unsqueeze (q_t_f, minus_two_1d)
    read_row = MatMul (q_row, state_out))ONNX";
  read += R"ONNX(
    read_value = Squeeze (read_row, minus_two_1d)
    output_t_f = Mul (scale_factor, read_value)
    output_t = CastLike (output_t_f, q_t))ONNX";
  out.addf(
      "final_state, output_steps = Scan <num_scan_inputs = {}, body = linear_attention_step "
      "({}) => (state_out, output_t) {{{}{}\n  }}> ({})",
      scanned_count, step_inputs, step, read, scanned);
  out.add("output_steps_bt = Transpose <perm = [1, 0, 2, 3]> (output_steps)")
      .add("output_shape = Concat <axis = 0> (batch, steps, minus_one_1d)")
      .add("output = Reshape (output_steps_bt, output_shape)");
  out.add(context.hasInput(3) ? "present_state = CastLike (final_state, past_state)"
                              : "present_state = CastLike (final_state, query)");
  return out.finish();
}

// What onnx's LinearAttention inference refuses (onnx/defs/nn/defs.cc): head counts given
// that are not positive or whose query heads do not group over the key/value heads, an
// update_rule other than the four, and a decay (gated rules) or beta (delta rules) input
// that the rule takes but is missing, or that is there for a rule that does not take it.
bool checkLinearAttentionRule(InferenceContext& ctx) {
  std::optional<int64_t> q_heads = ctx.intAttribute("q_num_heads");
  std::optional<int64_t> kv_heads = ctx.intAttribute("kv_num_heads");
  if ((q_heads && *q_heads <= 0) || (kv_heads && *kv_heads <= 0)) {
    ctx.fail("q_num_heads " + std::to_string(q_heads.value_or(0)) + " and kv_num_heads " +
             std::to_string(kv_heads.value_or(0)) + " must be positive");
    return false;
  }
  if (q_heads && kv_heads && *q_heads % *kv_heads != 0) {
    ctx.fail("q_num_heads " + std::to_string(*q_heads) + " is not a multiple of kv_num_heads " +
             std::to_string(*kv_heads));
    return false;
  }
  std::string_view rule = ctx.stringAttribute("update_rule").value_or("gated_delta");
  if (rule != "linear" && rule != "gated" && rule != "delta" && rule != "gated_delta") {
    ctx.fail("update_rule " + quoted(rule) + " is not one of linear, gated, delta, gated_delta");
    return false;
  }
  bool gated = rule == "gated" || rule == "gated_delta";
  bool delta = rule == "delta" || rule == "gated_delta";
  for (auto [input, name, wanted] :
       {std::tuple{size_t{4}, "decay", gated}, std::tuple{size_t{5}, "beta", delta}}) {
    if (ctx.hasInput(input) != wanted) {
      ctx.fail("update_rule " + quoted(rule) + (wanted ? " needs " : " takes no ") + name +
               " input");
      return false;
    }
  }
  return true;
}

// query, key, value are (B, T, heads * size) with q_num_heads / kv_num_heads heads:
// output (B, T, q_num_heads * d_v), present_state (B, kv_num_heads, d_k, d_v) like
// past_state; present_state takes past_state's element type, else query's.
void inferLinearAttention(InferenceContext& ctx) {
  if (!checkLinearAttentionRule(ctx)) return;
  const Dims* query = ctx.inputShape(0);
  const Dims* key = ctx.inputShape(1);
  const Dims* value = ctx.inputShape(2);
  for (const Dims* shape : {query, key, value}) {
    if (shape != nullptr && shape->size() != 3) {
      ctx.fail("query, key and value must be 3-D; one has rank " + std::to_string(shape->size()));
      return;
    }
  }
  int64_t q_heads = ctx.intAttribute("q_num_heads").value_or(0);
  int64_t kv_heads = ctx.intAttribute("kv_num_heads").value_or(0);
  if (q_heads <= 0 || kv_heads <= 0) return;  // required attributes: the checker reports them
  SymbolicDims& dims = ctx.dims();
  auto perHead = [&](const Dims* shape) {
    if (shape == nullptr) return dims.fresh();
    std::optional<DimValue> size = dims.divideExact((*shape)[2], DimValue::known(kv_heads));
    return size ? *size : dims.fresh();
  };
  DimValue key_size = perHead(key);
  DimValue value_size = perHead(value);
  if (query != nullptr) {
    ctx.setOutputShape(
        0, {(*query)[0], (*query)[1], dims.multiply(DimValue::known(q_heads), value_size)});
  }
  if (!ctx.hasOutput(1)) return;
  if (ctx.outputElemType(1) == 0) {
    int32_t elem_type = ctx.hasInput(3) ? ctx.inputElemType(3) : ctx.inputElemType(0);
    if (elem_type != 0) ctx.setOutputElemType(1, elem_type);
  }
  if (const Dims* past = ctx.hasInput(3) ? ctx.inputShape(3) : nullptr) {
    if (past->size() != 4) {
      ctx.fail("past_state has rank " + std::to_string(past->size()) + "; it must be 4");
      return;
    }
    ctx.setOutputShape(1, *past);
  } else if (query != nullptr) {
    ctx.setOutputShape(1, {(*query)[0], DimValue::known(kv_heads), key_size, value_size});
  }
}

// The recurrence directly: per batch and key/value head a state (d_k, d_v), decayed by
// exp(decay) (gated rules), the value corrected by beta * (v - S^T k) (delta rules), grown by
// k v^T, and read by each query head of the group as scale * q^T S.
Status runLinearAttention(KernelContext& ctx) {
  const Array* query = ctx.inputArray(0);
  const Array* key = ctx.inputArray(1);
  const Array* value = ctx.inputArray(2);
  const Array* past = ctx.inputArray(3);
  const Array* decay = ctx.inputArray(4);
  const Array* beta = ctx.inputArray(5);
  if (query == nullptr || key == nullptr || value == nullptr) {
    return ctx.fail("needs query, key and value tensors");
  }
  std::string_view rule = ctx.stringAttribute("update_rule").value_or("gated_delta");
  if (rule != "linear" && rule != "gated" && rule != "delta" && rule != "gated_delta") {
    return ctx.fail("unknown update_rule \"" + std::string(rule) + "\"");
  }
  const bool gating = rule == "gated" || rule == "gated_delta";
  const bool delta = rule == "delta" || rule == "gated_delta";
  if (gating != (decay != nullptr)) {
    return ctx.fail(gating ? "this update_rule needs decay" : "this update_rule takes no decay");
  }
  if (delta != (beta != nullptr)) {
    return ctx.fail(delta ? "this update_rule needs beta" : "this update_rule takes no beta");
  }
  const int64_t q_heads = ctx.intAttribute("q_num_heads").value_or(0);
  const int64_t kv_heads = ctx.intAttribute("kv_num_heads").value_or(0);
  if (q_heads <= 0 || kv_heads <= 0 || q_heads % kv_heads != 0) {
    return ctx.fail("q_num_heads must be a positive multiple of a positive kv_num_heads");
  }
  if (query->rank() != 3 || key->rank() != 3 || value->rank() != 3) {
    return ctx.fail("query, key and value must be 3-D (batch, sequence, heads * size)");
  }
  const int64_t batch = query->dim(0);
  const int64_t steps = query->dim(1);
  for (const Array* input : {key, value}) {
    if (input->dim(0) != batch || input->dim(1) != steps) {
      return ctx.fail("query, key and value differ in batch or sequence length");
    }
  }
  if (query->dim(2) % q_heads != 0 || value->dim(2) % kv_heads != 0) {
    return ctx.fail("a hidden size is not a multiple of its head count");
  }
  const int64_t dk = query->dim(2) / q_heads;
  const int64_t dv = value->dim(2) / kv_heads;
  if (key->dim(2) != kv_heads * dk) {
    return ctx.fail("key's hidden size " + std::to_string(key->dim(2)) + " is not kv_num_heads * " +
                    std::to_string(dk));
  }
  bool decay_per_dim = false;
  if (decay != nullptr) {
    if (decay->rank() != 3 || decay->dim(0) != batch || decay->dim(1) != steps ||
        (decay->dim(2) != kv_heads && decay->dim(2) != kv_heads * dk)) {
      return ctx.fail("decay must be (batch, sequence, kv_num_heads [* d_k])");
    }
    decay_per_dim = decay->dim(2) != kv_heads;
  }
  int64_t beta_width = 0;
  if (beta != nullptr) {
    if (beta->rank() != 3 || beta->dim(0) != batch || beta->dim(1) != steps ||
        (beta->dim(2) != kv_heads && beta->dim(2) != 1)) {
      return ctx.fail("beta must be (batch, sequence, kv_num_heads or 1)");
    }
    beta_width = beta->dim(2);
  }
  const std::vector<int64_t> state_shape = {batch, kv_heads, dk, dv};
  if (past != nullptr && past->shape() != state_shape) {
    return ctx.fail("past_state " + shapeText(past->shape()) + " is not " + shapeText(state_shape));
  }
  double scale = ctx.floatAttribute("scale").value_or(0.0f);
  if (scale == 0.0) scale = 1.0 / std::sqrt(static_cast<double>(dk));

  const std::vector<double> q = realsOf(*query);
  const std::vector<double> k = realsOf(*key);
  const std::vector<double> v = realsOf(*value);
  const std::vector<double> g = decay != nullptr ? realsOf(*decay) : std::vector<double>();
  const std::vector<double> bt = beta != nullptr ? realsOf(*beta) : std::vector<double>();
  std::vector<double> state =
      past != nullptr ? realsOf(*past) : std::vector<double>(productOf(state_shape, 0, 4), 0.0);
  std::vector<double> out(static_cast<size_t>(batch * steps * q_heads * dv), 0.0);
  const int64_t group = q_heads / kv_heads;
  const size_t udk = static_cast<size_t>(dk), udv = static_cast<size_t>(dv);

  parallelFor(ctx, static_cast<size_t>(batch * kv_heads), 1, [&](size_t begin, size_t end) {
    std::vector<double> corrected(udv);
    for (size_t pair = begin; pair < end; ++pair) {
      const int64_t b = static_cast<int64_t>(pair) / kv_heads;
      const int64_t h = static_cast<int64_t>(pair) % kv_heads;
      double* s = state.data() + pair * udk * udv;
      for (int64_t t = 0; t < steps; ++t) {
        const size_t row = static_cast<size_t>(b * steps + t);
        const double* kt = k.data() + row * static_cast<size_t>(kv_heads * dk) + h * dk;
        const double* vt = v.data() + row * static_cast<size_t>(kv_heads * dv) + h * dv;
        if (gating) {
          for (size_t d = 0; d < udk; ++d) {
            double factor = decay_per_dim
                                ? std::exp(g[row * static_cast<size_t>(kv_heads * dk) + h * dk + d])
                                : std::exp(g[row * static_cast<size_t>(kv_heads) + h]);
            for (size_t m = 0; m < udv; ++m) s[d * udv + m] *= factor;
          }
        }
        for (size_t m = 0; m < udv; ++m) corrected[m] = vt[m];
        if (delta) {
          double weight = bt[row * static_cast<size_t>(beta_width) + (beta_width == 1 ? 0 : h)];
          for (size_t m = 0; m < udv; ++m) {
            double retrieved = 0;
            for (size_t d = 0; d < udk; ++d) retrieved += s[d * udv + m] * kt[d];
            corrected[m] = weight * (vt[m] - retrieved);
          }
        }
        for (size_t d = 0; d < udk; ++d) {
          for (size_t m = 0; m < udv; ++m) s[d * udv + m] += kt[d] * corrected[m];
        }
        for (int64_t r = 0; r < group; ++r) {
          const int64_t head = h * group + r;
          const double* qt = q.data() + row * static_cast<size_t>(q_heads * dk) + head * dk;
          double* o = out.data() + row * static_cast<size_t>(q_heads * dv) + head * dv;
          for (size_t m = 0; m < udv; ++m) {
            double sum = 0;
            for (size_t d = 0; d < udk; ++d) sum += qt[d] * s[d * udv + m];
            o[m] = scale * sum;
          }
        }
      }
    }
  });
  ctx.setOutput(0, arrayOfReals(out, {batch, steps, q_heads * dv}, query->type()));
  if (ctx.hasOutput(1)) {
    ctx.setOutput(1,
                  arrayOfReals(state, state_shape, past != nullptr ? past->type() : query->type()));
  }
  return Status::ok();
}

}  // namespace

extern const Operator kLinearAttention;
constexpr Operator kLinearAttention{
    .domain = kOnnxDomain,
    .name = "LinearAttention",
    .versions = {
        {.since_version = 27,
         .inputs = {{"query", "T"},
                    {"key", "T"},
                    {"value", "T"},
                    optional("past_state", "S"),
                    optional("decay", "T"),
                    optional("beta", "T")},
         .outputs = {{"output", "T"}, {"present_state", "S"}},
         .attributes = {attr("chunk_size", 64), required("kv_num_heads", kInt),
                        required("q_num_heads", kInt), attr("scale", 0.0f),
                        attr("update_rule", "gated_delta")},
         .constraints = {{"T", tensor("float16 bfloat16 float")},
                         {"S", tensor("float16 bfloat16 float")}},
         .build_function_body = buildLinearAttention27,
         .infer = inferLinearAttention,
         .kernel = runLinearAttention},
    }};
static_assert(isWellFormed(kLinearAttention));

}  // namespace onyx::ops::ai_onnx
