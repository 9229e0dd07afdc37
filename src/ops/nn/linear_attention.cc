// LinearAttention (ai.onnx), versions 27.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include <string>
#include "onyx/ops/inference_context.h"
#include "ops/schema_dsl.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

// query, key, value are (B, T, heads * size) with q_num_heads / kv_num_heads heads:
// output (B, T, q_num_heads * d_v), present_state (B, kv_num_heads, d_k, d_v) like
// past_state; present_state takes past_state's element type, else query's.
void inferLinearAttention(InferenceContext& ctx) {
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
         .infer = inferLinearAttention},
    }};
static_assert(isWellFormed(kLinearAttention));

}  // namespace onyx::ops::ai_onnx
