#include "onyx/ir/verify.h"

#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "core/place_path.h"
#include "ir/graph_builder.h"
#include "ir/graph_place.h"
#include "onyx/core/quote.h"

namespace onyx {

namespace {

class Verifier {
 public:
  /// Checks a graph and its nested graphs; `path` names the graph in messages.
  void tree(const Graph& root, const std::string& path) {
    size_t first = graphs_.size();
    collect(root, path);
    for (size_t i = first; i < graphs_.size(); ++i) graph(*graphs_[i].graph, graphs_[i].path);
  }

  void functionSignature(const Function& function, const std::string& path) {
    const Graph* body = function.body;
    for (size_t i = 0; i < function.inputs.size(); ++i) {
      const Value* value = function.inputs[i];
      if (value == nullptr) continue;
      if (value->graph() != body || !value->isFunctionInput()) {
        problem(path + "." + pathSegment("input", i, value->name()),
                "is not a function input defined in the body");
      }
    }
    for (size_t i = 0; i < function.outputs.size(); ++i) {
      const Use* use = function.outputs[i];
      std::string at = path + "." + pathSegment("output", i);
      if (use == nullptr) {
        problem(at, "is null");
        continue;
      }
      if (use->user() != nullptr) problem(at, "has a user node");
      slot(*use, body, at);
    }
  }

  /// Checks every use-list the slots met, and returns all problems found.
  Diagnostics finish() {
    std::unordered_set<const Use*> walked;
    for (const Value* value : values_) useList(*value, walked);
    for (const auto& [use, at] : slots_) {
      if (walked.count(use) == 0) {
        problem(at, "is not linked into the use-list of " + quoted(use->value()->name()));
      }
    }
    return std::move(problems_);
  }

 private:
  struct GraphEntry {
    const Graph* graph;
    std::string path;
  };

  void problem(const std::string& at, const std::string& what) {
    Diagnostic broken;
    broken.path = at;
    broken.message = what;
    broken.code = ErrorCode::kInternal;
    problems_.add(std::move(broken));
  }

  static std::string nodePath(const std::string& graph_path, size_t index, const Node& node) {
    return graph_path + "." + pathSegment("node", index, node.nameOrEmpty());
  }

  // Lists the graph and its nested graphs, checking how each is held.
  void collect(const Graph& graph, const std::string& path) {
    in_tree_.insert(&graph);
    graphs_.push_back({&graph, path});
    std::unordered_set<const Graph*> listed(graph.subgraphs().begin(), graph.subgraphs().end());
    size_t held = 0;
    size_t index = 0;
    for (const Node* node = graph.firstNode(); node != nullptr; node = node->next(), ++index) {
      for (size_t a = 0; a < node->attributes.size(); ++a) {
        const Attribute& attribute = *node->attributes[a];
        std::string at = nodePath(path, index, *node) + "." +
                         pathSegment("attribute", a, attribute.nameOrEmpty());
        auto nested = [&](const Graph* sub, const std::string& sub_path) {
          ++held;
          if (sub->parent() != &graph) problem(sub_path, "its parent is not the node's graph");
          if (sub->owner() != node) problem(sub_path, "its owner is not the node holding it");
          if (listed.count(sub) == 0) problem(sub_path, "is missing from the graph's subgraphs");
          collect(*sub, sub_path);
        };
        if (attribute.g != nullptr) nested(attribute.g, at + ".g");
        for (size_t g = 0; g < attribute.rare().graphs.size(); ++g) {
          const Graph* sub = attribute.rare().graphs[g];
          nested(sub, at + "." + pathSegment("graphs", g, sub->name.value_or("")));
        }
      }
      if (index > graph.nodeCount()) break;  // a looping list; reported by graph()
    }
    if (held != graph.subgraphs().size()) {
      problem(path, std::to_string(graph.subgraphs().size()) + " subgraphs listed, " +
                        std::to_string(held) + " held by attributes");
    }
  }

  void slot(const Use& use, const Graph* graph, const std::string& at) {
    const Value* value = use.value();
    if (value == nullptr) return;
    if (value->graph() == nullptr) {
      problem(at, "reads " + quoted(value->name()) + ", which was removed from its graph");
      return;
    }
    if (!value->graph()->encloses(graph)) {
      problem(at, "reads " + quoted(value->name()) + ", which is not visible from its graph");
    }
    slots_.emplace(&use, at);
    values_.insert(value);
  }

  void graph(const Graph& graph, const std::string& path) {
    // The node list.
    size_t count = 0;
    const Node* previous = nullptr;
    std::unordered_set<const Node*> nodes;
    for (const Node* node = graph.firstNode(); node != nullptr; node = node->next()) {
      std::string at = nodePath(path, count, *node);
      if (node->prev() != previous) problem(at, "its prev link is wrong");
      if (node->graph() != &graph) problem(at, "names another graph as its own");
      if (!nodes.insert(node).second || ++count > graph.nodeCount()) {
        problem(path, "the node list loops or is longer than node_count");
        return;
      }
      previous = node;
    }
    if (previous != graph.lastNode()) problem(path, "last_node is not the last node");
    if (count != graph.nodeCount()) {
      problem(path, "node_count is " + std::to_string(graph.nodeCount()) + ", the list has " +
                        std::to_string(count));
    }

    // Nodes: input slots and output values.
    size_t index = 0;
    for (const Node* node = graph.firstNode(); node != nullptr; node = node->next(), ++index) {
      std::string at = nodePath(path, index, *node);
      for (size_t i = 0; i < node->inputCount(); ++i) {
        const Use& use = node->inputs()[i];
        std::string slot_at = at + "." + pathSegment("input", i);
        if (use.user() != node) problem(slot_at, "its user is not the node");
        slot(use, &graph, slot_at);
      }
      for (size_t i = 0; i < node->outputCount(); ++i) {
        const Value* value = node->output(i);
        if (value == nullptr) continue;
        std::string out_at = at + "." + pathSegment("output", i, value->name());
        if (value->producer() != node || value->outputIndex() != i) {
          problem(out_at, "its value does not name this node and index as its producer");
        }
        if (value->graph() != &graph) problem(out_at, "its value is not a value of this graph");
      }
    }

    // Graph inputs, outputs, initializers, value_info.
    std::unordered_set<const ValueInfo*> inputs(graph.inputs.begin(), graph.inputs.end());
    std::unordered_set<const ValueInfo*> declarations(graph.value_info.begin(),
                                                      graph.value_info.end());
    declarations.insert(graph.outputs.begin(), graph.outputs.end());
    std::unordered_set<const Tensor*> initializers(graph.initializers.begin(),
                                                   graph.initializers.end());
    std::unordered_set<const SparseTensor*> sparse(graph.sparse_initializers.begin(),
                                                   graph.sparse_initializers.end());
    for (size_t i = 0; i < graph.inputs.size(); ++i) {
      const ValueInfo& info = *graph.inputs[i];
      const Value* value = info.value;
      if (value == nullptr) continue;
      std::string at = path + "." + pathSegment("input", i, value->name());
      if (value->graph() != &graph) problem(at, "declares a value of another graph");
      if (value->graphInput() == nullptr || value->graphInput()->value != value) {
        problem(at, "its value does not know it is an input");
      }
    }
    for (size_t i = 0; i < graph.outputs.size(); ++i) {
      const ValueInfo& info = *graph.outputs[i];
      std::string at = path + "." + pathSegment("output", i, info.name.value_or(""));
      if (info.output.user() != nullptr) problem(at, "its use has a user node");
      slot(info.output, &graph, at);
    }
    for (size_t i = 0; i < graph.initializers.size(); ++i) {
      const Tensor* tensor = graph.initializers[i];
      if (tensor->nameOrEmpty().empty()) continue;
      std::string at = path + "." + pathSegment("initializer", i, tensor->nameOrEmpty());
      const Value* value = graph.names().find(tensor->nameOrEmpty());
      if (value == nullptr || value->initializer() == nullptr) {
        problem(at, "no value of the graph has it as its initializer");
      } else if (value->initializer() != tensor) {
        problem(at, "a second initializer of the same name (not SSA)");
      }
    }
    for (size_t i = 0; i < graph.value_info.size(); ++i) {
      const ValueInfo& info = *graph.value_info[i];
      const Value* value = info.bound();
      if (value == nullptr || info.isRemoved()) continue;
      if (!value->graph()->encloses(&graph)) {
        problem(path + "." + pathSegment("value_info", i, value->name()),
                "declares a value not visible from the graph");
      }
    }

    // The name table and the values.
    std::unordered_set<const Value*> owned(graph.values().begin(), graph.values().end());
    graph.names().forEach([&](std::string_view name, const Value* value) {
      std::string at = path + ".names(" + std::string(name) + ")";
      if (value->graph() != &graph)
        problem(at, "maps to a value of another graph, or a removed one");
      if (value->name() != name) problem(at, "maps to a value named " + quoted(value->name()));
      if (owned.count(value) == 0) problem(at, "maps to a value missing from the graph's values");
    });
    for (const Value* value : graph.values()) {
      if (value->graph() == nullptr) continue;  // removed, until the list compacts
      std::string at = path + ".value(" + std::string(value->name()) + ")";
      if (value->graph() != &graph) {
        problem(at, "is listed in a graph that is not its own");
        continue;
      }
      values_.insert(value);
      if (!value->name().empty()) {
        const Value* bound = graph.names().find(value->name());
        if (bound != value) {
          problem(at, bound == nullptr ? "is missing from the name table"
                                       : "has the name of another value of the graph (not SSA)");
        }
        if (graph.parent() != nullptr && graph.parent()->lookup(value->name()) != nullptr) {
          problem(at, "shadows a value of an enclosing graph");
        }
      }
      if (const Node* producer = value->producer()) {
        if (nodes.count(producer) == 0 || producer->outputCount() <= value->outputIndex() ||
            producer->output(value->outputIndex()) != value) {
          problem(at, "its producer is not a node of the graph that outputs it there");
        }
      }
      if (value->graphInput() != nullptr &&
          (inputs.count(value->graphInput()) == 0 || value->graphInput()->value != value)) {
        problem(at, "its input declaration is not one of the graph's inputs");
      }
      if (value->initializer() != nullptr &&
          (initializers.count(value->initializer()) == 0 ||
           value->initializer()->nameOrEmpty() != value->name())) {
        problem(at, "its initializer is not one of the graph's, under its name");
      }
      if (value->sparseInitializer() != nullptr && sparse.count(value->sparseInitializer()) == 0) {
        problem(at, "its sparse initializer is not one of the graph's");
      }
      if (value->valueInfo() != nullptr &&
          (declarations.count(value->valueInfo()) == 0 || value->valueInfo()->bound() != value)) {
        problem(at, "its type declaration is not an entry of the graph for it");
      }
    }
  }

  void useList(const Value& value, std::unordered_set<const Use*>& walked) {
    bool owned = value.graph() != nullptr && in_tree_.count(value.graph()) != 0;
    std::string at = "value " + quoted(value.name());
    // The links are private; the verifier reads them as the IR's own code does.
    using B = ir_internal::GraphBuilder;
    Value* mutable_value = const_cast<Value*>(&value);
    const Use* const* link = &B::firstUse(mutable_value);
    std::unordered_set<const Use*> seen;
    for (const Use* use = *link; use != nullptr; use = use->next()) {
      if (!seen.insert(use).second) {
        problem(at, "its use-list loops");
        return;
      }
      if (use->value() != &value) problem(at, "its use-list holds a use of another value");
      Use* mutable_use = const_cast<Use*>(use);
      if (B::prev(mutable_use) != link) problem(at, "a use in its list has a wrong back link");
      link = &B::next(mutable_use);
      if (slots_.count(use) != 0) {
        walked.insert(use);
        continue;
      }
      // A use no slot of the verified graphs holds: fine for an outer value read from
      // elsewhere, stale otherwise.
      bool stale = owned || (use->user() != nullptr && (use->user()->graph() == nullptr ||
                                                        in_tree_.count(use->user()->graph()) != 0));
      if (stale) problem(at, "its use-list holds a use that no live input or output holds");
    }
  }

  std::vector<GraphEntry> graphs_;
  std::unordered_set<const Graph*> in_tree_;
  std::unordered_map<const Use*, std::string> slots_;
  std::unordered_set<const Value*> values_;
  Diagnostics problems_;
};

}  // namespace

Diagnostics verifyGraph(const Graph& graph) {
  Verifier verifier;
  verifier.tree(graph, graph.name.has_value() && !graph.name->empty()
                           ? "graph(" + std::string(*graph.name) + ")"
                           : "graph");
  return verifier.finish();
}

Diagnostics verifyFunction(const Function& function) {
  Verifier verifier;
  std::string path = "function(" + std::string(function.nameOrEmpty()) + ")";
  if (function.body != nullptr) {
    verifier.tree(*function.body, path);
    verifier.functionSignature(function, path);
  }
  return verifier.finish();
}

Diagnostics verifyModel(const Model& model) {
  Verifier verifier;
  forEachRootGraph(model,
                   [&](Graph& root, const std::string& place) { verifier.tree(root, place); });
  for (size_t i = 0; i < model.functions.size(); ++i) {
    const Function& function = *model.functions[i];
    if (function.body != nullptr) {
      verifier.functionSignature(function, pathSegment("functions", i, function.nameOrEmpty()));
    }
  }
  return verifier.finish();
}

Status verifiedStatus(const Diagnostics& problems) {
  const std::vector<Diagnostic>& all = problems.all();
  if (all.empty()) return Status::ok();
  std::string message = std::to_string(all.size()) + " broken invariant(s): ";
  for (size_t i = 0; i < all.size() && i < 10; ++i) {
    if (i > 0) message += "; ";
    message += all[i].path + ": " + all[i].message;
  }
  if (all.size() > 10) message += "; ...";
  return Status(ErrorCode::kInternal, std::move(message));
}

}  // namespace onyx
