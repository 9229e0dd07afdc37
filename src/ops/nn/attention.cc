// Attention (ai.onnx), versions 23, 24, 25.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include <string>
#include "onyx/ops/inference_context.h"
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

// Y: (batch, q_heads, q_sequence, v_head_size), or 3-D (batch, q_sequence,
// q_heads * v_head_size) like Q; present_key / present_value: the past ones with the
// sequence grown by K's, or K and V as 4-D; qk_matmul_output: (batch, q_heads, q_sequence,
// total_sequence).
void inferAttention(InferenceContext& ctx) {
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
         .infer = inferAttention},
        {.since_version = 24,
         .inputs = kInputs24,
         .outputs = kOutputs23,
         .attributes = kAttributes23,
         .constraints = kConstraints24,
         .infer = inferAttention},
        {.since_version = 25,
         .inputs = kInputs24,
         .outputs = kOutputs23,
         .attributes = {attr("is_causal", 0), attr("kv_num_heads", kInt),
                        attr("left_window_size", -1), attr("q_num_heads", kInt),
                        attr("qk_matmul_output_mode", 0), attr("right_window_size", -1),
                        attr("scale", kFloat), attr("softcap", 0.0f),
                        attr("softmax_precision", kInt)},
         .constraints = kConstraints24,
         .infer = inferAttention},
    }};
static_assert(isWellFormed(kAttention));

}  // namespace onyx::ops::ai_onnx
