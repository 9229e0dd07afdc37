// Div (ai.onnx), versions 1, 6, 7, 13, 14.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "onyx/core/array.h"
#include "onyx/ir/tensor.h"
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

void inferDiv(InferenceContext& ctx) { inferBroadcastArithmetic(ctx, Arithmetic::kDivide); }

// Integer division truncates toward zero; division by zero gives 0, as onnx's reference
// does, and the most negative value divided by -1 wraps to itself.
Status runDiv(KernelContext& ctx) {
  return elementwise::binaryArithmeticKernel(
      ctx,
      [](auto a, auto b) {
        using T = decltype(a);
        if constexpr (std::is_integral_v<T>) {
          return elementwise::truncDiv(a, b);
        } else {
          return a / b;
        }
      },
      &float_arithmetic::kDiv);
}

// A dimension as far as the model tells: a number, or a symbol that names one size wherever
// it appears, or neither.
struct Extent {
  std::optional<int64_t> value;
  std::string_view symbol;
};

bool sameExtent(const Extent& a, const Extent& b) {
  if (a.value || b.value) return a.value == b.value;
  return !a.symbol.empty() && a.symbol == b.symbol;
}

bool allOnes(const std::vector<Extent>& shape) {
  return std::all_of(shape.begin(), shape.end(),
                     [](const Extent& extent) { return extent.value == int64_t{1}; });
}

// The shape of input `i`, from its type or, for a constant, from its dims; nullopt when not
// even the rank is known.
std::optional<std::vector<Extent>> inputShape(const NodeDraft& draft, size_t i) {
  std::vector<Extent> shape;
  if (const Type* type = draft.inputType(i); type != nullptr && type->shape != nullptr) {
    for (const Dimension& dim : type->shape->dims) {
      shape.push_back({dim.dim_value, dim.dim_param.value_or(std::string_view())});
    }
    return shape;
  }
  if (const Tensor* constant = draft.constantInput(i); constant != nullptr) {
    for (int64_t dim : constant->dims) shape.push_back({dim, {}});
    return shape;
  }
  return std::nullopt;
}

// Up to numpy broadcasting, which lines B up with A's last dimensions, where the legacy
// broadcast lines it up from `axis`. When the two differ, a constant B takes the trailing 1s
// that make them agree; any other B would need an Unsqueeze.
Status toNumpyBroadcast(NodeDraft& draft) {
  bool broadcast = draft.intAttr("broadcast").value_or(0) != 0;
  std::optional<int64_t> axis = draft.intAttr("axis");
  draft.removeAttribute("broadcast");
  draft.removeAttribute("axis");
  if (!broadcast || !axis) return Status::ok();
  std::optional<std::vector<Extent>> a = inputShape(draft, 0);
  std::optional<std::vector<Extent>> b = inputShape(draft, 1);
  if (b && allOnes(*b)) return Status::ok();
  if (!a || !b) return draft.refuse("the inputs' ranks are unknown, so where axis puts B is too");
  const auto rank = static_cast<int64_t>(a->size());
  int64_t start = *axis < 0 ? *axis + rank : *axis;
  int64_t trailing = rank - start - static_cast<int64_t>(b->size());
  if (start < 0 || trailing < 0) return draft.refuse("axis puts B outside A");
  if (trailing == 0) return Status::ok();
  const Tensor* constant = draft.constantInput(1);
  if (constant == nullptr) {
    return draft.refuse("axis lines B up before A's last dimensions and B is not a constant");
  }
  Result<Array> values = arrayFromTensor(*constant);
  if (!values) return draft.refuse("B's constant cannot be read");
  std::vector<int64_t> shape = values->shape();
  shape.insert(shape.end(), static_cast<size_t>(trailing), 1);
  draft.setConstantInput(1, draft.editor().tensorFromArray(values->reshaped(std::move(shape))));
  return Status::ok();
}

// Down to the legacy broadcast, which stretches only B over A, and (as the spec says) only
// when B has A's last dimensions or one element; equal shapes need no broadcast.
Status toLegacyBroadcast(NodeDraft& draft) {
  std::optional<std::vector<Extent>> a = inputShape(draft, 0);
  std::optional<std::vector<Extent>> b = inputShape(draft, 1);
  if (!a || !b) return draft.refuse("the inputs' shapes are unknown");
  if (b->size() > a->size()) return draft.refuse("B has more dimensions than A");
  size_t offset = a->size() - b->size();
  bool trailing =
      std::equal(b->begin(), b->end(), a->begin() + static_cast<ptrdiff_t>(offset), sameExtent);
  if (trailing && offset == 0) return Status::ok();
  if (!trailing && !allOnes(*b)) {
    return draft.refuse("B is not known to be A's last dimensions or one element");
  }
  draft.setIntAttr("broadcast", 1);
  return Status::ok();
}

}  // namespace

constexpr TypeSet kTTypes6 = tensor("uint32 uint64 int32 int64 float16 float double");
constexpr Formals kInputs1 = {{"A", "T"}, {"B", "T"}};
constexpr Formals kOutputs1 = {{"C", "T"}};
constexpr Constraints kConstraints6 = {{"T", kTTypes6}};

extern const Operator kDiv;
constexpr Operator kDiv{
    .domain = kOnnxDomain,
    .name = "Div",
    .versions = {
        {.since_version = 1,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = {attr("axis", kInt), attr("broadcast", 0), attr("consumed_inputs", kInts)},
         .constraints = {{"T", tensor("float16 float double")}},
         .infer = inferSameShape,
         .kernel = runDiv},
        {.since_version = 6,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = {attr("axis", kInt), attr("broadcast", 0)},
         .constraints = kConstraints6,
         .infer = inferSameShape,
         .kernel = runDiv,
         .step = {.reviewed = true,
                  .change = "consumed_inputs removed; uint32, uint64, int32 and int64 added",
                  .up = dropConsumedInputs}},
        {.since_version = 7,
         .traits = kElementwise,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .constraints = kConstraints6,
         .infer = inferDiv,
         .kernel = runDiv,
         .step = {.reviewed = true,
                  .change = "numpy broadcasting replaces broadcast/axis",
                  .up = toNumpyBroadcast,
                  .down = toLegacyBroadcast,
                  .up_refuses = "axis off A's last dimensions, B not a constant",
                  .down_refuses =
                      "B not known to be A's shape, its last dimensions or one element"}},
        {.since_version = 13,
         .traits = kElementwise,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .constraints = {{"T", tensor("uint32 uint64 int32 int64 float16 float double bfloat16")}},
         .infer = inferDiv,
         .kernel = runDiv,
         .step = typesOnly("bfloat16 added")},
        {.since_version = 14,
         .traits = kElementwise,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .constraints = {{"T", tensor("uint8 uint16 uint32 uint64 int8 int16 int32 int64 float16 "
                                      "float double bfloat16")}},
         .infer = inferDiv,
         .kernel = runDiv,
         .step = typesOnly("uint8, uint16, int8 and int16 added")},
    }};
static_assert(isWellFormed(kDiv));

}  // namespace onyx::ops::ai_onnx
