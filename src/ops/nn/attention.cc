// Attention (ai.onnx), versions 23, 24, 25.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <string>
#include <string_view>

#include "onyx/ir/type.h"
#include "onyx/ops/inference_context.h"
#include "ops/body_text.h"
#include "ops/lib/real_kernels.h"
#include "ops/math/vector_math.h"
#include "ops/matrix_multiply.h"
#include "ops/node_draft.h"
#include "ops/schema_dsl.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

// What the inputs say about the attention's dimensions. Q, K and V are 4-D
// (batch, heads, sequence, head_size) or 3-D (batch, sequence, heads * head_size), the heads
// of a 3-D input given by q_num_heads / kv_num_heads.
struct AttentionInput {
  DimValue heads;
  DimValue sequence;
  DimValue head_size;
};

AttentionInput describe(InferenceContext& ctx, const Dims* shape, std::optional<int64_t> heads) {
  SymbolicDims& dims = ctx.dims();
  if (shape == nullptr) return {dims.fresh(), dims.fresh(), dims.fresh()};
  if (shape->size() == 4) return {(*shape)[1], (*shape)[2], (*shape)[3]};
  if (!heads) return {dims.fresh(), (*shape)[1], dims.fresh()};
  DimValue head_count = DimValue::known(*heads);
  std::optional<DimValue> size = dims.divideExact((*shape)[2], head_count);
  return {head_count, (*shape)[1], size ? *size : dims.fresh()};
}

bool checkRank(InferenceContext& ctx, const Dims* shape, const char* name) {
  if (shape == nullptr || shape->size() == 3 || shape->size() == 4) return true;
  ctx.fail(std::string(name) + " has rank " + std::to_string(shape->size()) +
           "; Attention takes 3-D or 4-D inputs");
  return false;
}

// What onnx's Attention-25 inference refuses among the attributes and the inputs and
// outputs a node has (onnx/defs/nn/defs.cc, Attention25Inference): window sizes below -1,
// a past or present key without its value (or the reverse), nonpad_kv_seqlen beside a
// cache, and head counts beside 4-D inputs (whose heads are an axis). Fails the node and
// returns false on the first.
bool checkAttention25Combinations(InferenceContext& ctx) {
  for (const char* name : {"left_window_size", "right_window_size"}) {
    if (int64_t size = ctx.intAttribute(name).value_or(-1); size < -1) {
      ctx.fail(std::string(name) + " is " + std::to_string(size) +
               "; it is -1 (no window) or a size of 0 or more");
      return false;
    }
  }
  if (ctx.hasInput(4) != ctx.hasInput(5)) {
    ctx.fail(std::string(ctx.hasInput(4) ? "past_key is given without past_value"
                                         : "past_value is given without past_key") +
             "; the cache comes as both or neither");
    return false;
  }
  if (ctx.hasOutput(1) != ctx.hasOutput(2)) {
    ctx.fail(std::string(ctx.hasOutput(1) ? "present_key is asked for without present_value"
                                          : "present_value is asked for without present_key") +
             "; the cache comes as both or neither");
    return false;
  }
  if (ctx.hasInput(6) && (ctx.hasInput(4) || ctx.hasOutput(1))) {
    ctx.fail("nonpad_kv_seqlen is given beside a past or present cache; it goes without one");
    return false;
  }
  if (ctx.inputRank(0) == 4 &&
      (ctx.attribute("q_num_heads") != nullptr || ctx.attribute("kv_num_heads") != nullptr)) {
    ctx.fail("Q is 4-D, its heads an axis, but q_num_heads or kv_num_heads is given");
    return false;
  }
  return true;
}

// Y: (batch, q_heads, q_sequence, v_head_size), or 3-D (batch, q_sequence,
// q_heads * v_head_size) like Q; present_key / present_value: the past ones with the
// sequence grown by K's, or K and V as 4-D; qk_matmul_output: (batch, q_heads, q_sequence,
// total_sequence).
void inferAttention(InferenceContext& ctx) {
  if (ctx.schema().since_version >= 25 && !checkAttention25Combinations(ctx)) return;
  const Dims* query = ctx.inputShape(0);
  const Dims* key = ctx.inputShape(1);
  const Dims* value = ctx.inputShape(2);
  const Dims* past_key = ctx.hasInput(4) ? ctx.inputShape(4) : nullptr;
  const Dims* past_value = ctx.hasInput(5) ? ctx.inputShape(5) : nullptr;
  if (!checkRank(ctx, query, "Q") || !checkRank(ctx, key, "K") || !checkRank(ctx, value, "V")) {
    return;
  }
  for (const Dims* past : {past_key, past_value}) {
    if (past != nullptr && past->size() != 4) {
      ctx.fail("a past key or value has rank " + std::to_string(past->size()) + "; it must be 4");
      return;
    }
  }
  std::optional<int64_t> q_heads = ctx.intAttribute("q_num_heads");
  std::optional<int64_t> kv_heads = ctx.intAttribute("kv_num_heads");
  if ((q_heads && *q_heads <= 0) || (kv_heads && *kv_heads <= 0)) {
    ctx.fail("q_num_heads " + std::to_string(q_heads.value_or(0)) + " and kv_num_heads " +
             std::to_string(kv_heads.value_or(0)) + " must be positive");
    return;
  }
  if (query != nullptr && query->size() == 3 && (!q_heads || !kv_heads)) {
    ctx.fail("3-D inputs need the q_num_heads and kv_num_heads attributes");
    return;
  }
  SymbolicDims& dims = ctx.dims();
  AttentionInput q = describe(ctx, query, q_heads);
  AttentionInput k = describe(ctx, key, kv_heads);
  AttentionInput v = describe(ctx, value, kv_heads);
  DimValue batch = query != nullptr ? (*query)[0] : dims.fresh();
  DimValue key_sequence = key != nullptr ? k.sequence : v.sequence;

  if (query != nullptr) {
    if (query->size() == 4) {
      ctx.setOutputShape(0, {batch, q.heads, q.sequence, v.head_size});
    } else {
      ctx.setOutputShape(0, {batch, q.sequence, dims.multiply(q.heads, v.head_size)});
    }
  }
  DimValue total = key_sequence;
  if (past_key != nullptr) total = dims.add((*past_key)[2], key_sequence);
  if (ctx.hasOutput(1)) {
    if (past_key != nullptr) {
      ctx.setOutputShape(1, {(*past_key)[0], (*past_key)[1], total, (*past_key)[3]});
    } else if (!ctx.hasInput(4) && key != nullptr && query != nullptr) {
      ctx.setOutputShape(1, {batch, k.heads, key_sequence, k.head_size});
    }
  }
  if (ctx.hasOutput(2)) {
    if (past_value != nullptr) {
      ctx.setOutputShape(2, {(*past_value)[0], (*past_value)[1],
                             dims.add((*past_value)[2], v.sequence), (*past_value)[3]});
    } else if (!ctx.hasInput(5) && value != nullptr && query != nullptr) {
      ctx.setOutputShape(2, {batch, v.heads, v.sequence, v.head_size});
    }
  }
  if (ctx.hasOutput(3) && query != nullptr && (key != nullptr || value != nullptr) &&
      (past_key != nullptr || !ctx.hasInput(4))) {
    ctx.setOutputShape(3, {batch, q.heads, q.sequence, total});
  }
}

}  // namespace

constexpr TypeSet kUTypes23 =
    tensor("uint8 uint16 uint32 uint64 int8 int16 int32 int64 bfloat16 float16 float double bool");
constexpr Formals kInputs24 = {{"Q", "T1"},
                               {"K", "T1"},
                               {"V", "T2"},
                               optional("attn_mask", "U"),
                               optional("past_key", "T1"),
                               optional("past_value", "T2"),
                               optional("nonpad_kv_seqlen", "tensor(int64)")};
constexpr Formals kOutputs23 = {{"Y", "T1"},
                                optional("present_key", "T1"),
                                optional("present_value", "T2"),
                                optional("qk_matmul_output", "T1")};
constexpr Attributes kAttributes23 = {
    attr("is_causal", 0),           attr("kv_num_heads", kInt),
    attr("q_num_heads", kInt),      attr("qk_matmul_output_mode", 0),
    attr("scale", kFloat),          attr("softcap", 0.0f),
    attr("softmax_precision", kInt)};
constexpr Constraints kConstraints24 = {{"T1", tensor("bfloat16 float16 float double")},
                                        {"T2", tensor("bfloat16 float16 float double")},
                                        {"U", kUTypes23},
                                        {"tensor(int64)", tensor("int64")}};

namespace {

bool isFloatType(int64_t type) {
  return type == body::kFloat || type == body::kBfloat16 || type == body::kFloat16 ||
         type == body::kDouble;
}

// The additive bias of the scores: attn_mask (a bool mask as 0 / -inf; from version 24 padded
// with -inf up to the total length), plus -inf above the causal frontier when is_causal —
// offset by the past length, or per batch by nonpad_kv_seqlen - q_len for an external cache.
// Version 25 casts the causal bias to the mask's type before adding. Leaves `bias_causal`.
Status addMaskBias(const FunctionBodyContext& context, body::BodyText& out, int version) {
  out.add("total_len = Shape <start = -2, end = -1> (present_key_all)")
      .add("bias_shape = Concat <axis = 0> (q_len, total_len)")
      .floats("neg_inf", {-std::numeric_limits<float>::infinity()})
      .floats("zero_f", {0.0f});
  if (context.hasInput(3)) {
    Result<int32_t> mask_type = body::requireElementType(context, 3);
    if (!mask_type) return mask_type.status();
    out.add(*mask_type == body::kBool ? "mask_bias = Where (attn_mask, zero_f, neg_inf)"
                                      : "mask_bias = Identity (attn_mask)");
    if (version >= 24) {
      out.add("mask_len = Shape <start = -1> (attn_mask)")
          .add("mask_missing = Sub (total_len, mask_len)")
          .add("mask_pads = Concat <axis = 0> (zero_1d, mask_missing)")
          .add("neg_inf_mask = CastLike (neg_inf, mask_bias)")
          .add("bias = Pad (mask_bias, mask_pads, neg_inf_mask, minus_one_1d)");
    } else {
      out.add("bias = Identity (mask_bias)");
    }
  } else {
    out.add("bias = ConstantOfShape (bias_shape)");
  }
  if (context.intAttr("is_causal").value_or(0) != 1) {
    out.add("bias_causal = Identity (bias)");
    return Status::ok();
  }
  out.ints("zero_c", {0})
      .ints("one_c", {1})
      .add("zero_s = Squeeze (zero_c, zero_c)")
      .add("one_s = Squeeze (one_c, zero_c)")
      .add("rows = Gather (bias_shape, zero_s)")
      .add("columns = Gather (bias_shape, one_s)")
      .add("row_range = Range (zero_s, rows, one_s)")
      .add("row_index = Unsqueeze (row_range, one_c)")
      .add("column_range = Range (zero_s, columns, one_s)")
      .add("column_index = Unsqueeze (column_range, zero_c)");
  if (context.hasInput(6) && !context.hasInput(4)) {
    out.ints("axes_01", {0, 1})
        .ints("axes_123", {1, 2, 3})
        .add("row_index_4d = Unsqueeze (row_index, axes_01)")
        .add("column_index_4d = Unsqueeze (column_index, axes_01)")
        .add("offset_4d = Unsqueeze (causal_offset, axes_123)")
        .add("row_shifted = Add (row_index_4d, offset_4d)")
        .add("future = Less (row_shifted, column_index_4d)");
  } else {
    out.add("row_shifted = Add (row_index, past_len)")
        .add("future = Less (row_shifted, column_index)");
  }
  if (version >= 25) {
    out.add("causal_f = Where (future, neg_inf, zero_f)")
        .add("causal_bias = CastLike (causal_f, bias)");
  } else {
    out.add("causal_bias = Where (future, neg_inf, zero_f)");
  }
  out.add("bias_causal = Add (bias, causal_bias)");
  return Status::ok();
}

// Version 25's sliding window: -inf where the key is more than left_window_size before or
// right_window_size after the query's position. Reads `bias_causal`, leaves `bias_window`.
void addWindowBias(const FunctionBodyContext& context, body::BodyText& out, int64_t left,
                   int64_t right) {
  if (left < 0 && right < 0) {
    out.add("bias_window = Identity (bias_causal)");
    return;
  }
  out.ints("w_zero", {0})
      .ints("w_one", {1})
      .add("w_zero_s = Squeeze (w_zero, w_zero)")
      .add("w_one_s = Squeeze (w_one, w_zero)")
      .add("w_rows = Squeeze (q_len, w_zero)")
      .add("w_columns = Squeeze (total_len, w_zero)")
      .add("w_row_range = Range (w_zero_s, w_rows, w_one_s)")
      .add("w_column_range = Range (w_zero_s, w_columns, w_one_s)");
  if (left >= 0) out.ints("left", {left}).add("left_s = Squeeze (left, w_zero)");
  if (right >= 0) out.ints("right", {right}).add("right_s = Squeeze (right, w_zero)");
  if (context.hasInput(6) && !context.hasInput(4)) {
    out.add("w_offset = Sub (nonpad_kv_seqlen, q_len)")
        .ints("w_axes_123", {1, 2, 3})
        .ints("w_axes_01", {0, 1})
        .add("w_offset_4d = Unsqueeze (w_offset, w_axes_123)")
        .add("w_row_2d = Unsqueeze (w_row_range, w_one)")
        .add("w_row_4d = Unsqueeze (w_row_2d, w_axes_01)")
        .add("w_column_2d = Unsqueeze (w_column_range, w_zero)")
        .add("w_column_4d = Unsqueeze (w_column_2d, w_axes_01)")
        .add("w_position = Add (w_row_4d, w_offset_4d)")
        .add("w_distance = Sub (w_position, w_column_4d)");
  } else {
    out.add("w_row_2d = Unsqueeze (w_row_range, w_one)")
        .add("w_column_2d = Unsqueeze (w_column_range, w_zero)")
        .add("w_position = Add (w_row_2d, past_len)")
        .add("w_distance = Sub (w_position, w_column_2d)");
  }
  if (left >= 0 && right >= 0) {
    out.add("left_ok = LessOrEqual (w_distance, left_s)")
        .add("w_back = Neg (w_distance)")
        .add("right_ok = LessOrEqual (w_back, right_s)")
        .add("in_window = And (left_ok, right_ok)");
  } else if (left >= 0) {
    out.add("in_window = LessOrEqual (w_distance, left_s)");
  } else {
    out.add("w_back = Neg (w_distance)").add("in_window = LessOrEqual (w_back, right_s)");
  }
  out.add("window_f = Where (in_window, zero_f, neg_inf)")
      .add("window_bias = CastLike (window_f, bias_causal)")
      .add("bias_window = Add (bias_causal, window_bias)");
}

// Attention as the spec defines it (versions 23, 24 and 25): Q, K, V as (batch, heads,
// sequence, head size) (3-D inputs split into q_num_heads / kv_num_heads heads), K and V after
// the past cache, the heads of K and V repeated for grouped-query attention, scores Q K^T with
// sqrt(scale) on each side (scale defaults to 1/sqrt(head size)), an optional softcap, the
// mask bias, a Softmax in softmax_precision, fully masked rows zeroed, then the product with
// V. The body needs Q's element type, and attn_mask's when the node has one.
Result<std::string> buildAttention(const FunctionBodyContext& context, int version) {
  Result<int32_t> q_type = body::requireElementType(context, 0);
  if (!q_type) return q_type.status();
  const int64_t t1 = *q_type;
  const int64_t softmax_type = context.intAttr("softmax_precision").value_or(t1);
  if (!isFloatType(softmax_type)) return body::refuse("softmax_precision must be a float type");
  const int64_t q_heads = context.intAttr("q_num_heads").value_or(0);
  const int64_t kv_heads = context.intAttr("kv_num_heads").value_or(0);
  const bool causal = context.intAttr("is_causal").value_or(0) == 1;
  int64_t left = -1;
  int64_t right = -1;
  if (version >= 25) {
    left = context.intAttr("left_window_size").value_or(-1);
    right = context.intAttr("right_window_size").value_or(-1);
    if (left < -1 || right < -1) return body::refuse("a window size below -1");
    if (context.hasInput(4) != context.hasInput(5) ||
        context.hasOutput(1) != context.hasOutput(2)) {
      return body::refuse("past_key and past_value, present_key and present_value come in pairs");
    }
    if (context.hasInput(6) && (context.hasInput(4) || context.hasOutput(1))) {
      return body::refuse("nonpad_kv_seqlen does not go with a past or present cache");
    }
    const Type* type = context.inputType(0);
    if (type != nullptr && type->shape != nullptr && type->shape->rank() == 4 &&
        (context.attribute("q_num_heads") != nullptr ||
         context.attribute("kv_num_heads") != nullptr)) {
      return body::refuse("4-D inputs take no q_num_heads or kv_num_heads");
    }
  }
  const bool split_heads = q_heads > 0 && kv_heads > 0;

  body::BodyText out(context, "Attention");
  out.add("batch = Shape <start = 0, end = 1> (Q)")
      .add("q_len = Shape <start = -2, end = -1> (Q)")
      .add("kv_len = Shape <start = -2, end = -1> (K)");
  if (split_heads) {
    out.ints("q_heads_given", {q_heads})
        .ints("kv_heads_given", {kv_heads})
        .ints("minus_one", {-1})
        .add("q_split_shape = Concat <axis = 0> (batch, q_len, q_heads_given, minus_one)")
        .add("kv_split_shape = Concat <axis = 0> (batch, kv_len, kv_heads_given, minus_one)")
        .add("q_split = Reshape (Q, q_split_shape)")
        .add("k_split = Reshape (K, kv_split_shape)")
        .add("v_split = Reshape (V, kv_split_shape)")
        .add("q_4d = Transpose <perm = [0, 2, 1, 3]> (q_split)")
        .add("k_4d = Transpose <perm = [0, 2, 1, 3]> (k_split)")
        .add("v_4d = Transpose <perm = [0, 2, 1, 3]> (v_split)");
  } else {
    out.add("q_4d = Identity (Q)").add("k_4d = Identity (K)").add("v_4d = Identity (V)");
  }
  std::optional<float> scale = context.floatAttr("scale");
  out.add("q_heads = Shape <start = 1, end = 2> (q_4d)")
      .add("kv_heads = Shape <start = 1, end = 2> (k_4d)")
      .add("qk_head_size = Shape <start = 3, end = 4> (q_4d)")
      .add("qk_head_size_f = Cast <to = 1> (qk_head_size)")
      .add("v_head_size = Shape <start = 3, end = 4> (v_4d)")
      .add("sqrt_head_size = Sqrt (qk_head_size_f)")
      .ints("one_1d", {1});
  if (version >= 24) out.ints("minus_one_1d", {-1});
  out.floats("one_1d_f", {1.0f})
      .ints("zero_1d", {0})
      .add("default_scale = Div (one_1d_f, sqrt_head_size)")
      .scalarFloat("scale_given", scale.value_or(1.0f))
      .add(scale ? "scale_factor = Identity (scale_given)"
                 : "scale_factor = Identity (default_scale)")
      .add("scale_sqrt = Sqrt (scale_factor)")
      .addf("scale_sqrt_t = Cast <to = {}> (scale_sqrt)", t1);

  if (context.hasInput(4)) {
    out.add("present_key_all = Concat <axis = 2> (past_key, k_4d)")
        .add("past_len = Shape <start = -2, end = -1> (past_key)");
  } else {
    out.add("present_key_all = Identity (k_4d)").ints("past_len", {0});
  }
  if (version >= 24 && causal && context.hasInput(6) && !context.hasInput(4)) {
    out.add("causal_offset = Sub (nonpad_kv_seqlen, q_len)");
  }
  if (context.hasOutput(1)) out.add("present_key = Identity (present_key_all)");
  if (context.hasInput(5)) {
    out.add("present_value_all = Concat <axis = 2> (past_value, v_4d)");
  } else {
    out.add("present_value_all = Identity (v_4d)");
  }
  if (context.hasOutput(2)) out.add("present_value = Identity (present_value_all)");

  Status masked = addMaskBias(context, out, version);
  if (!masked) return masked;
  std::string_view bias = "bias_causal";
  if (version >= 25) {
    addWindowBias(context, out, left, right);
    bias = "bias_window";
  }
  if (version >= 24) {
    if (context.hasInput(6)) {
      out.add("nonpad_2d = Unsqueeze (nonpad_kv_seqlen, one_1d)")
          .add("kv_len_s = Squeeze (kv_len)")
          .scalarInt("zero_i", 0)
          .scalarInt("one_i", 1)
          .add("kv_positions = Range (zero_i, kv_len_s, one_i)")
          .add("kv_valid = Less (kv_positions, nonpad_2d)")
          .add("padding_f = Where (kv_valid, zero_f, neg_inf)")
          .add("padding_3d = Unsqueeze (padding_f, one_1d)");
      if (version >= 25) {
        out.add("padding_4d_f = Unsqueeze (padding_3d, one_1d)")
            .addf("padding_4d = CastLike (padding_4d_f, {})", bias);
      } else {
        out.add("padding_4d = Unsqueeze (padding_3d, one_1d)");
      }
      out.addf("bias_padded = Add ({}, padding_4d)", bias);
    } else {
      out.addf("bias_padded = Identity ({})", bias);
    }
    bias = "bias_padded";
  }
  out.addf("bias_t = Cast <to = {}> ({})", t1, bias);

  out.add("same_heads = Equal (q_heads, kv_heads)")
      .add("grouped_1 = Not (same_heads)")
      .add("head_ratio = Div (q_heads, kv_heads)")
      .add("head_ratio_int = Cast <to = 7> (head_ratio)")
      .add("head_remainder = Mod (q_heads, kv_heads)")
      .add("grouped_2 = Equal (head_remainder, zero_1d)")
      .add("grouped = And (grouped_1, grouped_2)")
      .add("repeats = Where (grouped, head_ratio_int, one_1d)")
      .ints("two_1d", {2})
      .add("k_unsqueezed = Unsqueeze (present_key_all, two_1d)")
      .add("v_unsqueezed = Unsqueeze (present_value_all, two_1d)")
      .add(
          "k_expand_shape = Concat <axis = 0> (batch, kv_heads, repeats, total_len, "
          "qk_head_size)")
      .add("k_expanded = Expand (k_unsqueezed, k_expand_shape)")
      .add("v_expand_shape = Concat <axis = 0> (batch, kv_heads, repeats, total_len, v_head_size)")
      .add("v_expanded = Expand (v_unsqueezed, v_expand_shape)")
      .add("k_shape = Concat <axis = 0> (batch, q_heads, total_len, qk_head_size)")
      .add("v_shape = Concat <axis = 0> (batch, q_heads, total_len, v_head_size)")
      .add("k_all_heads = Reshape (k_expanded, k_shape)")
      .add("v_all_heads = Reshape (v_expanded, v_shape)")
      .add("k_transposed = Transpose <perm = [0, 1, 3, 2]> (k_all_heads)")
      .add("q_scaled = Mul (q_4d, scale_sqrt_t)")
      .add("k_scaled = Mul (k_transposed, scale_sqrt_t)")
      .add("scores = MatMul (q_scaled, k_scaled)")
      .addf("scores_t = Cast <to = {}> (scores)", t1);
  float softcap = context.floatAttr("softcap").value_or(0.0f);
  if (softcap != 0.0f) {
    out.floats("softcap", {softcap})
        .addf("softcap_t = Cast <to = {}> (softcap)", t1)
        .add("capped_ratio = Div (scores_t, softcap_t)")
        .add("capped_tanh = Tanh (capped_ratio)")
        .add("scores_capped = Mul (capped_tanh, softcap_t)")
        .add("scores_biased = Add (scores_capped, bias_t)");
  } else {
    out.add("scores_biased = Add (scores_t, bias_t)");
  }
  out.addf("softmax_in = Cast <to = {}> (scores_biased)", softmax_type)
      .add("probabilities = Softmax (softmax_in)")
      .addf("probabilities_t = Cast <to = {}> (probabilities)", t1)
      // A row whose bias is -inf everywhere softmaxes to NaN: such rows become zeros.
      .add("row_axes = Constant <value = int64[1] {-1}> ()")
      .add("bias_row_max = ReduceMax (bias_t, row_axes)")
      .add("neg_inf_t = CastLike (neg_inf, bias_t)")
      .add("row_masked = Equal (bias_row_max, neg_inf_t)")
      .add("zero_probability = CastLike (zero_f, probabilities_t)")
      .add("probabilities_safe = Where (row_masked, zero_probability, probabilities_t)");
  if (context.hasOutput(3)) {
    switch (context.intAttr("qk_matmul_output_mode").value_or(0)) {
      case 1:
        out.add(softcap != 0.0f ? "qk_matmul_output = Identity (scores_capped)"
                                : "qk_matmul_output = Identity (scores_t)");
        break;
      case 2: out.add("qk_matmul_output = Identity (scores_biased)"); break;
      case 3: out.add("qk_matmul_output = Identity (probabilities_safe)"); break;
      default: out.add("qk_matmul_output = Identity (scores)"); break;
    }
  }
  out.add("y_4d = MatMul (probabilities_safe, v_all_heads)");
  if (split_heads) {
    out.add("y_transposed = Transpose <perm = [0, 2, 1, 3]> (y_4d)")
        .add("y_shape = Concat <axis = 0> (zero_1d, zero_1d, minus_one)")
        .add("Y = Reshape (y_transposed, y_shape)");
  } else {
    out.add("Y = Identity (y_4d)");
  }
  return out.finish();
}

// ---- the kernel ----------------------------------------------------------------------------

// One of Q, K, V as (batch, heads, sequence, head size).
struct HeadLayout {
  size_t heads = 0;
  size_t sequence = 0;
  size_t head_size = 0;
};

Result<HeadLayout> headLayout(KernelContext& ctx, const Array& array, const char* name,
                              std::optional<int64_t> heads) {
  const std::vector<int64_t>& shape = array.shape();
  if (shape.size() == 4) {
    return HeadLayout{static_cast<size_t>(shape[1]), static_cast<size_t>(shape[2]),
                      static_cast<size_t>(shape[3])};
  }
  if (!heads || *heads <= 0) {
    return ctx.fail("3-D inputs need positive q_num_heads and kv_num_heads attributes");
  }
  if (shape[2] % *heads != 0) {
    return ctx.fail("the hidden size " + std::to_string(shape[2]) + " of " + std::string(name) +
                    " is not a multiple of its head count " + std::to_string(*heads));
  }
  return HeadLayout{static_cast<size_t>(*heads), static_cast<size_t>(shape[1]),
                    static_cast<size_t>(shape[2] / *heads)};
}

// Writes `array` (3-D or 4-D, described by `layout`) as (batch, heads, sequence, head size)
// into `out` at sequence offset `offset` of `total` positions, times `factor`.
void gatherHeads(const std::vector<double>& values, const Array& array, const HeadLayout& layout,
                 size_t batch, size_t offset, size_t total, double factor, double* out) {
  bool three_d = array.rank() == 3;
  size_t d = layout.head_size;
  for (size_t b = 0; b < batch; ++b) {
    for (size_t h = 0; h < layout.heads; ++h) {
      for (size_t s = 0; s < layout.sequence; ++s) {
        size_t from = three_d ? ((b * layout.sequence + s) * layout.heads + h) * d
                              : ((b * layout.heads + h) * layout.sequence + s) * d;
        double* to = out + ((b * layout.heads + h) * total + offset + s) * d;
        for (size_t i = 0; i < d; ++i) to[i] = values[from + i] * factor;
      }
    }
  }
}

// present = concat(past, new) along the sequence, 4-D, in the inputs' element type.
Array presentOf(const Array* past, const Array& current, const HeadLayout& layout, size_t batch,
                size_t past_length) {
  size_t total = past_length + layout.sequence;
  size_t d = layout.head_size;
  Array out(current.type(), {static_cast<int64_t>(batch), static_cast<int64_t>(layout.heads),
                             static_cast<int64_t>(total), static_cast<int64_t>(d)});
  bool three_d = current.rank() == 3;
  for (size_t b = 0; b < batch; ++b) {
    for (size_t h = 0; h < layout.heads; ++h) {
      size_t base = (b * layout.heads + h) * total * d;
      if (past != nullptr && past_length > 0) {
        copyElements(*past, (b * layout.heads + h) * past_length * d, out, base, past_length * d);
      }
      for (size_t s = 0; s < layout.sequence; ++s) {
        size_t from = three_d ? ((b * layout.sequence + s) * layout.heads + h) * d
                              : ((b * layout.heads + h) * layout.sequence + s) * d;
        copyElements(current, from, out, base + (past_length + s) * d, d);
      }
    }
  }
  return out;
}

// What runAttention has checked and worked out, for the float path.
struct AttentionCall {
  const Array* q;
  const Array* k;
  const Array* v;
  const Array* past_key;
  const Array* past_value;
  HeadLayout ql, kl, vl;
  size_t batch, past_length;
  const std::vector<int64_t>& nonpad_lengths;  // per batch, or empty
  const std::vector<double>& mask_values;      // the mask as a bias, or empty
  const std::vector<size_t>& mask_strides;
  size_t mask_length;
  double scale, softcap;
  bool causal;
  int64_t left, right;  // windows, -1: none
};

// The columns [first, last) that row `position` of batch b may see: causal, the windows and
// the unpadded lengths each bound the band at one end (mask values may hide more within it).
std::pair<size_t, size_t> visibleColumns(const AttentionCall& call, size_t b, int64_t position,
                                         size_t total) {
  int64_t first = 0;
  auto last = static_cast<int64_t>(total);
  if (call.causal) last = std::min(last, position + 1);
  if (call.left >= 0) first = std::max(first, position - call.left);
  if (call.right >= 0) last = std::min(last, position + call.right + 1);
  if (!call.nonpad_lengths.empty()) last = std::min(last, call.nonpad_lengths[b]);
  if (last <= first) return {0, 0};
  return {static_cast<size_t>(first), static_cast<size_t>(last)};
}

// Softmax of row[band) in place, zeros elsewhere; zeros everywhere when the band is empty
// or every score in it is -inf (a row with every position masked). `scratch` holds at least
// `total` floats.
void softmaxWithin(float* row, size_t total, std::pair<size_t, size_t> band,
                   std::vector<float>& scratch) {
  const auto [first, last] = band;
  if (first == last) {
    std::fill(row, row + total, 0.0f);
    return;
  }
  float row_max = -std::numeric_limits<float>::infinity();
  for (size_t j = first; j < last; ++j) {
    if (!(row[j] <= row_max)) row_max = row[j];  // NaN wins, as it would in the sum
  }
  const float shift = row_max == -std::numeric_limits<float>::infinity() ? 0.0f : row_max;
  vector_math::expShiftedFloats(row + first, shift, scratch.data(), last - first);
  float sum = 0;
  for (size_t j = 0; j < last - first; ++j) sum += scratch[j];
  const float inverse = sum == 0 ? 1.0f : 1.0f / sum;
  std::fill(row, row + first, 0.0f);
  for (size_t j = first; j < last; ++j) row[j] = scratch[j - first] * inverse;
  std::fill(row + last, row + total, 0.0f);
}

// Attention on floats, for FLOAT inputs without the qk_matmul_output: each (batch, head)
// pair's scores Q K^T and product with V on sgemm, reading K and V in place (the input's rows
// of a head, or the present cache's), the heads of a group reading their one K and V head
// (nothing repeated). The pairs are spread over the threads, each pair's work on one: the
// bits depend on the shapes alone. Float rounding where the reference computes in double.
Status runAttentionFloat(KernelContext& ctx, const AttentionCall& call) {
  const HeadLayout& ql = call.ql;
  const size_t batch = call.batch, sq = ql.sequence, dk = ql.head_size, dv = call.vl.head_size;
  const size_t q_heads = ql.heads, kv_heads = call.kl.heads, group = q_heads / kv_heads;
  const size_t total = call.past_length + call.kl.sequence;
  const bool three_d = call.q->rank() == 3;
  std::optional<Array> present_key, present_value;
  if (call.past_key != nullptr || ctx.hasOutput(1)) {
    present_key = presentOf(call.past_key, *call.k, call.kl, batch, call.past_length);
  }
  if (call.past_value != nullptr || ctx.hasOutput(2)) {
    present_value = presentOf(call.past_value, *call.v, call.vl, batch, call.past_length);
  }
  // Where the rows of K (or V) head `kv` of batch b start, and their stride.
  auto rowsOf = [&](const std::optional<Array>& present, const Array& input,
                    const HeadLayout& layout, size_t b, size_t kv, size_t& stride) {
    const size_t d = layout.head_size;
    if (present) {
      stride = d;
      return present->data<float>() + (b * kv_heads + kv) * total * d;
    }
    if (input.rank() == 3) {
      stride = kv_heads * d;
      return input.data<float>() + b * layout.sequence * kv_heads * d + kv * d;
    }
    stride = d;
    return input.data<float>() + (b * kv_heads + kv) * layout.sequence * d;
  };
  std::vector<int64_t> y_shape =
      three_d ? std::vector<int64_t>{int64_t(batch), int64_t(sq), int64_t(q_heads * dv)}
              : std::vector<int64_t>{int64_t(batch), int64_t(q_heads), int64_t(sq), int64_t(dv)};
  Result<Array> made = Array::allocate(ElementType::kFloat, y_shape);
  if (!made) return made.status();
  Array y = std::move(*made);
  const float neg_inf = -std::numeric_limits<float>::infinity();
  // What a row sees is one band of columns (causal, windows and padding each cut it at one
  // end), within which mask values and softcap adjust the scores: a softmax over the band.
  const bool adjusted = !call.mask_values.empty() || call.softcap > 0;
  parallelFor(ctx, batch * q_heads, 1, [&](size_t begin, size_t end) {
    std::vector<float> scores(sq * total);
    std::vector<float> exponentials(total);
    for (size_t pair = begin; pair < end; ++pair) {
      const size_t b = pair / q_heads, h = pair % q_heads, kv = h / group;
      const size_t q_stride = three_d ? q_heads * dk : dk;
      const float* q = three_d ? call.q->data<float>() + b * sq * q_heads * dk + h * dk
                               : call.q->data<float>() + pair * sq * dk;
      size_t k_stride = 0, v_stride = 0;
      const float* k = rowsOf(present_key, *call.k, call.kl, b, kv, k_stride);
      const float* v = rowsOf(present_value, *call.v, call.vl, b, kv, v_stride);
      int64_t offset = 0;
      if (call.past_key != nullptr) {
        offset = static_cast<int64_t>(call.past_length);
      } else if (!call.nonpad_lengths.empty()) {
        offset = call.nonpad_lengths[b] - static_cast<int64_t>(sq);
      }
      // The products take the columns some row sees, [seen_first, seen_last): a cache of
      // fixed capacity holds many positions no row sees yet (past nonpad_kv_seqlen), and a
      // window leaves the early ones behind. The rest of each row is zeros after the softmax.
      size_t seen_first = total, seen_last = 0;
      for (size_t i = 0; i < sq; ++i) {
        const auto [first, last] = visibleColumns(call, b, static_cast<int64_t>(i) + offset, total);
        if (first == last) continue;
        seen_first = std::min(seen_first, first);
        seen_last = std::max(seen_last, last);
      }
      if (seen_last <= seen_first) seen_first = seen_last = 0;
      const size_t seen = seen_last - seen_first;
      if (seen > 0) {
        multiplyFloatOnThisThread(ctx, false, true, sq, seen, dk, static_cast<float>(call.scale), q,
                                  q_stride, k + seen_first * k_stride, k_stride, 0.0f,
                                  scores.data() + seen_first, total);
      }
      for (size_t i = 0; i < sq; ++i) {
        float* row = scores.data() + i * total;
        const int64_t position = static_cast<int64_t>(i) + offset;
        const std::pair<size_t, size_t> band = visibleColumns(call, b, position, total);
        if (adjusted) {
          // Mask values and softcap apply within the band; a masked position is -inf.
          for (size_t j = band.first; j < band.second; ++j) {
            float bias = 0;
            if (!call.mask_values.empty()) {
              bias =
                  j < call.mask_length
                      ? static_cast<float>(
                            call.mask_values[b * call.mask_strides[0] + h * call.mask_strides[1] +
                                             i * call.mask_strides[2] + j])
                      : neg_inf;
              if (bias == neg_inf) {
                row[j] = neg_inf;
                continue;
              }
            }
            float score = row[j];
            if (call.softcap > 0) {
              const float cap = static_cast<float>(call.softcap);
              score = cap * std::tanh(score / cap);
            }
            row[j] = score + bias;
          }
        }
        softmaxWithin(row, total, band, exponentials);
      }
      const size_t y_stride = three_d ? q_heads * dv : dv;
      float* out = three_d ? y.data<float>() + b * sq * q_heads * dv + h * dv
                           : y.data<float>() + pair * sq * dv;
      if (seen > 0) {
        multiplyFloatOnThisThread(ctx, false, false, sq, dv, seen, 1.0f, scores.data() + seen_first,
                                  total, v + seen_first * v_stride, v_stride, 0.0f, out, y_stride);
      } else {
        for (size_t i = 0; i < sq; ++i)
          std::fill(out + i * y_stride, out + i * y_stride + dv, 0.0f);
      }
    }
  });
  ctx.setOutput(0, std::move(y));
  if (ctx.hasOutput(1)) ctx.setOutput(1, std::move(*present_key));
  if (ctx.hasOutput(2)) ctx.setOutput(2, std::move(*present_value));
  return Status::ok();
}

Status runAttention(KernelContext& ctx, int version) {
  const Array* q = ctx.inputArray(0);
  const Array* k = ctx.inputArray(1);
  const Array* v = ctx.inputArray(2);
  if (q == nullptr || k == nullptr || v == nullptr) return ctx.fail("needs Q, K and V tensors");
  const Array* mask = ctx.inputArray(3);
  const Array* past_key = ctx.inputArray(4);
  const Array* past_value = ctx.inputArray(5);
  const Array* nonpad = ctx.inputArray(6);
  size_t rank = q->rank();
  if ((rank != 3 && rank != 4) || k->rank() != rank || v->rank() != rank) {
    return ctx.fail("Q, K and V must all be 3-D or all 4-D; they are " + shapeText(q->shape()) +
                    ", " + shapeText(k->shape()) + " and " + shapeText(v->shape()));
  }
  for (const Array* input : {q, k, v, past_key, past_value}) {
    if (input != nullptr && !isRealType(input->type())) {
      return ctx.fail("Q, K, V and the past cache must be floating-point tensors");
    }
  }
  std::optional<int64_t> q_heads_attr = ctx.intAttribute("q_num_heads");
  std::optional<int64_t> kv_heads_attr = ctx.intAttribute("kv_num_heads");
  if (version >= 25 && rank == 4 && (q_heads_attr || kv_heads_attr)) {
    return ctx.fail("4-D inputs take no q_num_heads or kv_num_heads");
  }
  Result<HeadLayout> ql = headLayout(ctx, *q, "Q", q_heads_attr);
  if (!ql) return ql.status();
  Result<HeadLayout> kl = headLayout(ctx, *k, "K", kv_heads_attr);
  if (!kl) return kl.status();
  Result<HeadLayout> vl = headLayout(ctx, *v, "V", kv_heads_attr);
  if (!vl) return vl.status();
  size_t batch = static_cast<size_t>(q->dim(0));
  if (static_cast<size_t>(k->dim(0)) != batch || static_cast<size_t>(v->dim(0)) != batch) {
    return ctx.fail("Q, K and V have different batch sizes");
  }
  if (kl->head_size != ql->head_size) {
    return ctx.fail("Q's head size " + std::to_string(ql->head_size) + " differs from K's " +
                    std::to_string(kl->head_size));
  }
  if (kl->heads != vl->heads || kl->sequence != vl->sequence) {
    return ctx.fail("K and V differ in heads or sequence length");
  }
  size_t q_heads = ql->heads;
  size_t kv_heads = kl->heads;
  if (kv_heads == 0 || q_heads % kv_heads != 0) {
    return ctx.fail("Q's " + std::to_string(q_heads) + " heads are not a multiple of K's " +
                    std::to_string(kv_heads));
  }
  if ((past_key == nullptr) != (past_value == nullptr)) {
    return ctx.fail("past_key and past_value come together");
  }
  if (nonpad != nullptr && past_key != nullptr) {
    return ctx.fail("nonpad_kv_seqlen does not go with a past cache");
  }
  size_t past_length = 0;
  if (past_key != nullptr) {
    const std::vector<int64_t>& pk = past_key->shape();
    const std::vector<int64_t>& pv = past_value->shape();
    if (pk.size() != 4 || pv.size() != 4 || static_cast<size_t>(pk[0]) != batch ||
        static_cast<size_t>(pk[1]) != kv_heads || static_cast<size_t>(pk[3]) != kl->head_size ||
        static_cast<size_t>(pv[0]) != batch || static_cast<size_t>(pv[1]) != kv_heads ||
        pv[2] != pk[2] || static_cast<size_t>(pv[3]) != vl->head_size) {
      return ctx.fail("past_key " + shapeText(pk) + " and past_value " + shapeText(pv) +
                      " do not fit K and V");
    }
    past_length = static_cast<size_t>(pk[2]);
  }
  if (past_key != nullptr && (past_key->type() != k->type() || past_value->type() != v->type())) {
    return ctx.fail("the past cache's element types differ from K's and V's");
  }
  std::vector<int64_t> nonpad_lengths;
  if (nonpad != nullptr) {
    std::optional<std::vector<int64_t>> lengths = integersOf(*nonpad);
    if (!lengths || lengths->size() != batch) {
      return ctx.fail("nonpad_kv_seqlen must hold one length per batch");
    }
    nonpad_lengths = *lengths;
    for (int64_t length : nonpad_lengths) {
      if (length < 0 || length > static_cast<int64_t>(past_length + kl->sequence)) {
        return ctx.fail("a nonpad_kv_seqlen of " + std::to_string(length) +
                        " is outside the key sequence");
      }
    }
  }
  const size_t sq = ql->sequence;
  const size_t total = past_length + kl->sequence;
  const size_t dk = ql->head_size;
  const size_t dv = vl->head_size;

  // The mask, right-aligned against (batch, q heads, q sequence, its own length).
  std::vector<double> mask_values;
  std::vector<size_t> mask_strides(4, 0);
  size_t mask_length = 0;
  bool bool_mask = false;
  if (mask != nullptr) {
    const std::vector<int64_t>& ms = mask->shape();
    if (ms.empty() || ms.size() > 4) return ctx.fail("attn_mask must have rank 1 to 4");
    mask_length = static_cast<size_t>(ms.back());
    if (mask_length > total) {
      return ctx.fail("attn_mask's last dimension " + std::to_string(mask_length) +
                      " is longer than the total sequence " + std::to_string(total));
    }
    const size_t target[3] = {batch, q_heads, sq};
    std::vector<size_t> strides = stridesOf(ms);
    for (size_t i = 0; i + 1 < ms.size(); ++i) {
      size_t axis = 4 - ms.size() + i;
      size_t dim = static_cast<size_t>(ms[i]);
      if (dim != 1 && dim != target[axis]) {
        return ctx.fail("attn_mask " + shapeText(ms) + " does not broadcast to the scores");
      }
      mask_strides[axis] = dim == 1 ? 0 : strides[i];
    }
    bool_mask = mask->type() == ElementType::kBool;
    if (bool_mask) {
      const bool* flags = mask->data<bool>();
      mask_values.resize(mask->size());
      for (size_t i = 0; i < mask->size(); ++i) {
        mask_values[i] = flags[i] ? 0.0 : -std::numeric_limits<double>::infinity();
      }
    } else {
      mask_values = realsOf(*mask);
    }
  }

  std::optional<float> scale_attr = ctx.floatAttribute("scale");
  double scale = scale_attr ? static_cast<double>(*scale_attr) : 1.0 / std::sqrt(double(dk));
  double factor = std::sqrt(scale);
  bool causal = ctx.intAttribute("is_causal").value_or(0) != 0;
  double softcap = ctx.floatAttribute("softcap").value_or(0.0f);
  int64_t mode = ctx.intAttribute("qk_matmul_output_mode").value_or(0);
  if (mode < 0 || mode > 3) return ctx.fail("qk_matmul_output_mode must be 0 to 3");
  int64_t left = version >= 25 ? ctx.intAttribute("left_window_size").value_or(-1) : -1;
  int64_t right = version >= 25 ? ctx.intAttribute("right_window_size").value_or(-1) : -1;
  if (left < -1 || right < -1) return ctx.fail("a window size below -1");

  std::vector<int64_t> y_shape =
      rank == 4 ? std::vector<int64_t>{int64_t(batch), int64_t(q_heads), int64_t(sq), int64_t(dv)}
                : std::vector<int64_t>{int64_t(batch), int64_t(sq), int64_t(q_heads * dv)};
  std::vector<int64_t> qk_shape = {int64_t(batch), int64_t(q_heads), int64_t(sq), int64_t(total)};
  Result<Array> qk_check = Array::allocate(ElementType::kDouble, qk_shape);
  if (!qk_check) return qk_check.status();

  // FLOAT throughout, with nothing asked of the scores: on floats, in place.
  const bool floats = q->type() == ElementType::kFloat && k->type() == ElementType::kFloat &&
                      v->type() == ElementType::kFloat && !ctx.hasOutput(3) &&
                      ctx.intAttribute("softmax_precision").value_or(1) == 1 &&
                      (mask == nullptr || mask->type() == ElementType::kBool ||
                       mask->type() == ElementType::kFloat);
  if (floats) {
    return runAttentionFloat(ctx, AttentionCall{.q = q,
                                                .k = k,
                                                .v = v,
                                                .past_key = past_key,
                                                .past_value = past_value,
                                                .ql = *ql,
                                                .kl = *kl,
                                                .vl = *vl,
                                                .batch = batch,
                                                .past_length = past_length,
                                                .nonpad_lengths = nonpad_lengths,
                                                .mask_values = mask_values,
                                                .mask_strides = mask_strides,
                                                .mask_length = mask_length,
                                                .scale = scale,
                                                .softcap = softcap,
                                                .causal = causal,
                                                .left = left,
                                                .right = right});
  }

  std::vector<double> q4(batch * q_heads * sq * dk);
  std::vector<double> k4(batch * kv_heads * total * dk);
  std::vector<double> v4(batch * kv_heads * total * dv);
  gatherHeads(realsOf(*q), *q, *ql, batch, 0, sq, factor, q4.data());
  if (past_key != nullptr) {
    HeadLayout past{kv_heads, past_length, dk};
    gatherHeads(realsOf(*past_key), *past_key, past, batch, 0, total, factor, k4.data());
    past.head_size = dv;
    gatherHeads(realsOf(*past_value), *past_value, past, batch, 0, total, 1.0, v4.data());
  }
  gatherHeads(realsOf(*k), *k, *kl, batch, past_length, total, factor, k4.data());
  gatherHeads(realsOf(*v), *v, *vl, batch, past_length, total, 1.0, v4.data());

  std::vector<double> y(batch * q_heads * sq * dv);
  std::vector<double> qk(ctx.hasOutput(3) ? batch * q_heads * sq * total : 0);
  const double neg_inf = -std::numeric_limits<double>::infinity();
  const size_t group = q_heads / kv_heads;

  parallelFor(ctx, batch * q_heads, 1, [&](size_t begin, size_t end) {
    std::vector<double> scores(sq * total);
    std::vector<double> bias(sq * total);
    std::vector<double> probabilities(sq * total);
    std::vector<double> out(sq * dv);
    for (size_t pair = begin; pair < end; ++pair) {
      size_t b = pair / q_heads;
      size_t h = pair % q_heads;
      size_t kv = b * kv_heads + h / group;
      attentionProduct(q4.data() + pair * sq * dk, k4.data() + kv * total * dk, scores.data(), sq,
                       dk, total, true);
      if (softcap > 0) {
        for (double& score : scores) score = softcap * std::tanh(score / softcap);
      }
      int64_t offset = 0;
      if (past_key != nullptr) {
        offset = static_cast<int64_t>(past_length);
      } else if (nonpad != nullptr) {
        offset = nonpad_lengths[b] - static_cast<int64_t>(sq);
      }
      for (size_t i = 0; i < sq; ++i) {
        for (size_t j = 0; j < total; ++j) {
          double value = 0;
          if (mask != nullptr) {
            value = j < mask_length ? mask_values[b * mask_strides[0] + h * mask_strides[1] +
                                                  i * mask_strides[2] + j]
                                    : neg_inf;
          }
          int64_t position = static_cast<int64_t>(i) + offset;
          int64_t column = static_cast<int64_t>(j);
          if (causal && column > position) value += neg_inf;
          if (left >= 0 && position - column > left) value += neg_inf;
          if (right >= 0 && column - position > right) value += neg_inf;
          if (nonpad != nullptr && column >= nonpad_lengths[b]) value += neg_inf;
          bias[i * total + j] = value;
        }
      }
      for (size_t i = 0; i < sq; ++i) {
        const double* row_bias = bias.data() + i * total;
        double* row = scores.data() + i * total;
        double* p = probabilities.data() + i * total;
        double* qk_row = qk.empty() ? nullptr : qk.data() + (pair * sq + i) * total;
        if (qk_row != nullptr && mode <= 1) std::copy(row, row + total, qk_row);
        double bias_max = neg_inf;
        double row_max = neg_inf;
        for (size_t j = 0; j < total; ++j) {
          row[j] += row_bias[j];
          bias_max = std::max(bias_max, row_bias[j]);
          if (!(row[j] <= row_max)) row_max = row[j];
        }
        if (qk_row != nullptr && mode == 2) std::copy(row, row + total, qk_row);
        if (bias_max == neg_inf) {
          std::fill(p, p + total, 0.0);
        } else {
          double shift = row_max == neg_inf ? 0.0 : row_max;
          double sum = 0;
          for (size_t j = 0; j < total; ++j) {
            p[j] = std::exp(row[j] - shift);
            sum += p[j];
          }
          if (sum == 0) sum = 1;
          for (size_t j = 0; j < total; ++j) p[j] /= sum;
        }
        if (qk_row != nullptr && mode == 3) std::copy(p, p + total, qk_row);
      }
      attentionProduct(probabilities.data(), v4.data() + kv * total * dv, out.data(), sq, total, dv,
                       false);
      for (size_t i = 0; i < sq; ++i) {
        double* to = rank == 4 ? y.data() + (pair * sq + i) * dv
                               : y.data() + ((b * sq + i) * q_heads + h) * dv;
        std::copy(out.data() + i * dv, out.data() + (i + 1) * dv, to);
      }
    }
  });

  ctx.setOutput(0, arrayOfReals(y, y_shape, q->type()));
  if (ctx.hasOutput(1)) ctx.setOutput(1, presentOf(past_key, *k, *kl, batch, past_length));
  if (ctx.hasOutput(2)) ctx.setOutput(2, presentOf(past_value, *v, *vl, batch, past_length));
  if (ctx.hasOutput(3)) ctx.setOutput(3, arrayOfReals(qk, qk_shape, q->type()));
  return Status::ok();
}

Status runAttention23(KernelContext& ctx) { return runAttention(ctx, 23); }
Status runAttention24(KernelContext& ctx) { return runAttention(ctx, 24); }
Status runAttention25(KernelContext& ctx) { return runAttention(ctx, 25); }

Result<std::string> buildAttention23(const FunctionBodyContext& context) {
  return buildAttention(context, 23);
}
Result<std::string> buildAttention24(const FunctionBodyContext& context) {
  return buildAttention(context, 24);
}
Result<std::string> buildAttention25(const FunctionBodyContext& context) {
  return buildAttention(context, 25);
}

// Version 24 adds the nonpad_kv_seqlen input.
Status dropNonpadLengths(NodeDraft& draft) {
  if (draft.hasInput(6)) {
    return draft.refuse("the nonpad_kv_seqlen input has no form in version 23");
  }
  if (draft.inputCount() > 6) draft.resizeInputs(6);
  return Status::ok();
}

// Version 25 refuses q_num_heads and kv_num_heads beside 4-D inputs, whose shape gives the
// heads; version 24 ignores them there.
Status dropHeadsBeside4d(NodeDraft& draft) {
  const Type* q = draft.inputType(0);
  if (q != nullptr && q->shape != nullptr && q->shape->rank() == 4) {
    draft.removeAttribute("q_num_heads");
    draft.removeAttribute("kv_num_heads");
  }
  return Status::ok();
}

// Down to version 24: windows of -1 (unbounded), the one behaviour it has.
Status dropWindows(NodeDraft& draft) {
  for (std::string_view name : {"left_window_size", "right_window_size"}) {
    if (draft.attribute(name) == nullptr) continue;
    if (draft.intAttr(name) != -1) {
      return draft.refuse(std::string(name) + " other than -1 has no form in version 24");
    }
    draft.removeAttribute(name);
  }
  return Status::ok();
}

}  // namespace

extern const Operator kAttention;
constexpr Operator kAttention{
    .domain = kOnnxDomain,
    .name = "Attention",
    .versions = {
        {.since_version = 23,
         .inputs = {{"Q", "T1"},
                    {"K", "T1"},
                    {"V", "T2"},
                    optional("attn_mask", "U"),
                    optional("past_key", "T1"),
                    optional("past_value", "T2")},
         .outputs = kOutputs23,
         .attributes = kAttributes23,
         .constraints = {{"T1", tensor("bfloat16 float16 float double")},
                         {"T2", tensor("bfloat16 float16 float double")},
                         {"U", kUTypes23}},
         .build_function_body = buildAttention23,
         .infer = inferAttention,
         .kernel = runAttention23},
        {.since_version = 24,
         .inputs = kInputs24,
         .outputs = kOutputs23,
         .attributes = kAttributes23,
         .constraints = kConstraints24,
         .build_function_body = buildAttention24,
         .infer = inferAttention,
         .kernel = runAttention24,
         .step = {.reviewed = true,
                  .change = "nonpad_kv_seqlen input added",
                  .down = dropNonpadLengths,
                  .down_refuses = "nodes with nonpad_kv_seqlen"}},
        {.since_version = 25,
         .inputs = kInputs24,
         .outputs = kOutputs23,
         .attributes = {attr("is_causal", 0), attr("kv_num_heads", kInt),
                        attr("left_window_size", -1), attr("q_num_heads", kInt),
                        attr("qk_matmul_output_mode", 0), attr("right_window_size", -1),
                        attr("scale", kFloat), attr("softcap", 0.0f),
                        attr("softmax_precision", kInt)},
         .constraints = kConstraints24,
         .build_function_body = buildAttention25,
         .infer = inferAttention,
         .kernel = runAttention25,
         .step = {.reviewed = true,
                  .change = "left_window_size and right_window_size added (-1: as before); head "
                            "counts refused beside 4-D inputs",
                  .up = dropHeadsBeside4d,
                  .down = dropWindows,
                  .down_refuses = "window sizes other than -1"}},
    }};
static_assert(isWellFormed(kAttention));

}  // namespace onyx::ops::ai_onnx
