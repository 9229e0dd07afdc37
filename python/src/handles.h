// handles.h — how Python objects point into a C++ model, and how failures become exceptions.
//
// Every object of the IR lives in its model's arena, which is freed only with the model. A
// Python Model owns a ModelHolder; a Node, Value, Graph, Tensor, ... is a Ref: a pointer into
// the arena plus a shared pointer to the holder, so a node keeps its model alive and never
// dangles. Every change to a model is made in place (nothing replaces the Model), so one
// thing can still make a Ref meaningless, and it raises ReferenceError instead of reading
// what is no longer part of the model: the object was removed (a node destroyed, a value
// taken out of its graph, a function removed with its body): the arena keeps its memory, and
// the IR marks it (graph() is null).
// `edits` counts every change made through the bindings, so that a Session (whose evaluator
// requires an unchanged model) can refuse to run a model changed after it was made.
#pragma once
#include <pybind11/pybind11.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "onyx/core/status.h"
#include "onyx/ir/model.h"

namespace onyx::python {

namespace py = pybind11;

struct ModelHolder {
  Model model;
  uint64_t edits = 0;
};
using HolderPtr = std::shared_ptr<ModelHolder>;

HolderPtr makeHolder(Model model);

template <class T>
struct Ref {
  HolderPtr holder;
  T* ptr = nullptr;
  // Added by a patch not yet applied: a node or value not in a graph yet, which is not a
  // removed one (both have no graph), and which the patch's rules let Python fill in.
  bool pending = false;

  Ref() = default;
  Ref(HolderPtr owner, T* object, bool added_by_patch = false)
      : holder(std::move(owner)), ptr(object), pending(added_by_patch) {}
  Model& model() const { return holder->model; }
  void changed() const { ++holder->edits; }
};

// ---- exceptions ----------------------------------------------------------------------------
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
/// `text` (UTF-8 from the model; anything else replaced) as a Python str.
py::str pythonText(std::string_view text);
/// An optional field's text, or None.
py::object optionalText(const OptString& text);
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

/// The Ref's target, after checking that it is still part of the current model.
Graph* liveGraph(const Ref<Graph>& ref);
Node* liveNode(const Ref<Node>& ref);
Function* liveFunction(const Ref<Function>& ref);
Value* liveValue(const Ref<Value>& ref);

/// Which model a Ref belongs to must be the one being edited: an edit mixing models fails.
template <class A, class B>
void checkSameModel(const Ref<A>& a, const Ref<B>& b) {
  if (a.holder != b.holder) raiseValueError("the two objects belong to different models");
}

// ---- binding each part (one file each) --------------------------------------------------------
void bindElementTypes(py::module_& module);
void bindTensors(py::module_& module);
void bindGraphs(py::module_& module);
void bindPatch(py::module_& module);  // after bindGraphs: adds Graph.patch
void bindModels(py::module_& module);
void bindTools(py::module_& module);
void bindSession(py::module_& module);

}  // namespace onyx::python

// Every file that binds Ref<Node> or Ref<Value> must see their casters (fast_objects.h), so
// they come with this header.
#include "fast_objects.h"  // IWYU pragma: export
