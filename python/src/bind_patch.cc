// bind_patch.cc — onyx.Patch: edits to one graph recorded, then applied in one step or none.
//
//     with graph.patch() as patch:           # applied when the block ends, discarded on error
//         relu = patch.add_node("Relu", [x])
//         patch.replace_node(old, relu)
#include <fmt/format.h>
#include <pybind11/stl.h>

#include <memory>
#include <optional>
#include <string>

#include "bindings.h"
#include "graph_objects.h"
#include "onyx/ir/editor.h"
#include "onyx/ir/patch.h"

namespace onyx::python {
namespace {

struct PythonPatch {
  Ref<Graph> graph;
  std::unique_ptr<Patch> patch;

  Patch& live() {
    liveGraph(graph);
    if (!patch) raiseValueError("this patch was applied or discarded; make a new one");
    return *patch;
  }
  Value* value(py::handle given, const char* what) const {
    return valueOrNull(graph.holder, given, what);
  }
  Node* node(const Ref<Node>& ref, const char* what) const {
    return nodeIn(graph.holder, ref, what);
  }
};

}  // namespace

void bindPatch(py::module_& module) {
  py::class_<PythonPatch>(module, "Patch",
                          "Edits to one graph, recorded and then applied together (apply(), or "
                          "the end of a `with` block) after a check of the whole set, or "
                          "discarded: a patch that fails its check leaves the graph as it was.")
      .def(
          "add_node",
          [](PythonPatch& self, const std::string& op_type, py::sequence inputs, size_t outputs,
             std::optional<std::string> domain, std::optional<std::string> name,
             py::object attributes, std::optional<Ref<Node>> before) {
            Patch& patch = self.live();
            std::vector<Value*> reads;
            for (py::handle item : inputs) reads.push_back(self.value(item, "an input"));
            Node* anchor = before ? self.node(*before, "`before`") : nullptr;
            Node* node = patch.addNode(op_type, reads, outputs, anchor);
            Ref<Node> result(self.graph.holder, node, /*added_by_patch=*/true);
            applyNodeFields(result, domain, name, attributes);
            return result;
          },
          py::arg("op_type"), py::arg("inputs") = py::tuple(), py::kw_only(),
          py::arg("outputs") = 1, py::arg("domain") = py::none(), py::arg("name") = py::none(),
          py::arg("attributes") = py::none(), py::arg("before") = py::none(),
          "A node to add at apply(): just before `before`, or last. Its outputs get fresh names "
          "then, unless name_value gives one.")
      .def(
          "add_initializer",
          [](PythonPatch& self, py::object tensor, std::optional<std::string> name) {
            Patch& patch = self.live();
            Tensor* held = tensorIn(self.graph.holder, tensor);
            if (name) held->name = GraphEditor(self.graph.model()).arena().copy(*name);
            return Ref<Value>(self.graph.holder, patch.addInitializer(held),
                              /*added_by_patch=*/true);
          },
          py::arg("tensor"), py::arg("name") = py::none(),
          "An initializer to add at apply(), named as given or after the tensor.")
      .def(
          "name_value",
          [](PythonPatch& self, const Ref<Value>& value, const std::string& name) {
            self.live().nameValue(self.value(py::cast(value), "the value"), name);
          },
          py::arg("value"), py::arg("name"),
          "Gives `value`, a value this patch adds, exactly `name` at apply().")
      .def(
          "replace_all_uses_with",
          [](PythonPatch& self, const Ref<Value>& from, const Ref<Value>& to) {
            self.live().replaceAllUsesWith(self.value(py::cast(from), "`from`"),
                                           self.value(py::cast(to), "`to`"));
          },
          py::arg("old"), py::arg("new"),
          "Points every reader of `old` (graph outputs included) at `new`, at apply().")
      .def(
          "set_input",
          [](PythonPatch& self, const Ref<Node>& node, size_t index, py::object value) {
            Patch& patch = self.live();
            Node* target = self.node(node, "the node");
            if (index >= patch.inputCountAfter(target)) {
              throw py::index_error(
                  fmt::format("the node has {} inputs", patch.inputCountAfter(target)));
            }
            patch.setInput(target, index, self.value(value, "the value"));
          },
          py::arg("node"), py::arg("index"), py::arg("value"),
          "Points input `index` of `node` at `value` (None: omitted), at apply().")
      .def(
          "set_operator",
          [](PythonPatch& self, const Ref<Node>& node, const std::string& op_type,
             const std::string& domain) {
            self.live().setOperator(self.node(node, "the node"), domain, op_type);
          },
          py::arg("node"), py::arg("op_type"), py::kw_only(), py::arg("domain") = "",
          "Gives `node` the operator `op_type` of `domain` (\"\": the default domain), at "
          "apply().")
      .def(
          "set_attribute",
          [](PythonPatch& self, const Ref<Node>& node, const std::string& name, py::handle value) {
            Node& stand_in = self.live().attributesFor(self.node(node, "the node"));
            setAttribute(Ref<Node>(self.graph.holder, &stand_in, /*added_by_patch=*/true), name,
                         value);
          },
          py::arg("node"), py::arg("name"), py::arg("value"),
          "Sets attribute `name` of `node` at apply(), replacing one of that name; the kind "
          "follows the value, as Node.set_attribute's does (graph attributes are refused).")
      .def(
          "remove_attribute",
          [](PythonPatch& self, const Ref<Node>& node, const std::string& name) {
            self.live().removeAttribute(self.node(node, "the node"), name);
          },
          py::arg("node"), py::arg("name"),
          "Removes attribute `name` of `node` at apply() (nothing when it has none).")
      .def(
          "resize_inputs",
          [](PythonPatch& self, const Ref<Node>& node, size_t count) {
            self.live().resizeInputs(self.node(node, "the node"), count);
          },
          py::arg("node"), py::arg("count"),
          "Gives `node` `count` input slots at apply(): the last go, or omitted ones are added "
          "for set_input.")
      .def(
          "remove_node",
          [](PythonPatch& self, const Ref<Node>& node) {
            self.live().removeNode(self.node(node, "the node"));
          },
          py::arg("node"), "Removes `node` at apply(); by then nothing may read its outputs.")
      .def(
          "replace_node",
          [](PythonPatch& self, const Ref<Node>& node, const Ref<Node>& replacement) {
            Patch& patch = self.live();
            Node* old_node = self.node(node, "the node");
            Node* new_node = self.node(replacement, "the replacement");
            if (new_node->outputCount() < old_node->outputCount()) {
              raiseValueError(fmt::format("the replacement has {} outputs; the node has {}",
                                          new_node->outputCount(), old_node->outputCount()));
            }
            patch.replaceNode(old_node, new_node);
          },
          py::arg("node"), py::arg("replacement"),
          "`replacement` (a node this patch adds) takes `node`'s place and its outputs' uses.")
      .def(
          "apply",
          [](PythonPatch& self) {
            Patch& patch = self.live();
            Status applied = patch.apply();
            self.patch.reset();
            self.graph.changed();
            check(applied, "the patch was not applied");
          },
          "Checks the whole patch, then makes every edit; on a failed check raises OnyxError and "
          "the graph is as it was.")
      .def(
          "discard",
          [](PythonPatch& self) {
            if (self.patch) self.patch->discard();
            self.patch.reset();
          },
          "Forgets every recorded edit; the graph stays as it is.")
      .def(
          "__enter__", [](PythonPatch& self) -> PythonPatch& { return self; },
          py::return_value_policy::reference)
      .def("__exit__",
           [](PythonPatch& self, py::object type, py::object, py::object) {
             if (!self.patch) return false;
             if (!type.is_none()) {
               self.patch->discard();
               self.patch.reset();
               return false;
             }
             Status applied = self.patch->apply();
             self.patch.reset();
             self.graph.changed();
             check(applied, "the patch was not applied");
             return false;
           })
      .def("__repr__", [](const PythonPatch& self) {
        return fmt::format("<onyx.Patch {}>", !self.patch           ? "done"
                                              : self.patch->empty() ? "empty"
                                                                    : "pending");
      });

  module.attr("Graph").attr("patch") = py::cpp_function(
      [](const Ref<Graph>& graph) {
        Graph* live = liveGraph(graph);
        return PythonPatch{graph, std::make_unique<Patch>(graph.model(), *live)};
      },
      py::name("patch"), py::is_method(module.attr("Graph")),
      "A Patch of this graph (use it in a `with` block, or call apply()).");
}

}  // namespace onyx::python
