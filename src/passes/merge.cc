#include "onyx/passes/merge.h"

#include <algorithm>
#include <set>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "infer/merge.h"
#include "onyx/core/quote.h"
#include "onyx/ir/attribute.h"
#include "onyx/ir/clone.h"
#include "onyx/ir/editor.h"
#include "onyx/ir/function.h"
#include "onyx/ir/opset_imports.h"
#include "onyx/ir/patch.h"
#include "onyx/ir/unique_names.h"
#include "onyx/passes/opset_conversion.h"
#include "onyx/text/printer.h"
#include "ops/type_conversion.h"
#include "passes/pass_patches.h"

namespace onyx {

namespace {

// The main graph and every graph nested in it, outermost first.
std::vector<Graph*> graphTree(Graph& main) {
  std::vector<Graph*> graphs{&main};
  main.forEachNode([&](const Node* node) {
    for (const Attribute* attribute : node->attributes) {
      if (attribute->g != nullptr) graphs.push_back(attribute->g);
      for (Graph* graph : attribute->rare().graphs) graphs.push_back(graph);
    }
  });
  return graphs;
}

// The values `graph` defines under a name.
std::vector<Value*> ownValues(const Graph& graph) {
  std::vector<Value*> values;
  for (Value* value : graph.values()) {
    if (value->graph() == &graph && !value->name().empty()) values.push_back(value);
  }
  return values;
}

// Whether two declared types can be one value's: same kind and element type, and the same
// number wherever both give a dimension one. Empty when they can; else why not.
std::string typeClash(const Type* first, const Type* second) {
  if (first == nullptr || second == nullptr) return {};
  SymbolicDims dims;
  infer::Merged merged =
      infer::mergeTypes(ops::fromDeclared(*first, dims), ops::fromDeclared(*second, dims), dims);
  if (merged.conflict.empty()) return {};
  return formatType(*first) + " against " + formatType(*second) + merged.conflict;
}

class Merger {
 public:
  Merger(Model& a, Model& b, const MergeOptions& options) : a_(a), b_(b), options_(options) {}

  Result<MergeReport> run() {
    ONYX_RETURN_IF_ERROR(checkConnections());
    Model merged = cloneModel(a_);
    ONYX_RETURN_IF_ERROR(reconcileOpsets(merged));
    ONYX_RETURN_IF_ERROR(prefixNames(merged, options_.prefix_a));
    ONYX_RETURN_IF_ERROR(prefixNames(b_, options_.prefix_b));
    ONYX_RETURN_IF_ERROR(connect(merged));
    ONYX_RETURN_IF_ERROR(checkSharedInputs(merged));
    report_.nodes_a = merged.graph->nodeCount();
    report_.nodes_b = b_.graph->nodeCount();
    size_t outputs_of_a = merged.graph->outputs.size();
    merged.shareBytesOf(b_);
    GraphEditor edit(merged);
    if (Status grafted = edit.graftGraph(*merged.graph, *b_.graph); !grafted) {
      // "both graphs define 'x', 'y'": said of the models, with the way out.
      std::string message = grafted.message();
      if (message.starts_with("both graphs")) message.replace(0, 11, "both models");
      return Status(grafted.code(), message + "; prefixes (prefix_a, prefix_b) tell them apart");
    }
    ONYX_RETURN_IF_ERROR(dropConnectedOutputs(merged, outputs_of_a));
    ONYX_RETURN_IF_ERROR(joinFunctions(merged));
    for (const OperatorSetId& import : b_.opset_import) {
      std::string_view domain = import.domain.value_or(std::string_view());
      if (!merged.opsetVersion(domain) && import.version) {
        merged.setOpsetVersion(domain, *import.version);
      }
    }
    merged.ir_version = std::max(merged.ir_version.value_or(0), b_.ir_version.value_or(0));
    a_ = std::move(merged);
    return std::move(report_);
  }

 private:
  // Each connection names an output of A and an input of B, each input at most once.
  Status checkConnections() const {
    std::vector<std::string> missing;
    std::set<std::string> connected;
    for (const auto& [output, input] : options_.connections) {
      if (!isOutputOf(*a_.graph, output)) missing.push_back("output " + quoted(output) + " of A");
      if (!isInputOf(*b_.graph, input)) missing.push_back("input " + quoted(input) + " of B");
      if (!connected.insert(input).second) {
        return Status(ErrorCode::kInvalidArgument,
                      "input " + quoted(input) + " of B is connected twice");
      }
    }
    if (missing.empty()) return Status::ok();
    std::string message = "the connections name no ";
    for (size_t i = 0; i < missing.size(); ++i) message += (i > 0 ? ", no " : "") + missing[i];
    return Status(ErrorCode::kNotFound, message);
  }

  static bool isOutputOf(const Graph& graph, std::string_view name) {
    return std::any_of(graph.outputs.begin(), graph.outputs.end(), [&](const ValueInfo* output) {
      return output->bound() != nullptr && output->bound()->name() == name;
    });
  }
  static bool isInputOf(const Graph& graph, std::string_view name) {
    return std::any_of(graph.inputs.begin(), graph.inputs.end(), [&](const ValueInfo* input) {
      return input->value != nullptr && input->value->name() == name;
    });
  }

  // A domain both import at different versions: the model at the lower one goes up.
  Status reconcileOpsets(Model& merged) {
    for (const OperatorSetId& import : b_.opset_import) {
      std::string_view domain = canonicalDomain(import.domain.value_or(std::string_view()));
      std::optional<int64_t> in_a = merged.opsetVersion(domain);
      std::optional<int64_t> in_b = b_.opsetVersion(domain);
      if (!in_a || !in_b || *in_a == *in_b) continue;
      bool a_lower = *in_a < *in_b;
      Model& lower = a_lower ? merged : b_;
      int64_t target = std::max(*in_a, *in_b);
      std::string shown = domain.empty() ? std::string(kDefaultDomainAlias) : std::string(domain);
      std::string what = std::string(a_lower ? "A" : "B") + ": " + shown + " " +
                         std::to_string(std::min(*in_a, *in_b)) + " -> " + std::to_string(target);
      OpsetTarget targets[] = {{std::string(domain), target}};
      auto converted = convertOpset(lower, targets);
      if (!converted) {
        return Status(converted.status().code(), "cannot reconcile the operator sets (" + what +
                                                     "): " + converted.status().message());
      }
      report_.conversions.push_back(what);
    }
    return Status::ok();
  }

  // B's connected inputs take the names of the outputs of A they read (graftGraph then joins
  // them), after checking that their types agree.
  Status connect(Model& merged) {
    Patch patch(b_, *b_.graph);
    for (const auto& [output, input] : options_.connections) {
      std::string output_name = options_.prefix_a + output;
      std::string input_name = options_.prefix_b + input;
      const Value* produced = merged.graph->names().find(output_name);
      Value* read = b_.graph->names().find(input_name);
      if (std::string clash = typeClash(produced->type(), read->type()); !clash.empty()) {
        return Status(ErrorCode::kInvalidArgument, "output " + quoted(output) + " of A and input " +
                                                       quoted(input) + " of B clash: " + clash);
      }
      // Its default would stand for a value A now computes.
      if (read->isInitializer()) patch.removeInitializer(read);
      if (input_name == output_name) continue;
      if (isNameInScope(*b_.graph, output_name)) {
        return Status(ErrorCode::kInvalidArgument,
                      "input " + quoted(input) + " of B cannot read output " + quoted(output) +
                          " of A: B defines " + quoted(output_name) + " too");
      }
      patch.renameValue(read, output_name);
    }
    return patch.apply();
  }

  // An input of B that no connection feeds may share a name only with an input of A, declared
  // alike: the result reads it once.
  Status checkSharedInputs(const Model& merged) {
    std::set<std::string, std::less<>> connected;
    for (const auto& connection : options_.connections) {
      connected.insert(options_.prefix_a + connection.first);
    }
    for (const ValueInfo* input : b_.graph->inputs) {
      const Value* value = input->value;
      if (value == nullptr || connected.contains(value->name())) continue;
      const Value* theirs = merged.graph->names().find(value->name());
      if (theirs == nullptr) continue;
      if (!theirs->isGraphInput() || value->isInitializer()) {
        return Status(ErrorCode::kInvalidArgument,
                      "input " + quoted(value->name()) + " of B has the name of " +
                          (theirs->isGraphInput() ? "an input" : "a value") +
                          " of A; connect them, or give prefixes (prefix_a, prefix_b)");
      }
      if (std::string clash = typeClash(theirs->type(), value->type()); !clash.empty()) {
        return Status(
            ErrorCode::kInvalidArgument,
            "both models take input " + quoted(value->name()) + ", of clashing types: " + clash);
      }
      report_.shared_inputs.emplace_back(value->name());
    }
    return Status::ok();
  }

  // Outputs of A that a connection feeds into B are the result's no more.
  Status dropConnectedOutputs(Model& merged, size_t outputs_of_a) const {
    std::unordered_set<std::string> taken;
    for (const auto& connection : options_.connections) {
      taken.insert(options_.prefix_a + connection.first);
    }
    if (taken.empty()) return Status::ok();
    Graph& graph = *merged.graph;
    std::vector<Value*> kept;
    for (size_t i = 0; i < graph.outputs.size(); ++i) {
      Value* value = graph.outputs[i]->bound();
      if (i >= outputs_of_a || value == nullptr || !taken.contains(std::string(value->name()))) {
        kept.push_back(value);
      }
    }
    Patch patch(merged, graph);
    patch.setGraphOutputs(kept);
    return patch.apply();
  }

  // B's functions join A's; one of the same id is kept when both are the same function.
  Status joinFunctions(Model& merged) const {
    GraphEditor edit(merged);
    for (const Function* function : b_.functions) {
      const Function* existing = merged.findFunction(
          function->domainOrEmpty(), function->nameOrEmpty(), function->overloadOrEmpty());
      if (existing != nullptr) {
        if (printFunction(*existing) == printFunction(*function)) continue;
        return Status(ErrorCode::kInvalidArgument,
                      "both models define function " + quoted(function->nameOrEmpty()) +
                          " of domain " + quoted(function->domainOrEmpty()) + ", differently");
      }
      ONYX_RETURN_IF_ERROR(merged.addFunction(edit.cloneFunction(*function)));
    }
    return Status::ok();
  }

  Model& a_;
  Model& b_;
  const MergeOptions& options_;
  MergeReport report_;
};

}  // namespace

Status prefixNames(Model& model, std::string_view prefix) {
  if (prefix.empty() || model.graph == nullptr) return Status::ok();
  std::vector<Graph*> graphs = graphTree(*model.graph);
  GraphEditor edit(model);
  // Every graph's values renamed at once, by one patch a graph.
  auto renameAll = [&](auto&& name_of) {
    PassContext context;
    passes_internal::PassPatches patches(model, context);
    for (Graph* graph : graphs) {
      for (Value* value : ownValues(*graph)) {
        patches.of(*graph).renameValue(value, name_of(*graph, *value));
      }
    }
    return patches.commit();
  };
  // A prefixed name can only meet a name that starts with the prefix: when some does, every
  // value first takes a name no value has, then its prefixed one.
  bool meets = false;
  std::unordered_map<const Value*, std::string> prefixed;
  for (const Graph* graph : graphs) {
    for (const Value* value : ownValues(*graph)) {
      meets = meets || value->name().starts_with(prefix);
      prefixed.emplace(value, std::string(prefix) + std::string(value->name()));
    }
  }
  if (meets) {
    size_t count = 0;
    // A hint of its own per value: the names are taken only when the patches are applied.
    ONYX_RETURN_IF_ERROR(renameAll([&](Graph& graph, const Value&) {
      return std::string(edit.uniqueName(graph, "onyx_prefixing_" + std::to_string(++count)));
    }));
  }
  ONYX_RETURN_IF_ERROR(renameAll([&](Graph&, const Value& value) { return prefixed.at(&value); }));
  for (Graph* graph : graphs) {
    for (Node* node : graph->nodes()) {
      if (node->name && !node->name->empty()) {
        node->name = edit.arena().copy(std::string(prefix) + std::string(*node->name));
      }
    }
  }
  return Status::ok();
}

Result<MergeReport> mergeModels(Model& a, Model& b, const MergeOptions& options) {
  if (a.graph == nullptr || b.graph == nullptr) {
    return Status(ErrorCode::kInvalidArgument, "a model without a graph cannot be merged");
  }
  if (!a.training_info.empty() || !b.training_info.empty()) {
    return Status(ErrorCode::kUnsupported,
                  "a model with training_info cannot be merged: its bindings name its graph's "
                  "initializers");
  }
  return Merger(a, b, options).run();
}

}  // namespace onyx
