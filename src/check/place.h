// Internal: where the walker is, kept as a few links per graph and turned into a path
// string only when a diagnostic is reported. Paths are those of core/place_path.h:
//
//   graph.node[12](conv1).input[2]
//   graph.node[3](loop).attribute[0](body).g.node[0](add)
//   graph.node[1](if0).attribute[2](branches).graphs[1](then).output[0](y)
//   functions[1](MyFn).node[0]
//   training_info[0].algorithm.node[2]
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "core/place_path.h"
#include "onyx/ir/attribute.h"
#include "onyx/ir/node.h"

namespace onyx::check {

/// A graph being walked, and how the walk reached it.
struct GraphPlace {
  // A root graph (main, training, function body, attribute default): its whole path.
  std::string root;
  // A graph held by an attribute: the place of the node's graph, the node, the attribute.
  const GraphPlace* outer = nullptr;
  const Node* owner = nullptr;
  size_t owner_index = 0;
  const Attribute* attribute = nullptr;
  size_t attribute_index = 0;
  std::optional<size_t> list_index;  // in the attribute's `graphs`; empty for `g`
  std::string_view name;             // the graph's name, shown for `graphs` items

  std::string path() const;
  /// The path of node `index` of this graph.
  std::string nodePath(size_t index, const Node& node) const;
  /// The path of attribute `a` of node `index`.
  std::string attributePath(size_t index, const Node& node, size_t a) const;
};

/// A path not yet formatted: calling it formats it. Cheap to pass (two words), like a
/// function reference; the callable it wraps must outlive it.
class LazyPath {
 public:
  template <class F>
  LazyPath(const F& make)  // NOLINT: any callable returning the path converts
      : object_(&make),
        call_([](const void* object) { return (*static_cast<const F*>(object))(); }) {}
  std::string operator()() const { return call_(object_); }

 private:
  const void* object_;
  std::string (*call_)(const void*);
};

}  // namespace onyx::check
