// Internal: putting computed constants into a graph, for the folding passes.
//
// Where a constant goes: a main graph from IR 4 holds it as an initializer (as
// constant-to-initializer leaves Constant nodes); a graph nested in a node, a function body,
// a training graph, or a main graph below IR 4 (where every initializer is also an input) gets
// a Constant node, placed just before the node that needed it. Subgraph initializers are
// valid ONNX, but several consumers handle them poorly, and a Constant node costs a runtime
// nothing per Loop iteration.
#pragma once

#include <span>
#include <string_view>

#include "onyx/ir/model.h"
#include "onyx/ir/patch.h"
#include "onyx/passes/pass.h"

namespace onyx::passes_internal {

/// The bytes a tensor's elements take (packed as in raw_data); 0 for strings and tensors
/// whose size cannot be computed.
uint64_t tensorBytes(const Tensor& tensor);

/// Records in `patch` (of `node`'s graph) a value holding `tensor` (in the model's arena),
/// defined where `node` can read it and named after `hint` (or exactly `name`, when given,
/// which must be free once the patch is applied). Its tensor takes the value's name.
Value* addConstant(Patch& patch, Node& node, Tensor* tensor, std::string_view hint,
                   std::string_view name = {});

/// One output of a node replaced by a constant.
struct FoldedOutput {
  size_t output;
  Tensor* tensor;
};

/// Records in `patch` (of `node`'s graph) that the readers of each listed output of `node`
/// read a constant holding its tensor (addConstant), and that `node` goes when nothing else
/// reads it. A constant that replaces a graph output takes over its name, which needs `node`
/// gone: when it would stay, nothing is recorded and the result is false. Counts what it
/// recorded into `changes`.
bool replaceByConstants(Patch& patch, Node& node, std::span<const FoldedOutput> folded,
                        PassResult& changes);

}  // namespace onyx::passes_internal
