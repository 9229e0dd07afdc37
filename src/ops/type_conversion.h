// Internal: between the IR's declared types and the engine's InferredTypes, and the
// elements of small integer tensors as propagated data.
#pragma once

#include <functional>
#include <optional>
#include <string_view>

#include "onyx/core/arena.h"
#include "onyx/ir/editor.h"
#include "onyx/ir/tensor.h"
#include "onyx/ir/type.h"
#include "onyx/ops/inferred_type.h"

namespace onyx::ops {

/// A declared type: a dim_param becomes the symbol of that name, a dimension with neither
/// number nor name a fresh anonymous symbol.
InferredType fromDeclared(const Type& type, SymbolicDims& dims);

/// The type a tensor (an initializer, a Constant's value) has.
InferredType typeOfTensor(const Tensor& tensor);

/// An inferred type for the model; null when nothing is known. `symbol_text` gives a
/// symbolic dimension's dim_param (in `arena`), or a null view to leave it unknown.
using SymbolText = std::string_view (*)(void* context, DimValue dim);
Type* toDeclared(const InferredType& type, const GraphEditor& edit, SymbolText symbol_text,
                 void* context);

/// The elements of an INT32 or INT64 tensor of rank 0 or 1 with at most
/// kMaxPropagatedElements elements; nullopt for any other tensor or unreadable data.
std::optional<Dims> integerElements(const Tensor& tensor);

}  // namespace onyx::ops
