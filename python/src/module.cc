// module.cc — the extension module onyx._onyx, which onyx/__init__.py re-exports.
#include <pybind11/pybind11.h>

#include <exception>

#include "bindings.h"

namespace onyx::python {
namespace {

py::object newException(const char* name, PyObject* base, const char* doc) {
  PyObject* type = PyErr_NewExceptionWithDoc(name, doc, base, nullptr);
  if (type == nullptr) throw py::error_already_set();
  return py::reinterpret_steal<py::object>(type);
}

}  // namespace
}  // namespace onyx::python

PYBIND11_MODULE(_onyx, module) {
  using namespace onyx::python;
  module.doc() = "onyx's C++ model, bound for Python (see the onyx package).";
  module.attr("__version__") = ONYX_VERSION_TEXT;
  PythonErrors& errors = pythonErrors();
  errors.onyx_error = newException(
      "onyx.OnyxError", PyExc_ValueError,
      "onyx refused the input: a malformed file, an invalid edit, a model it cannot run. "
      "`code` names the kind ('malformed', 'invalid-argument', ...), `path` the place in the "
      "model, `offset` the byte for a decoding error.");
  errors.check_error = newException(
      "onyx.CheckError", errors.onyx_error.ptr(),
      "The model breaks the ONNX rules: `rule` and `path` of the first error, `diagnostics` "
      "all that check() found.");
  errors.stale_reference =
      newException("onyx.StaleReferenceError", PyExc_ReferenceError,
                   "A node, value, graph or function that is no longer part of its model (it was "
                   "removed).");
  module.attr("OnyxError") = errors.onyx_error;
  module.attr("CheckError") = errors.check_error;
  module.attr("StaleReferenceError") = errors.stale_reference;

  // A value of the wrong kind met inside a binding (a str where a Node goes) is the caller's
  // TypeError, as it is when pybind11 matches the arguments, not a RuntimeError.
  py::register_exception_translator([](std::exception_ptr thrown) {
    try {
      if (thrown) std::rethrow_exception(thrown);
    } catch (const py::cast_error& error) {
      PyErr_SetString(PyExc_TypeError, error.what());
    }
  });
  makeFastTypes(module);
  bindElementTypes(module);
  bindTensors(module);
  bindTypes(module);
  bindAttributes(module);
  bindValues(module);
  bindNodes(module);
  bindGraphs(module);
  bindFunctions(module);
  bindPatch(module);
  bindModels(module);
  bindTools(module);
  bindSession(module);
}
