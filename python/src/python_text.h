// python_text.h — text from a model as Python strings.
#pragma once
#include <pybind11/pybind11.h>

#include <string_view>

#include "onyx/ir/fields.h"

namespace onyx::python {

namespace py = pybind11;

/// `text` (UTF-8 from the model; anything else replaced) as a Python str.
py::str pythonText(std::string_view text);
/// The same for text many objects share (op types, domains): a new reference to one str per
/// text while it stays in a small cache, so that a walk over a large graph does not decode
/// and allocate the same few strings again at every node. Needs the GIL.
PyObject* sharedText(std::string_view text);
/// An optional field's text, or None.
py::object optionalText(const OptString& text);

}  // namespace onyx::python
