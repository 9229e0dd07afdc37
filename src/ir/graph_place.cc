#include "ir/graph_place.h"

#include "core/place_path.h"
#include "onyx/ir/attribute.h"
#include "onyx/ir/function.h"

namespace onyx {

std::string graphPathInNode(const Node& owner, const Graph& graph) {
  std::string path;
  for (size_t a = 0; a < owner.attributes.size(); ++a) {
    const Attribute* attribute = owner.attributes[a];
    if (attribute == nullptr) continue;
    if (attribute->g == &graph) {
      appendSegment(path, "attribute", a, attribute->nameOrEmpty());
      return joinPath(std::move(path), "g");
    }
    const ArenaList<Graph*>& graphs = attribute->rare().graphs;
    for (size_t k = 0; k < graphs.size(); ++k) {
      if (graphs[k] != &graph) continue;
      appendSegment(path, "attribute", a, attribute->nameOrEmpty());
      appendSegment(path, "graphs", k, graph.name.value_or(std::string_view()));
      return path;
    }
  }
  return path;
}

void forEachRootGraph(const Model& model,
                      const std::function<void(Graph& graph, const std::string& place)>& visit) {
  if (model.graph != nullptr) visit(*model.graph, "graph");
  for (size_t i = 0; i < model.training_info.size(); ++i) {
    const TrainingInfo* info = model.training_info[i];
    std::string entry = pathSegment("training_info", i);
    if (info->initialization != nullptr) {
      visit(*info->initialization, joinPath(entry, "initialization"));
    }
    if (info->algorithm != nullptr) visit(*info->algorithm, joinPath(entry, "algorithm"));
  }
  for (size_t i = 0; i < model.functions.size(); ++i) {
    const Function* function = model.functions[i];
    std::string place = pathSegment("functions", i, function->nameOrEmpty());
    if (function->body != nullptr) visit(*function->body, place);
    // Graphs given as attribute defaults belong to no node: each is a root of its own.
    for (size_t k = 0; k < function->attribute_proto.size(); ++k) {
      const Attribute* attribute = function->attribute_proto[k];
      if (attribute == nullptr) continue;
      std::string item = place;
      appendSegment(item, "attribute_proto", k, attribute->nameOrEmpty());
      if (attribute->g != nullptr) visit(*attribute->g, joinPath(item, "g"));
      const ArenaList<Graph*>& graphs = attribute->rare().graphs;
      for (size_t g = 0; g < graphs.size(); ++g) {
        if (graphs[g] == nullptr) continue;
        std::string listed = item;
        appendSegment(listed, "graphs", g, graphs[g]->name.value_or(std::string_view()));
        visit(*graphs[g], listed);
      }
    }
  }
}

std::string placeOf(const Model& model, const Graph& graph) {
  if (const Node* owner = graph.owner(); owner != nullptr && owner->graph() != nullptr) {
    const Graph& outer = *owner->graph();
    std::string place = placeOf(model, outer);
    if (place.empty()) return place;
    size_t index = 0;
    for (const Node* node : outer.nodes()) {
      if (node == owner) break;
      ++index;
    }
    appendSegment(place, "node", index, owner->nameOrEmpty());
    return joinPath(std::move(place), graphPathInNode(*owner, graph));
  }
  std::string found;
  forEachRootGraph(model, [&](Graph& root, const std::string& place) {
    if (&root == &graph && found.empty()) found = place;
  });
  return found;
}

std::string describeNode(const Node& node, size_t index) {
  return pathSegment("node", index, node.nameOrEmpty()) + " (" + std::string(node.opType()) + ")";
}

}  // namespace onyx
