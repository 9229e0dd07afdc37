// MeanVarianceNormalization (ai.onnx), versions 9, 13.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/lib/reduce_kernels.h"
#include "ops/schema_dsl.h"
#include "ops/shape_rules.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

void inferMeanVarianceNormalization(InferenceContext& ctx) { inferSameShape(ctx); }

}  // namespace

constexpr Formals kInputs9 = {{"X", "T"}};
constexpr Formals kOutputs9 = {{"Y", "T"}};
constexpr Attributes kAttributes9 = {
    {.name = "axes", .kind = kInts, .has_default = true, .default_ints = {0, 2, 3}}};

// MeanVarianceNormalization as the spec defines it: (X - E[X]) / (sqrt(E[X^2] - E[X]^2) + 1e-9),
// the expectations over `axes`.
constexpr const char* kBody9 = R"ONNX(
<domain: "", opset_import: ["" : 9]>
MeanVarianceNormalization <axes: ints = [0, 2, 3]> (X) => (Y) {
  two = Constant <value = float {2.0}> ()
  tiny = Constant <value = float {1e-09}> ()
  mean = ReduceMean <axes: ints = @axes> (X)
  mean_squared = Pow (mean, two)
  squared = Pow (X, two)
  mean_of_squares = ReduceMean <axes: ints = @axes> (squared)
  variance = Sub (mean_of_squares, mean_squared)
  deviation = Sqrt (variance)
  centered = Sub (X, mean)
  denominator = Add (deviation, tiny)
  Y = Div (centered, denominator)
}
)ONNX";

// From opset 18, ReduceMean takes its axes as an input.
constexpr const char* kBody18 = R"ONNX(
<domain: "", opset_import: ["" : 18]>
MeanVarianceNormalization <axes: ints = [0, 2, 3]> (X) => (Y) {
  two = Constant <value = float {2.0}> ()
  tiny = Constant <value = float {1e-09}> ()
  axes = Constant <value_ints: ints = @axes> ()
  mean = ReduceMean (X, axes)
  mean_squared = Pow (mean, two)
  squared = Pow (X, two)
  mean_of_squares = ReduceMean (squared, axes)
  variance = Sub (mean_of_squares, mean_squared)
  deviation = Sqrt (variance)
  centered = Sub (X, mean)
  denominator = Add (deviation, tiny)
  Y = Div (centered, denominator)
}
)ONNX";

namespace {

// (X - E[X]) / (sqrt(E[X^2] - E[X]^2) + 1e-9), the expectations over `axes`.
Status runMeanVarianceNormalization(KernelContext& ctx) {
  const Array* x = ctx.inputArray(0);
  if (x == nullptr) return ctx.fail("needs a tensor input");
  std::vector<int64_t> axes = ctx.intsAttribute("axes").value_or(std::vector<int64_t>{0, 2, 3});
  std::vector<bool> reduced(x->rank(), false);
  for (int64_t given : axes) {
    std::optional<size_t> axis = kernelAxis(given, x->rank());
    if (!axis) return ctx.fail("axis " + std::to_string(given) + " is out of range");
    if (reduced[*axis]) return ctx.fail("axis " + std::to_string(given) + " is repeated");
    reduced[*axis] = true;
  }
  ReducePlan plan = planReduce(x->shape(), reduced, true);
  Array wide = widenToFloat(*x);
  Array out(wide.type(), wide.shape());
  bool ok = dispatchFloat(wide.type(), [&]<class T>() {
    const T* in = wide.data<T>();
    T* result = out.data<T>();
    double count = static_cast<double>(plan.offsets.size());
    parallelFor(ctx, plan.bases.size(), 16, [&](size_t begin, size_t end) {
      for (size_t o = begin; o < end; ++o) {
        size_t base = plan.bases[o];
        double sum = 0, squares = 0;
        for (size_t off : plan.offsets) {
          double v = static_cast<double>(in[base + off]);
          sum += v;
          squares += v * v;
        }
        double mean = sum / count;
        double deviation = std::sqrt(squares / count - mean * mean);
        for (size_t off : plan.offsets) {
          double v = static_cast<double>(in[base + off]);
          result[base + off] = static_cast<T>((v - mean) / (deviation + 1e-9));
        }
      }
    });
  });
  if (!ok) return ctx.fail(std::string("no kernel for ") + std::string(elementTypeName(x->type())));
  ctx.setOutput(0, narrowFromFloat(out, x->type()));
  return Status::ok();
}

}  // namespace

extern const Operator kMeanVarianceNormalization;
constexpr Operator kMeanVarianceNormalization{
    .domain = kOnnxDomain,
    .name = "MeanVarianceNormalization",
    .versions = {
        {.since_version = 9,
         .inputs = kInputs9,
         .outputs = kOutputs9,
         .attributes = kAttributes9,
         .constraints = {{"T", tensor("float16 float double")}},
         .function_bodies = {{9, kBody9}},
         .infer = inferMeanVarianceNormalization,
         .kernel = runMeanVarianceNormalization},
        {.since_version = 13,
         .inputs = kInputs9,
         .outputs = kOutputs9,
         .attributes = kAttributes9,
         .constraints = {{"T", tensor("float16 float double bfloat16")}},
         .function_bodies = {{13, kBody9}, {18, kBody18}},
         .infer = inferMeanVarianceNormalization,
         .kernel = runMeanVarianceNormalization,
         .step = typesOnly("bfloat16 added")},
    }};
static_assert(isWellFormed(kMeanVarianceNormalization));

}  // namespace onyx::ops::ai_onnx
