// Shape (ai.onnx), versions 1, 13, 15, 19, 21, 23, 24, 25.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>

#include "ops/kernels.h"
#include "ops/node_draft.h"
#include "ops/schema_dsl.h"
#include "ops/shape_rules.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

// Shape-15's start and end, clamped into [0, rank] after adding rank to negative ones.
size_t clampedBound(int64_t bound, size_t rank) {
  int64_t signed_rank = static_cast<int64_t>(rank);
  if (bound < 0) bound += signed_rank;
  return static_cast<size_t>(std::clamp<int64_t>(bound, 0, signed_rank));
}

void inferShape(InferenceContext& ctx) {
  const Dims* in = ctx.inputShape(0);
  if (in == nullptr) {
    ctx.setOutputShape(0, {ctx.dims().fresh()});
    return;
  }
  size_t start = clampedBound(ctx.intAttribute("start").value_or(0), in->size());
  std::optional<int64_t> end_attribute = ctx.intAttribute("end");
  size_t end = end_attribute ? clampedBound(*end_attribute, in->size()) : in->size();
  Dims data;
  if (start < end)
    data.assign(in->begin() + static_cast<std::ptrdiff_t>(start),
                in->begin() + static_cast<std::ptrdiff_t>(end));
  ctx.setOutputShape(0, {DimValue::known(static_cast<int64_t>(data.size()))});
  ctx.setOutputData(0, std::move(data));
}

Status runShape(KernelContext& ctx) {
  const Array* x = ctx.inputArray(0);
  if (x == nullptr) return ctx.fail("needs a tensor input");
  int64_t rank = static_cast<int64_t>(x->rank());
  auto bound = [&](int64_t value) {
    if (value < 0) value += rank;
    return std::clamp<int64_t>(value, 0, rank);
  };
  int64_t start = bound(ctx.intAttribute("start").value_or(0));
  int64_t end = bound(ctx.intAttribute("end").value_or(rank));
  int64_t count = std::max<int64_t>(0, end - start);
  Array shape(ElementType::kInt64, {count});
  for (int64_t i = 0; i < count; ++i)
    shape.data<int64_t>()[i] = x->dim(static_cast<size_t>(start + i));
  ctx.setOutput(0, std::move(shape));
  return Status::ok();
}

// Down to version 13, which gives the whole shape. When start and end, clamped to [0, rank],
// are not known to come to 0 and the rank, a Slice of the shape from start to end follows the
// node: Slice counts and clamps its bounds as Shape 15 does.
Status dropStartEnd(NodeDraft& draft) {
  std::optional<int64_t> rank = draft.inputRank(0);
  auto clamped = [&](int64_t axis) {
    return std::clamp(axis < 0 ? axis + *rank : axis, int64_t{0}, *rank);
  };
  int64_t start = 0;
  std::optional<int64_t> end;
  if (draft.attribute("start") != nullptr) {
    std::optional<int64_t> given = draft.intAttr("start");
    if (!given) return draft.refuse("start is not an int");
    start = *given;
  }
  if (draft.attribute("end") != nullptr) {
    end = draft.intAttr("end");
    if (!end) return draft.refuse("end is not an int");
  }
  draft.removeAttribute("start");
  draft.removeAttribute("end");
  bool whole_start = start == 0 || (rank && clamped(start) == 0);
  bool whole_end = !end || (rank && clamped(*end) == *rank);
  if (whole_start && whole_end) return Status::ok();
  const int64_t first[] = {start};
  const int64_t last[] = {end.value_or(std::numeric_limits<int64_t>::max())};
  Tensor* bounds[] = {draft.integers(first), draft.integers(last)};
  draft.follow("Slice", 13, bounds);
  return Status::ok();
}

}  // namespace

constexpr Formals kInputs1 = {{"data", "T"}};
constexpr Formals kOutputs1 = {{"shape", "T1"}};
constexpr Attributes kAttributes15 = {attr("end", kInt), attr("start", 0)};
constexpr Constraints kConstraints13 = {{"T", tensor(kIr4Types)}, {"T1", tensor("int64")}};

extern const Operator kShape;
constexpr Operator kShape{
    .domain = kOnnxDomain,
    .name = "Shape",
    .versions = {
        {.since_version = 1,
         .traits = kReadsShape,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .constraints = {{"T", tensor(kIr3Types)}, {"T1", tensor("int64")}},
         .infer = inferShape,
         .kernel = runShape},
        {.since_version = 13,
         .traits = kReadsShape,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .constraints = kConstraints13,
         .infer = inferShape,
         .kernel = runShape,
         .step = typesOnly("bfloat16 added")},
        {.since_version = 15,
         .traits = kReadsShape,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = kAttributes15,
         .constraints = kConstraints13,
         .infer = inferShape,
         .kernel = runShape,
         .step = {.reviewed = true,
                  .change = "start and end added (0 and the rank: as before)",
                  .down = dropStartEnd,
                  .down_refuses = "start or end not an int (a Slice follows a Shape they cut)"}},
        {.since_version = 19,
         .traits = kReadsShape,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = kAttributes15,
         .constraints = {{"T", tensor(kIr9Types)}, {"T1", tensor("int64")}},
         .infer = inferShape,
         .kernel = runShape,
         .step = typesOnly("float8 types added")},
        {.since_version = 21,
         .traits = kReadsShape,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = kAttributes15,
         .constraints = {{"T", tensor(kIr10Types)}, {"T1", tensor("int64")}},
         .infer = inferShape,
         .kernel = runShape,
         .step = typesOnly("int4 and uint4 added")},
        {.since_version = 23,
         .traits = kReadsShape,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = kAttributes15,
         .constraints = {{"T", tensor(kIr11Types)}, {"T1", tensor("int64")}},
         .infer = inferShape,
         .kernel = runShape,
         .step = typesOnly("float4e2m1 added")},
        {.since_version = 24,
         .traits = kReadsShape,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = kAttributes15,
         .constraints = {{"T", tensor(kIr12Types)}, {"T1", tensor("int64")}},
         .infer = inferShape,
         .kernel = runShape,
         .step = typesOnly("float8e8m0 added")},
        {.since_version = 25,
         .traits = kReadsShape,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = kAttributes15,
         .constraints = {{"T", tensor(kIr13Types)}, {"T1", tensor("int64")}},
         .infer = inferShape,
         .kernel = runShape,
         .step = typesOnly("int2 and uint2 added")},
    }};
static_assert(isWellFormed(kShape));

}  // namespace onyx::ops::ai_onnx
