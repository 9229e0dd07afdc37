// Internal to the evaluator: the operands of the int8 kernels on oneDNN (integer_convolution.h,
// integer_matmul.h). oneDNN's int8 products take int8 weights; a uint8 operand is shifted by
// 128 to become one (w - zw = (w - 128) - (zw - 128)).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "onyx/core/array.h"
#include "ops/nn/byte_pair_gemm.h"

namespace onyx::eval_internal {

using ops::nn::byteAt;
using ops::nn::isByteArray;
using ops::nn::isByteType;

/// A zero point as the one-element UINT8 or INT8 array of `type` the integer kernels of
/// src/ops take.
inline Result<Array> byteScalar(ElementType type, int32_t value) {
  Result<Array> made = Array::allocate(type, {});
  if (!made) return made;
  if (type == ElementType::kInt8) {
    made->data<int8_t>()[0] = static_cast<int8_t>(value);
  } else {
    made->data<uint8_t>()[0] = static_cast<uint8_t>(value);
  }
  return made;
}

/// What a uint8 operand's elements are shifted by to become int8 (0 for an int8 one).
inline int32_t int8Shift(const Array& operand) {
  return operand.type() == ElementType::kUint8 ? 128 : 0;
}

/// `count` elements of a UINT8 or INT8 `operand` from element `from` on, as int8 after the
/// operand's shift (int8Shift), into `to`: a typed loop the compiler vectorizes.
inline void shiftedToInt8(const Array& operand, size_t from, size_t count, int8_t* to) {
  // Byte pointers may alias anything: restrict says these do not, or the loop stays scalar.
  int8_t* __restrict target = to;
  if (operand.type() == ElementType::kUint8) {
    const uint8_t* __restrict bytes = operand.data<uint8_t>() + from;
    for (size_t i = 0; i < count; ++i) {
      target[i] = static_cast<int8_t>(static_cast<uint8_t>(bytes[i] ^ 0x80u));
    }
  } else {
    std::memcpy(target, operand.data<int8_t>() + from, count);
  }
}

/// The zero point of each of `count` output channels or columns after `operand`'s shift to
/// int8: `zero` holds one value or `count` values of the operand's type; null is 0.
inline std::vector<int32_t> shiftedZeroPoints(const Array& operand, const Array* zero,
                                              size_t count) {
  std::vector<int32_t> shifted(count, -int8Shift(operand));
  if (zero == nullptr) return shifted;
  for (size_t i = 0; i < count; ++i) {
    shifted[i] = byteAt(*zero, zero->size() == 1 ? 0 : i) - int8Shift(operand);
  }
  return shifted;
}

}  // namespace onyx::eval_internal
