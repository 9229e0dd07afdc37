// arrays.cc — NumPy arrays to and from onyx's Arrays, tensors and evaluator values.
#include "arrays.h"

#include <fmt/format.h>

#include <cstring>
#include <string>
#include <vector>

#include "onyx/ir/tensor_array.h"
#include "onyx/ir/tensor_data.h"

namespace onyx::python {
namespace {

// The dtype character code of each element type's storage, by code (index 0: UNDEFINED).
constexpr char kStorageCodes[] = {
    '\0',  // UNDEFINED
    'f',   // FLOAT (float32)
    'B',   // UINT8
    'b',   // INT8
    'H',   // UINT16
    'h',   // INT16
    'i',   // INT32
    'q',   // INT64
    'O',   // STRING
    '?',   // BOOL
    'e',   // FLOAT16
    'd',   // DOUBLE
    'I',   // UINT32
    'Q',   // UINT64
    'F',   // COMPLEX64
    'D',   // COMPLEX128
    'H',   // BFLOAT16: bits
    'B',   // FLOAT8E4M3FN: bits
    'B',   // FLOAT8E4M3FNUZ
    'B',   // FLOAT8E5M2
    'B',   // FLOAT8E5M2FNUZ
    'B',   // UINT4: one per byte
    'b',   // INT4: sign-extended
    'B',   // FLOAT4E2M1: the code
    'B',   // FLOAT8E8M0: bits
    'B',   // UINT2
    'b',   // INT2
};
static_assert(sizeof(kStorageCodes) == 27);

// Keeps an Array (and so its elements) alive as a NumPy array's base.
py::capsule capsuleOwning(Array array) {
  auto* owned = new Array(std::move(array));
  return py::capsule(owned, [](void* pointer) { delete static_cast<Array*>(pointer); });
}

py::object pythonString(const std::string& text) {
  PyObject* decoded =
      PyUnicode_DecodeUTF8(text.data(), static_cast<Py_ssize_t>(text.size()), nullptr);
  if (decoded != nullptr) return py::reinterpret_steal<py::object>(decoded);
  PyErr_Clear();
  return py::bytes(text);
}

std::string stringOfPython(py::handle item, const std::string& what) {
  if (py::isinstance<py::bytes>(item)) return item.cast<std::string>();
  if (py::isinstance<py::str>(item)) return item.cast<std::string>();
  throw py::type_error(fmt::format("{}: a STRING tensor holds str or bytes, not {}", what,
                                   std::string(py::str(item.get_type().attr("__name__")))));
}

std::vector<int64_t> shapeOf(const py::array& array) {
  std::vector<int64_t> shape(static_cast<size_t>(array.ndim()));
  for (size_t axis = 0; axis < shape.size(); ++axis) {
    shape[axis] = static_cast<int64_t>(array.shape(static_cast<py::ssize_t>(axis)));
  }
  return shape;
}

}  // namespace

std::optional<ElementType> naturalElementType(const py::dtype& dtype) {
  switch (dtype.kind()) {
    case 'b': return ElementType::kBool;
    case 'O':
    case 'U':
    case 'S': return ElementType::kString;
    default: break;
  }
  const char code = dtype.char_();
  switch (code) {
    case 'f': return ElementType::kFloat;
    case 'd': return ElementType::kDouble;
    case 'e': return ElementType::kFloat16;
    case 'F': return ElementType::kComplex64;
    case 'D': return ElementType::kComplex128;
    default: break;
  }
  if (dtype.kind() == 'i' || dtype.kind() == 'u') {
    const bool is_signed = dtype.kind() == 'i';
    switch (dtype.itemsize()) {
      case 1: return is_signed ? ElementType::kInt8 : ElementType::kUint8;
      case 2: return is_signed ? ElementType::kInt16 : ElementType::kUint16;
      case 4: return is_signed ? ElementType::kInt32 : ElementType::kUint32;
      case 8: return is_signed ? ElementType::kInt64 : ElementType::kUint64;
      default: break;
    }
  }
  return std::nullopt;
}

py::dtype numpyDtypeOf(ElementType type) {
  const auto code = static_cast<size_t>(type);
  if (code == 0 || code >= sizeof(kStorageCodes)) {
    throw py::value_error(fmt::format("no NumPy dtype for element type {}", code));
  }
  return py::dtype(std::string(1, kStorageCodes[code]));
}

py::array numpyOfArray(Array array) {
  std::vector<py::ssize_t> shape(array.shape().begin(), array.shape().end());
  if (array.isString()) {
    py::array result(py::dtype("O"), shape);
    auto** items = static_cast<PyObject**>(result.mutable_data());
    const std::vector<std::string>& strings = array.strings();
    for (size_t i = 0; i < strings.size(); ++i) {
      Py_XDECREF(items[i]);
      items[i] = pythonString(strings[i]).release().ptr();
    }
    return result;
  }
  // A borrowed array's elements are a model's constant, read-only and shared by sessions
  // (an initializer given back as an output, or an Identity of one): the caller gets a copy
  // to change, as for any other output.
  if (array.borrowed()) array = array.clone();
  py::dtype dtype = numpyDtypeOf(array.type());
  void* data = array.bytes().data();
  return py::array(dtype, shape, {}, data, capsuleOwning(std::move(array)));
}

py::object pythonOfValue(EvalValue value) {
  switch (value.kind) {
    case EvalValue::Kind::kNone: return py::none();
    case EvalValue::Kind::kTensor: return numpyOfArray(std::move(value.tensor));
    case EvalValue::Kind::kSequence: {
      py::list items;
      for (EvalValue& item : value.items) items.append(pythonOfValue(std::move(item)));
      return items;
    }
    case EvalValue::Kind::kMap: {
      py::dict map;
      py::array keys = numpyOfArray(value.keys);
      for (size_t i = 0; i < value.items.size(); ++i) {
        py::object key = keys[py::int_(i)];
        if (!value.keys.isString()) key = key.attr("item")();
        map[key] = pythonOfValue(std::move(value.items[i]));
      }
      return map;
    }
  }
  return py::none();
}

Array arrayOfPython(py::handle object, std::optional<ElementType> declared,
                    const std::string& what) {
  py::array array = py::array::ensure(object);
  if (!array) {
    PyErr_Clear();
    throw py::type_error(
        fmt::format("{}: expected a NumPy array or a nested list of numbers, "
                    "got {}",
                    what, std::string(py::str(object.get_type().attr("__name__")))));
  }
  std::optional<ElementType> type = naturalElementType(array.dtype());
  if (declared && *declared != ElementType::kString && type != ElementType::kString) {
    py::dtype storage = numpyDtypeOf(*declared);
    if (storage.kind() == array.dtype().kind() && storage.itemsize() == array.dtype().itemsize()) {
      type = declared;
    }
  }
  if (!type) {
    throw py::type_error(fmt::format("{}: NumPy dtype {} has no ONNX element type", what,
                                     std::string(py::str(array.dtype()))));
  }
  std::vector<int64_t> shape = shapeOf(array);
  if (*type == ElementType::kString) {
    Array result(ElementType::kString, shape);
    std::vector<std::string>& strings = result.strings();
    py::object flat = array.attr("reshape")(-1);
    py::ssize_t i = 0;
    for (py::handle item : flat) {
      strings[static_cast<size_t>(i++)] = stringOfPython(item, what);
    }
    return result;
  }
  py::array contiguous = py::array::ensure(array, py::array::c_style);
  Result<Array> result = Array::allocate(*type, shape);
  if (!result) raiseStatus(result.status(), what);
  std::span<std::byte> bytes = result->bytes();
  if (static_cast<size_t>(contiguous.nbytes()) != bytes.size()) {
    throw py::value_error(fmt::format(
        "{}: {} bytes of dtype {} do not make {} elements of {}", what, contiguous.nbytes(),
        std::string(py::str(array.dtype())), result->size(), elementTypeName(*type)));
  }
  if (!bytes.empty()) std::memcpy(bytes.data(), contiguous.data(), bytes.size());
  return std::move(*result);
}

EvalValue valueOfPython(py::handle object, const Type* type, const std::string& what) {
  if (type != nullptr) {
    switch (type->kind) {
      case Type::Kind::kSequence: {
        if (!py::isinstance<py::list>(object) && !py::isinstance<py::tuple>(object)) {
          throw py::type_error(fmt::format("{}: a sequence input takes a list", what));
        }
        std::vector<EvalValue> items;
        size_t index = 0;
        for (py::handle item : object) {
          items.push_back(valueOfPython(item, type->elem, fmt::format("{}[{}]", what, index++)));
        }
        return EvalValue::sequence(std::move(items));
      }
      case Type::Kind::kOptional:
        if (object.is_none()) return EvalValue();
        return valueOfPython(object, type->elem, what);
      case Type::Kind::kMap: {
        if (!py::isinstance<py::dict>(object)) {
          throw py::type_error(fmt::format("{}: a map input takes a dict", what));
        }
        py::dict map = py::reinterpret_borrow<py::dict>(object);
        EvalValue value;
        value.kind = EvalValue::Kind::kMap;
        py::list keys;
        for (auto item : map) {
          keys.append(item.first);
          value.items.push_back(valueOfPython(item.second, type->elem, what));
        }
        std::optional<ElementType> key_type;
        if (type->key_type) key_type = static_cast<ElementType>(*type->key_type);
        value.keys = arrayOfPython(keys, key_type, what + " (keys)");
        return value;
      }
      default: break;
    }
  }
  if (object.is_none()) {
    throw py::type_error(fmt::format("{}: None is only a value for an optional input", what));
  }
  std::optional<ElementType> declared;
  if (type != nullptr && type->elem_type) declared = static_cast<ElementType>(*type->elem_type);
  return EvalValue::of(arrayOfPython(object, declared, what));
}

py::array numpyOfTensor(const HolderPtr& holder, const Tensor& tensor) {
  const TensorStorage storage = tensorStorage(tensor);
  const auto type = static_cast<ElementType>(tensor.data_type.value_or(0));
  const ElementTypeInfo* info = elementTypeInfo(type);
  const bool plain = info != nullptr && !info->isSubByte() && type != ElementType::kString;
  // Computed bytes are computed whole by arrayFromTensor, as by rawBytes; the rest is laid
  // out in raw form as NumPy lays it out.
  if (plain && storage != TensorStorage::kComputed) {
    Result<TensorBytes> bytes = rawBytes(tensor);
    std::vector<py::ssize_t> shape(tensor.dims.begin(), tensor.dims.end());
    py::ssize_t count = 1;
    for (py::ssize_t dim : shape) count *= dim;
    const auto item = static_cast<py::ssize_t>(info->bitWidth / 8);
    if (bytes && count >= 0 && static_cast<uint64_t>(count * item) == bytes->bytes().size()) {
      const char* data = bytes->bytes().data();
      if (!bytes->isView()) {
        auto* owned = new std::string(bytes->bytes());
        py::capsule base(owned, [](void* pointer) { delete static_cast<std::string*>(pointer); });
        return py::array(numpyDtypeOf(type), shape, {}, owned->data(), base);
      }
      // The base keeps the model, and so the mapped file, alive.
      auto* keep = new HolderPtr(holder);
      py::capsule base(keep, [](void* pointer) { delete static_cast<HolderPtr*>(pointer); });
      py::array result(numpyDtypeOf(type), shape, {}, data, base);
      py::detail::array_proxy(result.ptr())->flags &= ~py::detail::npy_api::NPY_ARRAY_WRITEABLE_;
      return result;
    }
  }
  return numpyOfArray(unwrap(arrayFromTensor(tensor), "cannot read the tensor"));
}

}  // namespace onyx::python
