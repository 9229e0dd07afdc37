// fast_objects.h — onyx.Node and onyx.Value as types of the Python C API.
//
// A walk over a large graph makes a Python object for every node and every value it reads,
// and reads an attribute or two of each: on the 200,000-node graph, pybind11's classes
// spent about 400 ns making each object (its instance registry) and 250 ns on each
// attribute read (its generic dispatch), more than the walk over onnx's ModelProto. These two
// types are made with the C API instead: an object is a Ref behind PyObject_HEAD, the
// attributes a walk reads (op_type, domain, name, inputs, outputs; a value's name) are C
// getters, and the rest are pybind11 functions attached to the type (bind_graph.cc). The
// casters at the end let every pybind11 binding take and return Ref<Node> / Ref<Value> as
// before.
#pragma once
#include <pybind11/pybind11.h>

#include <utility>

#include "refs.h"

namespace onyx::python {

template <class T>
struct RefObject {
  PyObject_HEAD Ref<T> ref;
};

/// The types, made by makeFastTypes (module.cc calls it before binding anything else).
PyTypeObject* nodeType();
PyTypeObject* valueType();
void makeFastTypes(py::module_& module);

/// A new Python object for `ref` (a new reference).
PyObject* newObject(const Ref<Node>& ref);
PyObject* newObject(const Ref<Value>& ref);
/// A Value object, or None for a null value (an omitted input or output).
PyObject* newValueOrNone(const HolderPtr& holder, Value* value, bool pending = false);
inline bool isNode(py::handle object) { return PyObject_TypeCheck(object.ptr(), nodeType()); }
inline bool isValue(py::handle object) { return PyObject_TypeCheck(object.ptr(), valueType()); }

/// An iterator over a node list from `first` on (graphs and function bodies).
py::object nodeIterator(const HolderPtr& holder, Node* first);

/// `<onyx.Node Conv 'conv1'>`, with ` (removed)` for a node no longer in its model.
std::string nodeRepr(const Ref<Node>& ref);

/// Attaches pybind11 functions and properties to a type made with the C API, with the
/// spelling of py::class_.
class ExtraMembers {
 public:
  explicit ExtraMembers(PyTypeObject* type)
      : type_(py::reinterpret_borrow<py::object>(reinterpret_cast<PyObject*>(type))) {}

  template <class F, class... Extra>
  ExtraMembers& def(const char* name, F&& f, const Extra&... extra) {
    py::cpp_function function(std::forward<F>(f), py::name(name), py::is_method(type_),
                              py::sibling(py::getattr(type_, name, py::none())), extra...);
    py::setattr(type_, name, function);
    return *this;
  }
  template <class Get>
  ExtraMembers& def_property_readonly(const char* name, Get&& get, const char* doc) {
    return property(name, py::cpp_function(std::forward<Get>(get), py::is_method(type_)),
                    py::none(), doc);
  }
  template <class Get, class Set>
  ExtraMembers& def_property(const char* name, Get&& get, Set&& set, const char* doc) {
    return property(name, py::cpp_function(std::forward<Get>(get), py::is_method(type_)),
                    py::cpp_function(std::forward<Set>(set), py::is_method(type_)), doc);
  }

 private:
  ExtraMembers& property(const char* name, py::object get, py::object set, const char* doc) {
    py::object make = py::module_::import("builtins").attr("property");
    py::setattr(type_, name, make(get, set, py::none(), doc));
    return *this;
  }
  py::object type_;
};

}  // namespace onyx::python

namespace pybind11::detail {

// `Ref<T>` from and to the C API objects: by value (a Ref is a pointer and a shared_ptr).
#define ONYX_FAST_REF_CASTER(T, kind, python_name)                                        \
  template <>                                                                             \
  struct type_caster<onyx::python::Ref<T>> {                                              \
    PYBIND11_TYPE_CASTER(onyx::python::Ref<T>, const_name(python_name));                  \
    bool load(handle source, bool) {                                                      \
      if (!onyx::python::is##kind(source)) return false;                                  \
      value = reinterpret_cast<onyx::python::RefObject<T>*>(source.ptr())->ref;           \
      return true;                                                                        \
    }                                                                                     \
    static handle cast(const onyx::python::Ref<T>& source, return_value_policy, handle) { \
      return onyx::python::newObject(source);                                             \
    }                                                                                     \
  }

ONYX_FAST_REF_CASTER(onyx::Node, Node, "onyx.Node");
ONYX_FAST_REF_CASTER(onyx::Value, Value, "onyx.Value");

#undef ONYX_FAST_REF_CASTER

}  // namespace pybind11::detail
