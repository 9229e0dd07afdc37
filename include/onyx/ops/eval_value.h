// onyx/ops/eval_value.h — a value while a model runs: a tensor, a sequence, a map, or an
// optional that holds nothing.
//
// Kernels read their inputs and write their outputs as EvalValues (onyx/ops/
// kernel_context.h). Tensors are Arrays (onyx/core/array.h), which share their elements when
// copied, so passing values around costs no copies of data.
#pragma once

#include <vector>

#include "onyx/core/array.h"

// Exported from the shared libraries: the public API (see src/CMakeLists.txt).
#pragma GCC visibility push(default)

namespace onyx {

struct EvalValue {
  enum class Kind : uint8_t {
    kNone,  // an optional without a value
    kTensor,
    kSequence,  // `items`, each a tensor (or a map, for ai.onnx.ml's ZipMap)
    kMap,       // `keys` (1-D, INT64 or STRING) and `items` (one value per key)
  };
  Kind kind = Kind::kNone;
  Array tensor;
  std::vector<EvalValue> items;
  Array keys;

  static EvalValue of(Array array) {
    EvalValue value;
    value.kind = Kind::kTensor;
    value.tensor = std::move(array);
    return value;
  }
  static EvalValue sequence(std::vector<EvalValue> elements) {
    EvalValue value;
    value.kind = Kind::kSequence;
    value.items = std::move(elements);
    return value;
  }
  bool isTensor() const { return kind == Kind::kTensor; }
};

}  // namespace onyx

#pragma GCC visibility pop
