// Concat (ai.onnx), versions 1, 4, 11, 13.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/schema_dsl.h"
#include "ops/shape_rules.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

// Concat-1's axis defaults to 1; later versions require it.
void inferConcat(InferenceContext& ctx) {
  int64_t axis_attribute = ctx.intAttribute("axis").value_or(1);
  const Dims* first = nullptr;
  bool all_known = true;
  for (size_t i = 0; i < ctx.inputCount(); ++i) {
    const Dims* shape = ctx.inputShape(i);
    if (shape == nullptr) {
      all_known = false;
    } else if (first == nullptr) {
      first = shape;
    }
  }
  if (first == nullptr) return;
  size_t rank = first->size();
  if (rank == 0) {
    ctx.fail("Concat cannot join scalars (inputs of rank 0)");
    return;
  }
  std::optional<size_t> axis = normalizeAxis(ctx, axis_attribute, rank);
  if (!axis) return;
  SymbolicDims& dims = ctx.dims();
  Dims out = *first;
  out[*axis] = DimValue::known(0);
  for (size_t i = 0; i < ctx.inputCount(); ++i) {
    const Dims* shape = ctx.inputShape(i);
    if (shape == nullptr) continue;
    if (shape->size() != rank) {
      ctx.fail("Concat's inputs have ranks " + std::to_string(rank) + " and " +
               std::to_string(shape->size()));
      return;
    }
    for (size_t d = 0; d < rank; ++d) {
      DimValue dim = (*shape)[d];
      if (d == *axis) {
        out[d] = dims.add(out[d], dim);
      } else if (dim.isKnown() && out[d].isKnown() && dim.value() != out[d].value()) {
        ctx.fail("Concat's inputs differ in dimension " + std::to_string(d) + ": " +
                 std::to_string(out[d].value()) + " and " + std::to_string(dim.value()));
        return;
      } else if (dim.isKnown()) {
        out[d] = dim;
      }
    }
  }
  if (!all_known) out[*axis] = dims.fresh();
  ctx.setOutputShape(0, std::move(out));
  if (rank != 1 || !all_known) return;
  Dims data;
  for (size_t i = 0; i < ctx.inputCount(); ++i) {
    const Dims* part = ctx.inputData(i);
    if (part == nullptr) return;
    data.insert(data.end(), part->begin(), part->end());
  }
  ctx.setOutputData(0, std::move(data));
}

}  // namespace

constexpr Formals kInputs1 = {variadic("inputs", "T", 1)};
constexpr Formals kOutputs1 = {{"concat_result", "T"}};
constexpr Attributes kAttributes4 = {required("axis", kInt)};
constexpr Constraints kConstraints4 = {{"T", tensor(kIr3Types)}};

extern const Operator kConcat;
constexpr Operator kConcat{.domain = kOnnxDomain,
                           .name = "Concat",
                           .versions = {
                               {.since_version = 1,
                                .inputs = kInputs1,
                                .outputs = kOutputs1,
                                .attributes = {attr("axis", kInt)},
                                .constraints = {{"T", tensor("float16 float double")}},
                                .infer = inferConcat},
                               {.since_version = 4,
                                .inputs = kInputs1,
                                .outputs = kOutputs1,
                                .attributes = kAttributes4,
                                .constraints = kConstraints4,
                                .infer = inferConcat},
                               {.since_version = 11,
                                .inputs = kInputs1,
                                .outputs = kOutputs1,
                                .attributes = kAttributes4,
                                .constraints = kConstraints4,
                                .infer = inferConcat},
                               {.since_version = 13,
                                .inputs = kInputs1,
                                .outputs = kOutputs1,
                                .attributes = kAttributes4,
                                .constraints = {{"T", tensor(kIr4Types)}},
                                .infer = inferConcat},
                           }};
static_assert(isWellFormed(kConcat));

}  // namespace onyx::ops::ai_onnx
