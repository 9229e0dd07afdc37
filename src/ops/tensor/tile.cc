// Tile (ai.onnx), versions 1, 6, 13.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/schema_dsl.h"
#include "ops/shape_rules.h"
#include "ops/tensor/tensor_rules.h"

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
         .infer = inferTile1},
        {.since_version = 6,
         .inputs = kInputs6,
         .outputs = kOutputs1,
         .constraints = {{"T", tensor(kIr3Types)}, {"T1", tensor("int64")}},
         .infer = inferTile},
        {.since_version = 13,
         .inputs = kInputs6,
         .outputs = kOutputs1,
         .constraints = {{"T", tensor(kIr4Types)}, {"T1", tensor("int64")}},
         .infer = inferTile},
    }};
static_assert(isWellFormed(kTile));

}  // namespace onyx::ops::ai_onnx
