// Pow (ai.onnx), versions 1, 7, 12, 13, 15.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

#include "onyx/core/array.h"
#include "onyx/ir/type.h"
#include "ops/lib/elementwise_kernels.h"
#include "ops/node_draft.h"
#include "ops/schema_dsl.h"
#include "ops/shape_rules.h"
#include "ops/version_adapters.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

// base^exponent in wrapping integer arithmetic; a negative exponent gives the reciprocal
// truncated toward zero (1 and -1 keep their magnitude, anything else gives 0).
template <class T>
T integerPower(T base, int64_t exponent) {
  if (exponent < 0) {
    if (base == T(1)) return T(1);
    if constexpr (std::is_signed_v<T>) {
      if (base == T(-1)) return exponent % 2 == 0 ? T(1) : T(-1);
    }
    return T(0);
  }
  using W = elementwise::WrapType<T>;
  W result = 1;
  W factor = static_cast<W>(base);
  while (exponent != 0) {
    if ((exponent & 1) != 0) result = static_cast<W>(result * factor);
    factor = static_cast<W>(factor * factor);
    exponent >>= 1;
  }
  return static_cast<T>(result);
}

// x^y for every x and one y. The exponents exporters write (a square, a cube, a square root,
// a reciprocal) are multiplies, a sqrt or a division, as onnxruntime computes them: a square
// and a reciprocal are what pow gives (each is one correctly rounded operation); a cube may
// differ from pow in the last bit; a square root is pow's wherever pow is correctly rounded,
// with pow's +0 for -0 and +inf for -inf.
template <class T>
void powByConstant(const KernelContext& ctx, const T* x, T y, T* out, size_t count) {
  if (y == T(2)) {
    elementwise::unaryLoop(ctx, count, x, out, [](T v) { return v * v; });
  } else if (y == T(3)) {
    elementwise::unaryLoop(ctx, count, x, out, [](T v) { return v * v * v; });
  } else if (y == T(1)) {
    elementwise::unaryLoop(ctx, count, x, out, [](T v) { return v; });
  } else if (y == T(-1)) {
    elementwise::unaryLoop(ctx, count, x, out, [](T v) { return T(1) / v; });
  } else if (y == T(0.5)) {
    elementwise::unaryLoop(ctx, count, x, out, [](T v) {
      if (v == T(0)) return T(0);
      if (v == -std::numeric_limits<T>::infinity()) return std::numeric_limits<T>::infinity();
      return std::sqrt(v);
    });
  } else {
    elementwise::unaryLoop(ctx, count, x, out, [y](T v) { return std::pow(v, y); });
  }
}

// X^Y, broadcast, Y of any numeric type from version 12. One floating type for both is
// computed in it; integer X and Y exactly (wrapping on overflow); any other pair in DOUBLE,
// converted to X's type (integers truncated and clamped).
Status runPow(KernelContext& ctx) {
  elementwise::BinaryOperands in;
  if (Status s = elementwise::binaryOperands(ctx, in, /*same_type=*/false); !s) return s;
  ElementType type = in.a->type();
  ElementType exponent_type = in.b->type();
  Result<Array> made =
      Array::allocate(isNarrowFloat(type) ? ElementType::kFloat : type, in.plan.shape);
  if (!made) return made.status();
  Array out = std::move(*made);
  const elementwise::Broadcast& plan = in.plan;
  bool ok = false;
  if (type == exponent_type && (type == ElementType::kFloat || type == ElementType::kDouble) &&
      in.b->size() == 1 && plan.count == in.a->size()) {
    ok = dispatchFloat(type, [&]<class T>() {
      powByConstant(ctx, in.a->data<T>(), in.b->data<T>()[0], out.data<T>(), plan.count);
    });
  } else if (type == exponent_type &&
             (type == ElementType::kFloat || type == ElementType::kDouble)) {
    ok = dispatchFloat(type, [&]<class T>() {
      elementwise::binaryLoop(ctx, plan, in.a->data<T>(), in.b->data<T>(), out.data<T>(),
                              [](T x, T y) { return std::pow(x, y); });
    });
  } else if (elementwise::isNativeInteger(type) && elementwise::isNativeInteger(exponent_type)) {
    std::vector<int64_t> exponents(in.b->size());
    dispatchInteger(exponent_type, [&]<class E>() {
      const E* e = in.b->data<E>();
      for (size_t i = 0; i < exponents.size(); ++i) {
        if constexpr (std::is_same_v<E, uint64_t>) {
          constexpr uint64_t kMax = std::numeric_limits<int64_t>::max();
          exponents[i] = static_cast<int64_t>(std::min(e[i], kMax));
        } else {
          exponents[i] = static_cast<int64_t>(e[i]);
        }
      }
    });
    ok = dispatchInteger(type, [&]<class T>() {
      elementwise::binaryLoop(ctx, plan, in.a->data<T>(), exponents.data(), out.data<T>(),
                              [](T x, int64_t y) { return integerPower(x, y); });
    });
  } else {
    Array base = isNarrowFloat(type) ? widenToFloat(*in.a) : *in.a;
    std::vector<double> exponents(in.b->size());
    for (size_t i = 0; i < exponents.size(); ++i) exponents[i] = elementAsDouble(*in.b, i);
    ok = elementwise::dispatchArithmetic(base.type(), [&]<class T>() {
      elementwise::binaryLoop(
          ctx, plan, base.data<T>(), exponents.data(), out.data<T>(), [](T x, double y) {
            return elementwise::fromDouble<T>(std::pow(static_cast<double>(x), y));
          });
    });
  }
  if (!ok) return elementwise::unsupported(ctx, type);
  ctx.setOutput(0, elementwise::narrowTo(std::move(out), type));
  return Status::ok();
}

// Down to version 7, where the exponent has the base's type.
Status requireOneType(NodeDraft& draft) {
  const Type* x = draft.inputType(0);
  const Type* y = draft.inputType(1);
  if (x == nullptr || y == nullptr || !x->elem_type || x->elem_type != y->elem_type) {
    return draft.refuse("Y is not known to have X's type, which version 7 requires");
  }
  return Status::ok();
}

}  // namespace

constexpr TypeSet kT1Types12 =
    tensor("uint8 uint16 uint32 uint64 int8 int16 int32 int64 float16 float double");
constexpr TypeSet kTTypes13 = tensor("int32 int64 float16 float double bfloat16");
constexpr Formals kInputs1 = {{"X", "T"}, {"Y", "T"}};
constexpr Formals kInputs12 = {{"X", "T"}, {"Y", "T1"}};
constexpr Formals kOutputs1 = {{"Z", "T"}};
constexpr Constraints kConstraints1 = {{"T", tensor("float16 float double")}};

extern const Operator kPow;
constexpr Operator kPow{
    .domain = kOnnxDomain,
    .name = "Pow",
    .versions = {
        {.since_version = 1,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = {attr("axis", kInt), attr("broadcast", 0)},
         .constraints = kConstraints1,
         .infer = inferSameShape,
         .kernel = runPow},
        {.since_version = 7,
         .traits = kElementwise,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .constraints = kConstraints1,
         .infer = inferBroadcast,
         .kernel = runPow,
         .step = kNumpyBroadcastStep},
        {.since_version = 12,
         .traits = kElementwise,
         .inputs = kInputs12,
         .outputs = kOutputs1,
         .constraints = {{"T", tensor("int32 int64 float16 float double")}, {"T1", kT1Types12}},
         .infer = inferBroadcast,
         .kernel = runPow,
         .step = {.reviewed = true,
                  .change = "Y takes its own type T1; int32 and int64 added to T",
                  .down = requireOneType,
                  .down_refuses = "Y not known to have X's type"}},
        {.since_version = 13,
         .traits = kElementwise,
         .inputs = kInputs12,
         .outputs = kOutputs1,
         .constraints = {{"T", kTTypes13}, {"T1", kT1Types12}},
         .infer = inferBroadcast,
         .kernel = runPow,
         .step = typesOnly("bfloat16 added to T")},
        {.since_version = 15,
         .traits = kElementwise,
         .inputs = kInputs12,
         .outputs = kOutputs1,
         .constraints = {{"T", kTTypes13},
                         {"T1", tensor("uint8 uint16 uint32 uint64 int8 int16 int32 int64 float16 "
                                       "float double bfloat16")}},
         .infer = inferBroadcast,
         .kernel = runPow,
         .step = typesOnly("bfloat16 added to T1")},
    }};
static_assert(isWellFormed(kPow));

}  // namespace onyx::ops::ai_onnx
