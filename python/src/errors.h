// errors.h — how failures become Python exceptions: onyx's own classes (registered by
// module.cc, documented in onyx/__init__.pyi), and a Status raised as the exception that fits.
#pragma once
#include <pybind11/pybind11.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "onyx/core/status.h"

namespace onyx::python {

namespace py = pybind11;

// Registered by module.cc; the Python classes are documented in onyx/__init__.pyi.
struct PythonErrors {
  py::object onyx_error;       // onyx.OnyxError(ValueError): code, path
  py::object check_error;      // onyx.CheckError(OnyxError): diagnostics, rule
  py::object stale_reference;  // onyx.StaleReferenceError(ReferenceError)
};
PythonErrors& pythonErrors();

/// What a failing call was given: a model (its not-found is a named thing missing in it) or
/// a file path (its not-found, with no place in a model, is the file itself).
enum class Subject : uint8_t { kModel, kFile };

/// Raises `status` (an error) as a Python exception: FileNotFoundError for a missing file,
/// OSError for a refused read or write, onyx.OnyxError (a ValueError) for the rest. `what`
/// starts the message ("cannot load model.onnx").
[[noreturn]] void raiseStatus(const Status& status, std::string_view what = {},
                              Subject subject = Subject::kModel);
/// An instance of `type` (onyx.OnyxError or a subclass) with its attributes set, and
/// raising it.
py::object makeError(const py::object& type, const std::string& message, ErrorCode code,
                     const std::string& path, std::optional<uint64_t> offset);
[[noreturn]] void raiseError(const py::object& error);
[[noreturn]] void raiseValueError(const std::string& message);
[[noreturn]] void raiseStale(const std::string& message);

template <class T>
T unwrap(Result<T> result, std::string_view what = {}, Subject subject = Subject::kModel) {
  if (!result) raiseStatus(result.status(), what, subject);
  return std::move(*result);
}
inline void check(const Status& status, std::string_view what = {},
                  Subject subject = Subject::kModel) {
  if (!status) raiseStatus(status, what, subject);
}

}  // namespace onyx::python
