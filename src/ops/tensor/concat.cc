// Concat (ai.onnx), versions 1, 4, 11, 13.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>

#include "ops/channels_last.h"
#include "ops/lib/tensor_kernels.h"
#include "ops/node_draft.h"
#include "ops/schema_dsl.h"
#include "ops/shape_rules.h"
#include "ops/version_adapters.h"

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

// The axis the node joins its inputs on, for inputs of `rank`.
Result<size_t> concatAxis(const KernelContext& ctx, size_t rank) {
  if (rank == 0) return ctx.fail("cannot join scalars (inputs of rank 0)");
  std::optional<size_t> axis = kernelAxis(ctx.intAttribute("axis").value_or(1), rank);
  if (!axis) return ctx.fail("axis is out of range for rank " + std::to_string(rank));
  return *axis;
}

// `parts` (at least one) joined along `axis`.
Result<Array> concatenate(const KernelContext& ctx, std::span<const Array* const> parts,
                          size_t axis) {
  const Array& first = *parts[0];
  size_t rank = first.rank();
  std::vector<int64_t> out_shape = first.shape();
  out_shape[axis] = 0;
  for (size_t i = 0; i < parts.size(); ++i) {
    const Array& part = *parts[i];
    if (part.type() != first.type()) return ctx.fail("inputs of different element types");
    if (part.rank() != rank) {
      return ctx.fail("inputs have ranks " + std::to_string(rank) + " and " +
                      std::to_string(part.rank()));
    }
    for (size_t d = 0; d < rank; ++d) {
      if (d != axis && part.dim(d) != first.dim(d)) {
        return ctx.fail("input " + std::to_string(i) + " differs in dimension " +
                        std::to_string(d) + ": " + std::to_string(part.dim(d)) + " and " +
                        std::to_string(first.dim(d)));
      }
    }
    out_shape[axis] += part.dim(axis);
  }
  Result<Array> made = newArray(first.type(), out_shape);
  if (!made) return made.status();
  Array out = std::move(*made);
  int64_t outer = elementProduct(out_shape, 0, axis);
  int64_t inner = elementProduct(out_shape, axis + 1);
  int64_t out_row = out_shape[axis] * inner;
  int64_t offset = 0;
  for (const Array* part : parts) {
    int64_t row = part->dim(axis) * inner;
    copyStrided(ctx, {outer, row}, *part, StridedView{0, {row, 1}}, out,
                StridedView{offset, {out_row, 1}});
    offset += row;
  }
  return out;
}

Status runConcat(KernelContext& ctx) {
  std::vector<const Array*> parts;
  for (size_t i = 0; i < ctx.inputCount(); ++i) {
    const Array* part = ctx.inputArray(i);
    if (part == nullptr) return ctx.fail("input " + std::to_string(i) + " is not a tensor");
    parts.push_back(part);
  }
  if (parts.empty()) return ctx.fail("needs at least one input");
  Result<size_t> axis = concatAxis(ctx, parts[0]->rank());
  if (!axis) return axis.status();
  Result<Array> out = concatenate(ctx, parts, *axis);
  if (!out) return out.status();
  ctx.setOutput(0, std::move(*out));
  return Status::ok();
}

// Up to version 4, where axis is required: version 1's default, 1, is written out.
Status writeDefaultAxis(NodeDraft& draft) {
  if (draft.attribute("axis") == nullptr) draft.setIntAttr("axis", 1);
  return Status::ok();
}

}  // namespace

constexpr Formals kInputs1 = {variadic("inputs", "T", 1)};
constexpr Formals kOutputs1 = {{"concat_result", "T"}};
constexpr Attributes kAttributes4 = {required("axis", kInt)};
constexpr Constraints kConstraints4 = {{"T", tensor(kIr3Types)}};

extern const Operator kConcat;
constexpr Operator kConcat{
    .domain = kOnnxDomain,
    .name = "Concat",
    .versions = {
        {.since_version = 1,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = {attr("axis", kInt)},
         .constraints = {{"T", tensor("float16 float double")}},
         .infer = inferConcat,
         .kernel = runConcat},
        {.since_version = 4,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = kAttributes4,
         .constraints = kConstraints4,
         .infer = inferConcat,
         .kernel = runConcat,
         .step = {.reviewed = true,
                  .change = "axis required (default 1 written out); all tensor types added",
                  .up = writeDefaultAxis}},
        {.since_version = 11,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = kAttributes4,
         .constraints = kConstraints4,
         .infer = inferConcat,
         .kernel = runConcat,
         .step = {.reviewed = true,
                  .change = "negative axis allowed",
                  .down = axisFromFront,
                  .down_refuses = "negative axis, input rank unknown"}},
        {.since_version = 13,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = kAttributes4,
         .constraints = {{"T", tensor(kIr4Types)}},
         .infer = inferConcat,
         .kernel = runConcat,
         .step = typesOnly("bfloat16 added")},
    }};
static_assert(isWellFormed(kConcat));

}  // namespace onyx::ops::ai_onnx

namespace onyx::ops {

Result<std::optional<Array>> concatChannelsLast(const KernelContext& ctx,
                                                std::span<const Array* const> parts) {
  if (parts.empty()) return std::optional<Array>();
  // A mismatch is for the channels-first kernel to word.
  for (const Array* part : parts) {
    if (part->rank() != 4 || part->type() != parts[0]->type() || part->dim(0) != parts[0]->dim(0) ||
        part->dim(1) != parts[0]->dim(1) || part->dim(2) != parts[0]->dim(2)) {
      return std::optional<Array>();
    }
  }
  Result<size_t> axis = ai_onnx::concatAxis(ctx, 4);
  if (!axis) return axis.status();
  if (*axis != 1) return std::optional<Array>();
  if (parts[0]->type() != ElementType::kFloat) {
    Result<Array> out = ai_onnx::concatenate(ctx, parts, 3);
    if (!out) return out.status();
    return std::optional<Array>(std::move(*out));
  }
  // Each pixel's channels, part after part: a few dozen floats each, copied in a loop the
  // compiler unrolls rather than through the general strided copy's per-row bookkeeping.
  int64_t channels = 0;
  for (const Array* part : parts) channels += part->dim(3);
  const Array& first = *parts[0];
  Result<Array> made =
      Array::allocate(ElementType::kFloat, {first.dim(0), first.dim(1), first.dim(2), channels});
  if (!made) return made.status();
  float* out = made->data<float>();
  const size_t pixels = static_cast<size_t>(first.dim(0) * first.dim(1) * first.dim(2));
  const size_t width = static_cast<size_t>(channels);
  parallelFor(ctx, pixels, std::max<size_t>(1, (size_t{1} << 14) / width),
              [&](size_t begin, size_t end) {
                size_t offset = 0;
                for (const Array* part : parts) {
                  const size_t count = static_cast<size_t>(part->dim(3));
                  const float* in = part->data<float>();
                  for (size_t pixel = begin; pixel < end; ++pixel) {
                    const float* from = in + pixel * count;
                    float* to = out + pixel * width + offset;
                    for (size_t c = 0; c < count; ++c) to[c] = from[c];
                  }
                  offset += count;
                }
              });
  return std::optional<Array>(std::move(*made));
}

}  // namespace onyx::ops
