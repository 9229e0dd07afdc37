// bind_model.cc — onyx.Model, and reading and writing models: load, save, parse_text,
// load_value.
#include <fmt/format.h>
#include <pybind11/stl.h>
#include <pybind11/stl/filesystem.h>

#include <filesystem>
#include <map>
#include <memory>
#include <string>

#include "arrays.h"
#include "bindings.h"
#include "onyx/eval/test_case.h"
#include "onyx/ir/clone.h"
#include "onyx/ir/editor.h"
#include "onyx/ir/graph.h"
#include "onyx/ir/metadata.h"
#include "onyx/ir/opset_imports.h"
#include "onyx/serde/model_io.h"
#include "onyx/serde/test_data.h"
#include "onyx/text/parser.h"
#include "onyx/text/printer.h"

namespace onyx::python {
namespace {

// Bytes given from Python, copied: the model's views point into them for as long as it lives.
std::shared_ptr<const std::string> bytesOf(py::handle object) {
  py::buffer_info buffer = py::reinterpret_borrow<py::buffer>(object).request();
  const auto* data = static_cast<const char*>(buffer.ptr);
  return std::make_shared<const std::string>(data,
                                             static_cast<size_t>(buffer.size * buffer.itemsize));
}

bool isBytesLike(py::handle object) {
  return py::isinstance<py::bytes>(object) || py::isinstance<py::bytearray>(object) ||
         PyMemoryView_Check(object.ptr());
}

std::string pathOf(py::handle object) {
  return py::module_::import("os").attr("fspath")(object).cast<std::string>();
}

}  // namespace

void bindModels(py::module_& module) {
  py::class_<ModelHolder, HolderPtr>(module, "Model",
                                     "An ONNX model in onyx's memory: its graph, opsets, "
                                     "functions and metadata. Nodes, values and tensors taken "
                                     "from it are views that keep it alive.")
      .def(py::init([](int64_t ir_version, std::map<std::string, int64_t> opset_imports,
                       const std::string& graph_name) {
             Model model;
             model.ir_version = ir_version;
             for (const auto& [domain, version] : opset_imports) {
               model.setOpsetVersion(domain, version);
             }
             model.graph = GraphEditor(model).newGraph();
             model.graph->name = GraphEditor(model).arena().copy(graph_name);
             return makeHolder(std::move(model));
           }),
           py::kw_only(), py::arg("ir_version") = 10,
           py::arg("opset_imports") = std::map<std::string, int64_t>{{"", 21}},
           py::arg("graph_name") = "main",
           "A new model with an empty main graph, to build with graph.add_input, add_node, "
           "add_output and add_initializer. The defaults (IR 10, ai.onnx 21) are what "
           "onnxruntime and onnx read today.")
      .def_property_readonly(
          "graph",
          [](const HolderPtr& holder) -> py::object {
            if (holder->model.graph == nullptr) return py::none();
            return py::cast(Ref<Graph>(holder, holder->model.graph));
          },
          "The main graph.")
      .def_property(
          "ir_version", [](const HolderPtr& holder) { return holder->model.ir_version; },
          [](const HolderPtr& holder, std::optional<int64_t> version) {
            holder->model.ir_version = version;
            ++holder->edits;
          },
          "The IR version the model declares (None when absent).")
      .def_property_readonly(
          "opset_imports",
          [](const HolderPtr& holder) {
            py::dict opsets;
            for (const OperatorSetId& opset : holder->model.opset_import) {
              opsets[py::str(std::string(opset.domain.value_or("")))] = opset.version.value_or(0);
            }
            return opsets;
          },
          "{domain: version} ('' is ai.onnx); a new dict each time: change it with set_opset.")
      .def(
          "set_opset",
          [](const HolderPtr& holder, const std::string& domain, int64_t version) {
            holder->model.setOpsetVersion(domain, version);
            ++holder->edits;
          },
          py::arg("domain"), py::arg("version"),
          "Imports `domain` at `version`, or changes the version it is imported at.")
      .def_property(
          "producer_name",
          [](const HolderPtr& holder) { return optionalText(holder->model.producer_name); },
          [](const HolderPtr& holder, const std::string& name) {
            holder->model.producer_name = GraphEditor(holder->model).arena().copy(name);
            ++holder->edits;
          },
          "The tool that made the model, or None.")
      .def_property(
          "producer_version",
          [](const HolderPtr& holder) { return optionalText(holder->model.producer_version); },
          [](const HolderPtr& holder, const std::string& version) {
            holder->model.producer_version = GraphEditor(holder->model).arena().copy(version);
            ++holder->edits;
          },
          "That tool's version, or None.")
      .def_property_readonly(
          "metadata_props",
          [](const HolderPtr& holder) {
            py::dict entries;
            for (const StringStringEntry& entry : holder->model.metadata_props) {
              entries[pythonText(entry.key.value_or(""))] = pythonText(entry.value.value_or(""));
            }
            return entries;
          },
          "The model's metadata, {key: value} (a new dict each time; change it with "
          "set_metadata and remove_metadata).")
      .def(
          "set_metadata",
          [](const HolderPtr& holder, const std::string& key, const std::string& value) {
            GraphEditor(holder->model).setMetadata(holder->model.metadata_props, key, value);
            ++holder->edits;
          },
          py::arg("key"), py::arg("value"), "Sets metadata entry `key` to `value`.")
      .def(
          "remove_metadata",
          [](const HolderPtr& holder, const std::string& key) {
            const bool removed = removeMetadata(holder->model.metadata_props, key);
            if (removed) ++holder->edits;
            return removed;
          },
          py::arg("key"), "Removes metadata entry `key`; False when there is none.")
      .def_property(
          "doc_string",
          [](const HolderPtr& holder) { return optionalText(holder->model.doc_string); },
          [](const HolderPtr& holder, const std::string& text) {
            holder->model.doc_string = GraphEditor(holder->model).arena().copy(text);
            ++holder->edits;
          },
          "The model's documentation string, or None.")
      .def_property_readonly(
          "functions",
          [](const HolderPtr& holder) {
            py::list functions;
            for (Function* function : holder->model.functions)
              functions.append(Ref<Function>(holder, function));
            return functions;
          },
          "The model-local functions.")
      .def(
          "to_text",
          [](const HolderPtr& holder) {
            py::gil_scoped_release unlocked;
            return printModel(holder->model);
          },
          "The model in the ONNX text syntax (what it cannot hold is marked by `# lost:` "
          "comments).")
      .def(
          "to_bytes",
          [](const HolderPtr& holder) {
            Result<std::string> bytes = Status(ErrorCode::kInternal, "not run");
            {
              py::gil_scoped_release unlocked;
              bytes = serializeModel(holder->model);
            }
            return py::bytes(unwrap(std::move(bytes), "cannot encode the model"));
          },
          "The model as one binary ModelProto (external tensors keep their references).")
      .def(
          "clone", [](const HolderPtr& holder) { return makeHolder(cloneModel(holder->model)); },
          "A deep copy (tensor bytes are shared, not copied).")
      .def("__repr__", [](const HolderPtr& holder) {
        const Model& model = holder->model;
        std::string opsets;
        for (const OperatorSetId& opset : model.opset_import) {
          opsets += fmt::format("{}{}:{}", opsets.empty() ? "" : ",",
                                domainLabel(opset.domain.value_or("")), opset.version.value_or(0));
        }
        return fmt::format("<onyx.Model ir_version={} opsets={} nodes={}>",
                           model.ir_version.value_or(0), opsets,
                           model.graph != nullptr ? model.graph->nodeCount() : 0);
      });

  module.def(
      "load",
      [](py::object source, bool load_external_data, std::optional<std::string> folder) {
        LoadOptions options;
        options.load_external_data = load_external_data;
        // Errors are raised once the interpreter's lock is back: raising needs it.
        Result<Model> model = Status(ErrorCode::kInternal, "not run");
        if (isBytesLike(source)) {
          std::shared_ptr<const std::string> bytes = bytesOf(source);
          {
            py::gil_scoped_release unlocked;
            model = parseModel(*bytes, bytes, options, folder.value_or(""));
          }
          return makeHolder(unwrap(std::move(model), "cannot load the model"));
        }
        const std::string path = pathOf(source);
        {
          py::gil_scoped_release unlocked;
          model = loadModel(path, options);
        }
        return makeHolder(
            unwrap(std::move(model), fmt::format("cannot load {}", path), Subject::kFile));
      },
      py::arg("source"), py::kw_only(), py::arg("load_external_data") = true,
      py::arg("folder") = py::none(),
      "Loads a model from a path (mapped: tensor bytes are never copied) or from bytes (copied "
      "once). External data resolves against the model's folder (for bytes: `folder`).");

  module.def(
      "save",
      [](const HolderPtr& holder, py::object destination, std::optional<std::string> external_data,
         uint64_t size_threshold, bool all_inline) {
        SaveOptions options;
        if (external_data) {
          options.external_file = *external_data;
          options.external_threshold = size_threshold;
        }
        options.inline_external = all_inline;
        const std::string path = pathOf(destination);
        Status saved;
        {
          py::gil_scoped_release unlocked;
          saved = saveModel(holder->model, path, options);
        }
        check(saved, fmt::format("cannot save {}", path), Subject::kFile);
      },
      py::arg("model"), py::arg("path"), py::kw_only(), py::arg("external_data") = py::none(),
      py::arg("size_threshold") = 1024, py::arg("all_inline") = false,
      "Writes the model to `path` (beside it, then renamed over it). `external_data` names a "
      "file, relative to the model's folder, that takes every tensor of `size_threshold` "
      "bytes or more; `all_inline` brings external data back into the model file.");

  module.def(
      "parse_text",
      [](const std::string& text) {
        Result<Model> model = Status(ErrorCode::kInternal, "not run");
        {
          py::gil_scoped_release unlocked;
          model = parseText(text);
        }
        return makeHolder(unwrap(std::move(model), "cannot parse the model text"));
      },
      py::arg("text"), "A model from its ONNX text syntax (docs/Syntax.md).");

  module.def(
      "parse_graph",
      [](const std::string& text) {
        Result<Model> model = Status(ErrorCode::kInternal, "not run");
        {
          py::gil_scoped_release unlocked;
          model = parseGraphText(text);
        }
        HolderPtr holder = makeHolder(unwrap(std::move(model), "cannot parse the graph text"));
        return Ref<Graph>(holder, holder->model.graph);
      },
      py::arg("text"),
      "A lone graph from the text syntax (`name (inputs) => (outputs) <initializers> "
      "{ nodes }`), held by an otherwise empty model (graph.model).");

  module.def(
      "parse_node",
      [](const std::string& text) {
        Result<Model> model = Status(ErrorCode::kInternal, "not run");
        {
          py::gil_scoped_release unlocked;
          model = parseNodesText("{\n" + text + "\n}");
        }
        HolderPtr holder = makeHolder(unwrap(std::move(model), "cannot parse the node text"));
        if (holder->model.graph->nodeCount() != 1) {
          raiseValueError(fmt::format("the text holds {} nodes; parse_node takes one",
                                      holder->model.graph->nodeCount()));
        }
        return Ref<Node>(holder, holder->model.graph->firstNode());
      },
      py::arg("text"),
      "One node from the text syntax (`y = Add (a, b)`, `[name] y = Foo <alpha: float = 1> "
      "(x)`), held by an otherwise empty model; the names it reads are left undefined there.");

  module.def(
      "load_value",
      [](py::object source, py::object type) -> py::object {
        const Type* declared = nullptr;
        if (!type.is_none()) declared = type.cast<const Ref<Type>&>().ptr;
        const TestValueKind kind = testValueKindOf(declared);
        Result<TestValue> value = Status(ErrorCode::kInternal, "unread");
        Subject subject = Subject::kModel;
        if (isBytesLike(source)) {
          std::shared_ptr<const std::string> bytes = bytesOf(source);
          value = parseTestValue(*bytes, kind, bytes);
        } else {
          value = loadTestValue(pathOf(source), kind);
          subject = Subject::kFile;
        }
        TestValue read = unwrap(std::move(value), "cannot read the value", subject);
        return pythonOfValue(unwrap(evalValueOf(read), "cannot read the value"));
      },
      py::arg("source"), py::arg("type") = py::none(),
      "A value from a TensorProto (or, by `type`, a SequenceProto, MapProto or OptionalProto) "
      "file or bytes, as ONNX test cases store their inputs and outputs: a NumPy array, list, "
      "dict or None.");
}

}  // namespace onyx::python
