// python_text.h — text from a model as Python strings.
#pragma once
#include <pybind11/pybind11.h>

#include <string_view>

#include "onyx/ir/fields.h"

namespace onyx::python {

namespace py = pybind11;

/// `text` (UTF-8 from the model; anything else replaced) as a Python str.
py::str pythonText(std::string_view text);
/// An optional field's text, or None.
py::object optionalText(const OptString& text);

}  // namespace onyx::python
