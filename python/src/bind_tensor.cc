// bind_tensor.cc — onyx.DataType, onyx.Tensor and onyx.tensor().
#include <fmt/format.h>
#include <pybind11/stl.h>

#include <string>
#include <vector>

#include "arrays.h"
#include "bindings.h"
#include "onyx/core/quote.h"
#include "onyx/ir/editor.h"
#include "onyx/ir/tensor_array.h"
#include "onyx/ir/tensor_data.h"

namespace onyx::python {
namespace {

std::string dimsText(const Tensor& tensor) {
  return fmt::format("[{}]", fmt::join(tensor.dims, ","));
}

std::string tensorRepr(const Ref<Tensor>& ref) {
  const Tensor& tensor = *ref.ptr;
  std::string type(elementTypeName(tensor.data_type.value_or(0)));
  if (tensor.name)
    return fmt::format("<onyx.Tensor {} {}{}>", onyx::quoted(*tensor.name), type, dimsText(tensor));
  return fmt::format("<onyx.Tensor {}{}>", type, dimsText(tensor));
}

}  // namespace

void bindElementTypes(py::module_& module) {
  py::enum_<ElementType> data_type(module, "DataType", py::arithmetic(),
                                   "TensorProto.DataType: an element type, by its code on the "
                                   "wire.");
  data_type.value("UNDEFINED", ElementType::kUndefined);
  for (const ElementTypeInfo& info : kElementTypeTable) {
    const std::string name(info.name);  // the table's names are not NUL-terminated
    data_type.value(name.c_str(), info.type);
  }
}

void bindTensors(py::module_& module) {
  py::class_<Ref<Tensor>>(module, "Tensor",
                          "A tensor of a model (an initializer, an attribute's value): its "
                          "type, dims and elements, which numpy() gives without a copy.")
      .def_property_readonly(
          "name",
          [](const Ref<Tensor>& ref) -> py::object {
            if (!ref.ptr->name) return py::none();
            return py::str(std::string(*ref.ptr->name));
          },
          "The tensor's name, or None.")
      .def_property_readonly(
          "dtype",
          [](const Ref<Tensor>& ref) {
            return static_cast<ElementType>(ref.ptr->data_type.value_or(0));
          },
          "Its element type (DataType).")
      .def_property_readonly(
          "shape",
          [](const Ref<Tensor>& ref) {
            return py::tuple(
                py::cast(std::vector<int64_t>(ref.ptr->dims.begin(), ref.ptr->dims.end())));
          },
          "Its dims, a tuple of ints.")
      .def_property_readonly(
          "size",
          [](const Ref<Tensor>& ref) {
            int64_t count = 1;
            for (int64_t dim : ref.ptr->dims) count *= dim;
            return count;
          },
          "The number of elements.")
      .def_property_readonly(
          "is_external", [](const Ref<Tensor>& ref) { return ref.ptr->isExternal(); },
          "Whether its bytes are in an external data file.")
      .def(
          "numpy", [](const Ref<Tensor>& ref) { return numpyOfTensor(ref.holder, *ref.ptr); },
          "The elements as a NumPy array. Where the bytes lie in the file (or in the model's "
          "memory) as NumPy lays them out, the array is a read-only view of them, with no "
          "copy; otherwise (typed data fields, strings, 4-bit types, weights computed on "
          "demand) a converted copy.")
      .def(
          "__array__",
          [](const Ref<Tensor>& ref, py::object dtype) -> py::object {
            py::array array = numpyOfTensor(ref.holder, *ref.ptr);
            if (dtype.is_none()) return array;
            return array.attr("astype")(dtype);
          },
          py::arg("dtype") = py::none())
      .def("__repr__", tensorRepr)
      .def("__eq__", [](const Ref<Tensor>& a, const Ref<Tensor>& b) { return a.ptr == b.ptr; })
      .def("__hash__", [](const Ref<Tensor>& ref) { return std::hash<const void*>()(ref.ptr); });

  module.def(
      "tensor",
      [](py::object value, std::optional<ElementType> dtype, std::optional<std::string> name) {
        Array array = arrayOfPython(value, dtype, "tensor");
        if (dtype && *dtype != array.type()) {
          throw py::type_error(fmt::format("tensor: the array's dtype is not the storage of {}",
                                           elementTypeName(*dtype)));
        }
        HolderPtr holder = makeHolder(Model());
        Tensor* tensor = GraphEditor(holder->model).tensorFromArray(array);
        if (name) tensor->name = GraphEditor(holder->model).arena().copy(*name);
        return Ref<Tensor>(holder, tensor);
      },
      py::arg("value"), py::arg("dtype") = py::none(), py::arg("name") = py::none(),
      "A new tensor holding a copy of `value` (a NumPy array, or what np.asarray takes). "
      "`dtype` picks a type NumPy lacks from its storage: DataType.BFLOAT16 for uint16 bits.");
}

}  // namespace onyx::python
