// onyx/passes/standard_passes.h — the passes onyx has, one maker each (docs/passes.md says
// what each does). They are also found by name through registeredPasses()/makePass().
#pragma once

#include <memory>

#include "onyx/passes/pass.h"

// Exported from the shared libraries: the public API (see src/CMakeLists.txt).
#pragma GCC visibility push(default)

namespace onyx {

/// `dead-code`: nodes nothing reads, unused initializers, value_info of removed values,
/// unused opset imports and model-local functions.
std::unique_ptr<Pass> makeDeadCodePass();
/// `constant-to-initializer`: Constant nodes of the main graph become initializers.
std::unique_ptr<Pass> makeConstantToInitializerPass();
/// `initializer-to-constant`: the reverse, for initializers that are not graph inputs.
std::unique_ptr<Pass> makeInitializerToConstantPass();
/// `initializers-not-inputs`: initializers listed as graph inputs (in any graph) are taken
/// out of the inputs, so that they are constants; a model before IR 4 becomes IR 4. Changes
/// the interface: not in the default list.
std::unique_ptr<Pass> makeInitializersNotInputsPass();
/// `shape-folding`: values whose elements shape inference knows become constants; Reshape
/// and Expand targets built from shapes become constants with 0, -1 and 1 where exact. No
/// open dimension of the graph's inputs is fixed.
std::unique_ptr<Pass> makeShapeFoldingPass();
/// `constant-folding`: nodes whose inputs are all constants are run once through
/// PassContext::node_evaluator and replaced by their outputs, within PassContext::fold_limit.
std::unique_ptr<Pass> makeConstantFoldingPass();
/// `noop`: nodes that pass their input through unchanged are bypassed; consecutive
/// Transposes and Reshapes are composed.
std::unique_ptr<Pass> makeNoopPass();
/// `standard-fusions`: BatchNormalization, and Add, Sub or Mul by a constant per channel,
/// folded into the weights and bias of a Conv, ConvTranspose or Gemm; MatMul + Add into Gemm.
std::unique_ptr<Pass> makeStandardFusionsPass();
/// `common-subexpression`: nodes computing the same thing from the same inputs are merged.
std::unique_ptr<Pass> makeCommonSubexpressionPass();
/// `topological-sort`: every node list in topological order (a stable sort).
std::unique_ptr<Pass> makeTopologicalSortPass();
/// `inline`: calls of model-local functions replaced by their bodies.
std::unique_ptr<Pass> makeInlinePass();

}  // namespace onyx

#pragma GCC visibility pop
