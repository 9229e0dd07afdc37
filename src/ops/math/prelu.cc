// PRelu (ai.onnx), versions 1, 6, 7, 9, 16.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/lib/elementwise_kernels.h"
#include "ops/schema_dsl.h"
#include "ops/shape_rules.h"

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
         .kernel = runPRelu},
        {.since_version = 7,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .constraints = kConstraints1,
         .infer = inferPRelu,
         .kernel = runPRelu},
        {.since_version = 9,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .constraints = {{"T", tensor("float16 float double uint32 uint64 int32 int64")}},
         .infer = inferPRelu,
         .kernel = runPRelu},
        {.since_version = 16,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .constraints = {{"T", tensor("bfloat16 float16 float double uint32 uint64 int32 int64")}},
         .function_bodies = {{16, kBody16}},
         .infer = inferPRelu,
         .kernel = runPRelu},
    }};
static_assert(isWellFormed(kPRelu));

}  // namespace onyx::ops::ai_onnx
