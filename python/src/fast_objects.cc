// fast_objects.cc — onyx.Node, onyx.Value and the node iterator as types of the C API.
#include "fast_objects.h"

#include "errors.h"
#include "python_text.h"

#include <fmt/format.h>

#include <exception>
#include <functional>
#include <new>
#include <string>

#include "onyx/core/quote.h"
#include "onyx/ir/editor.h"
#include "onyx/ir/graph.h"
#include "onyx/ir/opset_imports.h"
#include "onyx/ir/unique_names.h"
#include "onyx/text/printer.h"

namespace onyx::python {
namespace {

PyTypeObject* node_type = nullptr;
PyTypeObject* value_type = nullptr;
PyTypeObject* iterator_type = nullptr;

// The C API's functions return null with an exception set; the bindings' helpers throw.
template <class F>
auto guarded(F&& body, decltype(body()) failed) -> decltype(body()) {
  try {
    return body();
  } catch (py::error_already_set& error) {
    error.restore();
  } catch (const py::cast_error& error) {  // a builtin_exception, but the caller's TypeError
    PyErr_SetString(PyExc_TypeError, error.what());
  } catch (py::builtin_exception& error) {
    error.set_error();
  } catch (const std::exception& error) {
    PyErr_SetString(PyExc_RuntimeError, error.what());
  }
  return failed;
}

template <class T>
Ref<T>& refOf(PyObject* self) {
  return reinterpret_cast<RefObject<T>*>(self)->ref;
}

template <class T>
PyObject* allocate(PyTypeObject* type, const Ref<T>& ref) {
  PyObject* self = type->tp_alloc(type, 0);
  if (self == nullptr) return nullptr;
  new (&refOf<T>(self)) Ref<T>(ref);
  return self;
}

template <class T>
void deallocate(PyObject* self) {
  PyTypeObject* type = Py_TYPE(self);
  refOf<T>(self).~Ref<T>();
  type->tp_free(self);
  Py_DECREF(type);  // a heap type's instances hold a reference to it
}

template <class T>
PyObject* compare(PyObject* self, PyObject* other, int op) {
  if (Py_TYPE(other) != Py_TYPE(self) || (op != Py_EQ && op != Py_NE)) Py_RETURN_NOTIMPLEMENTED;
  const bool same = refOf<T>(self).ptr == refOf<T>(other).ptr;
  return PyBool_FromLong((op == Py_EQ) == same ? 1 : 0);
}

template <class T>
Py_hash_t hash(PyObject* self) {
  return static_cast<Py_hash_t>(std::hash<const void*>()(refOf<T>(self).ptr) >> 1);
}

PyObject* textOrError(std::string_view text) { return pythonText(text).release().ptr(); }

std::string setterText(PyObject* given, const char* what) {
  if (given == nullptr) throw py::attribute_error(fmt::format("{} cannot be deleted", what));
  if (!PyUnicode_Check(given)) throw py::type_error(fmt::format("{} is a str", what));
  return py::reinterpret_borrow<py::str>(given).cast<std::string>();
}

// ---- onyx.Node -----------------------------------------------------------------------------

PyObject* nodeOpType(PyObject* self, void*) {
  return guarded([&] { return sharedText(liveNode(refOf<Node>(self))->opType()); }, nullptr);
}

PyObject* nodeDomain(PyObject* self, void*) {
  return guarded([&] { return sharedText(liveNode(refOf<Node>(self))->domainOrDefault()); },
                 nullptr);
}

int setNodeDomain(PyObject* self, PyObject* given, void*) {
  return guarded(
      [&] {
        const Ref<Node>& ref = refOf<Node>(self);
        Node* node = liveNode(ref);
        node->domain = GraphEditor(ref.model()).arena().copy(setterText(given, "a node's domain"));
        ref.changed();
        return 0;
      },
      -1);
}

PyObject* nodeName(PyObject* self, void*) {
  return guarded([&] { return textOrError(liveNode(refOf<Node>(self))->nameOrEmpty()); }, nullptr);
}

int setNodeName(PyObject* self, PyObject* given, void*) {
  return guarded(
      [&] {
        const Ref<Node>& ref = refOf<Node>(self);
        Node* node = liveNode(ref);
        node->name = GraphEditor(ref.model()).arena().copy(setterText(given, "a node's name"));
        ref.changed();
        return 0;
      },
      -1);
}

// A tuple of `count` values, `valueAt(node, i)` each (None for an omitted one).
template <class ValueAt>
PyObject* valueTuple(PyObject* self, size_t (Node::*count)() const, ValueAt valueAt) {
  return guarded(
      [&]() -> PyObject* {
        const Ref<Node>& ref = refOf<Node>(self);
        const Node* node = liveNode(ref);
        const size_t size = (node->*count)();
        PyObject* tuple = PyTuple_New(static_cast<Py_ssize_t>(size));
        if (tuple == nullptr) return nullptr;
        for (size_t i = 0; i < size; ++i) {
          PyObject* value = newValueOrNone(ref.holder, valueAt(node, i), ref.pending);
          if (value == nullptr) {
            Py_DECREF(tuple);
            return nullptr;
          }
          PyTuple_SET_ITEM(tuple, static_cast<Py_ssize_t>(i), value);
        }
        return tuple;
      },
      nullptr);
}

PyObject* nodeInputs(PyObject* self, void*) {
  return valueTuple(self, &Node::inputCount,
                    [](const Node* node, size_t i) { return node->input(i); });
}

PyObject* nodeOutputs(PyObject* self, void*) {
  return valueTuple(self, &Node::outputCount,
                    [](const Node* node, size_t i) { return node->output(i); });
}

PyObject* nodeReprSlot(PyObject* self) {
  return guarded([&] { return textOrError(nodeRepr(refOf<Node>(self))); }, nullptr);
}

PyGetSetDef node_getset[] = {
    {"op_type", nodeOpType, nullptr, PyDoc_STR("The operator (or model-local function) it calls."),
     nullptr},
    {"domain", nodeDomain, setNodeDomain, PyDoc_STR("The operator's domain; '' is ai.onnx."),
     nullptr},
    {"name", nodeName, setNodeName, PyDoc_STR("The node's name ('' when it has none)."), nullptr},
    {"inputs", nodeInputs, nullptr,
     PyDoc_STR("The values it reads, in order (None for an omitted optional input)."), nullptr},
    {"outputs", nodeOutputs, nullptr,
     PyDoc_STR("The values it defines, in order (None for an omitted optional output)."), nullptr},
    {nullptr, nullptr, nullptr, nullptr, nullptr},
};

PyType_Slot node_slots[] = {
    {Py_tp_dealloc, reinterpret_cast<void*>(deallocate<Node>)},
    {Py_tp_repr, reinterpret_cast<void*>(nodeReprSlot)},
    {Py_tp_hash, reinterpret_cast<void*>(hash<Node>)},
    {Py_tp_richcompare, reinterpret_cast<void*>(compare<Node>)},
    {Py_tp_getset, node_getset},
    {Py_tp_doc, const_cast<char*>("A node: an operator call with inputs, outputs and attributes.")},
    {0, nullptr},
};

PyType_Spec node_spec = {"onyx.Node", sizeof(RefObject<Node>), 0, Py_TPFLAGS_DEFAULT, node_slots};

// ---- onyx.Value ----------------------------------------------------------------------------

PyObject* valueName(PyObject* self, void*) {
  // Readable even once removed: its name is what says which value it was.
  return guarded([&] { return textOrError(refOf<Value>(self).ptr->name()); }, nullptr);
}

int setValueName(PyObject* self, PyObject* given, void*) {
  return guarded(
      [&] {
        const Ref<Value>& ref = refOf<Value>(self);
        Value* value = liveValue(ref);
        check(GraphEditor(ref.model()).rename(value, setterText(given, "a value's name")),
              "cannot rename");
        ref.changed();
        return 0;
      },
      -1);
}

PyObject* valueReprSlot(PyObject* self) {
  return guarded(
      [&] {
        const Ref<Value>& ref = refOf<Value>(self);
        const Value& value = *ref.ptr;
        const Type* type = value.graph() != nullptr ? value.type() : nullptr;
        if (type == nullptr)
          return textOrError(fmt::format("<onyx.Value {}>", onyx::quoted(value.name())));
        return textOrError(
            fmt::format("<onyx.Value {} {}>", onyx::quoted(value.name()), printType(*type)));
      },
      nullptr);
}

PyGetSetDef value_getset[] = {
    {"name", valueName, setValueName,
     PyDoc_STR("Its name, unique in scope. Setting it renames the value everywhere it is read."),
     nullptr},
    {nullptr, nullptr, nullptr, nullptr, nullptr},
};

PyType_Slot value_slots[] = {
    {Py_tp_dealloc, reinterpret_cast<void*>(deallocate<Value>)},
    {Py_tp_repr, reinterpret_cast<void*>(valueReprSlot)},
    {Py_tp_hash, reinterpret_cast<void*>(hash<Value>)},
    {Py_tp_richcompare, reinterpret_cast<void*>(compare<Value>)},
    {Py_tp_getset, value_getset},
    {Py_tp_doc, const_cast<char*>("A value of a graph: a node output, a graph input or an "
                                  "initializer, with its uses.")},
    {0, nullptr},
};

PyType_Spec value_spec = {"onyx.Value", sizeof(RefObject<Value>), 0, Py_TPFLAGS_DEFAULT,
                          value_slots};

// ---- the node iterator -----------------------------------------------------------------------

struct IteratorObject {
  PyObject_HEAD HolderPtr holder;
  Node* next;
};

PyObject* iteratorNext(PyObject* self) {
  return guarded(
      [&]() -> PyObject* {
        auto* iterator = reinterpret_cast<IteratorObject*>(self);
        Node* node = iterator->next;
        if (node == nullptr) return nullptr;  // the end: no exception set
        if (node->graph() == nullptr) {
          raiseStale(
              "the node the walk was to go on from was removed; walk a list(graph) to change "
              "the graph while walking it");
        }
        iterator->next = node->next();
        return newObject(Ref<Node>(iterator->holder, node));
      },
      nullptr);
}

void iteratorDeallocate(PyObject* self) {
  PyTypeObject* type = Py_TYPE(self);
  reinterpret_cast<IteratorObject*>(self)->holder.~HolderPtr();
  type->tp_free(self);
  Py_DECREF(type);
}

PyType_Slot iterator_slots[] = {
    {Py_tp_dealloc, reinterpret_cast<void*>(iteratorDeallocate)},
    {Py_tp_iter, reinterpret_cast<void*>(PyObject_SelfIter)},
    {Py_tp_iternext, reinterpret_cast<void*>(iteratorNext)},
    {0, nullptr},
};

PyType_Spec iterator_spec = {"onyx._NodeIterator", sizeof(IteratorObject), 0, Py_TPFLAGS_DEFAULT,
                             iterator_slots};

PyTypeObject* makeType(PyType_Spec& spec) {
  PyObject* type = PyType_FromSpec(&spec);
  if (type == nullptr) throw py::error_already_set();
  return reinterpret_cast<PyTypeObject*>(type);  // kept for the life of the process
}

}  // namespace

PyTypeObject* nodeType() { return node_type; }
PyTypeObject* valueType() { return value_type; }

void makeFastTypes(py::module_& module) {
  node_type = makeType(node_spec);
  value_type = makeType(value_spec);
  iterator_type = makeType(iterator_spec);
  // The module holds references of its own; the pointers above keep theirs.
  module.attr("Node") = py::reinterpret_borrow<py::object>(reinterpret_cast<PyObject*>(node_type));
  module.attr("Value") =
      py::reinterpret_borrow<py::object>(reinterpret_cast<PyObject*>(value_type));
}

PyObject* newObject(const Ref<Node>& ref) { return allocate(node_type, ref); }
PyObject* newObject(const Ref<Value>& ref) { return allocate(value_type, ref); }

PyObject* newValueOrNone(const HolderPtr& holder, Value* value, bool pending) {
  if (value == nullptr) Py_RETURN_NONE;
  return newObject(Ref<Value>(holder, value, pending));
}

py::object nodeIterator(const HolderPtr& holder, Node* first) {
  PyObject* self = iterator_type->tp_alloc(iterator_type, 0);
  if (self == nullptr) throw py::error_already_set();
  auto* iterator = reinterpret_cast<IteratorObject*>(self);
  new (&iterator->holder) HolderPtr(holder);
  iterator->next = first;
  return py::reinterpret_steal<py::object>(self);
}

std::string nodeRepr(const Ref<Node>& ref) {
  const Node& node = *ref.ptr;
  std::string op(node.opType());
  // One operator reads one way: "ai.onnx.Conv" and "Conv" are both Conv.
  std::string_view domain = canonicalDomain(node.domainOrDefault());
  if (!domain.empty()) op = fmt::format("{}.{}", domain, op);
  std::string text = node.name ? fmt::format("<onyx.Node {} {}", op, onyx::quoted(*node.name))
                               : fmt::format("<onyx.Node {}", op);
  if (node.graph() == nullptr && !ref.pending) text += " (removed)";
  return text + ">";
}

}  // namespace onyx::python
