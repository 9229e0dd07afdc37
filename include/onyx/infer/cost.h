// onyx/infer/cost.h — what each node of a model costs: floating-point operations, the bytes of
// the constants it reads (parameters) and of the values it makes (activations), from the
// shapes inference found (`onyx info --cost`).
//
// Operations are counted as the literature counts them, a multiply-add as two:
//   - MatMul: 2 x (the output's elements) x K; Gemm: 2 M N K, and M N more with a C;
//   - Conv: 2 x (the output's elements) x (input channels / group) x (the kernel's elements),
//     and the output's elements more with a bias; ConvTranspose: 2 x (the input's elements) x
//     (output channels / group) x (the kernel's elements);
//   - Attention (opset 23): 2 x batch x query heads x query length x key length x (head size
//     + value head size): the scores and their product with V, the keys the past's and the
//     new ones together;
//   - elementwise arithmetic and activations: one a result element; DequantizeLinear and
//     QuantizeLinear two, RotaryEmbedding three; reductions and global pools: one an input
//     element; AveragePool and MaxPool: the kernel's elements a result element; Softmax,
//     LogSoftmax and the normalizations: five an element;
//   - everything else (moving, gathering, reshaping, casting, comparing): none.
// A node whose shapes inference leaves unknown has no count (nullopt), and is said so.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "onyx/ir/model.h"

// Exported from the shared libraries: the public API (see src/CMakeLists.txt).
#pragma GCC visibility push(default)

namespace onyx {

struct NodeCost {
  const Node* node = nullptr;
  /// Floating-point operations; nullopt when a shape it needs is unknown.
  std::optional<uint64_t> flops;
  /// Bytes of the constant inputs (initializers, Constant nodes' tensors) the node reads.
  uint64_t parameter_bytes = 0;
  /// Bytes of the tensors it makes; nullopt when an output's shape is unknown.
  std::optional<uint64_t> activation_bytes;
};

struct ModelCost {
  /// The main graph's nodes, in graph order.
  std::vector<NodeCost> nodes;
  uint64_t flops = 0;             // of the nodes with a count
  uint64_t parameter_bytes = 0;   // every constant once
  uint64_t activation_bytes = 0;  // of the nodes with a count
  size_t uncounted = 0;           // nodes without a count of operations
};

/// The costs of `model`'s main graph from the types its values hold: infer it first
/// (inferModel) so that every node's output has a shape.
ModelCost modelCost(const Model& model);

}  // namespace onyx

#pragma GCC visibility pop
