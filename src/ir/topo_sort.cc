#include "onyx/ir/topo_sort.h"

#include <algorithm>
#include <functional>
#include <queue>
#include <string>
#include <unordered_map>

#include "core/place_path.h"

namespace onyx {

namespace {

struct GraphOrder {
  Graph* graph;
  std::vector<Node*> order;
};

// Calls `fn(value)` for every value read inside the graphs that `node`'s attributes hold.
template <class Fn>
void forEachNestedRead(const Node& node, Fn&& fn) {
  std::function<void(const Graph&)> visit = [&](const Graph& graph) {
    for (const Node* inner = graph.first_node; inner != nullptr; inner = inner->next) {
      for (const Use& use : inner->inputs) fn(use.value);
      for (const Attribute* attribute : inner->attributes) {
        if (attribute->g != nullptr) visit(*attribute->g);
        for (const Graph* sub : attribute->rare().graphs) visit(*sub);
      }
    }
    for (const ValueInfo* info : graph.outputs) fn(info->output.value);
  };
  for (const Attribute* attribute : node.attributes) {
    if (attribute->g != nullptr) visit(*attribute->g);
    for (const Graph* sub : attribute->rare().graphs) visit(*sub);
  }
}

// `node[3](conv1) (Conv)`: the node's place in its graph, then its operator.
std::string describe(const Node* node, size_t index) {
  return pathSegment("node", index, node->nameOrEmpty()) + " (" + std::string(node->opType()) + ")";
}

// The topological order of `graph`'s nodes, or the nodes on a cycle.
Status orderOf(Graph& graph, std::vector<Node*>& order, std::vector<Node*>* cycle) {
  std::vector<Node*> nodes;
  nodes.reserve(graph.node_count);
  std::unordered_map<const Node*, size_t> index;
  index.reserve(graph.node_count);
  for (Node* node = graph.first_node; node != nullptr; node = node->next) {
    index.emplace(node, nodes.size());
    nodes.push_back(node);
  }
  size_t n = nodes.size();
  std::vector<std::vector<size_t>> successors(n);
  std::vector<std::vector<size_t>> predecessors(n);
  std::vector<size_t> pending(n, 0);  // predecessors not yet placed
  for (size_t i = 0; i < n; ++i) {
    auto addEdge = [&](const Value* value) {
      if (value == nullptr || value->graph != &graph || value->producer == nullptr) return;
      auto producer = index.find(value->producer);
      if (producer == index.end()) return;
      successors[producer->second].push_back(i);
      predecessors[i].push_back(producer->second);
      ++pending[i];
    };
    for (const Use& use : nodes[i]->inputs) addEdge(use.value);
    forEachNestedRead(*nodes[i], addEdge);
  }
  // Kahn's algorithm, taking the earliest ready node first, so a sorted list stays as it is.
  std::priority_queue<size_t, std::vector<size_t>, std::greater<>> ready;
  for (size_t i = 0; i < n; ++i) {
    if (pending[i] == 0) ready.push(i);
  }
  order.clear();
  order.reserve(n);
  while (!ready.empty()) {
    size_t i = ready.top();
    ready.pop();
    order.push_back(nodes[i]);
    for (size_t next : successors[i]) {
      if (--pending[next] == 0) ready.push(next);
    }
  }
  if (order.size() == n) return Status::ok();

  // Every node left waits on another node left: walk back along such waits until one
  // repeats; the walk from its first visit on is a cycle.
  size_t start = 0;
  while (pending[start] == 0) ++start;
  std::vector<size_t> walk;
  std::vector<size_t> seen_at(n, SIZE_MAX);
  size_t at = start;
  while (seen_at[at] == SIZE_MAX) {
    seen_at[at] = walk.size();
    walk.push_back(at);
    for (size_t before : predecessors[at]) {
      if (pending[before] != 0) {
        at = before;
        break;
      }
    }
  }
  std::vector<size_t> loop(walk.begin() + static_cast<std::ptrdiff_t>(seen_at[at]), walk.end());
  std::reverse(loop.begin(), loop.end());  // the walk went against the data flow
  std::string message = "the nodes form a cycle: ";
  for (size_t i : loop) message += describe(nodes[i], i) + " -> ";
  message += describe(nodes[loop.front()], loop.front());
  if (cycle != nullptr) {
    cycle->clear();
    for (size_t i : loop) cycle->push_back(nodes[i]);
  }
  Status status(ErrorCode::kInvalidArgument, std::move(message));
  if (graph.name.has_value()) status.within(*graph.name);
  return status;
}

void collect(Graph& graph, std::vector<GraphOrder>& all) {
  all.push_back({&graph, {}});
  for (Graph* sub : graph.subgraphs) collect(*sub, all);
}

void relink(Graph& graph, const std::vector<Node*>& order) {
  Node* prev = nullptr;
  for (Node* node : order) {
    node->prev = prev;
    if (prev != nullptr) {
      prev->next = node;
    } else {
      graph.first_node = node;
    }
    prev = node;
  }
  if (prev != nullptr) prev->next = nullptr;
  graph.last_node = prev;
}

}  // namespace

Status topologicalSort(Graph& graph, std::vector<Node*>* cycle) {
  // Every order first, then the changes: a cycle anywhere leaves everything as it was.
  std::vector<GraphOrder> all;
  collect(graph, all);
  for (GraphOrder& entry : all) ONYX_RETURN_IF_ERROR(orderOf(*entry.graph, entry.order, cycle));
  for (const GraphOrder& entry : all) relink(*entry.graph, entry.order);
  return Status::ok();
}

Result<std::vector<const Node*>> topologicalOrder(const Graph& graph) {
  // orderOf only reads the graph.
  std::vector<Node*> order;
  ONYX_RETURN_IF_ERROR(orderOf(const_cast<Graph&>(graph), order, nullptr));
  return std::vector<const Node*>(order.begin(), order.end());
}

}  // namespace onyx
