// Internal to the evaluator: the arrays of a model's constants (initializers, Constant nodes'
// tensors), one per process for every session that reads the same bytes.
//
// Each session used to convert every constant into an array of its own: eight sessions of a
// 100 MB model held eight copies of its weights. Now a constant of kSharedFrom bytes or more
// is made once per process:
//   - read where it lies when its raw bytes start at a multiple of Array::kAlignment (external
//     data as onyx and recent exporters save it) and are stored as an Array stores them (no
//     sub-byte type, no strings): the array views the model's mapped bytes, so sessions, and
//     processes, share the file's pages and nothing is copied;
//   - else converted once (arrayFromTensor) and shared by every session whose tensor has the
//     same bytes at the same address: sessions of one Model, and of one file loaded again
//     (MappedFile maps a file once per process, so its tensors' views have one address).
// Both are borrowed arrays (Array::borrowing): read-only, never taken for a kernel's output.
// Smaller constants, and those whose bytes are converted (typed fields, computed bytes), are
// a session's own as before. Safe to call from any thread.
#pragma once

#include <cstddef>
#include <memory>

#include "eval/kernels/shared_preparation.h"  // kSharedFrom
#include "onyx/core/array.h"
#include "onyx/core/status.h"
#include "onyx/ir/tensor.h"

namespace onyx::eval_internal {

/// The array of `tensor`, a constant of a model whose bytes `owner` keeps alive
/// (Model::bytesOwner). Errors as arrayFromTensor's.
Result<Array> constantArray(const Tensor& tensor, const std::shared_ptr<const void>& owner);

}  // namespace onyx::eval_internal
