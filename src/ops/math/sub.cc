// Sub (ai.onnx), versions 1, 6, 7, 13, 14.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include <algorithm>
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "onyx/core/array.h"
#include "onyx/ir/tensor_array.h"
#include "onyx/ir/type.h"
#include "ops/lib/elementwise_kernels.h"
#include "ops/math/float_arithmetic.h"
#include "ops/node_draft.h"
#include "ops/schema_dsl.h"
#include "ops/shape_rules.h"
#include "ops/version_adapters.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

void inferSub(InferenceContext& ctx) { inferBroadcastArithmetic(ctx, Arithmetic::kSubtract); }

// Integers wrap around on overflow; the narrow floating types are computed in FLOAT.
Status runSub(KernelContext& ctx) {
  return elementwise::binaryArithmeticKernel(
      ctx, [](auto a, auto b) { return elementwise::wrapSub(a, b); }, &float_arithmetic::kSub);
}

// Whether two dimensions are known to be equal: the same number, or the same symbol.
bool sameDimension(const Dimension& a, const Dimension& b) {
  if (a.isKnown() || b.isKnown()) return a.dim_value == b.dim_value;
  return a.isSymbolic() && a.dim_param == b.dim_param;
}

bool allOnes(const TensorShape& shape) {
  return std::all_of(shape.dims.begin(), shape.dims.end(),
                     [](const Dimension& dim) { return dim.dim_value == int64_t{1}; });
}

const TensorShape* inputShape(const NodeDraft& draft, size_t i) {
  const Type* type = draft.inputType(i);
  return type != nullptr ? type->shape : nullptr;
}

// Up to version 7, which broadcasts numpy-style and so aligns B with A's trailing
// dimensions; the legacy broadcast aligns B with A from `axis` on. Where the two differ, a
// constant B takes the trailing 1s that make them agree.
Status toNumpyBroadcast(NodeDraft& draft) {
  bool broadcast = draft.intAttr("broadcast").value_or(0) != 0;
  bool has_axis = draft.attribute("axis") != nullptr;
  std::optional<int64_t> axis = draft.intAttr("axis");
  draft.removeAttribute("broadcast");
  draft.removeAttribute("axis");
  if (!broadcast || !has_axis) return Status::ok();
  const TensorShape* a = inputShape(draft, 0);
  if (!axis || a == nullptr) return draft.refuse("broadcast along an axis of A of unknown rank");
  const auto rank = static_cast<int64_t>(a->rank());
  if (const TensorShape* b = inputShape(draft, 1); b != nullptr && b->rank() <= a->rank()) {
    if (*axis + static_cast<int64_t>(b->rank()) == rank || allOnes(*b)) return Status::ok();
  }
  const Tensor* constant = draft.constantInput(1);
  if (constant == nullptr) {
    return draft.refuse("B is aligned before A's last dimensions and is not a constant");
  }
  Result<Array> b = arrayFromTensor(*constant);
  if (!b) return draft.refuse("B's constant cannot be read");
  int64_t trailing = rank - *axis - static_cast<int64_t>(b->rank());
  if (*axis < 0 || trailing < 0) return draft.refuse("axis does not place B within A");
  if (trailing == 0 || (b->size() == 1 && b->rank() <= a->rank())) return Status::ok();
  std::vector<int64_t> shape = b->shape();
  shape.insert(shape.end(), static_cast<size_t>(trailing), 1);
  draft.setConstantInput(1, draft.editor().tensorFromArray(b->reshaped(std::move(shape))));
  return Status::ok();
}

// Down to the legacy broadcast, which only stretches B over A: B must be A's trailing
// dimensions or one element, and `broadcast` is set when the shapes differ.
Status toLegacyBroadcast(NodeDraft& draft) {
  const TensorShape* a = inputShape(draft, 0);
  const TensorShape* b = inputShape(draft, 1);
  if (a == nullptr || b == nullptr) return draft.refuse("the inputs' shapes are unknown");
  if (b->rank() > a->rank()) return draft.refuse("B has more dimensions than A");
  size_t offset = a->rank() - b->rank();
  bool trailing =
      std::equal(b->dims.begin(), b->dims.end(), a->dims.begin() + offset, sameDimension);
  if (trailing && offset == 0) return Status::ok();
  if (!trailing && !allOnes(*b)) {
    return draft.refuse("B is neither A's trailing dimensions nor one element");
  }
  draft.setIntAttr("broadcast", 1);
  return Status::ok();
}

}  // namespace

constexpr TypeSet kTTypes6 = tensor("uint32 uint64 int32 int64 float16 float double");
constexpr Formals kInputs1 = {{"A", "T"}, {"B", "T"}};
constexpr Formals kOutputs1 = {{"C", "T"}};
constexpr Constraints kConstraints6 = {{"T", kTTypes6}};

extern const Operator kSub;
constexpr Operator kSub{
    .domain = kOnnxDomain,
    .name = "Sub",
    .versions = {
        {.since_version = 1,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = {attr("axis", kInt), attr("broadcast", 0), attr("consumed_inputs", kInts)},
         .constraints = {{"T", tensor("float16 float double")}},
         .infer = inferSameShape,
         .kernel = runSub},
        {.since_version = 6,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = {attr("axis", kInt), attr("broadcast", 0)},
         .constraints = kConstraints6,
         .infer = inferSameShape,
         .kernel = runSub,
         .step = {.reviewed = true,
                  .change = "consumed_inputs removed; uint32, uint64, int32 and int64 added",
                  .up = dropConsumedInputs}},
        {.since_version = 7,
         .traits = kElementwise,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .constraints = kConstraints6,
         .infer = inferSub,
         .kernel = runSub,
         .step = {.reviewed = true,
                  .change = "numpy broadcasting replaces broadcast/axis",
                  .up = toNumpyBroadcast,
                  .down = toLegacyBroadcast,
                  .up_refuses = "an axis off the trailing alignment, with B not constant",
                  .down_refuses = "B not known to be one element or A's trailing dimensions"}},
        {.since_version = 13,
         .traits = kElementwise,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .constraints = {{"T", tensor("uint32 uint64 int32 int64 float16 float double bfloat16")}},
         .infer = inferSub,
         .kernel = runSub,
         .step = typesOnly("bfloat16 added")},
        {.since_version = 14,
         .traits = kElementwise,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .constraints = {{"T", tensor("uint8 uint16 uint32 uint64 int8 int16 int32 int64 float16 "
                                      "float double bfloat16")}},
         .infer = inferSub,
         .kernel = runSub,
         .step = typesOnly("uint8, uint16, int8 and int16 added")},
    }};
static_assert(isWellFormed(kSub));

}  // namespace onyx::ops::ai_onnx
