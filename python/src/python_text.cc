// python_text.cc — text from a model as Python strings.
#include "python_text.h"

namespace onyx::python {

py::str pythonText(std::string_view text) {
  PyObject* decoded =
      PyUnicode_DecodeUTF8(text.data(), static_cast<Py_ssize_t>(text.size()), "replace");
  if (decoded == nullptr) throw py::error_already_set();
  return py::reinterpret_steal<py::str>(decoded);
}

py::object optionalText(const OptString& text) {
  if (!text) return py::none();
  return pythonText(*text);
}

}  // namespace onyx::python
