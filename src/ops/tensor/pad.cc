// Pad (ai.onnx), versions 1, 2, 11, 13, 18, 19, 21, 23, 24, 25.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/schema_dsl.h"
#include "ops/tensor/tensor_rules.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

// Each padded axis grows by its begin and end pads (negative pads crop). The pads are an
// attribute before version 11 (`paddings` in version 1) and an input from 11; from 18 an
// `axes` input says which axes they are for.
void inferPad(InferenceContext& ctx) {
  const Dims* in = ctx.inputShape(0);
  if (in == nullptr) return;
  int since = ctx.schema().since_version;
  size_t rank = in->size();
  const Dims* pads = nullptr;
  Dims attribute_pads;
  if (since < 11) {
    std::optional<std::vector<int64_t>> values =
        ctx.intsAttribute(since == 1 ? "paddings" : "pads");
    if (!values) return;
    for (int64_t v : *values) attribute_pads.push_back(DimValue::known(v));
    pads = &attribute_pads;
  } else {
    pads = ctx.inputData(1);
  }
  std::vector<size_t> axes(rank);
  for (size_t i = 0; i < rank; ++i) axes[i] = i;
  if (since >= 18 && ctx.hasInput(3)) {
    std::optional<std::vector<int64_t>> given = knownNumbers(ctx.inputData(3));
    if (!given) {
      ctx.setOutputRank(0, rank);
      return;
    }
    std::optional<std::vector<size_t>> normalized = normalizeAxes(ctx, *given, rank);
    if (!normalized) return;
    axes = std::move(*normalized);
  }
  if (pads == nullptr) {
    Dims out = *in;
    for (size_t axis : axes) out[axis] = ctx.dims().fresh();
    ctx.setOutputShape(0, std::move(out));
    return;
  }
  if (pads->size() != 2 * axes.size()) {
    ctx.fail("Pad has " + std::to_string(pads->size()) + " pads for " +
             std::to_string(axes.size()) + " axes (it needs two per axis)");
    return;
  }
  SymbolicDims& dims = ctx.dims();
  Dims out = *in;
  for (size_t i = 0; i < axes.size(); ++i) {
    DimValue grown = dims.add(dims.add(out[axes[i]], (*pads)[i]), (*pads)[i + axes.size()]);
    if (grown.isKnown() && grown.value() < 0) {
      ctx.fail("Pad's pads crop axis " + std::to_string(axes[i]) + " to " +
               std::to_string(grown.value()) + " elements");
      return;
    }
    out[axes[i]] = grown;
  }
  ctx.setOutputShape(0, std::move(out));
}

}  // namespace

constexpr Formals kInputs1 = {{"data", "T"}};
constexpr Formals kInputs11 = {
    {"data", "T"}, {"pads", "tensor(int64)"}, optional("constant_value", "T")};
constexpr Formals kInputs18 = {{"data", "T"},
                               {"pads", "tensor(int64)"},
                               optional("constant_value", "T"),
                               optional("axes", "Tind")};
constexpr Formals kOutputs1 = {{"output", "T"}};
constexpr Attributes kAttributes11 = {attr("mode", "constant")};
constexpr Constraints kConstraints1 = {{"T", tensor("float16 float double")}};
constexpr Constraints kConstraints18 = {
    {"T", tensor(kIr4Types)}, {"Tind", tensor("int32 int64")}, {"tensor(int64)", tensor("int64")}};

extern const Operator kPad;
constexpr Operator kPad{
    .domain = kOnnxDomain,
    .name = "Pad",
    .versions = {
        {.since_version = 1,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = {attr("mode", "constant"), required("paddings", kInts), attr("value", 0.0f)},
         .constraints = kConstraints1,
         .infer = inferPad},
        {.since_version = 2,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = {attr("mode", "constant"), required("pads", kInts), attr("value", 0.0f)},
         .constraints = kConstraints1,
         .infer = inferPad},
        {.since_version = 11,
         .inputs = kInputs11,
         .outputs = kOutputs1,
         .attributes = kAttributes11,
         .constraints =
             {{"T",
               tensor("uint8 uint16 uint32 uint64 int8 int16 int32 int64 float16 float double")},
              {"tensor(int64)", tensor("int64")}},
         .infer = inferPad},
        {.since_version = 13,
         .inputs = kInputs11,
         .outputs = kOutputs1,
         .attributes = kAttributes11,
         .constraints = {{"T", tensor(kIr4Types)}, {"tensor(int64)", tensor("int64")}},
         .infer = inferPad},
        {.since_version = 18,
         .inputs = kInputs18,
         .outputs = kOutputs1,
         .attributes = kAttributes11,
         .constraints = kConstraints18,
         .infer = inferPad},
        {.since_version = 19,
         .inputs = kInputs18,
         .outputs = kOutputs1,
         .attributes = kAttributes11,
         .constraints = kConstraints18,
         .infer = inferPad},
        {.since_version = 21,
         .inputs = kInputs18,
         .outputs = kOutputs1,
         .attributes = kAttributes11,
         .constraints = {{"T", tensor(kIr10Types)},
                         {"Tind", tensor("int32 int64")},
                         {"tensor(int64)", tensor("int64")}},
         .infer = inferPad},
        {.since_version = 23,
         .inputs = kInputs18,
         .outputs = kOutputs1,
         .attributes = kAttributes11,
         .constraints = {{"T", tensor(kIr11Types)},
                         {"Tind", tensor("int32 int64")},
                         {"tensor(int64)", tensor("int64")}},
         .infer = inferPad},
        {.since_version = 24,
         .inputs = kInputs18,
         .outputs = kOutputs1,
         .attributes = kAttributes11,
         .constraints = {{"T", tensor(kIr12Types)},
                         {"Tind", tensor("int32 int64")},
                         {"tensor(int64)", tensor("int64")}},
         .infer = inferPad},
        {.since_version = 25,
         .inputs = kInputs18,
         .outputs = kOutputs1,
         .attributes = kAttributes11,
         .constraints = {{"T", tensor(kIr13Types)},
                         {"Tind", tensor("int32 int64")},
                         {"tensor(int64)", tensor("int64")}},
         .infer = inferPad},
    }};
static_assert(isWellFormed(kPad));

}  // namespace onyx::ops::ai_onnx
