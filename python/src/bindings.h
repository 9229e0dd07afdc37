// bindings.h — what every binding file sees: references into the model, errors, text, and
// the casters of onyx.Node and onyx.Value (fast_objects.h); and the function binding each
// part of the module (one file each), which module.cc calls in order.
#pragma once
#include <pybind11/pybind11.h>

#include "errors.h"
#include "fast_objects.h"
#include "python_text.h"
#include "refs.h"

namespace onyx::python {

void bindElementTypes(py::module_& module);
void bindTensors(py::module_& module);
// The graph's objects, one function a class: bindTypes, bindAttributes, bindValues,
// bindNodes, bindGraphs (Graph), bindFunctions, in that order.
void bindTypes(py::module_& module);
void bindAttributes(py::module_& module);
void bindValues(py::module_& module);
void bindNodes(py::module_& module);
void bindGraphs(py::module_& module);
void bindFunctions(py::module_& module);
void bindPatch(py::module_& module);  // after bindGraphs: adds Graph.patch
void bindModels(py::module_& module);
void bindTools(py::module_& module);
void bindSession(py::module_& module);

}  // namespace onyx::python
