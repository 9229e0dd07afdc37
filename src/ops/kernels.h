// Internal: what operators' kernels share (docs/eval.md): broadcasting, element-type
// dispatch, shape arithmetic on Arrays.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "onyx/core/array.h"
#include "onyx/ops/kernel_context.h"

namespace onyx::ops {

/// The numpy broadcast of two shapes; nullopt when they do not broadcast.
std::optional<std::vector<int64_t>> broadcastShape(const std::vector<int64_t>& a,
                                                   const std::vector<int64_t>& b);

/// For each element of a broadcast result of `out_shape`, the flat index into an input of
/// `in_shape` (right-aligned, size-1 axes repeated). O(elements).
std::vector<size_t> broadcastIndices(const std::vector<int64_t>& in_shape,
                                     const std::vector<int64_t>& out_shape);

/// Calls `f.template operator()<T>()` with the C++ type of `type`'s storage for the
/// numeric types kernels commonly compute on natively (float, double, the integers, bool);
/// returns false for any other type.
template <class F>
bool dispatchNative(ElementType type, F&& f) {
  switch (type) {
    case ElementType::kFloat: f.template operator()<float>(); return true;
    case ElementType::kDouble: f.template operator()<double>(); return true;
    case ElementType::kInt8: f.template operator()<int8_t>(); return true;
    case ElementType::kInt16: f.template operator()<int16_t>(); return true;
    case ElementType::kInt32: f.template operator()<int32_t>(); return true;
    case ElementType::kInt64: f.template operator()<int64_t>(); return true;
    case ElementType::kUint8: f.template operator()<uint8_t>(); return true;
    case ElementType::kUint16: f.template operator()<uint16_t>(); return true;
    case ElementType::kUint32: f.template operator()<uint32_t>(); return true;
    case ElementType::kUint64: f.template operator()<uint64_t>(); return true;
    case ElementType::kBool: f.template operator()<bool>(); return true;
    default: return false;
  }
}

/// An elementwise binary kernel with broadcasting over the native types: out[i] =
/// op(a[ia], b[ib]). Fails on types it cannot compute and shapes that do not broadcast.
template <class Op>
Status binaryKernel(KernelContext& ctx, Op op) {
  const Array* a = ctx.inputArray(0);
  const Array* b = ctx.inputArray(1);
  if (a == nullptr || b == nullptr) return ctx.fail("needs two tensor inputs");
  if (a->type() != b->type()) return ctx.fail("inputs of different element types");
  std::optional<std::vector<int64_t>> shape = broadcastShape(a->shape(), b->shape());
  if (!shape) return ctx.fail("input shapes do not broadcast");
  Result<Array> made = Array::allocate(a->type(), *shape);
  if (!made) return made.status();
  Array out = std::move(*made);
  bool same = a->shape() == b->shape();
  std::vector<size_t> ia = same ? std::vector<size_t>() : broadcastIndices(a->shape(), *shape);
  std::vector<size_t> ib = same ? std::vector<size_t>() : broadcastIndices(b->shape(), *shape);
  bool ok = dispatchNative(a->type(), [&]<class T>() {
    const T* x = a->data<T>();
    const T* y = b->data<T>();
    T* z = out.data<T>();
    if (same) {
      for (size_t i = 0; i < out.size(); ++i) z[i] = static_cast<T>(op(x[i], y[i]));
    } else {
      for (size_t i = 0; i < out.size(); ++i) z[i] = static_cast<T>(op(x[ia[i]], y[ib[i]]));
    }
  });
  if (!ok) {
    return ctx.fail(std::string("no kernel for ") + std::string(elementTypeName(a->type())) +
                    " yet");
  }
  ctx.setOutput(0, std::move(out));
  return Status::ok();
}

}  // namespace onyx::ops
