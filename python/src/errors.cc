// errors.cc — Status → Python exception.
#include "errors.h"

#include <fmt/format.h>

namespace onyx::python {

PythonErrors& pythonErrors() {
  // Made once by module.cc at import and never released: the interpreter owns the classes.
  static PythonErrors* errors = new PythonErrors();
  return *errors;
}

void raiseStatus(const Status& status, std::string_view what, Subject subject) {
  std::string message = status.toString();
  if (!what.empty()) message = fmt::format("{}: {}", what, message);
  if (subject == Subject::kFile && status.code() == ErrorCode::kNotFound && status.path().empty()) {
    PyErr_SetString(PyExc_FileNotFoundError, message.c_str());
    throw py::error_already_set();
  }
  if (status.code() == ErrorCode::kIoError) {
    PyErr_SetString(PyExc_OSError, message.c_str());
    throw py::error_already_set();
  }
  if (status.code() == ErrorCode::kDeadlineExceeded) {
    PyErr_SetString(PyExc_TimeoutError, message.c_str());
    throw py::error_already_set();
  }
  if (status.code() == ErrorCode::kCancelled) {
    py::object cancelled = py::module_::import("concurrent.futures").attr("CancelledError");
    PyErr_SetString(cancelled.ptr(), message.c_str());
    throw py::error_already_set();
  }
  if (status.code() == ErrorCode::kInternal) {
    PyErr_SetString(PyExc_RuntimeError, message.c_str());
    throw py::error_already_set();
  }
  raiseError(
      makeError(pythonErrors().onyx_error, message, status.code(), status.path(), status.offset()));
}

py::object makeError(const py::object& type, const std::string& message, ErrorCode code,
                     const std::string& path, std::optional<uint64_t> offset) {
  py::object error = type(message);
  error.attr("code") = std::string(errorCodeName(code));
  error.attr("path") = path;
  error.attr("offset") = offset ? py::object(py::int_(*offset)) : py::none();
  return error;
}

void raiseError(const py::object& error) {
  PyErr_SetObject(reinterpret_cast<PyObject*>(Py_TYPE(error.ptr())), error.ptr());
  throw py::error_already_set();
}

void raiseValueError(const std::string& message) { throw py::value_error(message); }

void raiseStale(const std::string& message) {
  PyErr_SetString(pythonErrors().stale_reference.ptr(), message.c_str());
  throw py::error_already_set();
}

}  // namespace onyx::python
