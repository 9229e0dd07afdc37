// ConcatFromSequence (ai.onnx), versions 11.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/lib/sequence_kernels.h"
#include "ops/schema_dsl.h"
#include "ops/shape_rules.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

// The elements joined along `axis` (their count unknown, so that axis is too), or stacked
// along a new axis with new_axis = 1.
void inferConcatFromSequence(InferenceContext& ctx) {
  const InferredType* sequence = ctx.inputType(0);
  if (sequence == nullptr || sequence->kind != InferredType::Kind::kSequence ||
      sequence->elem == nullptr || !sequence->elem->isTensor()) {
    return;
  }
  const InferredType& element = *sequence->elem;
  if (element.elem_type != 0) ctx.setOutputElemType(0, element.elem_type);
  if (!element.has_shape) return;
  std::optional<int64_t> axis_attribute = ctx.intAttribute("axis");
  if (!axis_attribute) return;
  // new_axis is a flag, 0 or 1; onnx's ConcatFromSequence inference refuses other values
  // (onnx/defs/sequence/defs.cc).
  int64_t new_axis_flag = ctx.intAttribute("new_axis").value_or(0);
  if (new_axis_flag != 0 && new_axis_flag != 1) {
    ctx.fail("new_axis is " + std::to_string(new_axis_flag) + "; it is 0 (join) or 1 (stack)");
    return;
  }
  bool new_axis = new_axis_flag == 1;
  size_t rank = element.dims.size() + (new_axis ? 1 : 0);
  std::optional<size_t> axis = normalizeAxis(ctx, *axis_attribute, rank);
  if (!axis) return;
  Dims dims = element.dims;
  if (new_axis) {
    dims.insert(dims.begin() + static_cast<std::ptrdiff_t>(*axis), ctx.dims().fresh());
  } else {
    dims[*axis] = ctx.dims().fresh();
  }
  ctx.setOutputShape(0, std::move(dims));
}

Status runConcatFromSequence(KernelContext& ctx) {
  const EvalValue* sequence = ctx.input(0);
  if (sequence == nullptr || sequence->kind != EvalValue::Kind::kSequence) {
    return ctx.fail("input_sequence is not a sequence");
  }
  if (sequence->items.empty()) return ctx.fail("the sequence is empty");
  std::vector<Array> parts;
  parts.reserve(sequence->items.size());
  for (const EvalValue& item : sequence->items) {
    if (!item.isTensor()) return ctx.fail("the sequence holds a value that is not a tensor");
    parts.push_back(item.tensor);
  }
  bool new_axis = ctx.intAttribute("new_axis").value_or(0) != 0;
  std::optional<int64_t> axis_attribute = ctx.intAttribute("axis");
  if (!axis_attribute) return ctx.fail("axis is required");
  size_t rank = parts[0].rank() + (new_axis ? 1 : 0);
  std::optional<size_t> axis = kernelAxis(*axis_attribute, rank);
  if (!axis) return ctx.fail("axis " + std::to_string(*axis_attribute) + " is out of range");
  std::string error;
  std::optional<Array> out =
      new_axis ? stackAlongAxis(parts, *axis, error) : concatAlongAxis(parts, *axis, error);
  if (!out) return ctx.fail(error);
  ctx.setOutput(0, std::move(*out));
  return Status::ok();
}

}  // namespace

extern const Operator kConcatFromSequence;
constexpr Operator kConcatFromSequence{
    .domain = kOnnxDomain,
    .name = "ConcatFromSequence",
    .versions = {
        {.since_version = 11,
         .inputs = {{"input_sequence", "S"}},
         .outputs = {{"concat_result", "T"}},
         .attributes = {required("axis", kInt), attr("new_axis", 0)},
         .constraints = {{"S", sequence(kIr3Types)}, {"T", tensor(kIr3Types)}},
         .infer = inferConcatFromSequence,
         .kernel = runConcatFromSequence},
    }};
static_assert(isWellFormed(kConcatFromSequence));

}  // namespace onyx::ops::ai_onnx
