// arrays.h — NumPy arrays to and from onyx's Arrays, tensors and evaluator values.
//
// Each element type maps to the NumPy dtype of its storage (onyx/core/array.h): float32 for
// FLOAT, float16 for FLOAT16, ... Types NumPy lacks travel as their bits: BFLOAT16 as uint16,
// the FLOAT8 types as uint8, and the sub-byte types one element per byte (INT4 and INT2 as
// int8, the others as uint8). STRING is an array of Python str (bytes where a string is not
// UTF-8).
#pragma once
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <optional>

#include "onyx/core/array.h"
#include "onyx/core/element_type.h"
#include "onyx/ir/tensor.h"
#include "onyx/ir/type.h"
#include "onyx/ops/eval_value.h"
#include "refs.h"

namespace onyx::python {

/// The dtype an element type is stored as.
py::dtype numpyDtypeOf(ElementType type);

/// The element type a dtype stands for when nothing else says; nullopt for none.
std::optional<ElementType> naturalElementType(const py::dtype& dtype);

/// `array`'s elements as a NumPy array that shares them (the array keeps them alive).
py::array numpyOfArray(Array array);

/// An evaluator value as Python: a NumPy array, a list (sequence), a dict (map) or None.
py::object pythonOfValue(EvalValue value);

/// A NumPy array (or anything np.asarray takes) as an Array, copied. `declared` is the element
/// type the receiver expects: when the array's dtype is that type's storage, the array is
/// taken as that type (uint16 bits for BFLOAT16); else its dtype decides. `what` names the
/// array in errors.
Array arrayOfPython(py::handle object, std::optional<ElementType> declared,
                    const std::string& what);

/// A Python value for a graph input of `type` (null: undeclared): an array for a tensor, a
/// list for a sequence, a dict for a map, None for an empty optional.
EvalValue valueOfPython(py::handle object, const Type* type, const std::string& what);

/// A tensor's elements as NumPy: a read-only view of the bytes where they lie (the mapped file,
/// external data, the model's memory), kept alive by `holder`; a converted copy when they are
/// stored otherwise (typed fields, strings, sub-byte packing, computed on demand).
py::array numpyOfTensor(const HolderPtr& holder, const Tensor& tensor);

}  // namespace onyx::python
