// Unique (ai.onnx), versions 11.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "onyx/core/element_type.h"
#include "ops/schema_dsl.h"
#include "ops/shape_rules.h"
#include "ops/tensor/tensor_rules.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

// The count of unique elements (or slices along `axis`) is one unknown shared by Y, indices
// and counts; inverse_indices has one entry per input element (or slice).
void inferUnique(InferenceContext& ctx) {
  const Dims* in = ctx.inputShape(0);
  DimValue unique = ctx.dims().fresh();
  for (size_t i : {size_t{1}, size_t{3}}) {
    if (ctx.hasOutput(i)) ctx.setOutputShape(i, {unique});
  }
  if (in == nullptr) return;
  if (std::optional<int64_t> axis_attribute = ctx.intAttribute("axis")) {
    if (in->empty()) {
      ctx.fail("Unique with an axis needs an input of rank 1 or more");
      return;
    }
    std::optional<size_t> axis = normalizeAxis(ctx, *axis_attribute, in->size());
    if (!axis) return;
    Dims out = *in;
    out[*axis] = unique;
    ctx.setOutputShape(0, std::move(out));
    if (ctx.hasOutput(2)) ctx.setOutputShape(2, {(*in)[*axis]});
  } else {
    ctx.setOutputShape(0, {unique});
    if (ctx.hasOutput(2)) ctx.setOutputShape(2, {productOf(ctx, *in)});
  }
}

}  // namespace

extern const Operator kUnique;
constexpr Operator kUnique{
    .domain = kOnnxDomain,
    .name = "Unique",
    .versions = {
        {.since_version = 11,
         .inputs = {{"X", "T"}},
         .outputs = {{"Y", "T"},
                     optional("indices", "tensor(int64)"),
                     optional("inverse_indices", "tensor(int64)"),
                     optional("counts", "tensor(int64)")},
         .attributes = {attr("axis", kInt), attr("sorted", 1)},
         .constraints = {{"T", tensor(kIr3Types)}, {"tensor(int64)", tensor("int64")}},
         .infer = inferUnique},
    }};
static_assert(isWellFormed(kUnique));

}  // namespace onyx::ops::ai_onnx
