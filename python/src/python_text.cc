// python_text.cc — text from a model as Python strings.
#include "python_text.h"

#include <string>

namespace onyx::python {

py::str pythonText(std::string_view text) {
  PyObject* decoded =
      PyUnicode_DecodeUTF8(text.data(), static_cast<Py_ssize_t>(text.size()), "replace");
  if (decoded == nullptr) throw py::error_already_set();
  return py::reinterpret_steal<py::str>(decoded);
}

PyObject* sharedText(std::string_view text) {
  // Direct-mapped: a slot per hash of the size and three of the bytes; a collision only
  // replaces the slot's str. The strs stay alive in the cache (a few kilobytes at most).
  struct Entry {
    std::string key;
    PyObject* text = nullptr;
  };
  static constexpr size_t kSlots = 256;
  static Entry* cache = new Entry[kSlots];  // never freed: interpreters outlive statics
  size_t hash = text.size() * 31;
  if (!text.empty()) {
    hash += static_cast<unsigned char>(text.front()) * 7 +
            static_cast<unsigned char>(text[text.size() / 2]) * 3 +
            static_cast<unsigned char>(text.back());
  }
  Entry& entry = cache[hash % kSlots];
  if (entry.text == nullptr || entry.key != text) {
    PyObject* decoded =
        PyUnicode_DecodeUTF8(text.data(), static_cast<Py_ssize_t>(text.size()), "replace");
    if (decoded == nullptr) return nullptr;
    Py_XDECREF(entry.text);
    entry.text = decoded;
    entry.key.assign(text);
  }
  Py_INCREF(entry.text);
  return entry.text;
}

py::object optionalText(const OptString& text) {
  if (!text) return py::none();
  return pythonText(*text);
}

}  // namespace onyx::python
