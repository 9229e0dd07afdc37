// TopK (ai.onnx), versions 1, 10, 11, 24.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ops/math/math_shape.h"
#include "ops/math/scan_kernels.h"
#include "ops/node_draft.h"
#include "ops/schema_dsl.h"
#include "ops/shape_rules.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

// Values and Indices have X's shape with K along `axis`; K is the attribute `k` before
// version 10, then the one element of input 1 (unknown when not a known value).
void inferTopK(InferenceContext& ctx) {
  const Dims* in = ctx.inputShape(0);
  if (in == nullptr) return;
  std::optional<size_t> axis =
      normalizeAxis(ctx, ctx.intAttribute("axis").value_or(-1), in->size());
  if (!axis) return;
  std::optional<DimValue> k;
  if (ctx.schema().since_version < 10) {
    if (std::optional<int64_t> attribute = ctx.intAttribute("k")) k = DimValue::known(*attribute);
  } else {
    // K is a vector of one element; onnx's TopK inference refuses a K of another shape
    // where K is a constant, whose value it reads (onnx/defs/math/utils.cc).
    if (ctx.inputConstant(1) != nullptr) {
      if (!inputRankIs(ctx, 1, 1)) return;
      if (const Dims* shape = ctx.inputShape(1);
          shape != nullptr && (*shape)[0].isKnown() && (*shape)[0].value() != 1) {
        ctx.fail("K has " + std::to_string((*shape)[0].value()) +
                 " elements; TopK takes a vector of one element");
        return;
      }
    }
    k = scalarInputData(ctx, 1);
  }
  if (k && k->isKnown()) {
    DimValue available = (*in)[*axis];
    if (k->value() < 0) {
      ctx.fail("K is " + std::to_string(k->value()) + "; it cannot be negative");
      return;
    }
    if (available.isKnown() && k->value() > available.value()) {
      ctx.fail("K is " + std::to_string(k->value()) + " but axis " + std::to_string(*axis) +
               " has only " + std::to_string(available.value()) + " elements");
      return;
    }
  }
  Dims out = *in;
  out[*axis] = k ? *k : ctx.dims().fresh();
  ctx.setOutputShape(0, out);
  if (ctx.hasOutput(1)) ctx.setOutputShape(1, std::move(out));
}

// Up to version 10, where k is the input K: a 1-D tensor of one element.
Status kToInput(NodeDraft& draft) {
  std::optional<int64_t> k = draft.intAttr("k");
  if (!k) return draft.refuse("k is missing or not an int");
  draft.removeAttribute("k");
  const int64_t values[] = {*k};
  draft.setIntegersInput(1, values);
  return Status::ok();
}

// Down to version 1, where K is the attribute k: the input must be a constant.
Status kToAttribute(NodeDraft& draft) {
  std::optional<std::vector<int64_t>> k = draft.constantIntegers(1);
  if (!k || k->size() != 1) return draft.refuse("K is not a constant of one element");
  draft.setIntAttr("k", k->front());
  draft.resizeInputs(1);
  return Status::ok();
}

// Down to version 10, which always returns the largest elements, sorted: `largest` must be
// 1; any `sorted` goes, since a sorted result is one that sorted = 0 allows.
Status dropLargestAndSorted(NodeDraft& draft) {
  if (draft.attribute("largest") != nullptr) {
    if (draft.intAttr("largest") != 1) {
      return draft.refuse("largest other than 1 has no form in version 10");
    }
    draft.removeAttribute("largest");
  }
  draft.removeAttribute("sorted");
  return Status::ok();
}

}  // namespace

constexpr Formals kInputs10 = {{"X", "T"}, {"K", "tensor(int64)"}};
constexpr Formals kOutputs1 = {{"Values", "T"}, {"Indices", "I"}};
constexpr Attributes kAttributes11 = {attr("axis", -1), attr("largest", 1), attr("sorted", 1)};

extern const Operator kTopK;
constexpr Operator kTopK{
    .domain = kOnnxDomain,
    .name = "TopK",
    .versions = {
        {.since_version = 1,
         .inputs = {{"X", "T"}},
         .outputs = kOutputs1,
         .attributes = {attr("axis", -1), required("k", kInt)},
         .constraints = {{"T", tensor("float16 float double")}, {"I", tensor("int64")}},
         .infer = inferTopK,
         .kernel = runTopK},
        {.since_version = 10,
         .inputs = kInputs10,
         .outputs = kOutputs1,
         .attributes = {attr("axis", -1)},
         .constraints = {{"T", tensor("float16 float double")},
                         {"I", tensor("int64")},
                         {"tensor(int64)", tensor("int64")}},
         .infer = inferTopK,
         .kernel = runTopK,
         .step = {.reviewed = true,
                  .change = "k became the input K",
                  .up = kToInput,
                  .down = kToAttribute,
                  .down_refuses = "K not a constant of one element"}},
        {.since_version = 11,
         .inputs = kInputs10,
         .outputs = kOutputs1,
         .attributes = kAttributes11,
         .constraints =
             {{"T",
               tensor("uint8 uint16 uint32 uint64 int8 int16 int32 int64 float16 float double")},
              {"I", tensor("int64")},
              {"tensor(int64)", tensor("int64")}},
         .infer = inferTopK,
         .kernel = runTopK,
         .step = {.reviewed = true,
                  .change = "largest and sorted added (1: as before); integer types added",
                  .down = dropLargestAndSorted,
                  .down_refuses = "largest other than 1"}},
        {.since_version = 24,
         .inputs = kInputs10,
         .outputs = kOutputs1,
         .attributes = kAttributes11,
         .constraints = {{"T", tensor("uint8 uint16 uint32 uint64 int8 int16 int32 int64 float16 "
                                      "float double bfloat16")},
                         {"I", tensor("int64")},
                         {"tensor(int64)", tensor("int64")}},
         .infer = inferTopK,
         .kernel = runTopK,
         .step = typesOnly("bfloat16 added")},
    }};
static_assert(isWellFormed(kTopK));

}  // namespace onyx::ops::ai_onnx
