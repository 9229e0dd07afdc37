#include "onyx/ir/topo_sort.h"

#include <algorithm>
#include <functional>
#include <queue>
#include <string>
#include <unordered_map>

#include "core/place_path.h"
#include "core/pointer_set.h"
#include "ir/graph_builder.h"
#include "ir/graph_place.h"
#include "ir/nested_reads.h"

namespace onyx {

namespace {

using B = ir_internal::GraphBuilder;

// One node list to sort, and where its graph is, for the message naming a cycle: a root (the
// place given), or a graph held by `owner`, node `owner_index` of the graph of entry `outer`.
struct GraphOrder {
  Graph* graph;
  std::string root;
  size_t outer = SIZE_MAX;
  const Node* owner = nullptr;
  size_t owner_index = 0;
  std::vector<Node*> order;
  size_t moved = 0;  // nodes whose position `order` changes
};

// Whether every node of `graph` comes after the nodes of the graph it reads (nested graphs'
// reads included): one walk, the common case, without building the graph of edges.
bool inOrder(const Graph& graph) {
  PointerSet placed;
  placed.reserve(graph.nodeCount());
  bool ordered = true;
  auto check = [&](const Value* value) {
    if (value == nullptr || value->graph() != &graph || value->producer() == nullptr) return;
    ordered = ordered && placed.contains(value->producer());
  };
  for (const Node* node = graph.firstNode(); node != nullptr && ordered; node = node->next()) {
    for (const Use& use : node->inputs()) check(use.value());
    forEachNestedRead(*node, check);
    placed.insert(node);
  }
  return ordered;
}

// The topological order of `graph`'s nodes and how many of them it moves, or the nodes on
// a cycle. A graph in order already leaves `order` empty: nothing to relink.
Status orderOf(Graph& graph, std::vector<Node*>& order, size_t& moved, std::vector<Node*>* cycle) {
  order.clear();
  moved = 0;
  if (inOrder(graph)) return Status::ok();
  std::vector<Node*> nodes;
  nodes.reserve(graph.nodeCount());
  std::unordered_map<const Node*, size_t> index;
  index.reserve(graph.nodeCount());
  for (Node* node = graph.firstNode(); node != nullptr; node = node->next()) {
    index.emplace(node, nodes.size());
    nodes.push_back(node);
  }
  size_t n = nodes.size();
  std::vector<std::vector<size_t>> successors(n);
  std::vector<std::vector<size_t>> predecessors(n);
  std::vector<size_t> pending(n, 0);  // predecessors not yet placed
  for (size_t i = 0; i < n; ++i) {
    auto addEdge = [&](const Value* value) {
      if (value == nullptr || value->graph() != &graph || value->producer() == nullptr) return;
      auto producer = index.find(value->producer());
      if (producer == index.end()) return;
      successors[producer->second].push_back(i);
      predecessors[i].push_back(producer->second);
      ++pending[i];
    };
    for (const Use& use : nodes[i]->inputs()) addEdge(use.value());
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
  if (order.size() == n) {
    for (size_t i = 0; i < n; ++i) moved += order[i] != nodes[i] ? 1 : 0;
    return Status::ok();
  }

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
  for (size_t i : loop) message += describeNode(*nodes[i], i) + " -> ";
  message += describeNode(*nodes[loop.front()], loop.front());
  if (cycle != nullptr) {
    cycle->clear();
    for (size_t i : loop) cycle->push_back(nodes[i]);
  }
  return Status(ErrorCode::kInvalidArgument, std::move(message));
}

// `graph.node[2](if).attribute[0](then_branch).g`: the place of entry `at`, built only for a
// message.
std::string placeOf(const std::vector<GraphOrder>& all, size_t at) {
  const GraphOrder& entry = all[at];
  if (entry.owner == nullptr) return entry.root;
  std::string path = placeOf(all, entry.outer);
  appendSegment(path, "node", entry.owner_index, entry.owner->nameOrEmpty());
  return joinPath(std::move(path), graphPathInNode(*entry.owner, *entry.graph));
}

void collectNested(const Attribute& attribute, size_t outer, const Node& owner, size_t index,
                   std::vector<GraphOrder>& all);

// Adds `graph` (entry `all[at]`, already added) and the graphs its nodes hold, outer first.
void collectFrom(size_t at, std::vector<GraphOrder>& all) {
  // The graph lists the graphs its nodes hold: with none, no node needs a look.
  if (all[at].graph->subgraphs().empty()) return;
  size_t index = 0;
  for (const Node* node = all[at].graph->firstNode(); node != nullptr;
       node = node->next(), ++index) {
    for (const Attribute* attribute : node->attributes) {
      if (attribute != nullptr) collectNested(*attribute, at, *node, index, all);
    }
  }
}

void collectNested(const Attribute& attribute, size_t outer, const Node& owner, size_t index,
                   std::vector<GraphOrder>& all) {
  auto add = [&](Graph* graph) {
    if (graph == nullptr) return;
    all.push_back({graph, {}, outer, &owner, index, {}});
    collectFrom(all.size() - 1, all);
  };
  add(attribute.g);
  for (Graph* graph : attribute.rare().graphs) add(graph);
}

void collectRoot(Graph* graph, std::string place, std::vector<GraphOrder>& all) {
  if (graph == nullptr) return;
  all.push_back({graph, std::move(place), SIZE_MAX, nullptr, 0, {}});
  collectFrom(all.size() - 1, all);
}

void relink(Graph& graph, const std::vector<Node*>& order) {
  Node* prev = nullptr;
  for (Node* node : order) {
    B::prev(node) = prev;
    (prev != nullptr ? B::next(prev) : B::firstNode(&graph)) = node;
    prev = node;
  }
  if (prev != nullptr) B::next(prev) = nullptr;
  B::lastNode(&graph) = prev;
}

// Every order first, then the changes: a cycle anywhere leaves everything as it was.
Status sortAll(std::vector<GraphOrder>& all, std::vector<Node*>* cycle, size_t* moved) {
  size_t total = 0;
  for (size_t i = 0; i < all.size(); ++i) {
    Status status = orderOf(*all[i].graph, all[i].order, all[i].moved, cycle);
    if (!status) return status.within(placeOf(all, i));
    total += all[i].moved;
  }
  for (const GraphOrder& entry : all) {
    if (!entry.order.empty()) relink(*entry.graph, entry.order);
  }
  if (moved != nullptr) *moved = total;
  return Status::ok();
}

}  // namespace

Status topologicalSort(Graph& graph, std::vector<Node*>* cycle) {
  std::vector<GraphOrder> all;
  collectRoot(&graph, "", all);
  return sortAll(all, cycle, nullptr);
}

Status topologicalSort(Model& model, std::vector<Node*>* cycle, size_t* moved) {
  std::vector<GraphOrder> all;
  forEachRootGraph(model,
                   [&](Graph& root, const std::string& place) { collectRoot(&root, place, all); });
  return sortAll(all, cycle, moved);
}

Result<std::vector<const Node*>> topologicalOrder(const Graph& graph) {
  // orderOf only reads the graph.
  std::vector<Node*> order;
  size_t moved = 0;
  ONYX_RETURN_IF_ERROR(orderOf(const_cast<Graph&>(graph), order, moved, nullptr));
  if (order.empty()) return std::vector<const Node*>(graph.nodes().begin(), graph.nodes().end());
  return std::vector<const Node*>(order.begin(), order.end());
}

}  // namespace onyx
