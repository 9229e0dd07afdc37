// User code cannot break a graph by assignment: the links of Graph, Node, Value and Use are
// private behind read accessors. Compiled once per PROBE, each assignment must fail; without
// PROBE the file compiles, so a failure comes from the assignment and not from how the probe
// is compiled (tests/CMakeLists.txt).
#include "onyx/ir/graph.h"

void probe(onyx::Graph& graph, onyx::Node* node, onyx::Value* value, onyx::Use& use) {
  (void)graph;
  (void)node;
  (void)value;
  (void)use;
#if PROBE == 1
  node->next = nullptr;
#elif PROBE == 2
  node->next_ = nullptr;
#elif PROBE == 3
  value->producer = node;
#elif PROBE == 4
  value->producer_ = node;
#elif PROBE == 5
  use.next = nullptr;
#elif PROBE == 6
  use.next_ = nullptr;
#elif PROBE == 7
  graph.firstNode() = nullptr;
#elif PROBE == 8
  graph.first_node_ = nullptr;
#elif PROBE == 9
  node->output(0) = value;
#elif PROBE == 10
  node->inputs()[0] = onyx::Use();
#elif PROBE == 11
  value->graph_ = nullptr;
#elif PROBE == 12
  graph.names_ = onyx::NameTable();
#elif PROBE == 13
  value->name() = "renamed";  // a copy: would do nothing, so it does not compile either
#elif PROBE == 14
  node->outputs() = {};
#endif
}
