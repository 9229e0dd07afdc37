// Internal: the evaluator's NativeKernels (ops/native_kernels.h): oneDNN's sgemm and the
// image codec libraries.
#pragma once

#include "ops/native_kernels.h"

namespace onyx::eval_internal {

const NativeKernels& nativeKernels();

}  // namespace onyx::eval_internal
