#include "ir/graph_place.h"

#include "core/place_path.h"
#include "onyx/ir/attribute.h"

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

}  // namespace onyx
