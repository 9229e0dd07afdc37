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

Graph* liveGraph(const Ref<Graph>& ref) {
  const Graph* root = ref.ptr;
  for (; root->parent() != nullptr; root = root->parent()) {
    if (root->owner() != nullptr && root->owner()->graph() == nullptr) {
      raiseStale("this Graph belonged to a node that was removed from the model");
    }
  }
  if (root->owner() != nullptr && root->owner()->graph() == nullptr) {
    raiseStale("this Graph belonged to a node that was removed from the model");
  }
  // A graph of no node is one of the model's own: its main graph, a training graph, or a
  // function body; any other was a removed function's body.
  const Model& model = ref.holder->model;
  bool own = root->owner() != nullptr || root == model.graph;
  for (const TrainingInfo* info : model.training_info) {
    own = own || root == info->initialization || root == info->algorithm;
  }
  for (const Function* function : model.functions) own = own || root == function->body;
  if (!own) raiseStale("this Graph was the body of a function removed from the model");
  return ref.ptr;
}

Function* liveFunction(const Ref<Function>& ref) {
  for (const Function* function : ref.holder->model.functions) {
    if (function == ref.ptr) return ref.ptr;
  }
  raiseStale(fmt::format("the function '{}' was removed from the model", ref.ptr->nameOrEmpty()));
  return nullptr;
}

Node* liveNode(const Ref<Node>& ref) {
  if (ref.ptr->graph() == nullptr && !ref.pending) {
    raiseStale(fmt::format("the node {} '{}' was removed from its graph", ref.ptr->opType(),
                           ref.ptr->nameOrEmpty()));
  }
  return ref.ptr;
}

Value* liveValue(const Ref<Value>& ref) {
  if (ref.ptr->graph() == nullptr && !ref.pending) {
    raiseStale(fmt::format("the value '{}' was removed from its graph", ref.ptr->name()));
  }
  return ref.ptr;
}

}  // namespace onyx::python
