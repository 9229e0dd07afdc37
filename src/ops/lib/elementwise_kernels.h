// Internal: what the elementwise kernels share (math, logical, Where, IsInf/IsNaN, Shrink).
//
//  - Broadcast: the numpy broadcast of up to three operands, walked as runs of the collapsed
//    innermost axis, each operand stepping 0 or 1 element inside a run; the walk can start at
//    any output index, so it splits over threads without changing any result.
//  - Element-type dispatch for arithmetic (no BOOL), integer arithmetic that wraps instead of
//    overflowing, conversion from double that clamps instead of being undefined.
//  - Unary and binary kernels over every numeric type, the narrow floating-point types
//    computed in FLOAT and rounded back once.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <limits>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "ops/kernels.h"

namespace onyx::ops::elementwise {

/// Elements per thread below which a loop is not split.
inline constexpr size_t kGrain = size_t{1} << 16;

// ---- numbers ----------------------------------------------------------------------------

/// `value` as T: floating point by rounding; integers truncate toward zero and clamp to T's
/// range (NaN gives 0); BOOL is value != 0. Never undefined.
template <class T>
T fromDouble(double value) {
  if constexpr (std::is_same_v<T, bool>) {
    return value != 0;
  } else if constexpr (std::is_floating_point_v<T>) {
    return static_cast<T>(value);
  } else {
    if (std::isnan(value)) return T{0};
    constexpr double lo = static_cast<double>(std::numeric_limits<T>::min());
    constexpr double hi = static_cast<double>(std::numeric_limits<T>::max());
    if (value <= lo) return std::numeric_limits<T>::min();
    if (value >= hi) return std::numeric_limits<T>::max();
    return static_cast<T>(value);
  }
}

/// The unsigned type integer arithmetic on T is done in: at least 32 bits, so that no
/// operand is promoted to a signed int that could overflow.
template <class T>
using WrapType = std::conditional_t<(sizeof(T) < 4), uint32_t, std::make_unsigned_t<T>>;

/// a + b, a - b, a * b, -a with two's-complement wrap-around for integers.
template <class T>
T wrapAdd(T a, T b) {
  if constexpr (std::is_integral_v<T>) {
    return static_cast<T>(static_cast<WrapType<T>>(a) + static_cast<WrapType<T>>(b));
  } else {
    return a + b;
  }
}
template <class T>
T wrapSub(T a, T b) {
  if constexpr (std::is_integral_v<T>) {
    return static_cast<T>(static_cast<WrapType<T>>(a) - static_cast<WrapType<T>>(b));
  } else {
    return a - b;
  }
}
template <class T>
T wrapMul(T a, T b) {
  if constexpr (std::is_integral_v<T>) {
    return static_cast<T>(static_cast<WrapType<T>>(a) * static_cast<WrapType<T>>(b));
  } else {
    return a * b;
  }
}
template <class T>
T wrapNeg(T a) {
  if constexpr (std::is_integral_v<T>) {
    return static_cast<T>(WrapType<T>{0} - static_cast<WrapType<T>>(a));
  } else {
    return -a;
  }
}

/// Integer division truncating toward zero as C does; division by zero gives 0 (as onnx's
/// reference does), the most negative value divided by -1 wraps to itself.
template <class T>
T truncDiv(T a, T b) {
  if (b == 0) return T{0};
  if constexpr (std::is_signed_v<T>) {
    if (b == T(-1)) return wrapNeg(a);
  }
  return static_cast<T>(a / b);
}

/// Integer remainder with the sign of the divisor (Python's %), or of the dividend when
/// `truncated` (C's %); 0 for a zero divisor, as the reference gives.
template <class T>
T integerMod(T a, T b, bool truncated) {
  if (b == 0) return T{0};
  if constexpr (std::is_signed_v<T>) {
    if (b == T(-1)) return T{0};
    T r = static_cast<T>(a % b);
    if (!truncated && r != 0 && ((r < 0) != (b < 0))) r = static_cast<T>(r + b);
    return r;
  } else {
    (void)truncated;
    return static_cast<T>(a % b);
  }
}

/// NaN-propagating maximum and minimum (numpy's maximum / minimum).
template <class T>
T nanMax(T a, T b) {
  if constexpr (std::is_floating_point_v<T>) {
    if (std::isnan(a)) return a;
    if (std::isnan(b)) return b;
  }
  return a < b ? b : a;
}
template <class T>
T nanMin(T a, T b) {
  if constexpr (std::is_floating_point_v<T>) {
    if (std::isnan(a)) return a;
    if (std::isnan(b)) return b;
  }
  return b < a ? b : a;
}

// ---- element-type dispatch ----------------------------------------------------------------

/// Calls `f.template operator()<T>()` for the types arithmetic is done on natively: FLOAT,
/// DOUBLE and the integers of 8 bits and more (not BOOL). False for any other type.
template <class F>
bool dispatchArithmetic(ElementType type, F&& f) {
  if (dispatchFloat(type, f)) return true;
  return dispatchInteger(type, f);
}

/// Whether dispatchInteger takes `type` (the integers of 8 bits and more).
inline bool isNativeInteger(ElementType type) {
  return dispatchInteger(type, []<class T>() {});
}

/// Calls `f.template operator()<U>()` with an unsigned storage type as wide as `type`'s
/// elements (for kernels that only move elements), or a 16-byte pair for COMPLEX128. False
/// for STRING and unknown types.
struct Bytes16 {
  uint64_t low, high;
};
template <class F>
bool dispatchWidth(ElementType type, F&& f) {
  if (type == ElementType::kString) return false;
  switch (arrayElementBytes(type)) {
    case 1: f.template operator()<uint8_t>(); return true;
    case 2: f.template operator()<uint16_t>(); return true;
    case 4: f.template operator()<uint32_t>(); return true;
    case 8: f.template operator()<uint64_t>(); return true;
    case 16: f.template operator()<Bytes16>(); return true;
    default: return false;
  }
}

/// `computed` rounded to `type` when that is a narrow floating type (computed in FLOAT);
/// otherwise `computed` as it is.
inline Array narrowTo(Array computed, ElementType type) {
  return isNarrowFloat(type) ? narrowFromFloat(computed, type) : computed;
}

/// "no kernel for <type>" as an error of the node.
inline Status unsupported(const KernelContext& ctx, ElementType type) {
  return ctx.fail(std::string("no kernel for element type ") + std::string(elementTypeName(type)));
}

// ---- broadcasting -------------------------------------------------------------------------

inline constexpr size_t kMaxOperands = 3;

/// How the operands of a broadcast map onto its result.
struct Broadcast {
  std::vector<int64_t> shape;                     // the result's shape
  size_t count = 0;                               // its element count
  size_t inner = 1;                               // length of the innermost run (axes collapsed)
  std::array<size_t, kMaxOperands> inner_step{};  // 0 (repeated) or 1 per operand
  // The axes outside the run, outermost first, with each operand's stride on them.
  std::vector<size_t> outer_dims;
  std::vector<std::array<size_t, kMaxOperands>> outer_strides;
};

/// The broadcast of `shapes` (one to kMaxOperands); nullopt when they do not broadcast or
/// the result is too large to address.
inline std::optional<Broadcast> planBroadcast(
    const std::vector<const std::vector<int64_t>*>& shapes) {
  if (shapes.empty() || shapes.size() > kMaxOperands) return std::nullopt;
  size_t rank = 0;
  for (const std::vector<int64_t>* s : shapes) rank = std::max(rank, s->size());
  Broadcast plan;
  plan.shape.assign(rank, 1);
  for (size_t axis = 0; axis < rank; ++axis) {
    int64_t dim = 1;
    for (const std::vector<int64_t>* s : shapes) {
      size_t offset = rank - s->size();
      if (axis < offset) continue;
      int64_t d = (*s)[axis - offset];
      if (d < 0) return std::nullopt;
      if (d == 1) continue;
      if (dim != 1 && d != dim) return std::nullopt;
      dim = d;
    }
    plan.shape[axis] = dim;
  }
  // The result's element count, refusing overflow.
  uint64_t count = 1;
  for (int64_t dim : plan.shape) {
    if (dim != 0 && count > std::numeric_limits<uint64_t>::max() / static_cast<uint64_t>(dim)) {
      return std::nullopt;
    }
    count *= static_cast<uint64_t>(dim);
  }
  if (count > (uint64_t{1} << 48)) return std::nullopt;
  plan.count = static_cast<size_t>(count);
  if (plan.count == 0) return plan;
  // The common cases, without the per-axis tables: each operand either has the result's
  // elements in its order (as many of them, every other axis of size 1) or is one element.
  bool simple = true;
  for (size_t k = 0; k < shapes.size() && simple; ++k) {
    size_t size = 1;
    for (int64_t d : *shapes[k]) size *= static_cast<size_t>(d);
    plan.inner_step[k] = size == 1 ? 0 : 1;
    simple = size == 1 || size == plan.count;
  }
  if (simple) {
    plan.inner = plan.count;
    return plan;
  }
  plan.inner_step = {};
  // Each operand's stride per result axis, 0 where it repeats.
  std::vector<std::array<size_t, kMaxOperands>> strides(rank);
  for (size_t k = 0; k < shapes.size(); ++k) {
    const std::vector<int64_t>& s = *shapes[k];
    size_t offset = rank - s.size();
    size_t stride = 1;
    for (size_t axis = rank; axis-- > 0;) {
      bool present = axis >= offset;
      int64_t d = present ? s[axis - offset] : 1;
      strides[axis][k] = d == 1 ? 0 : stride;
      stride *= static_cast<size_t>(d);
    }
  }
  // Collapse from the innermost axis outward: axes of size 1 drop out; an axis joins the
  // group inside it when every operand's stride on it continues that group's.
  std::vector<size_t> dims;
  std::vector<std::array<size_t, kMaxOperands>> group_strides;
  for (size_t axis = rank; axis-- > 0;) {
    size_t dim = static_cast<size_t>(plan.shape[axis]);
    if (dim == 1) continue;
    if (!dims.empty()) {
      bool joins = true;
      for (size_t k = 0; k < shapes.size(); ++k) {
        if (strides[axis][k] != group_strides.back()[k] * dims.back()) joins = false;
      }
      if (joins) {
        dims.back() *= dim;
        continue;
      }
    }
    dims.push_back(dim);
    group_strides.push_back(strides[axis]);
  }
  if (!dims.empty()) {
    plan.inner = dims.front();
    plan.inner_step = group_strides.front();
    for (size_t i = dims.size(); i-- > 1;) {
      plan.outer_dims.push_back(dims[i]);
      plan.outer_strides.push_back(group_strides[i]);
    }
  }
  return plan;
}

/// Calls `body(out_index, length, offsets)` for the runs covering result elements [begin,
/// end): result elements out_index .. out_index+length-1 come from operand k's elements
/// offsets[k] + i * plan.inner_step[k].
template <class Body>
void walkBroadcast(const Broadcast& plan, size_t begin, size_t end, Body&& body) {
  if (begin >= end) return;
  size_t outer_rank = plan.outer_dims.size();
  std::vector<size_t> position(outer_rank, 0);
  std::array<size_t, kMaxOperands> base{};
  size_t outer_index = begin / plan.inner;
  size_t skip = begin % plan.inner;
  for (size_t axis = outer_rank; axis-- > 0;) {
    position[axis] = outer_index % plan.outer_dims[axis];
    outer_index /= plan.outer_dims[axis];
    for (size_t k = 0; k < kMaxOperands; ++k) {
      base[k] += position[axis] * plan.outer_strides[axis][k];
    }
  }
  size_t out = begin;
  while (out < end) {
    std::array<size_t, kMaxOperands> offsets;
    for (size_t k = 0; k < kMaxOperands; ++k) offsets[k] = base[k] + skip * plan.inner_step[k];
    size_t length = std::min(plan.inner - skip, end - out);
    body(out, length, offsets);
    out += length;
    skip = 0;
    for (size_t axis = outer_rank; axis-- > 0;) {
      ++position[axis];
      for (size_t k = 0; k < kMaxOperands; ++k) base[k] += plan.outer_strides[axis][k];
      if (position[axis] < plan.outer_dims[axis]) break;
      for (size_t k = 0; k < kMaxOperands; ++k) {
        base[k] -= plan.outer_strides[axis][k] * plan.outer_dims[axis];
      }
      position[axis] = 0;
    }
  }
}

/// walkBroadcast over the whole result, split over the context's threads.
template <class Body>
void forEachRun(const KernelContext& ctx, const Broadcast& plan, Body&& body) {
  parallelFor(ctx, plan.count, kGrain,
              [&](size_t begin, size_t end) { walkBroadcast(plan, begin, end, body); });
}

/// out[i] = op(a[..], b[..]) over a broadcast of two operands.
template <class A, class B, class Out, class Op>
void binaryLoop(const KernelContext& ctx, const Broadcast& plan, const A* a, const B* b, Out* out,
                Op op) {
  size_t sa = plan.inner_step[0];
  size_t sb = plan.inner_step[1];
  forEachRun(ctx, plan, [&](size_t o, size_t length, const std::array<size_t, 3>& off) {
    const A* x = a + off[0];
    const B* y = b + off[1];
    Out* z = out + o;
    if (sa != 0 && sb != 0) {
      for (size_t i = 0; i < length; ++i) z[i] = op(x[i], y[i]);
    } else if (sa != 0) {
      B v = *y;
      for (size_t i = 0; i < length; ++i) z[i] = op(x[i], v);
    } else if (sb != 0) {
      A u = *x;
      for (size_t i = 0; i < length; ++i) z[i] = op(u, y[i]);
    } else {
      Out r = op(*x, *y);
      for (size_t i = 0; i < length; ++i) z[i] = r;
    }
  });
}

/// The FLOAT loops of a binary operator over the runs of a broadcast (both operands stepping,
/// or one repeated: same shapes, a scalar, a per-channel [1, C, 1, 1] or a bias [C]),
/// compiled to vectorize (src/ops/math/float_arithmetic.h). Each gives exactly what the
/// operator's general loop gives, element by element; `out` may be a stepping operand (the
/// result written in place).
struct FloatBinaryLoops {
  void (*both)(const float* a, const float* b, float* out, size_t count);
  void (*repeated_a)(float a, const float* b, float* out, size_t count);
  void (*repeated_b)(const float* a, float b, float* out, size_t count);
};

/// binaryLoop over FLOAT operands with `loops` on each run.
template <class Op>
void floatBinaryLoop(const KernelContext& ctx, const Broadcast& plan, const float* a,
                     const float* b, float* out, const FloatBinaryLoops& loops, Op op) {
  size_t sa = plan.inner_step[0];
  size_t sb = plan.inner_step[1];
  forEachRun(ctx, plan, [&](size_t o, size_t length, const std::array<size_t, 3>& off) {
    if (sa != 0 && sb != 0) {
      loops.both(a + off[0], b + off[1], out + o, length);
    } else if (sa != 0) {
      loops.repeated_b(a + off[0], b[off[1]], out + o, length);
    } else if (sb != 0) {
      loops.repeated_a(a[off[0]], b + off[1], out + o, length);
    } else {
      std::fill(out + o, out + o + length, static_cast<float>(op(a[off[0]], b[off[1]])));
    }
  });
}

/// out[i] = op(a[..], b[..], c[..]) over a broadcast of three operands.
template <class A, class B, class C, class Out, class Op>
void ternaryLoop(const KernelContext& ctx, const Broadcast& plan, const A* a, const B* b,
                 const C* c, Out* out, Op op) {
  size_t sa = plan.inner_step[0];
  size_t sb = plan.inner_step[1];
  size_t sc = plan.inner_step[2];
  forEachRun(ctx, plan, [&](size_t o, size_t length, const std::array<size_t, 3>& off) {
    const A* x = a + off[0];
    const B* y = b + off[1];
    const C* w = c + off[2];
    Out* z = out + o;
    if (sa != 0 && sb != 0 && sc != 0) {
      for (size_t i = 0; i < length; ++i) z[i] = op(x[i], y[i], w[i]);
    } else {
      for (size_t i = 0; i < length; ++i) z[i] = op(x[i * sa], y[i * sb], w[i * sc]);
    }
  });
}

/// out[i] = op(in[i]) over `count` elements, split over the context's threads.
template <class In, class Out, class Op>
void unaryLoop(const KernelContext& ctx, size_t count, const In* in, Out* out, Op op) {
  parallelFor(ctx, count, kGrain, [&](size_t begin, size_t end) {
    for (size_t i = begin; i < end; ++i) out[i] = op(in[i]);
  });
}

// ---- kernels ------------------------------------------------------------------------------

/// The array an elementwise kernel writes its result of `type` and `shape` into: the storage
/// of the first of `inputs` the evaluator lets it reuse (KernelContext::reusableInput: no one
/// reads that input after this node), else a new one. Only where element k of the result is
/// computed from element k of that input alone, read before it is written.
inline Result<Array> resultArray(const KernelContext& ctx, std::initializer_list<size_t> inputs,
                                 ElementType type, const std::vector<int64_t>& shape) {
  for (size_t i : inputs) {
    if (std::optional<Array> reused = ctx.reusableInput(i, type, shape)) return std::move(*reused);
  }
  return Array::allocate(type, shape);
}

/// The two tensor inputs of a binary operator and their broadcast; fails (into `status`) on
/// a missing input or shapes that do not broadcast.
///
/// The versions before 7 broadcast only with their attribute `broadcast` = 1, and then B's
/// shape matches a run of A's axes starting at `axis` (by default the trailing ones); with
/// broadcast = 0 the shapes must be equal. Both are read when the node's version has them.
struct BinaryOperands {
  const Array* a = nullptr;
  const Array* b = nullptr;
  Broadcast plan;
  Array legacy_b;  // B reshaped for a legacy broadcast; `b` points here then
};
inline Status binaryOperands(const KernelContext& ctx, BinaryOperands& operands,
                             bool same_type = true) {
  operands.a = ctx.inputArray(0);
  operands.b = ctx.inputArray(1);
  if (operands.a == nullptr || operands.b == nullptr) return ctx.fail("needs two tensor inputs");
  if (same_type && operands.a->type() != operands.b->type()) {
    return ctx.fail("inputs of different element types");
  }
  if (std::optional<int64_t> legacy = ctx.intAttribute("broadcast")) {
    const std::vector<int64_t>& as = operands.a->shape();
    const std::vector<int64_t>& bs = operands.b->shape();
    if (*legacy == 0) {
      if (as != bs) return ctx.fail("input shapes differ and the broadcast attribute is 0");
    } else {
      if (bs.size() > as.size()) return ctx.fail("B has a higher rank than A");
      int64_t axis = ctx.intAttribute("axis").value_or(static_cast<int64_t>(as.size()) -
                                                       static_cast<int64_t>(bs.size()));
      if (axis < 0) axis += static_cast<int64_t>(as.size());
      if (axis < 0 || axis + static_cast<int64_t>(bs.size()) > static_cast<int64_t>(as.size())) {
        return ctx.fail("the axis attribute puts B outside A's axes");
      }
      std::vector<int64_t> shape(as.size(), 1);
      for (size_t i = 0; i < bs.size(); ++i) {
        if (bs[i] != as[static_cast<size_t>(axis) + i] && bs[i] != 1) {
          return ctx.fail("B's shape does not match A's axes from the axis attribute");
        }
        shape[static_cast<size_t>(axis) + i] = bs[i];
      }
      operands.legacy_b = operands.b->reshaped(std::move(shape));
      operands.b = &operands.legacy_b;
    }
  }
  std::optional<Broadcast> plan = planBroadcast({&operands.a->shape(), &operands.b->shape()});
  if (!plan) return ctx.fail("input shapes do not broadcast");
  operands.plan = std::move(*plan);
  return Status::ok();
}

/// A broadcast binary operator whose result has its inputs' type: FLOAT, DOUBLE and the
/// integers natively (`op(a, b)` with both of one type T, returning T), the narrow floating
/// types in FLOAT, rounded back; FLOAT through `float_loops` when given.
template <class Op>
Status binaryArithmeticKernel(KernelContext& ctx, Op op,
                              const FloatBinaryLoops* float_loops = nullptr) {
  BinaryOperands in;
  if (Status s = binaryOperands(ctx, in); !s) return s;
  ElementType type = in.a->type();
  bool narrow = isNarrowFloat(type);
  // An operand with as many elements as the result is laid out as the result. Decided before
  // the copies of the operands' handles below, which would keep them from being given away.
  Result<Array> made = resultArray(ctx, {0, 1}, narrow ? ElementType::kFloat : type, in.plan.shape);
  if (!made) return made.status();
  Array out = std::move(*made);
  Array a = narrow ? widenToFloat(*in.a) : *in.a;
  Array b = narrow ? widenToFloat(*in.b) : *in.b;
  if (float_loops != nullptr && a.type() == ElementType::kFloat) {
    floatBinaryLoop(ctx, in.plan, a.data<float>(), b.data<float>(), out.data<float>(), *float_loops,
                    op);
    ctx.setOutput(0, narrowTo(std::move(out), type));
    return Status::ok();
  }
  bool ok = dispatchArithmetic(a.type(), [&]<class T>() {
    binaryLoop(ctx, in.plan, a.data<T>(), b.data<T>(), out.data<T>(),
               [&](T x, T y) { return static_cast<T>(op(x, y)); });
  });
  if (!ok) return unsupported(ctx, type);
  ctx.setOutput(0, narrowTo(std::move(out), type));
  return Status::ok();
}

/// A broadcast comparison giving BOOL: `op(a, b)` on FLOAT, DOUBLE, the integers and BOOL
/// natively, the narrow floating types in FLOAT; strings too when `strings` is set.
template <class Op>
Status compareKernel(KernelContext& ctx, Op op, bool strings = false) {
  BinaryOperands in;
  if (Status s = binaryOperands(ctx, in); !s) return s;
  ElementType type = in.a->type();
  Result<Array> made = Array::allocate(ElementType::kBool, in.plan.shape);
  if (!made) return made.status();
  Array out = std::move(*made);
  if (type == ElementType::kString) {
    if (!strings) return unsupported(ctx, type);
    const std::vector<std::string>& x = in.a->strings();
    const std::vector<std::string>& y = in.b->strings();
    bool* z = out.data<bool>();
    size_t sa = in.plan.inner_step[0];
    size_t sb = in.plan.inner_step[1];
    walkBroadcast(in.plan, 0, in.plan.count,
                  [&](size_t o, size_t length, const std::array<size_t, 3>& off) {
                    for (size_t i = 0; i < length; ++i) {
                      z[o + i] = op(x[off[0] + i * sa], y[off[1] + i * sb]);
                    }
                  });
    ctx.setOutput(0, std::move(out));
    return Status::ok();
  }
  bool narrow = isNarrowFloat(type);
  Array a = narrow ? widenToFloat(*in.a) : *in.a;
  Array b = narrow ? widenToFloat(*in.b) : *in.b;
  bool ok = dispatchNative(a.type(), [&]<class T>() {
    binaryLoop(ctx, in.plan, a.data<T>(), b.data<T>(), out.data<bool>(),
               [&](T x, T y) { return static_cast<bool>(op(x, y)); });
  });
  if (!ok) return unsupported(ctx, type);
  ctx.setOutput(0, std::move(out));
  return Status::ok();
}

/// A broadcast operator on BOOL only (kBooleans: And, Or, Xor) or on the integer types only
/// (bitwise, BitShift). Which is a template argument: a BOOL operator's loop is compiled for
/// BOOL alone, not for every integer type.
template <bool kBooleans, class Op>
Status logicalBinaryKernel(KernelContext& ctx, Op op) {
  BinaryOperands in;
  if (Status s = binaryOperands(ctx, in); !s) return s;
  ElementType type = in.a->type();
  Result<Array> made = Array::allocate(type, in.plan.shape);
  if (!made) return made.status();
  Array out = std::move(*made);
  auto run = [&]<class T>() {
    binaryLoop(ctx, in.plan, in.a->data<T>(), in.b->data<T>(), out.data<T>(),
               [&](T x, T y) { return static_cast<T>(op(x, y)); });
  };
  bool ok = false;
  if constexpr (kBooleans) {
    if (type == ElementType::kBool) {
      run.template operator()<bool>();
      ok = true;
    }
  } else {
    ok = dispatchInteger(type, run);
  }
  if (!ok) return unsupported(ctx, type);
  ctx.setOutput(0, std::move(out));
  return Status::ok();
}

template <class Op>
Status booleanBinaryKernel(KernelContext& ctx, Op op) {
  return logicalBinaryKernel<true>(ctx, op);
}

template <class Op>
Status integerBinaryKernel(KernelContext& ctx, Op op) {
  return logicalBinaryKernel<false>(ctx, op);
}

/// The input of a unary kernel as it computes on it (a narrow floating type widened to FLOAT,
/// a copy the kernel owns) and the array it writes its result into: that copy, X's storage
/// when the evaluator lets it go (resultArray), or a new array. Decided before any copy of
/// X's handle is made, which would keep X from being given away.
struct UnaryArrays {
  Array in;
  Array out;
};
inline Result<UnaryArrays> unaryArrays(const KernelContext& ctx, const Array& x) {
  if (isNarrowFloat(x.type())) {
    Array wide = widenToFloat(x);
    return UnaryArrays{wide, wide};
  }
  Result<Array> out = resultArray(ctx, {0}, x.type(), x.shape());
  if (!out) return out.status();
  return UnaryArrays{x, std::move(*out)};
}

/// An elementwise operator over the floating-point types: FLOAT and DOUBLE natively (`op`
/// gets and returns a float or a double), the narrow types in FLOAT, rounded back. With
/// kIntegers, integer inputs are computed in DOUBLE and converted back (truncating and
/// clamping, as the reference's astype does within range).
template <bool kIntegers = false, class Op>
Status unaryFloatingKernel(KernelContext& ctx, Op op) {
  const Array* x = ctx.inputArray(0);
  if (x == nullptr) return ctx.fail("needs a tensor input");
  ElementType type = x->type();
  Result<UnaryArrays> arrays = unaryArrays(ctx, *x);
  if (!arrays) return arrays.status();
  Array in = std::move(arrays->in);
  Array out = std::move(arrays->out);
  bool ok = dispatchFloat(in.type(), [&]<class T>() {
    unaryLoop(ctx, in.size(), in.data<T>(), out.data<T>(),
              [&](T v) { return static_cast<T>(op(v)); });
  });
  if constexpr (kIntegers) {
    if (!ok) {
      ok = dispatchInteger(type, [&]<class T>() {
        unaryLoop(ctx, in.size(), in.data<T>(), out.data<T>(),
                  [&](T v) { return fromDouble<T>(op(static_cast<double>(v))); });
      });
    }
  }
  if (!ok) return unsupported(ctx, type);
  ctx.setOutput(0, narrowTo(std::move(out), type));
  return Status::ok();
}

/// As unaryFloatingKernel, except that FLOAT (and the narrow types, widened to FLOAT) goes
/// through `floats(from, to, count)` on contiguous chunks: a whole-array function whose loop
/// the compiler vectorizes (vector_math.h). It must compute each element on its own, so that
/// the chunking (the thread count) changes nothing, and take `to` equal to `from` (the result
/// written in place).
template <bool kIntegers = false, class Floats, class Op>
Status unaryFloatArrayKernel(KernelContext& ctx, Floats floats, Op op) {
  const Array* x = ctx.inputArray(0);
  if (x == nullptr) return ctx.fail("needs a tensor input");
  ElementType type = x->type();
  if (type != ElementType::kFloat && !isNarrowFloat(type)) {
    return unaryFloatingKernel<kIntegers>(ctx, op);
  }
  Result<UnaryArrays> arrays = unaryArrays(ctx, *x);
  if (!arrays) return arrays.status();
  Array in = std::move(arrays->in);
  Array out = std::move(arrays->out);
  const float* from = in.data<float>();
  float* to = out.data<float>();
  parallelFor(ctx, in.size(), kGrain,
              [&](size_t begin, size_t end) { floats(from + begin, to + begin, end - begin); });
  ctx.setOutput(0, narrowTo(std::move(out), type));
  return Status::ok();
}

/// An elementwise operator over FLOAT, DOUBLE and the integers natively (`op` gets and
/// returns T), the narrow floating types in FLOAT.
template <class Op>
Status unaryArithmeticKernel(KernelContext& ctx, Op op) {
  const Array* x = ctx.inputArray(0);
  if (x == nullptr) return ctx.fail("needs a tensor input");
  ElementType type = x->type();
  Result<UnaryArrays> arrays = unaryArrays(ctx, *x);
  if (!arrays) return arrays.status();
  Array in = std::move(arrays->in);
  Array out = std::move(arrays->out);
  bool ok = dispatchArithmetic(in.type(), [&]<class T>() {
    unaryLoop(ctx, in.size(), in.data<T>(), out.data<T>(),
              [&](T v) { return static_cast<T>(op(v)); });
  });
  if (!ok) return unsupported(ctx, type);
  ctx.setOutput(0, narrowTo(std::move(out), type));
  return Status::ok();
}

/// Folds the node's inputs (one or more, broadcast pairwise) with `op`, numpy's reduce of a
/// binary ufunc; the result is in the computing type (the narrow types widened to FLOAT).
/// The accumulation order is fixed: input 0, then 1, 2, ...
template <class Op>
Result<Array> foldInputs(KernelContext& ctx, Op op) {
  if (ctx.inputCount() == 0 || !ctx.hasInput(0)) return ctx.fail("needs at least one input");
  const Array* first = ctx.inputArray(0);
  if (first == nullptr) return ctx.fail("input 0 is not a tensor");
  ElementType type = first->type();
  bool narrow = isNarrowFloat(type);
  Array acc = narrow ? widenToFloat(*first) : first->clone();
  for (size_t i = 1; i < ctx.inputCount(); ++i) {
    const Array* next = ctx.inputArray(i);
    if (next == nullptr) return ctx.fail("input " + std::to_string(i) + " is missing");
    if (next->type() != type) return ctx.fail("inputs of different element types");
    Array b = narrow ? widenToFloat(*next) : *next;
    std::optional<Broadcast> plan = planBroadcast({&acc.shape(), &b.shape()});
    if (!plan) return ctx.fail("the shape of input " + std::to_string(i) + " does not broadcast");
    Result<Array> made = Array::allocate(acc.type(), plan->shape);
    if (!made) return made.status();
    Array out = std::move(*made);
    bool ok = dispatchArithmetic(acc.type(), [&]<class T>() {
      binaryLoop(ctx, *plan, acc.data<T>(), b.data<T>(), out.data<T>(),
                 [&](T x, T y) { return static_cast<T>(op(x, y)); });
    });
    if (!ok) return unsupported(ctx, type);
    acc = std::move(out);
  }
  if (ctx.inputCount() == 1 && !dispatchArithmetic(acc.type(), []<class T>() {})) {
    return unsupported(ctx, type);
  }
  return acc;
}

/// A copy of `from`'s elements into `to`'s shape, repeating along broadcast axes (`plan` has
/// `from` as operand 0).
inline bool broadcastCopy(const KernelContext& ctx, const Broadcast& plan, const Array& from,
                          Array& to) {
  if (from.isString()) {
    const std::vector<std::string>& x = from.strings();
    std::vector<std::string>& z = to.strings();
    size_t step = plan.inner_step[0];
    walkBroadcast(plan, 0, plan.count,
                  [&](size_t o, size_t length, const std::array<size_t, 3>& off) {
                    for (size_t i = 0; i < length; ++i) z[o + i] = x[off[0] + i * step];
                  });
    return true;
  }
  return dispatchWidth(from.type(), [&]<class U>() {
    const U* x = from.data<U>();
    U* z = to.data<U>();
    size_t step = plan.inner_step[0];
    forEachRun(ctx, plan, [&](size_t o, size_t length, const std::array<size_t, 3>& off) {
      if (step != 0) {
        std::memcpy(z + o, x + off[0], length * sizeof(U));
      } else {
        std::fill(z + o, z + o + length, x[off[0]]);
      }
    });
  });
}

}  // namespace onyx::ops::elementwise
