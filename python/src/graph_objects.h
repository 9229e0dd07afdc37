// graph_objects.h — what bind_graph.cc shares with the bindings that build nodes elsewhere
// (bind_patch.cc).
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "handles.h"
#include "onyx/ir/node.h"

namespace onyx::python {

/// Each item of `list` (onyx.Value of `holder`'s model, or None) as a Value pointer.
std::vector<Value*> valuesOf(const HolderPtr& holder, py::handle list, const char* what);

/// Sets a new node's domain, name and attributes (a dict name → value, or None).
void applyNodeFields(const Ref<Node>& ref, const std::optional<std::string>& domain,
                     const std::optional<std::string>& name, const py::object& attributes);

}  // namespace onyx::python
