// graph_objects.h — what bind_graph.cc shares with the bindings that build nodes and
// initializers elsewhere (bind_patch.cc).
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "onyx/ir/node.h"
#include "refs.h"

namespace onyx::python {

/// `ref`'s node, refused when it belongs to another model than `holder`'s or was removed;
/// `what` names it in the error.
Node* nodeIn(const HolderPtr& holder, const Ref<Node>& ref, const char* what);
/// The same for an onyx.Node or None (null).
Node* nodeOrNull(const HolderPtr& holder, py::handle given, const char* what);
/// An onyx.Value of `holder`'s model still in it (or pending in a patch), or None (null).
Value* valueOrNull(const HolderPtr& holder, py::handle given, const char* what);

/// Each item of `list` (onyx.Value of `holder`'s model, or None) as a Value pointer.
std::vector<Value*> valuesOf(const HolderPtr& holder, py::handle list, const char* what);

/// A tensor given from Python (an onyx.Tensor of any model, or an array to copy) as a tensor
/// of `holder`'s model: a copy of the message, whose bytes are shared where they lie.
Tensor* tensorIn(const HolderPtr& holder, py::handle given);

/// Sets attribute `name` of `ref`'s node from a Python value (the kind follows the value).
void setAttribute(const Ref<Node>& ref, const std::string& name, py::handle value);

/// Sets a new node's domain, name and attributes (a dict name → value, or None).
void applyNodeFields(const Ref<Node>& ref, const std::optional<std::string>& domain,
                     const std::optional<std::string>& name, const py::object& attributes);

}  // namespace onyx::python
