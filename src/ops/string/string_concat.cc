// StringConcat (ai.onnx), versions 20.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/kernels.h"
#include "ops/schema_dsl.h"
#include "ops/shape_rules.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

void inferStringConcat(InferenceContext& ctx) { inferBroadcast(ctx); }

Status runStringConcat(KernelContext& ctx) {
  const Array* a = ctx.inputArray(0);
  const Array* b = ctx.inputArray(1);
  if (a == nullptr || b == nullptr || !a->isString() || !b->isString()) {
    return ctx.fail("needs two string tensors");
  }
  std::optional<std::vector<int64_t>> shape = broadcastShape(a->shape(), b->shape());
  if (!shape) return ctx.fail("input shapes do not broadcast");
  Result<Array> made = Array::allocate(ElementType::kString, *shape);
  if (!made) return made.status();
  Array out = std::move(*made);
  std::vector<size_t> ia = broadcastIndices(a->shape(), *shape);
  std::vector<size_t> ib = broadcastIndices(b->shape(), *shape);
  std::vector<std::string>& z = out.strings();
  for (size_t i = 0; i < z.size(); ++i) z[i] = a->strings()[ia[i]] + b->strings()[ib[i]];
  ctx.setOutput(0, std::move(out));
  return Status::ok();
}

}  // namespace

extern const Operator kStringConcat;
constexpr Operator kStringConcat{.domain = kOnnxDomain,
                                 .name = "StringConcat",
                                 .versions = {
                                     {.since_version = 20,
                                      .inputs = {{"X", "T"}, {"Y", "T"}},
                                      .outputs = {{"Z", "T"}},
                                      .constraints = {{"T", tensor("string")}},
                                      .infer = inferStringConcat,
                                      .kernel = runStringConcat},
                                 }};
static_assert(isWellFormed(kStringConcat));

}  // namespace onyx::ops::ai_onnx
