// PRelu (ai.onnx), versions 1, 6, 7, 9, 16.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include <algorithm>

#include "onyx/ir/tensor_array.h"
#include "ops/lib/elementwise_kernels.h"
#include "ops/node_draft.h"
#include "ops/schema_dsl.h"
#include "ops/shape_rules.h"
#include "ops/version_adapters.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

// x for x > 0, slope * x otherwise, the slope broadcast against x. A 1-D slope that does not
// broadcast applies along the one axis of x of its length, as onnx's reference allows.
Status runPRelu(KernelContext& ctx) {
  const Array* x = ctx.inputArray(0);
  const Array* slope = ctx.inputArray(1);
  if (x == nullptr || slope == nullptr) return ctx.fail("needs two tensor inputs");
  if (x->type() != slope->type()) return ctx.fail("inputs of different element types");
  ElementType type = x->type();
  Array s = *slope;
  if (!broadcastShape(x->shape(), s.shape()) && s.rank() == 1) {
    std::vector<int64_t> shape(x->rank(), 1);
    size_t matches = 0;
    for (size_t axis = 0; axis < x->rank(); ++axis) {
      if (x->dim(axis) == s.dim(0)) {
        shape[axis] = s.dim(0);
        ++matches;
      }
    }
    if (matches == 1) s = s.reshaped(std::move(shape));
  }
  std::optional<elementwise::Broadcast> plan =
      elementwise::planBroadcast({&x->shape(), &s.shape()});
  if (!plan) return ctx.fail("slope's shape does not broadcast to the input's");
  bool narrow = isNarrowFloat(type);
  Array a = narrow ? widenToFloat(*x) : *x;
  Array b = narrow ? widenToFloat(s) : s;
  Result<Array> made = Array::allocate(a.type(), plan->shape);
  if (!made) return made.status();
  Array out = std::move(*made);
  bool ok = elementwise::dispatchArithmetic(a.type(), [&]<class T>() {
    elementwise::binaryLoop(ctx, *plan, a.data<T>(), b.data<T>(), out.data<T>(),
                            [](T v, T k) { return v > T(0) ? v : elementwise::wrapMul(v, k); });
  });
  if (!ok) return elementwise::unsupported(ctx, type);
  ctx.setOutput(0, elementwise::narrowTo(std::move(out), type));
  return Status::ok();
}

// slope broadcasts to X (unidirectionally from version 7), so Y has X's shape.
void inferPRelu(InferenceContext& ctx) { inferSameShape(ctx); }

// Whether a slope of `slope`'s shape broadcasts unidirectionally to `x`'s (numpy, from the
// back: each of its dimensions x's or 1).
bool broadcastsTo(const std::vector<Extent>& slope, const std::vector<Extent>& x) {
  if (slope.size() > x.size()) return false;
  size_t offset = x.size() - slope.size();
  for (size_t k = 0; k < slope.size(); ++k) {
    if (slope[k].value != int64_t{1} && !sameExtent(slope[k], x[offset + k])) return false;
  }
  return true;
}

// Up to version 7, which broadcasts the slope to X from the back. Version 6 speaks of a
// slope of one element or X's shape, which broadcast alike; a 1-D slope of one axis' length
// (a channel slope, as older exporters wrote it) is reshaped to line up with that axis when
// it is a constant.
Status slopeToNumpy(NodeDraft& draft) {
  std::optional<std::vector<Extent>> x = draft.inputShape(0);
  std::optional<std::vector<Extent>> slope = draft.inputShape(1);
  if (!x || !slope || broadcastsTo(*slope, *x)) return Status::ok();
  const Tensor* constant = draft.constantInput(1);
  if (slope->size() == 1 && slope->front().value && constant != nullptr) {
    std::vector<size_t> matches;
    for (size_t axis = 0; axis < x->size(); ++axis) {
      if ((*x)[axis].value == slope->front().value) matches.push_back(axis);
    }
    Result<Array> array = arrayFromTensor(*constant);
    if (matches.size() == 1 && array) {
      std::vector<int64_t> shape(x->size() - matches[0], 1);
      shape[0] = *slope->front().value;
      draft.setConstantInput(1, draft.editor().tensorFromArray(array->reshaped(shape)));
      return Status::ok();
    }
  }
  return draft.refuse("a slope that does not broadcast to X from the back");
}

// Down to version 6: the slope must be known to have one element or X's shape.
Status slopeOneOrSame(NodeDraft& draft) {
  std::optional<std::vector<Extent>> x = draft.inputShape(0);
  std::optional<std::vector<Extent>> slope = draft.inputShape(1);
  if (slope &&
      (allOnes(*slope) || (x && slope->size() == x->size() &&
                           std::equal(x->begin(), x->end(), slope->begin(), sameExtent)))) {
    return Status::ok();
  }
  return draft.refuse("a slope not known to have one element or X's shape");
}

}  // namespace

constexpr Formals kInputs1 = {{"X", "T"}, {"slope", "T"}};
constexpr Formals kOutputs1 = {{"Y", "T"}};
constexpr Constraints kConstraints1 = {{"T", tensor("float16 float double")}};

// PRelu 16 as the spec defines it: slope * X where X < 0, else X.
constexpr const char* kBody16 = R"ONNX(
<domain: "", opset_import: ["" : 16]>
PRelu (X, slope) => (Y) {
  zero = Constant <value = float {0.0}> ()
  zero_x = CastLike (zero, X)
  negative = Less (X, zero_x)
  sloped = Mul (slope, X)
  Y = Where (negative, sloped, X)
}
)ONNX";

extern const Operator kPRelu;
constexpr Operator kPRelu{
    .domain = kOnnxDomain,
    .name = "PRelu",
    .versions = {
        {.since_version = 1,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = {attr("consumed_inputs", kInts)},
         .constraints = kConstraints1,
         .infer = inferPRelu,
         .kernel = runPRelu},
        {.since_version = 6,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .constraints = kConstraints1,
         .infer = inferPRelu,
         .kernel = runPRelu,
         .step = {.reviewed = true, .change = "consumed_inputs removed", .up = dropConsumedInputs}},
        {.since_version = 7,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .constraints = kConstraints1,
         .infer = inferPRelu,
         .kernel = runPRelu,
         .step = {.reviewed = true,
                  .change = "slope broadcasts to X (numpy, from the back)",
                  .up = slopeToNumpy,
                  .down = slopeOneOrSame,
                  .up_refuses = "a slope that does not broadcast, unless a constant 1-D slope of "
                                "one axis' length",
                  .down_refuses = "a slope not known to have one element or X's shape"}},
        {.since_version = 9,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .constraints = {{"T", tensor("float16 float double uint32 uint64 int32 int64")}},
         .infer = inferPRelu,
         .kernel = runPRelu,
         .step = typesOnly("uint32, uint64, int32 and int64 added")},
        {.since_version = 16,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .constraints = {{"T", tensor("bfloat16 float16 float double uint32 uint64 int32 int64")}},
         .function_bodies = {{16, kBody16}},
         .infer = inferPRelu,
         .kernel = runPRelu,
         .step = typesOnly("bfloat16 added")},
    }};
static_assert(isWellFormed(kPRelu));

}  // namespace onyx::ops::ai_onnx
