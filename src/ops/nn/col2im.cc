// Col2Im (ai.onnx), versions 18.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include <string>
#include "ops/schema_dsl.h"
#include "ops/shape_rules.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

// input (N, C * prod(block_shape), L) → (N, C, image_shape...).
void inferCol2Im(InferenceContext& ctx) {
  const Dims* input = ctx.inputShape(0);
  if (input == nullptr) return;
  if (input->size() != 3) {
    ctx.fail("the input has rank " + std::to_string(input->size()) + "; Col2Im needs 3");
    return;
  }
  const Dims* image = ctx.inputData(1);
  size_t spatial = 0;
  if (image != nullptr) {
    spatial = image->size();
    for (DimValue size : *image) {
      if (size.isKnown() && size.value() < 0) {
        ctx.fail("image_shape has the negative value " + std::to_string(size.value()));
        return;
      }
    }
  } else if (const Dims* image_shape = ctx.inputShape(1);
             image_shape != nullptr && image_shape->size() == 1 && (*image_shape)[0].isKnown() &&
             (*image_shape)[0].value() >= 0 &&
             static_cast<size_t>((*image_shape)[0].value()) <= kMaxPropagatedElements) {
    spatial = static_cast<size_t>((*image_shape)[0].value());
  } else {
    return;
  }
  Dims out{(*input)[0], ctx.dims().fresh()};
  if (const Dims* block = ctx.inputData(2)) {
    if (block->size() != spatial) {
      ctx.fail("block_shape has " + std::to_string(block->size()) + " values, image_shape " +
               std::to_string(spatial));
      return;
    }
    DimValue block_size = productOf(ctx, *block);
    if (std::optional<DimValue> channels = ctx.dims().divideExact((*input)[1], block_size)) {
      out[1] = *channels;
    } else if ((*input)[1].isKnown() && block_size.isKnown() && block_size.value() > 0) {
      ctx.fail("the input's " + std::to_string((*input)[1].value()) +
               " rows are not a multiple of the block size " + std::to_string(block_size.value()));
      return;
    }
  }
  for (size_t i = 0; i < spatial; ++i)
    out.push_back(image != nullptr ? (*image)[i] : ctx.dims().fresh());
  ctx.setOutputShape(0, std::move(out));
}

}  // namespace

extern const Operator kCol2Im;
constexpr Operator kCol2Im{
    .domain = kOnnxDomain,
    .name = "Col2Im",
    .versions = {
        {.since_version = 18,
         .inputs = {{"input", "T"},
                    {"image_shape", "tensor(int64)"},
                    {"block_shape", "tensor(int64)"}},
         .outputs = {{"output", "T"}},
         .attributes = {attr("dilations", kInts), attr("pads", kInts), attr("strides", kInts)},
         .constraints = {{"T", tensor(kIr4Types)}, {"tensor(int64)", tensor("int64")}},
         .infer = inferCol2Im},
    }};
static_assert(isWellFormed(kCol2Im));

}  // namespace onyx::ops::ai_onnx
