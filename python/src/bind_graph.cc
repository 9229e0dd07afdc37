// bind_graph.cc — onyx.Graph, Node, Value, Attribute, Type and Function: views of the C++ IR.
//
// Names follow onnx_ir where it has one (graph iteration yields nodes, node.op_type /
// inputs / outputs / attributes, value.producer() / uses() / const_value, graph.initializers
// by name), so that code written for it reads the same.
#include <fmt/format.h>
#include <pybind11/stl.h>

#include <string>
#include <vector>

#include "arrays.h"
#include "bindings.h"
#include "graph_objects.h"
#include "onyx/core/quote.h"
#include "onyx/ir/clone.h"
#include "onyx/ir/editor.h"
#include "onyx/ir/function.h"
#include "onyx/ir/patch.h"
#include "onyx/ir/tensor_array.h"
#include "onyx/ir/topo_sort.h"
#include "onyx/ir/unique_names.h"
#include "onyx/text/parser.h"
#include "onyx/text/printer.h"

namespace onyx::python {
namespace {

py::object valueOrNone(const HolderPtr& holder, Value* value) {
  return py::reinterpret_steal<py::object>(newValueOrNone(holder, value));
}

// ---- types -----------------------------------------------------------------------------------

std::string_view typeKindName(Type::Kind kind) {
  switch (kind) {
    case Type::Kind::kTensor: return "tensor";
    case Type::Kind::kSequence: return "sequence";
    case Type::Kind::kMap: return "map";
    case Type::Kind::kOpaque: return "opaque";
    case Type::Kind::kSparseTensor: return "sparse_tensor";
    case Type::Kind::kOptional: return "optional";
    case Type::Kind::kNone: break;
  }
  return "none";
}

py::object shapeTuple(const TensorShape* shape) {
  if (shape == nullptr) return py::none();
  py::tuple dims(shape->dims.size());
  for (size_t i = 0; i < shape->dims.size(); ++i) {
    const Dimension& dim = shape->dims[i];
    if (dim.dim_value) {
      dims[i] = py::int_(*dim.dim_value);
    } else if (dim.dim_param) {
      dims[i] = pythonText(*dim.dim_param);
    } else {
      dims[i] = py::none();
    }
  }
  return dims;
}

py::object typeOrNone(const HolderPtr& holder, const Type* type) {
  if (type == nullptr) return py::none();
  return py::cast(Ref<Type>(holder, const_cast<Type*>(type)));
}

// A Type given from Python (an onyx.Type of any model, or its text `float[N,3]`) as a Type
// in `model`'s edit.arena().
Type* typeIn(const HolderPtr& holder, py::handle given) {
  if (py::isinstance<Ref<Type>>(given)) {
    const auto& ref = given.cast<const Ref<Type>&>();
    if (ref.holder == holder) return ref.ptr;
    holder->model.shareBytesOf(ref.holder->model);  // the copy shares its strings
    return GraphEditor(holder->model).cloneType(*ref.ptr);
  }
  if (!py::isinstance<py::str>(given)) {
    throw py::type_error("a type is an onyx.Type or its text, as 'float[N,3]'");
  }
  return unwrap(parseTypeText(given.cast<std::string>(), holder->model), "cannot read the type");
}

// ---- attributes ------------------------------------------------------------------------------

py::object attributeValue(const HolderPtr& holder, const Attribute& attribute) {
  auto tensors = [&](std::span<Tensor* const> list) {
    py::list result;
    for (Tensor* tensor : list) result.append(Ref<Tensor>(holder, tensor));
    return result;
  };
  const AttributeRareFields& rare = attribute.rare();
  if (attribute.isReference()) return py::none();
  switch (attribute.kind()) {
    case AttributeKind::kFloat: return py::float_(attribute.f.value_or(0.0f));
    case AttributeKind::kInt: return py::int_(attribute.i.value_or(0));
    case AttributeKind::kString: {
      std::string_view text = attribute.s.value_or(std::string_view());
      PyObject* decoded =
          PyUnicode_DecodeUTF8(text.data(), static_cast<Py_ssize_t>(text.size()), nullptr);
      if (decoded != nullptr) return py::reinterpret_steal<py::object>(decoded);
      PyErr_Clear();
      return py::bytes(text.data(), text.size());
    }
    case AttributeKind::kTensor:
      return attribute.t != nullptr ? py::cast(Ref<Tensor>(holder, attribute.t)) : py::none();
    case AttributeKind::kGraph:
      return attribute.g != nullptr ? py::cast(Ref<Graph>(holder, attribute.g)) : py::none();
    case AttributeKind::kFloats:
      return py::cast(std::vector<float>(attribute.floats.begin(), attribute.floats.end()));
    case AttributeKind::kInts:
      return py::cast(std::vector<int64_t>(attribute.ints.begin(), attribute.ints.end()));
    case AttributeKind::kStrings: {
      py::list result;
      for (std::string_view text : rare.strings) result.append(pythonText(text));
      return result;
    }
    case AttributeKind::kTensors: return tensors(rare.tensors);
    case AttributeKind::kGraphs: {
      py::list result;
      for (Graph* graph : rare.graphs) result.append(Ref<Graph>(holder, graph));
      return result;
    }
    case AttributeKind::kTypeProto: return typeOrNone(holder, rare.tp);
    case AttributeKind::kTypeProtos: {
      py::list result;
      for (Type* type : rare.type_protos) result.append(Ref<Type>(holder, type));
      return result;
    }
    case AttributeKind::kSparseTensor:
    case AttributeKind::kSparseTensors:
    case AttributeKind::kUndefined: break;
  }
  return py::none();
}

// ---- nodes -----------------------------------------------------------------------------------

}  // namespace

void setAttribute(const Ref<Node>& ref, const std::string& name, py::handle value) {
  Node* node = liveNode(ref);
  GraphEditor edit(ref.model());
  const HolderPtr& holder = ref.holder;
  if (py::isinstance<py::bool_>(value) || py::isinstance<py::int_>(value)) {
    edit.setIntAttr(node, name, value.cast<int64_t>());
  } else if (py::isinstance<py::float_>(value)) {
    edit.setFloatAttr(node, name, value.cast<float>());
  } else if (py::isinstance<py::str>(value) || py::isinstance<py::bytes>(value)) {
    edit.setStringAttr(node, name, value.cast<std::string>());
  } else if (py::isinstance<Ref<Type>>(value)) {
    edit.setTypeAttr(node, name, typeIn(holder, value));
  } else if (py::isinstance<Ref<Tensor>>(value) || py::isinstance<py::array>(value)) {
    edit.setTensorAttr(node, name, tensorIn(holder, value));
  } else if (py::isinstance<py::list>(value) || py::isinstance<py::tuple>(value)) {
    py::sequence items = py::reinterpret_borrow<py::sequence>(value);
    bool all_ints = true, all_numbers = true, all_strings = true, all_tensors = true;
    for (py::handle item : items) {
      const bool is_int = py::isinstance<py::int_>(item);
      all_ints = all_ints && is_int;
      all_numbers = all_numbers && (is_int || py::isinstance<py::float_>(item));
      all_strings =
          all_strings && (py::isinstance<py::str>(item) || py::isinstance<py::bytes>(item));
      all_tensors = all_tensors && py::isinstance<Ref<Tensor>>(item);
    }
    if (items.size() == 0) {
      throw py::value_error(fmt::format(
          "attribute {}: an empty list does not say its kind; remove the attribute or give "
          "at least one element",
          onyx::quoted(name)));
    }
    if (all_ints) {
      edit.setIntsAttr(node, name, items.cast<std::vector<int64_t>>());
    } else if (all_numbers) {
      edit.setFloatsAttr(node, name, items.cast<std::vector<float>>());
    } else if (all_strings) {
      std::vector<std::string> strings = items.cast<std::vector<std::string>>();
      std::vector<std::string_view> views(strings.begin(), strings.end());
      edit.setStringsAttr(node, name, views);
    } else if (all_tensors) {
      std::vector<Tensor*> list;
      for (py::handle item : items) list.push_back(tensorIn(holder, item));
      edit.setTensorsAttr(node, name, list);
    } else {
      throw py::type_error(
          fmt::format("attribute {}: a list attribute holds ints, floats, strings or onyx.Tensors",
                      onyx::quoted(name)));
    }
  } else {
    throw py::type_error(fmt::format("attribute {}: onyx cannot make an attribute of a {}",
                                     onyx::quoted(name),
                                     std::string(py::str(value.get_type().attr("__name__")))));
  }
  ref.changed();
}

Node* nodeIn(const HolderPtr& holder, const Ref<Node>& ref, const char* what) {
  if (ref.holder != holder) raiseValueError(fmt::format("{} belongs to another model", what));
  return liveNode(ref);
}

Node* nodeOrNull(const HolderPtr& holder, py::handle given, const char* what) {
  if (given.is_none()) return nullptr;
  return nodeIn(holder, given.cast<Ref<Node>>(), what);
}

Value* valueOrNull(const HolderPtr& holder, py::handle given, const char* what) {
  if (given.is_none()) return nullptr;
  if (!isValue(given)) {
    throw py::type_error(fmt::format("{}: expected an onyx.Value or None, got {}", what,
                                     std::string(py::str(given.get_type().attr("__name__")))));
  }
  const auto ref = given.cast<Ref<Value>>();
  if (ref.holder != holder) raiseValueError(fmt::format("{} belongs to another model", what));
  return liveValue(ref);
}

Tensor* tensorIn(const HolderPtr& holder, py::handle given) {
  if (py::isinstance<Ref<Tensor>>(given)) {
    const auto& ref = given.cast<const Ref<Tensor>&>();
    // A copy of the message (its bytes shared, not copied): the model may rename it, and the
    // tensor stays as it is where it came from.
    if (ref.holder != holder) holder->model.shareBytesOf(ref.holder->model);
    return GraphEditor(holder->model).cloneTensor(*ref.ptr);
  }
  return GraphEditor(holder->model).tensorFromArray(arrayOfPython(given, std::nullopt, "tensor"));
}

std::vector<Value*> valuesOf(const HolderPtr& holder, py::handle list, const char* what) {
  std::vector<Value*> values;
  for (py::handle item : list) values.push_back(valueOrNull(holder, item, what));
  return values;
}

void applyNodeFields(const Ref<Node>& ref, const std::optional<std::string>& domain,
                     const std::optional<std::string>& name, const py::object& attributes) {
  GraphEditor edit(ref.model());
  if (domain) ref.ptr->domain = edit.arena().copy(*domain);
  if (name) ref.ptr->name = edit.arena().copy(*name);
  if (!attributes.is_none()) {
    for (auto item : py::reinterpret_borrow<py::dict>(attributes)) {
      setAttribute(ref, item.first.cast<std::string>(), item.second);
    }
  }
}

// Dims given from Python: int (a size), str (a symbol) or None (unknown), in a list or tuple.
std::vector<Dim> dimsOfPython(py::handle shape) {
  if (py::isinstance<py::str>(shape) || !py::isinstance<py::sequence>(shape)) {
    throw py::type_error("a shape is a list of int, str (a symbol) or None, or None");
  }
  std::vector<Dim> dims;
  for (py::handle dim : shape) {
    if (dim.is_none()) {
      dims.emplace_back();
    } else if (py::isinstance<py::str>(dim)) {
      dims.emplace_back(std::string_view(PyUnicode_AsUTF8(dim.ptr())));
    } else if (py::isinstance<py::int_>(dim)) {
      int64_t size = dim.cast<int64_t>();
      if (size < 0) raiseValueError(fmt::format("a dimension cannot be negative: {}", size));
      dims.emplace_back(size);
    } else {
      throw py::type_error(fmt::format("a dimension is an int, a str or None, not {}",
                                       std::string(py::str(dim.get_type().attr("__name__")))));
    }
  }
  return dims;
}

// The dims `value` is declared with, as the type builders take them; nullopt for no shape.
std::optional<std::vector<Dim>> shapeOf(const Value* value) {
  const TensorShape* shape = value->shape();
  if (shape == nullptr) return std::nullopt;
  return dimsOf(*shape);
}

// Declares `value` a tensor of `elem_type` (nullopt: not set) and `dims` (nullopt: unknown
// rank): what setting a Value's dtype or shape does. Refused for a value declared another
// kind (a sequence has no shape of its own to set).
void setTensorType(const Ref<Value>& ref, Value* value, std::optional<int32_t> elem_type,
                   const std::optional<std::vector<Dim>>& dims) {
  const Type* declared = value->type();
  if (declared != nullptr && declared->kind != Type::Kind::kTensor &&
      declared->kind != Type::Kind::kNone) {
    raiseValueError(fmt::format("{} is declared {}: dtype and shape are a tensor's; set its type",
                                onyx::quoted(value->name()), printType(*declared)));
  }
  GraphEditor edit(ref.model());
  Type* type = dims ? edit.tensorType(elem_type.value_or(0), std::span<const Dim>(*dims))
                    : edit.tensorTypeOfUnknownRank(elem_type.value_or(0));
  if (!elem_type) type->elem_type = std::nullopt;
  edit.setType(value, type);
  ref.changed();
}

void bindTypes(py::module_& module) {
  py::class_<Ref<Type>>(module, "Type",
                        "A value's type: a tensor's element type and shape, or a sequence, "
                        "map, optional or sparse tensor type. str() gives its text.")
      .def_property_readonly(
          "kind", [](const Ref<Type>& ref) { return std::string(typeKindName(ref.ptr->kind)); },
          "'tensor', 'sequence', 'map', 'optional', 'sparse_tensor', 'opaque' or 'none'.")
      .def_property_readonly(
          "dtype",
          [](const Ref<Type>& ref) -> py::object {
            if (!ref.ptr->elem_type) return py::none();
            return py::cast(static_cast<ElementType>(*ref.ptr->elem_type));
          },
          "A tensor type's element type (DataType), or None.")
      .def_property_readonly(
          "shape", [](const Ref<Type>& ref) { return shapeTuple(ref.ptr->shape); },
          "A tensor type's dims (int, str for a symbol, None for unknown), or None when the "
          "rank is unknown.")
      .def_property_readonly(
          "elem_type", [](const Ref<Type>& ref) { return typeOrNone(ref.holder, ref.ptr->elem); },
          "The element type of a sequence or optional, the value type of a map.")
      .def("__str__", [](const Ref<Type>& ref) { return printType(*ref.ptr); })
      .def("__repr__",
           [](const Ref<Type>& ref) { return fmt::format("<onyx.Type {}>", printType(*ref.ptr)); })
      .def("__eq__", [](const Ref<Type>& a, const Ref<Type>& b) {
        return printType(*a.ptr) == printType(*b.ptr);
      });
}

void bindAttributes(py::module_& module) {
  py::class_<Ref<Attribute>>(module, "Attribute", "A node's attribute: its name, kind and value.")
      .def_property_readonly(
          "name", [](const Ref<Attribute>& ref) { return pythonText(ref.ptr->nameOrEmpty()); },
          "The attribute's name.")
      .def_property_readonly(
          "type",
          [](const Ref<Attribute>& ref) { return std::string(attributeTypeName(ref.ptr->kind())); },
          "AttributeProto.AttributeType's name: 'INT', 'FLOATS', 'GRAPH', ...")
      .def_property_readonly(
          "value", [](const Ref<Attribute>& ref) { return attributeValue(ref.holder, *ref.ptr); },
          "int, float, str, a list of them, Tensor, Graph, Type or a list of those; None for "
          "a reference to a function's attribute (see ref_attr_name).")
      .def_property_readonly(
          "ref_attr_name",
          [](const Ref<Attribute>& ref) { return optionalText(ref.ptr->rare().ref_attr_name); },
          "In a function body: the calling node's attribute this one takes its value from.")
      .def("__repr__", [](const Ref<Attribute>& ref) {
        std::string value = py::repr(attributeValue(ref.holder, *ref.ptr));
        if (ref.ptr->isReference()) value = fmt::format("@{}", *ref.ptr->rare().ref_attr_name);
        return fmt::format("<onyx.Attribute {}={}>", ref.ptr->nameOrEmpty(), value);
      });

  // onyx.Value's type, name, repr, == and hash are C (fast_objects.cc); the rest is here.
}

void bindValues(py::module_&) {  // onyx.Value is made by makeFastTypes
  ExtraMembers(valueType())
      .def_property(
          "type",
          [](const Ref<Value>& ref) { return typeOrNone(ref.holder, liveValue(ref)->type()); },
          [](const Ref<Value>& ref, py::object type) {
            Value* value = liveValue(ref);
            GraphEditor(ref.model())
                .setType(value, type.is_none() ? nullptr : typeIn(ref.holder, type));
            ref.changed();
          },
          "Its declared Type, or None. Set it with an onyx.Type or its text ('float[N,3]').")
      .def_property(
          "dtype",
          [](const Ref<Value>& ref) -> py::object {
            std::optional<int32_t> type = liveValue(ref)->elemType();
            if (!type) return py::none();
            return py::cast(static_cast<ElementType>(*type));
          },
          [](const Ref<Value>& ref, py::object dtype) {
            Value* value = liveValue(ref);
            std::optional<int32_t> elem_type;
            if (!dtype.is_none()) elem_type = dtype.cast<int32_t>();
            setTensorType(ref, value, elem_type, shapeOf(value));
          },
          "The element type of a tensor value (DataType), or None. Setting it declares a "
          "tensor type of that element type, keeping the shape.")
      .def_property(
          "shape", [](const Ref<Value>& ref) { return shapeTuple(liveValue(ref)->shape()); },
          [](const Ref<Value>& ref, py::object shape) {
            Value* value = liveValue(ref);
            std::optional<std::vector<Dim>> dims;
            if (!shape.is_none()) dims = dimsOfPython(shape);
            setTensorType(ref, value, value->elemType(), dims);
          },
          "A tensor value's dims (int, str for a symbol, None for unknown), or None. Setting "
          "it (a list of those, or None for an unknown rank) declares a tensor type of that "
          "shape, keeping the element type: value.shape = [1, 3, 'H', 'W'].")
      .def_property_readonly(
          "graph",
          [](const Ref<Value>& ref) { return Ref<Graph>(ref.holder, liveValue(ref)->graph()); },
          "The graph whose scope defines it.")
      .def(
          "producer",
          [](const Ref<Value>& ref) -> py::object {
            Node* node = liveValue(ref)->producer();
            if (node == nullptr) return py::none();
            return py::cast(Ref<Node>(ref.holder, node));
          },
          "The node whose output it is, or None.")
      .def(
          "index",
          [](const Ref<Value>& ref) -> py::object {
            Value* value = liveValue(ref);
            if (value->producer() == nullptr) return py::none();
            return py::int_(value->outputIndex());
          },
          "Which output of its producer it is, or None.")
      .def(
          "uses",
          [](const Ref<Value>& ref) {
            py::list uses;
            for (const Use& use : liveValue(ref)->uses()) {
              if (use.isGraphOutput()) continue;
              uses.append(py::make_tuple(Ref<Node>(ref.holder, use.user()), use.index()));
            }
            return uses;
          },
          "Each node input that reads it, as (node, input index), subgraphs' included; graph "
          "outputs are not uses here (is_graph_output()).")
      .def(
          "consumers",
          [](const Ref<Value>& ref) {
            py::list nodes;
            std::vector<const Node*> seen;
            for (const Use& use : liveValue(ref)->uses()) {
              if (use.isGraphOutput()) continue;
              if (std::find(seen.begin(), seen.end(), use.user()) != seen.end()) continue;
              seen.push_back(use.user());
              nodes.append(Ref<Node>(ref.holder, use.user()));
            }
            return nodes;
          },
          "The nodes that read it, each once.")
      .def_property_readonly(
          "const_value",
          [](const Ref<Value>& ref) -> py::object {
            Tensor* tensor = liveValue(ref)->initializer();
            if (tensor == nullptr) return py::none();
            return py::cast(Ref<Tensor>(ref.holder, tensor));
          },
          "The initializer's Tensor, or None.")
      .def(
          "is_graph_input", [](const Ref<Value>& ref) { return liveValue(ref)->isGraphInput(); },
          "Whether it is an input of its graph.")
      .def(
          "is_graph_output",
          [](const Ref<Value>& ref) { return liveValue(ref)->isGraphOutputOfItsGraph(); },
          "Whether it is an output of its graph.")
      .def(
          "is_initializer", [](const Ref<Value>& ref) { return liveValue(ref)->isInitializer(); },
          "Whether an initializer (dense or sparse) defines it.")
      .def(
          "replace_all_uses_with",
          [](const Ref<Value>& ref, const Ref<Value>& other) {
            checkSameModel(ref, other);
            liveValue(ref)->replaceAllUsesWith(liveValue(other));
            ref.changed();
          },
          py::arg("other"),
          "Points every reader of this value (graph outputs included) at `other`.");

  // onyx.Node's type, op_type, domain, name, inputs, outputs, repr, == and hash are C
  // (fast_objects.cc); the rest is here.
}

void bindNodes(py::module_&) {  // onyx.Node is made by makeFastTypes
  ExtraMembers(nodeType())
      .def_property_readonly(
          "attributes",
          [](const Ref<Node>& ref) {
            py::dict attributes;
            for (Attribute* attribute : liveNode(ref)->attributes) {
              attributes[pythonText(attribute->nameOrEmpty())] =
                  Ref<Attribute>(ref.holder, attribute);
            }
            return attributes;
          },
          "Its attributes by name (a new dict each time; change them with set_attribute).")
      .def_property_readonly(
          "graph",
          [](const Ref<Node>& ref) { return Ref<Graph>(ref.holder, liveNode(ref)->graph()); },
          "The graph whose node it is.")
      .def(
          "attribute",
          [](const Ref<Node>& ref, const std::string& name, py::object default_value) {
            const Attribute* attribute = liveNode(ref)->attribute(name);
            if (attribute == nullptr) return default_value;
            return attributeValue(ref.holder, *attribute);
          },
          py::arg("name"), py::arg("default") = py::none(),
          "The value of attribute `name`, or `default` when the node has none.")
      .def(
          "set_attribute",
          [](const Ref<Node>& ref, const std::string& name, py::handle value) {
            Node* node = liveNode(ref);
            if (!node->isAttached()) return setAttribute(ref, name, value);  // a patch's own
            // A node of a graph changes through a Patch, as every edit of the graph does.
            Patch patch(ref.model(), *node->graph());
            setAttribute(Ref<Node>(ref.holder, &patch.attributesFor(node), true), name, value);
            check(patch.apply(), "cannot set the attribute");
            ref.changed();
          },
          py::arg("name"), py::arg("value"),
          "Sets attribute `name`; the kind follows the value: int, float, str, a list of one "
          "of them, a Tensor or NumPy array, a Type.")
      .def(
          "remove_attribute",
          [](const Ref<Node>& ref, const std::string& name) {
            Node* node = liveNode(ref);
            if (!node->hasAttr(name)) return false;
            if (!node->isAttached()) return node->removeAttr(name);  // a patch's own node
            Patch patch(ref.model(), *node->graph());
            patch.removeAttribute(node, name);
            check(patch.apply(), "cannot remove the attribute");
            ref.changed();
            return true;
          },
          py::arg("name"), "Removes attribute `name`; False when the node has none.")
      .def(
          "replace_input_with",
          [](const Ref<Node>& ref, size_t index, py::object value) {
            Node* node = liveNode(ref);
            if (index >= node->inputCount()) {
              throw py::index_error(
                  fmt::format("{} has {} inputs", nodeRepr(ref), node->inputCount()));
            }
            node->setInput(index, valueOrNull(ref.holder, value, "the new input"));
            ref.changed();
          },
          py::arg("index"), py::arg("value"), "Points input `index` at `value` (None: omitted).");
}

void bindGraphs(py::module_& module) {
  py::class_<Ref<Graph>>(module, "Graph",
                         "A graph: its nodes in order (iterating yields them), inputs, outputs "
                         "and initializers.")
      .def("__iter__",
           [](const Ref<Graph>& ref) {
             return nodeIterator(ref.holder, liveGraph(ref)->firstNode());
           })
      .def("__len__", [](const Ref<Graph>& ref) { return liveGraph(ref)->nodeCount(); })
      .def_property(
          "name", [](const Ref<Graph>& ref) { return optionalText(liveGraph(ref)->name); },
          [](const Ref<Graph>& ref, const std::string& name) {
            liveGraph(ref)->name = GraphEditor(ref.model()).arena().copy(name);
            ref.changed();
          },
          "The graph's name, or None.")
      .def_property_readonly(
          "inputs",
          [](const Ref<Graph>& ref) {
            py::list inputs;
            for (const ValueInfo* info : liveGraph(ref)->inputs)
              inputs.append(valueOrNone(ref.holder, info->value));
            return inputs;
          },
          "The graph inputs, in order.")
      .def_property_readonly(
          "outputs",
          [](const Ref<Graph>& ref) {
            py::list outputs;
            for (const ValueInfo* info : liveGraph(ref)->outputs) {
              outputs.append(valueOrNone(ref.holder, info->bound()));
            }
            return outputs;
          },
          "The graph outputs, in order.")
      .def_property_readonly(
          "initializers",
          [](const Ref<Graph>& ref) {
            py::dict initializers;
            const Graph* graph = liveGraph(ref);
            for (const Tensor* tensor : graph->initializers) {
              Value* value = graph->names().find(tensor->nameOrEmpty());
              if (value != nullptr)
                initializers[pythonText(value->name())] = Ref<Value>(ref.holder, value);
            }
            return initializers;
          },
          "The initialized values by name (a new dict each time); value.const_value is the "
          "Tensor.")
      .def_property_readonly(
          "parent",
          [](const Ref<Graph>& ref) -> py::object {
            Graph* parent = liveGraph(ref)->parent();
            if (parent == nullptr) return py::none();
            return py::cast(Ref<Graph>(ref.holder, parent));
          },
          "The enclosing graph of a subgraph; None for a main graph or function body.")
      .def(
          "node",
          [](const Ref<Graph>& ref, py::object key) -> Ref<Node> {
            const Graph* graph = liveGraph(ref);
            if (py::isinstance<py::int_>(key)) {
              auto index = key.cast<int64_t>();
              if (index < 0) index += static_cast<int64_t>(graph->nodeCount());
              int64_t i = 0;
              for (Node* node : graph->nodes()) {
                if (i++ == index) return Ref<Node>(ref.holder, node);
              }
              throw py::index_error(fmt::format("the graph has {} nodes", graph->nodeCount()));
            }
            const auto name = key.cast<std::string>();
            for (Node* node : graph->nodes()) {
              if (node->nameOrEmpty() == name) return Ref<Node>(ref.holder, node);
            }
            throw py::key_error(fmt::format("no node named {} in this graph", onyx::quoted(name)));
          },
          py::arg("index_or_name"), "The node at an index of the node list, or named so.")
      .def(
          "value",
          [](const Ref<Graph>& ref, const std::string& name) {
            return valueOrNone(ref.holder, liveGraph(ref)->lookup(name));
          },
          py::arg("name"), "The value `name` resolves to in this graph's scope, or None.")
      .def(
          "add_node",
          [](const Ref<Graph>& ref, const std::string& op_type, py::sequence inputs, size_t outputs,
             std::optional<std::string> domain, std::optional<std::string> name,
             py::object attributes, py::object before, py::object after) {
            Graph* graph = liveGraph(ref);
            std::vector<Value*> reads = valuesOf(ref.holder, inputs, "an input");
            Node* before_node = nodeOrNull(ref.holder, before, "`before`");
            Node* after_node = nodeOrNull(ref.holder, after, "`after`");
            for (Node* anchor : {before_node, after_node}) {
              if (anchor != nullptr && anchor->graph() != graph) {
                raiseValueError("`before` / `after` must be a node of this graph");
              }
            }
            for (Value* read : reads) {
              if (read != nullptr && graph->lookup(read->name()) != read) {
                raiseValueError(fmt::format("the value {} is not visible from this graph",
                                            onyx::quoted(read->name())));
              }
            }
            Node* node = GraphEditor(ref.model()).createNode(*graph, op_type, reads, outputs);
            Ref<Node> result(ref.holder, node);
            if (before_node != nullptr) {
              node->insertBefore(before_node);
            } else if (after_node != nullptr) {
              node->insertAfter(after_node);
            } else {
              graph->appendNode(node);
            }
            applyNodeFields(result, domain, name, attributes);
            ref.changed();
            return result;
          },
          py::arg("op_type"), py::arg("inputs") = py::tuple(), py::kw_only(),
          py::arg("outputs") = 1, py::arg("domain") = py::none(), py::arg("name") = py::none(),
          py::arg("attributes") = py::none(), py::arg("before") = py::none(),
          py::arg("after") = py::none(),
          "A new node reading `inputs` (Values, None for omitted) with `outputs` fresh-named "
          "outputs, put last, or just before `before` / after `after`.")
      .def(
          "remove",
          [](const Ref<Graph>& ref, const Ref<Node>& node) {
            checkSameModel(ref, node);
            check(liveGraph(ref)->removeNode(liveNode(node)), "cannot remove the node");
            ref.changed();
          },
          py::arg("node"), "Removes `node`; refused while something reads its outputs.")
      .def(
          "add_input",
          [](const Ref<Graph>& ref, const std::string& name, py::object type) {
            Graph* graph = liveGraph(ref);
            Type* declared = type.is_none() ? nullptr : typeIn(ref.holder, type);
            Value* value = unwrap(GraphEditor(ref.model()).addInput(*graph, name, declared),
                                  "cannot add the input");
            ref.changed();
            return Ref<Value>(ref.holder, value);
          },
          py::arg("name"), py::arg("type") = py::none(),
          "Declares a graph input of `type` (an onyx.Type or its text).")
      .def(
          "add_output",
          [](const Ref<Graph>& ref, const Ref<Value>& value) {
            checkSameModel(ref, value);
            GraphEditor(ref.model()).addOutput(*liveGraph(ref), liveValue(value));
            ref.changed();
          },
          py::arg("value"), "Makes `value` a graph output.")
      .def(
          "add_initializer",
          [](const Ref<Graph>& ref, py::object tensor, std::optional<std::string> name) {
            Graph* graph = liveGraph(ref);
            Tensor* held = tensorIn(ref.holder, tensor);
            if (name) held->name = GraphEditor(ref.model()).arena().copy(*name);
            Value* value = unwrap(GraphEditor(ref.model()).addInitializer(*graph, held),
                                  "cannot add the initializer");
            ref.changed();
            return Ref<Value>(ref.holder, value);
          },
          py::arg("tensor"), py::arg("name") = py::none(),
          "Adds an initializer holding `tensor` (an onyx.Tensor, or an array to copy).")
      .def(
          "sort",
          [](const Ref<Graph>& ref) {
            std::vector<Node*> cycle;
            Status sorted = topologicalSort(*liveGraph(ref), &cycle);
            ref.changed();
            check(sorted, "cannot sort the graph");
          },
          "Puts the nodes in topological order (each after the nodes it reads from).")
      .def("__repr__",
           [](const Ref<Graph>& ref) {
             const Graph& graph = *ref.ptr;
             if (graph.name)
               return fmt::format("<onyx.Graph {} nodes={}>", onyx::quoted(*graph.name),
                                  graph.nodeCount());
             return fmt::format("<onyx.Graph nodes={}>", graph.nodeCount());
           })
      .def("__eq__", [](const Ref<Graph>& a, const Ref<Graph>& b) { return a.ptr == b.ptr; })
      .def("__hash__", [](const Ref<Graph>& ref) { return std::hash<const void*>()(ref.ptr); });
}

void bindFunctions(py::module_& module) {
  py::class_<Ref<Function>>(module, "Function",
                            "A model-local function: its id, formal inputs and outputs, and "
                            "body (iterating yields its nodes).")
      .def_property_readonly(
          "name", [](const Ref<Function>& ref) { return pythonText(ref.ptr->nameOrEmpty()); },
          "Its name: what a node calling it has as op_type.")
      .def_property_readonly(
          "domain", [](const Ref<Function>& ref) { return pythonText(ref.ptr->domainOrEmpty()); },
          "The domain a node calling it names.")
      .def_property_readonly(
          "overload",
          [](const Ref<Function>& ref) { return pythonText(ref.ptr->overloadOrEmpty()); },
          "The overload a node calling it names (from IR 10), or ''.")
      .def_property_readonly(
          "inputs",
          [](const Ref<Function>& ref) {
            py::list inputs;
            for (Value* value : ref.ptr->inputs) inputs.append(valueOrNone(ref.holder, value));
            return inputs;
          },
          "Its formal inputs, values of the body.")
      .def_property_readonly(
          "outputs",
          [](const Ref<Function>& ref) {
            py::list outputs;
            for (const Use* use : ref.ptr->outputs)
              outputs.append(valueOrNone(ref.holder, use->value()));
            return outputs;
          },
          "Its formal outputs, values of the body.")
      .def_property_readonly(
          "attributes",
          [](const Ref<Function>& ref) {
            py::list names;
            for (std::string_view name : ref.ptr->attribute) names.append(pythonText(name));
            for (const Attribute* attribute : ref.ptr->attribute_proto) {
              names.append(pythonText(attribute->nameOrEmpty()));
            }
            return names;
          },
          "The names of the attributes it takes.")
      .def_property_readonly(
          "graph",
          [](const Ref<Function>& ref) { return Ref<Graph>(ref.holder, liveFunction(ref)->body); },
          "The body.")
      .def("__iter__",
           [](const Ref<Function>& ref) {
             return nodeIterator(ref.holder, liveFunction(ref)->body->firstNode());
           })
      .def("__len__", [](const Ref<Function>& ref) { return ref.ptr->body->nodeCount(); })
      .def("__repr__", [](const Ref<Function>& ref) {
        const Function& function = *ref.ptr;
        if (function.domainOrEmpty().empty())
          return fmt::format("<onyx.Function {}>", onyx::quoted(function.nameOrEmpty()));
        return fmt::format(
            "<onyx.Function {}>",
            onyx::quoted(fmt::format("{}.{}", function.domainOrEmpty(), function.nameOrEmpty())));
      });
}

}  // namespace onyx::python
