// bind_tools.cc — the tools over a model: check, infer, cost, extract, merge, set_dims, to_float16,
// optimize, inline_functions, and the Diagnostic they report with.
#include <fmt/format.h>
#include <pybind11/stl.h>

#include <map>
#include <string>
#include <vector>

#include "bindings.h"
#include "onyx/check/checker.h"
#include "onyx/core/diagnostic.h"
#include "onyx/core/quote.h"
#include "onyx/draw/draw.h"
#include "onyx/eval/node_evaluator.h"
#include "onyx/infer/cost.h"
#include "onyx/infer/infer.h"
#include "onyx/ir/editor.h"
#include "onyx/ir/verify.h"
#include "onyx/ops/registry.h"
#include "onyx/passes/extract.h"
#include "onyx/passes/float16.h"
#include "onyx/passes/inline_functions.h"
#include "onyx/passes/merge.h"
#include "onyx/passes/opset_conversion.h"
#include "onyx/passes/optimize.h"
#include "onyx/passes/pass_manager.h"
#include "onyx/passes/set_dims.h"
#include "onyx/text/parser.h"
#include "onyx/text/printer.h"

namespace onyx::python {
namespace {

py::list diagnosticList(const Diagnostics& diagnostics) {
  py::list list;
  for (const Diagnostic& diagnostic : diagnostics.all()) list.append(diagnostic);
  return list;
}

[[noreturn]] void raiseCheckError(const Diagnostics& diagnostics) {
  const Diagnostic* first = nullptr;
  for (const Diagnostic& diagnostic : diagnostics.all()) {
    if (diagnostic.severity == Severity::kError) {
      first = &diagnostic;
      break;
    }
  }
  std::string message = fmt::format("the model is invalid ({} errors); the first: {}",
                                    diagnostics.errorCount(), first->toString());
  py::object error =
      makeError(pythonErrors().check_error, message, first->code, first->path, std::nullopt);
  error.attr("rule") = first->rule;
  error.attr("diagnostics") = diagnosticList(diagnostics);
  raiseError(error);
}

// The diagnostics whose path lies under `prefix` (a place and what is beneath it), with that
// prefix written as `shown`: what check_node and check_tensor report of the model they build.
py::list diagnosticsUnder(const Diagnostics& diagnostics, std::string_view prefix,
                          std::string_view shown) {
  py::list list;
  for (const Diagnostic& diagnostic : diagnostics.all()) {
    if (!diagnostic.path.starts_with(prefix)) continue;
    Diagnostic moved = diagnostic;
    moved.path = std::string(shown) + diagnostic.path.substr(prefix.size());
    list.append(moved);
  }
  return list;
}

// check_node: the node alone, in a model of its own importing `opset` (and `domains`), its
// inputs the graph's inputs and its outputs the graph's outputs, through the text syntax
// (which copies every attribute, nested graphs included); what the checker says of it.
py::list checkNodeAlone(const Ref<Node>& ref, std::optional<int64_t> opset,
                        const std::optional<std::map<std::string, int64_t>>& domains,
                        std::optional<int64_t> ir_version) {
  const Model& source = ref.model();
  std::string text = "{\n" + printNode(*ref.ptr) + "\n}";
  Model model = unwrap(parseNodesText(text), "cannot copy the node");
  Graph& graph = *model.graph;
  GraphEditor edit(model);
  if (!opset) opset = OpsetImports(source.opset_import).versionOf("");
  if (!opset) opset = findOperatorSet("")->last_release_version;
  model.ir_version = ir_version ? ir_version : source.ir_version.value_or(kLatestIrVersion);
  std::map<std::string, int64_t> imports{{"", *opset}};
  std::string_view domain = canonicalDomain(ref.ptr->domainOrDefault());
  if (!domain.empty()) {
    if (std::optional<int64_t> version = OpsetImports(source.opset_import).versionOf(domain)) {
      imports[std::string(domain)] = *version;
    }
  }
  if (domains) {
    for (const auto& [name, version] : *domains)
      imports[std::string(canonicalDomain(name))] = version;
  }
  for (const auto& [name, version] : imports) model.setOpsetVersion(name, version);
  Node& node = *graph.firstNode();
  for (size_t i = 0; i < node.inputCount(); ++i) {
    Value* input = node.input(i);
    if (input != nullptr && !input->isGraphInput() && input->producer() == nullptr) {
      unwrap(edit.addInput(graph, input->name()), "cannot declare the node's input");
    }
  }
  for (size_t i = 0; i < node.outputCount(); ++i) {
    if (Value* output = node.output(i)) edit.addOutput(graph, output);
  }
  CheckOptions options;
  options.external_data = false;
  return diagnosticsUnder(checkModel(model, options), "graph.node[0]", "node");
}

}  // namespace

void bindTools(py::module_& module) {
  py::class_<Diagnostic>(module, "Diagnostic",
                         "One problem found in a model: the rule it breaks (docs/checker.md), "
                         "its severity and its place.")
      .def_readonly("rule", &Diagnostic::rule, "'R29', 'X5', ...; '' for a problem no rule names.")
      .def_property_readonly(
          "severity",
          [](const Diagnostic& diagnostic) {
            return std::string(severityName(diagnostic.severity));
          },
          "'error' or 'warning'.")
      .def_readonly("path", &Diagnostic::path, "Where: 'graph.node[3](add).input[1]'.")
      .def_readonly("message", &Diagnostic::message, "What is wrong, in one line.")
      .def("__str__", &Diagnostic::toString)
      .def("__repr__", [](const Diagnostic& diagnostic) {
        return fmt::format("<onyx.Diagnostic {}>", diagnostic.toString());
      });

  module.def(
      "check",
      [](const HolderPtr& holder, bool infer, bool external_data, bool name_style,
         bool raise_errors) {
        CheckOptions options;
        options.external_data = external_data;
        options.name_style = name_style;
        if (infer) options.more_rules = checkInferredTypes;
        Diagnostics diagnostics;
        {
          py::gil_scoped_release unlocked;
          diagnostics = checkModel(holder->model, options);
        }
        if (raise_errors && diagnostics.hasErrors()) raiseCheckError(diagnostics);
        return diagnosticList(diagnostics);
      },
      py::arg("model"), py::kw_only(), py::arg("infer") = true, py::arg("external_data") = true,
      py::arg("name_style") = false, py::arg("raise_errors") = false,
      "Checks the model against the ONNX IR rules and its operators' signatures (and, with "
      "`infer`, declared types against inferred ones) without changing or copying it: every "
      "problem found, as Diagnostics. With `raise_errors`, a model with an error raises "
      "CheckError, which carries the rule, path and all diagnostics.");

  module.def(
      "check_node", &checkNodeAlone, py::arg("node"), py::arg("opset") = py::none(), py::kw_only(),
      py::arg("domains") = py::none(), py::arg("ir_version") = py::none(),
      "Checks one node against its operator's signature at `opset` (default: what its model "
      "imports, else the newest released opset), as onnx.checker.check_node does: attributes, "
      "input and output counts, and the rules of the node itself; `domains` gives the versions "
      "of other domains ({'ai.onnx.ml': 3}). Its inputs are taken as given, untyped. Returns "
      "Diagnostics whose path starts with 'node'.");

  module.def(
      "check_tensor",
      [](const Ref<Tensor>& ref, std::optional<int64_t> ir_version) {
        Model model;
        model.ir_version = ir_version.value_or(kLatestIrVersion);
        model.shareBytesOf(ref.model());
        GraphEditor edit(model);
        model.graph = edit.newGraph();
        Tensor* tensor = edit.cloneTensor(*ref.ptr);
        if (tensor->nameOrEmpty().empty()) tensor->name = edit.arena().copy("tensor");
        unwrap(edit.addInitializer(*model.graph, tensor), "cannot check the tensor");
        CheckOptions options;
        options.external_data = false;
        return diagnosticsUnder(checkModel(model, options), "graph.initializer[0]", "tensor");
      },
      py::arg("tensor"), py::kw_only(), py::arg("ir_version") = py::none(),
      "Checks one tensor as the checker checks an initializer, as onnx.checker.check_tensor "
      "does: its data type, that its data fits its dims, its external data location (not "
      "opened). Returns Diagnostics whose path starts with 'tensor'.");

  module.def(
      "verify", [](const HolderPtr& holder) { return diagnosticList(verifyModel(holder->model)); },
      py::arg("model"),
      "The graph API's invariants (not the ONNX rules: check() is for those): every use-list, "
      "producer, scope, name and declaration consistent. For tools that edit graphs and their "
      "tests; [] when the model is consistent.");

  module.def(
      "infer",
      [](const HolderPtr& holder, bool strict, bool name_unknown_dims, bool constant_initializers) {
        InferOptions options;
        options.strict = strict;
        options.name_unknown_dims = name_unknown_dims;
        options.constant_initializers = constant_initializers;
        InferResult result;
        {
          py::gil_scoped_release unlocked;
          result = inferModel(holder->model, options);
        }
        ++holder->edits;
        return diagnosticList(result.diagnostics);
      },
      py::arg("model"), py::kw_only(), py::arg("strict") = false,
      py::arg("name_unknown_dims") = false, py::arg("constant_initializers") = false,
      "Infers types and shapes in place: value types are filled in (value.type, value.shape). "
      "constant_initializers takes initializers listed as graph inputs as the constants they "
      "hold (always so before IR 4). Returns the conflicts found (R36, X5; X6 in strict mode) "
      "as Diagnostics.");

  module.def(
      "cost",
      [](const HolderPtr& holder) {
        const ModelCost cost = modelCost(holder->model);
        py::list nodes;
        for (const NodeCost& node : cost.nodes) {
          py::dict entry;
          entry["name"] = std::string(node.node->name.value_or(""));
          entry["op_type"] = std::string(node.node->opType());
          entry["flops"] = node.flops ? py::cast(*node.flops) : py::none();
          entry["parameter_bytes"] = node.parameter_bytes;
          entry["activation_bytes"] =
              node.activation_bytes ? py::cast(*node.activation_bytes) : py::none();
          nodes.append(entry);
        }
        py::dict answer;
        answer["flops"] = cost.flops;
        answer["parameter_bytes"] = cost.parameter_bytes;
        answer["activation_bytes"] = cost.activation_bytes;
        answer["uncounted"] = cost.uncounted;
        answer["nodes"] = nodes;
        return answer;
      },
      py::arg("model"),
      "What each node of the main graph costs, from the types its values hold (run infer() "
      "first; give the inputs numbers for their named dimensions to count everything): a dict "
      "of flops (a multiply-add two), parameter_bytes (every constant once), "
      "activation_bytes, uncounted (nodes whose shapes are unknown) and nodes, one dict each "
      "(name, op_type, flops or None, parameter_bytes, activation_bytes or None), as `onyx "
      "info --cost` (docs/inference.md).");

  module.def(
      "extract",
      [](const HolderPtr& holder, std::optional<std::vector<std::string>> inputs,
         std::optional<std::vector<std::string>> outputs) {
        ExtractBoundary boundary{std::move(inputs), std::move(outputs)};
        Result<ExtractReport> report = Status(ErrorCode::kInternal, "not run");
        {
          py::gil_scoped_release unlocked;
          report = extractModel(holder->model, boundary);
        }
        ++holder->edits;
        ExtractReport done = unwrap(std::move(report), "cannot extract");
        py::dict result;
        result["nodes_kept"] = done.nodes_kept;
        result["nodes_removed"] = done.nodes_removed;
        result["initializers_removed"] = done.initializers_removed;
        result["functions_removed"] = done.functions_removed;
        result["unread_inputs"] = done.unread_inputs;
        return result;
      },
      py::arg("model"), py::kw_only(), py::arg("inputs") = py::none(),
      py::arg("outputs") = py::none(),
      "Cuts the model in place down to the part of its main graph that computes `outputs` "
      "(default: the model's outputs) from `inputs` (default: the model's inputs the part "
      "reads), as `onyx extract` (docs/surgery.md). Raises onyx.OnyxError naming an unknown "
      "name, an output the inputs do not reach or a cycle, the model unchanged. Returns "
      "{'nodes_kept', 'nodes_removed', 'initializers_removed', 'functions_removed', "
      "'unread_inputs'}.");

  module.def(
      "merge",
      [](const HolderPtr& first, const HolderPtr& second,
         std::optional<std::map<std::string, std::string>> connect, const std::string& prefix_a,
         const std::string& prefix_b) {
        if (first.get() == second.get()) raiseValueError("merge takes two different models");
        MergeOptions options;
        if (connect) options.connections.assign(connect->begin(), connect->end());
        options.prefix_a = prefix_a;
        options.prefix_b = prefix_b;
        Result<MergeReport> report = Status(ErrorCode::kInternal, "not run");
        {
          py::gil_scoped_release unlocked;
          report = mergeModels(first->model, second->model, options);
        }
        ++first->edits;
        ++second->edits;
        MergeReport done = unwrap(std::move(report), "cannot merge");
        py::dict result;
        result["nodes_a"] = done.nodes_a;
        result["nodes_b"] = done.nodes_b;
        result["conversions"] = done.conversions;
        result["shared_inputs"] = done.shared_inputs;
        return result;
      },
      py::arg("a"), py::arg("b"), py::kw_only(), py::arg("connect") = py::none(),
      py::arg("prefix_a") = "", py::arg("prefix_b") = "",
      "Puts model b after model a, in a, as `onyx merge` (docs/surgery.md): connect maps outputs "
      "of a to the inputs of b that read them (names before prefixes); prefix_a and prefix_b go "
      "before every value and node name of each. b is changed too (prefixed, converted): it is "
      "the material. Raises onyx.OnyxError on clashing names or types, a unchanged. Returns "
      "{'nodes_a', 'nodes_b', 'conversions', 'shared_inputs'}.");

  module.def(
      "set_dims",
      [](const HolderPtr& holder, const std::map<std::string, py::object>& dims) {
        std::vector<DimSetting> settings;
        for (const auto& [target, value] : dims) {
          std::string text = target + "=" + py::str(value).cast<std::string>();
          settings.push_back(unwrap(parseDimSetting(text), "cannot set the dimensions"));
        }
        Result<SetDimsReport> report = Status(ErrorCode::kInternal, "not run");
        {
          py::gil_scoped_release unlocked;
          report = setDims(holder->model, settings);
        }
        ++holder->edits;
        SetDimsReport done = unwrap(std::move(report), "cannot set the dimensions");
        py::dict result;
        result["rewritten"] = done.rewritten;
        result["declarations_changed"] = done.declarations_changed;
        return result;
      },
      py::arg("model"), py::arg("dims"),
      "Fixes or frees dimensions of the model's inputs in place, and rewrites the shapes the "
      "exporter baked them into, as `onyx set-dims` (docs/surgery.md): dims maps 'SYMBOL' or "
      "'INPUT:AXIS' to a size or a new symbol ({'input_ids:0': 1}, {'batch': 'N'}). Raises "
      "onyx.OnyxError naming what cannot be traced, the model unchanged. Returns {'rewritten': "
      "[node names], 'declarations_changed'}.");

  module.def(
      "to_float16",
      [](const HolderPtr& holder, bool keep_io_types,
         std::optional<std::vector<std::string>> keep) {
        Float16Options options;
        options.keep_io_types = keep_io_types;
        if (keep) options.keep_ops = std::move(*keep);
        Result<Float16Report> report = Status(ErrorCode::kInternal, "not run");
        {
          py::gil_scoped_release unlocked;
          report = convertToFloat16(holder->model, options);
        }
        ++holder->edits;
        Float16Report done = unwrap(std::move(report), "cannot convert to float16");
        py::dict kept;
        for (const auto& [op, count] : done.kept_ops) kept[py::str(op)] = count;
        py::dict result;
        result["nodes_converted"] = done.nodes_converted;
        result["kept_ops"] = kept;
        result["casts_added"] = done.casts_added;
        result["tensors_converted"] = done.tensors_converted;
        result["unmatched_keep_ops"] = done.unmatched_keep_ops;
        return result;
      },
      py::arg("model"), py::kw_only(), py::arg("keep_io_types") = false,
      py::arg("keep") = py::none(),
      "Converts the model in place to float16, as `onyx convert --float16` (docs/surgery.md): "
      "float32 weights and computation become float16 where the operators allow it, with Casts "
      "where an operator in `keep` (operator types), one whose schema needs float32, or "
      "keep_io_types (the model's float32 inputs and outputs stay float32) needs them. Raises "
      "onyx.OnyxError, the model unchanged. Returns {'nodes_converted', 'kept_ops' (operator "
      "type: count), 'casts_added', 'tensors_converted', 'unmatched_keep_ops' (names in `keep` no "
      "node has)}.");

  module.def(
      "optimize",
      [](const HolderPtr& holder, std::optional<std::vector<std::string>> passes, bool aggressive,
         size_t fold_limit, size_t max_rounds, bool constant_initializers) {
        OptimizeOptions options;
        options.constant_initializers = constant_initializers;
        if (passes) options.passes = *passes;
        options.aggressive = aggressive;
        options.fold_limit = fold_limit;
        options.manager.max_rounds = max_rounds;
        KernelNodeEvaluator node_evaluator;  // folding runs the evaluator's own kernels
        options.node_evaluator = &node_evaluator;
        Result<OptimizeReport> report = Status(ErrorCode::kInternal, "not run");
        {
          py::gil_scoped_release unlocked;
          report = optimize(holder->model, options);
        }
        ++holder->edits;
        OptimizeReport done = unwrap(std::move(report), "cannot optimize");
        py::dict changes;
        for (const PassStats& pass : done.passes) {
          py::dict stats;
          stats["runs"] = pass.runs;
          stats["nodes_removed"] = pass.changes.nodes_removed;
          stats["nodes_added"] = pass.changes.nodes_added;
          stats["nodes_rewritten"] = pass.changes.nodes_rewritten;
          stats["entries_changed"] = pass.changes.entries_changed;
          stats["seconds"] = std::chrono::duration<double>(pass.time).count();
          changes[py::str(pass.name)] = stats;
        }
        py::dict result;
        result["rounds"] = done.rounds;
        result["reached_cap"] = done.reached_cap;
        result["passes"] = changes;
        return result;
      },
      py::arg("model"), py::arg("passes") = py::none(), py::kw_only(),
      py::arg("aggressive") = false, py::arg("fold_limit") = OptimizeOptions().fold_limit,
      py::arg("max_rounds") = PassManagerOptions().max_rounds,
      py::arg("constant_initializers") = false,
      "Simplifies the model in place, running the passes (default: default_passes()) to a "
      "fixed point; constant_initializers folds initializers listed as graph inputs as the "
      "constants they hold (always so before IR 4). Returns {'rounds', 'reached_cap', 'passes': "
      "{name: changes}}.");

  module.def(
      "convert_opset",
      [](const HolderPtr& holder, int64_t version,
         std::optional<std::map<std::string, int64_t>> domains) {
        std::vector<OpsetTarget> targets{{"", version}};
        if (domains) {
          for (const auto& [domain, domain_version] : *domains) {
            targets.push_back({domain, domain_version});
          }
        }
        Result<ConversionSummary> summary = Status(ErrorCode::kInternal, "not run");
        {
          py::gil_scoped_release unlocked;
          summary = convertOpset(holder->model, targets);
        }
        ++holder->edits;
        ConversionSummary done = unwrap(std::move(summary), "cannot convert");
        py::dict result;
        result["nodes_seen"] = done.nodes_seen;
        result["nodes_changed"] = done.nodes_changed;
        result["nodes_expanded"] = done.nodes_expanded;
        return result;
      },
      py::arg("model"), py::arg("version"), py::kw_only(), py::arg("domains") = py::none(),
      "Converts the model in place to `version` of the default domain (and each of `domains`, "
      "{'ai.onnx.ml': 3}), all or nothing: on failure the model is unchanged and the error "
      "lists every node that cannot be converted. A node whose operator the target lacks becomes "
      "its function body where the spec gives one. Returns {'nodes_seen', 'nodes_changed', "
      "'nodes_expanded'}.");

  module.def(
      "_draw_format_of_path",
      [](const std::string& path) -> std::optional<std::string> {
        std::optional<DrawFormat> format = drawFormatOfPath(path);
        if (!format) return std::nullopt;
        return std::string(drawFormatName(*format));
      },
      "The picture format a file name's extension says (.svg, .dot, .gv, .html, .htm), or None.");

  module.def(
      "_draw",
      [](const HolderPtr& holder, const std::string& format, std::optional<int> depth,
         std::vector<std::string> collapse, std::optional<HolderPtr> before,
         const std::string& title) {
        DrawOptions options;
        std::optional<DrawFormat> named = drawFormatNamed(format);
        if (!named)
          raiseValueError("format must be 'svg', 'dot' or 'html', not " + onyx::quoted(format));
        options.format = *named;
        if (depth && *depth < 1) raiseValueError("depth must be at least 1");
        options.depth = depth;
        options.collapse = std::move(collapse);
        options.title = title;
        std::string picture;
        Status drawn;
        {
          py::gil_scoped_release unlocked;
          drawn = before ? drawDiff((*before)->model, holder->model, options, picture)
                         : drawModel(holder->model, options, picture);
        }
        if (!drawn.isOk()) raiseStatus(drawn, "cannot draw");
        return picture;
      },
      py::arg("model"), py::arg("format"), py::arg("depth"), py::arg("collapse"), py::arg("before"),
      py::arg("title"),
      "The picture of `model` as text (onyx.draw wraps it); with `before`, the two aligned.");

  module.def("default_passes", &defaultPassNames,
             "The passes optimize() runs by default, in order.");
  module.def(
      "passes",
      [] {
        py::dict passes;
        for (const PassInfo& info : registeredPasses()) {
          std::unique_ptr<Pass> pass = info.make();
          passes[py::str(std::string(pass->name()))] = std::string(pass->summary());
        }
        return passes;
      },
      "Every pass optimize() knows: {name: what it does}.");

  module.def(
      "inline_functions",
      [](const HolderPtr& holder, bool function_operators, bool remove_unused_functions) {
        InlineOptions options;
        options.function_operators = function_operators;
        options.remove_unused_functions = remove_unused_functions;
        Result<InlineReport> report = Status(ErrorCode::kInternal, "not run");
        {
          py::gil_scoped_release unlocked;
          report = inlineAllFunctions(holder->model, options);
        }
        ++holder->edits;
        InlineReport done = unwrap(std::move(report), "cannot inline");
        py::dict result;
        result["function_calls"] = done.function_calls;
        result["operator_calls"] = done.operator_calls;
        result["functions_removed"] = done.functions_removed;
        result["left_alone"] = done.left_alone;
        return result;
      },
      py::arg("model"), py::kw_only(), py::arg("function_operators") = false,
      py::arg("remove_unused_functions") = true,
      "Replaces each call of a model-local function (and, with `function_operators`, each "
      "standard operator defined as a function) by its body, in place: the calls inlined and "
      "the functions removed (with their bodies) read as removed afterwards "
      "(StaleReferenceError); every other node and value stays as it was. On error the model "
      "is unchanged.");
}

}  // namespace onyx::python
