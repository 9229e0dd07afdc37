// handles.cc — the holder of a Python model, stale-reference checks, and Status → exception.
#include "handles.h"

#include <fmt/format.h>

#include "onyx/ir/graph.h"
#include "onyx/ir/node.h"
#include "onyx/ir/value.h"

namespace onyx::python {

HolderPtr makeHolder(Model model) {
  auto holder = std::make_shared<ModelHolder>();
  holder->model = std::move(model);
  return holder;
}

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

void raiseStale(const std::string& message) {
  PyErr_SetString(pythonErrors().stale_reference.ptr(), message.c_str());
  throw py::error_already_set();
}

void checkCurrent(uint64_t generation, const HolderPtr& holder, std::string_view kind) {
  if (generation != holder->generation) {
    raiseStale(fmt::format(
        "this {} belongs to the model as it was before inline_functions rebuilt it; look it "
        "up again in the rebuilt model",
        kind));
  }
}

Graph* liveGraph(const Ref<Graph>& ref) {
  checkCurrent(ref.generation, ref.holder, "Graph");
  for (const Graph* graph = ref.ptr; graph != nullptr; graph = graph->parent()) {
    if (graph->owner() != nullptr && graph->owner()->graph() == nullptr) {
      raiseStale("this Graph belonged to a node that was removed from the model");
    }
  }
  return ref.ptr;
}

Node* liveNode(const Ref<Node>& ref) {
  checkCurrent(ref.generation, ref.holder, "Node");
  if (ref.ptr->graph() == nullptr && !ref.pending) {
    raiseStale(fmt::format("the node {} '{}' was removed from its graph", ref.ptr->opType(),
                           ref.ptr->nameOrEmpty()));
  }
  return ref.ptr;
}

Value* liveValue(const Ref<Value>& ref) {
  checkCurrent(ref.generation, ref.holder, "Value");
  if (ref.ptr->graph() == nullptr && !ref.pending) {
    raiseStale(fmt::format("the value '{}' was removed from its graph", ref.ptr->name()));
  }
  return ref.ptr;
}

}  // namespace onyx::python
