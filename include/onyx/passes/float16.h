// onyx/passes/float16.h — converting a model's float32 weights and computation to float16.
//
// convertToFloat16 gives every float32 tensor value of the main graph, and of the graphs nested
// in it, the element type float16 where the operator that computes it and the operators that
// read it allow float16 (their schema's type constraint at the model's opset), and leaves the
// rest in float32 with a Cast between the two:
//
// - a node is converted when each type variable binding its float32 inputs and outputs allows
//   float16 and binds at least one input (the output then follows the input); its weights
//   (initializers) and its Constant values become float16, and Cast(to=FLOAT),
//   Constant and ConstantOfShape produce float16;
// - a node stays in float32 when its operator is one of Float16Options::keep_ops, when a type
//   variable does not allow float16 (Range, the ai.onnx.ml operators, a DequantizeLinear before
//   opset 19), when its output type comes from an attribute (RandomNormal, EyeLike), when it
//   calls a model-local function or an operator onyx has no schema for, or when it holds graphs
//   (If, Loop, Scan: their bodies are converted inside, their interface stays float32);
// - a parameter of one fixed type (Resize's `scales`, tensor(float)) stays float32 in a
//   converted node;
// - with keep_io_types, the main graph's float32 inputs and outputs keep their type, a Cast
//   after each input and before each output (which keeps its name).
//
// Weights are converted lazily: a tensor of a megabyte or more holds a way to compute its
// float16 bytes from the float32 ones (ComputedBytes, onyx/ir/tensor_data.h), so a model of
// many gigabytes of external data is written without holding its weights twice. A value
// beyond float16's range saturates to ±65504 (an attention mask's -3.4e38 would otherwise
// become -inf, and 0 * -inf NaN), and a nonzero value below its smallest subnormal becomes
// that subnormal (an epsilon stays nonzero); NaN and infinities are kept.
//
// All or nothing: the conversion works on a copy, checks the result with inference (no type
// conflict the original did not have), and only then replaces `model`; on an error the model
// is unchanged. Cost: two inferences of the model plus O(nodes + uses); the weights' bytes
// are converted when read or written.
#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include "onyx/core/status.h"
#include "onyx/ir/model.h"

// Exported from the shared libraries: the public API (see src/CMakeLists.txt).
#pragma GCC visibility push(default)

namespace onyx {

struct Float16Options {
  /// Keep the main graph's float32 inputs and outputs float32 (Casts inside).
  bool keep_io_types = false;
  /// Operator types to keep in float32 wherever they are (`Resize`, `TopK`).
  std::vector<std::string> keep_ops;
};

struct Float16Report {
  /// Nodes whose float32 inputs or outputs became float16.
  size_t nodes_converted = 0;
  /// Nodes reading or computing float32 values that stay float32, by operator type.
  std::map<std::string, size_t> kept_ops;
  size_t casts_added = 0;
  /// Initializers and attribute tensors converted.
  size_t tensors_converted = 0;
  /// Float16Options::keep_ops that no node of the model has (a misspelt `Resize`?).
  std::vector<std::string> unmatched_keep_ops;
};

/// Converts `model` to float16 (see above).
Result<Float16Report> convertToFloat16(Model& model, const Float16Options& options = {});

}  // namespace onyx

#pragma GCC visibility pop
