// HannWindow (ai.onnx), versions 17.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/math/math_shape.h"
#include "ops/math/signal_kernels.h"
#include "ops/schema_dsl.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

// HannWindow as the spec defines it: the cosine sum 0.5 - 0.5 cos(2 pi k / N) for k in
// [0, size), where N is size when periodic and size - 1 otherwise.
constexpr const char* kBody17 = R"ONNX(
<domain: "", opset_import: ["" : 17]>
HannWindow <output_datatype: int = 1, periodic: int = 1> (size) => (output) {
  a0 = Constant <value = float {0.5}> ()
  a1 = Constant <value = float {0.5}> ()
  a2 = Constant <value = float {0.0}> ()
  zero = Constant <value = float {0.0}> ()
  one = Constant <value = float {1.0}> ()
  two = Constant <value = float {2.0}> ()
  tau = Constant <value = float {6.2831853}> ()
  n_periodic = Cast <to = 1> (size)
  n_symmetric = Sub (n_periodic, one)
  periodic_flag = Constant <value_int: int = @periodic> ()
  periodic_f = Cast <to = 1> (periodic_flag)
  symmetric_f = Sub (one, periodic_f)
  from_periodic = Mul (n_periodic, periodic_f)
  from_symmetric = Mul (n_symmetric, symmetric_f)
  n = Add (from_periodic, from_symmetric)
  step = Div (tau, n)
  k = Range (zero, n_periodic, one)
  angle = Mul (k, step)
  angle_twice = Mul (angle, two)
  cos_twice = Cos (angle_twice)
  term2 = Mul (a2, cos_twice)
  cos_once = Cos (angle)
  term1 = Mul (a1, cos_once)
  partial = Sub (a0, term1)
  window = Add (partial, term2)
  output = Cast <to: int = @output_datatype> (window)
}
)ONNX";

namespace {

Status runHannWindow(KernelContext& ctx) { return runWindow<WindowKind::kHann>(ctx); }

}  // namespace

extern const Operator kHannWindow;
constexpr Operator kHannWindow{
    .domain = kOnnxDomain,
    .name = "HannWindow",
    .versions = {
        {.since_version = 17,
         .inputs = {{"size", "T1"}},
         .outputs = {{"output", "T2"}},
         .attributes = {attr("output_datatype", 1), attr("periodic", 1)},
         .constraints = {{"T1", tensor("int32 int64")},
                         {"T2", tensor("uint8 uint16 uint32 uint64 int8 int16 int32 int64 float16 "
                                       "float double bfloat16")}},
         .function_bodies = {{17, kBody17}},
         .infer = inferCosineWindow,
         .kernel = runHannWindow},
    }};
static_assert(isWellFormed(kHannWindow));

}  // namespace onyx::ops::ai_onnx
