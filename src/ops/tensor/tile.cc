// Tile (ai.onnx), versions 1, 6, 13.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include <cmath>

#include "onyx/core/array_elements.h"
#include "onyx/ir/tensor_array.h"
#include "ops/lib/tensor_kernels.h"
#include "ops/lib/tensor_rules.h"
#include "ops/node_draft.h"
#include "ops/schema_dsl.h"
#include "ops/shape_rules.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

// Each dimension times its repeat; repeats are propagated data.
void inferTile(InferenceContext& ctx) {
  const Dims* in = ctx.inputShape(0);
  if (in == nullptr) return;
  const Dims* repeats = ctx.inputData(1);
  if (repeats == nullptr) {
    ctx.setOutputRank(0, in->size());
    return;
  }
  if (repeats->size() != in->size()) {
    ctx.fail("Tile has " + std::to_string(repeats->size()) + " repeats for an input of rank " +
             std::to_string(in->size()));
    return;
  }
  Dims out;
  out.reserve(in->size());
  for (size_t i = 0; i < in->size(); ++i) {
    DimValue repeat = (*repeats)[i];
    if (repeat.isKnown() && repeat.value() < 0) {
      ctx.fail("Tile's repeat " + std::to_string(i) + " is negative (" +
               std::to_string(repeat.value()) + ")");
      return;
    }
    out.push_back(ctx.dims().multiply((*in)[i], repeat));
  }
  ctx.setOutputShape(0, std::move(out));
}

// Tile-1 repeats the input `tiles` times along `axis`, both inputs.
void inferTile1(InferenceContext& ctx) {
  const Dims* in = ctx.inputShape(0);
  if (in == nullptr) return;
  Dims out = *in;
  std::optional<std::vector<double>> tiles = inputNumbers(ctx, 1);
  std::optional<std::vector<double>> axis = inputNumbers(ctx, 2);
  if (!axis || axis->size() != 1) {
    ctx.setOutputRank(0, in->size());
    return;
  }
  std::optional<size_t> normalized =
      normalizeAxis(ctx, static_cast<int64_t>((*axis)[0]), in->size());
  if (!normalized) return;
  out[*normalized] = tiles && tiles->size() == 1 && (*tiles)[0] >= 0 && (*tiles)[0] < 1e15
                         ? ctx.dims().multiply(out[*normalized],
                                               DimValue::known(static_cast<int64_t>((*tiles)[0])))
                         : ctx.dims().fresh();
  ctx.setOutputShape(0, std::move(out));
}

// `data` repeated repeats[d] times along each axis d.
Status tile(KernelContext& ctx, const Array* data, const std::vector<int64_t>& repeats) {
  size_t rank = data->rank();
  if (repeats.size() != rank) {
    return ctx.fail("repeats has " + std::to_string(repeats.size()) + " entries for rank " +
                    std::to_string(rank));
  }
  std::vector<int64_t> shape(rank);
  for (size_t d = 0; d < rank; ++d) {
    int64_t r = repeats[d];
    if (r < 0) return ctx.fail("repeats has a negative entry");
    int64_t dim = data->dim(d);
    if (dim != 0 && r > (int64_t{1} << 40) / dim) return ctx.fail("the output is too large");
    shape[d] = dim * r;
  }
  Result<Array> made = newArray(data->type(), shape);
  if (!made) return made.status();
  Array out = std::move(*made);
  if (out.size() == 0) {
    ctx.setOutput(0, std::move(out));
    return Status::ok();
  }
  std::vector<int64_t> out_strides = denseStrides(shape);
  // The input in the first tile, then each axis from the innermost repeated by doubling
  // what is already filled: a region of in[0..d-1] x out[d..] at the start of `out`.
  copyInto(ctx, *data, out, StridedView{0, out_strides});
  for (size_t d = rank; d-- > 0;) {
    int64_t r = repeats[d];
    int64_t tile = data->dim(d) * out_strides[d];  // one repetition along d, contiguous
    std::vector<int64_t> dims(data->shape().begin(), data->shape().begin() + d);
    std::vector<int64_t> strides(out_strides.begin(), out_strides.begin() + d);
    dims.push_back(0);
    strides.push_back(1);
    for (int64_t filled = 1; filled < r;) {
      int64_t count = std::min(filled, r - filled);
      dims.back() = count * tile;
      copyStrided(ctx, dims, out, StridedView{0, strides}, out,
                  StridedView{filled * tile, strides});
      filled += count;
    }
  }
  ctx.setOutput(0, std::move(out));
  return Status::ok();
}

Status runTile(KernelContext& ctx) {
  const Array* data = ctx.inputArray(0);
  const Array* repeats_input = ctx.inputArray(1);
  if (data == nullptr || repeats_input == nullptr) return ctx.fail("needs input and repeats");
  std::optional<std::vector<int64_t>> repeats = integersOf(*repeats_input);
  if (!repeats || repeats_input->rank() != 1) return ctx.fail("repeats must be a 1-D int64 tensor");
  return tile(ctx, data, *repeats);
}

// Tile-1: `tiles` copies along one `axis` (both one number).
Status runTile1(KernelContext& ctx) {
  const Array* data = ctx.inputArray(0);
  const Array* tiles = ctx.inputArray(1);
  const Array* axis_input = ctx.inputArray(2);
  if (data == nullptr || tiles == nullptr || axis_input == nullptr) {
    return ctx.fail("needs input, tiles and axis");
  }
  if (tiles->size() != 1 || axis_input->size() != 1) {
    return ctx.fail("tiles and axis must be one number each");
  }
  double count = elementAsDouble(*tiles, 0);
  double axis_value = elementAsDouble(*axis_input, 0);
  constexpr double kLimit = static_cast<double>(int64_t{1} << 40);
  if (!(count >= 0 && count <= kLimit)) return ctx.fail("tiles must be a count");
  if (!(axis_value > -kLimit && axis_value < kLimit)) return ctx.fail("axis is out of range");
  std::optional<size_t> axis = kernelAxis(static_cast<int64_t>(axis_value), data->rank());
  if (!axis) return ctx.fail("axis is out of range for rank " + std::to_string(data->rank()));
  std::vector<int64_t> repeats(data->rank(), 1);
  repeats[*axis] = static_cast<int64_t>(count);
  return tile(ctx, data, repeats);
}

// Input `i` of `draft`, a constant of one number (Tile-1's tiles and axis: typed T, a float
// type, by its input list, int64 by its constraint T1; onyx reads either).
std::optional<double> oneNumber(const NodeDraft& draft, size_t i) {
  const Tensor* tensor = draft.constantInput(i);
  if (tensor == nullptr) return std::nullopt;
  Result<Array> array = arrayFromTensor(*tensor);
  if (!array || array->size() != 1 || array->isString()) return std::nullopt;
  return elementAsDouble(*array, 0);
}

// Up to version 6: tiles copies along axis become a count per axis.
Status tilesToRepeats(NodeDraft& draft) {
  std::optional<double> tiles = oneNumber(draft, 1);
  std::optional<double> axis = oneNumber(draft, 2);
  if (!tiles || !axis) return draft.refuse("tiles or axis is not a constant of one number");
  std::optional<int64_t> rank = draft.inputRank(0);
  if (!rank) return draft.refuse("the input's rank is unknown");
  std::optional<size_t> at = kernelAxis(static_cast<int64_t>(*axis), static_cast<size_t>(*rank));
  if (!at || *tiles < 0 || *tiles != std::floor(*tiles)) {
    return draft.refuse("tiles is not a count or axis is out of range");
  }
  std::vector<int64_t> repeats(static_cast<size_t>(*rank), 1);
  repeats[*at] = static_cast<int64_t>(*tiles);
  draft.resizeInputs(2);
  draft.setIntegersInput(1, repeats);
  return Status::ok();
}

// Down to version 1: repeats must be a constant repeating along one axis at most; tiles and
// axis are written in the input's element type, as version 1's input list types them.
Status repeatsToTiles(NodeDraft& draft) {
  std::optional<std::vector<int64_t>> repeats = draft.constantIntegers(1);
  if (!repeats) return draft.refuse("repeats is not a constant");
  size_t axis = 0;
  size_t repeated = 0;
  for (size_t k = 0; k < repeats->size(); ++k) {
    if ((*repeats)[k] != 1) {
      axis = k;
      ++repeated;
    }
  }
  if (repeated > 1) return draft.refuse("repeats along more than one axis");
  const Type* input = draft.inputType(0);
  if (input == nullptr || !input->elem_type)
    return draft.refuse("the input's element type is unknown");
  auto type = static_cast<ElementType>(*input->elem_type);
  if (type != ElementType::kFloat && type != ElementType::kDouble &&
      type != ElementType::kFloat16) {
    return draft.refuse("an input of a type other than float16, float and double");
  }
  Array tiles(type, {});
  storeDouble(tiles, 0, static_cast<double>(repeated == 0 ? 1 : (*repeats)[axis]));
  Array axis_number(type, {});
  storeDouble(axis_number, 0, static_cast<double>(axis));
  draft.setConstantInput(1, draft.editor().tensorFromArray(tiles));
  draft.setConstantInput(2, draft.editor().tensorFromArray(axis_number));
  return Status::ok();
}

}  // namespace

constexpr Formals kInputs6 = {{"input", "T"}, {"repeats", "T1"}};
constexpr Formals kOutputs1 = {{"output", "T"}};

extern const Operator kTile;
constexpr Operator kTile{
    .domain = kOnnxDomain,
    .name = "Tile",
    .versions = {
        {.since_version = 1,
         .inputs = {{"input", "T"}, {"tiles", "T"}, {"axis", "T"}},
         .outputs = kOutputs1,
         .constraints = {{"T", tensor("float16 float double")}, {"T1", tensor("int64")}},
         .infer = inferTile1,
         .kernel = runTile1},
        {.since_version = 6,
         .inputs = kInputs6,
         .outputs = kOutputs1,
         .constraints = {{"T", tensor(kIr3Types)}, {"T1", tensor("int64")}},
         .infer = inferTile,
         .kernel = runTile,
         .step = {.reviewed = true,
                  .change = "tiles and axis (one axis) became repeats (a count per axis); every "
                            "type from IR 3",
                  .up = tilesToRepeats,
                  .down = repeatsToTiles,
                  .up_refuses = "tiles or axis not constant; the input's rank unknown",
                  .down_refuses = "repeats not constant or along more than one axis; types "
                                  "other than float16, float, double"}},
        {.since_version = 13,
         .inputs = kInputs6,
         .outputs = kOutputs1,
         .constraints = {{"T", tensor(kIr4Types)}, {"T1", tensor("int64")}},
         .infer = inferTile,
         .kernel = runTile,
         .step = typesOnly("bfloat16 added")},
    }};
static_assert(isWellFormed(kTile));

}  // namespace onyx::ops::ai_onnx
