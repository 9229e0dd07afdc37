#include "draw/layered_layout.h"

#include <algorithm>
#include <numeric>
#include <string_view>
#include <unordered_map>

#include "draw/display_text.h"

namespace onyx::draw {

namespace {

// Sweeps of the barycentre ordering and of the placement; more moved little in the models
// tried and cost as much each.
constexpr int kOrderSweeps = 4;
constexpr int kPlaceSweeps = 4;

double textWidth(std::string_view text) {
  return static_cast<double>(displayLength(text)) * Geometry::kCharWidth;
}

// The part of a node's name its group's scopes do not already say.
std::string_view ownName(std::string_view name) {
  size_t slash = name.rfind('/');
  if (slash == std::string_view::npos || slash + 1 == name.size()) return name;
  return name.substr(slash + 1);
}

// The child of `group` that holds `box` (itself when it is one); kNoBox when `box` is not
// inside `group`.
uint32_t childOf(const Scene& scene, uint32_t group, uint32_t box) {
  const uint32_t depth = scene.boxes[group].depth;
  while (box != kNoBox && scene.boxes[box].depth > depth + 1) box = scene.boxes[box].parent;
  if (box == kNoBox || scene.boxes[box].parent != group) return kNoBox;
  return box;
}

// The group in whose own layout an edge from `a` to `b` is drawn: their lowest common
// ancestor.
uint32_t commonGroup(const Scene& scene, uint32_t a, uint32_t b) {
  while (scene.boxes[a].depth > scene.boxes[b].depth) a = scene.boxes[a].parent;
  while (scene.boxes[b].depth > scene.boxes[a].depth) b = scene.boxes[b].parent;
  while (a != b) {
    a = scene.boxes[a].parent;
    b = scene.boxes[b].parent;
  }
  return a;
}

// Places one rank: x[i] as close to want[i] (least squares) as the separations allow, by
// pooling adjacent violators over y[i] = x[i] - offset[i], which must not decrease.
void placeRank(const std::vector<uint32_t>& rank, std::vector<LayoutItem>& items) {
  const size_t n = rank.size();
  if (n == 0) return;
  std::vector<double> offset(n, 0);
  for (size_t i = 1; i < n; ++i) {
    const LayoutItem& left = items[rank[i - 1]];
    const LayoutItem& right = items[rank[i]];
    double gap = left.isBend() && right.isBend() ? Geometry::kBendWidth : Geometry::kItemGap;
    offset[i] = offset[i - 1] + (left.width + right.width) / 2 + gap;
  }
  // Blocks of pooled items: their mean target and their size.
  std::vector<double> mean;
  std::vector<size_t> size;
  mean.reserve(n);
  size.reserve(n);
  for (size_t i = 0; i < n; ++i) {
    double target = items[rank[i]].x - offset[i];
    size_t count = 1;
    while (!mean.empty() && mean.back() > target) {
      target =
          (target * static_cast<double>(count) + mean.back() * static_cast<double>(size.back())) /
          static_cast<double>(count + size.back());
      count += size.back();
      mean.pop_back();
      size.pop_back();
    }
    mean.push_back(target);
    size.push_back(count);
  }
  size_t i = 0;
  for (size_t block = 0; block < mean.size(); ++block) {
    for (size_t k = 0; k < size[block]; ++k, ++i) items[rank[i]].x = mean[block] + offset[i];
  }
}

// The ends of the routes along their boxes: at the bottom of a box, one port per value
// (its edges leave together), ordered by the x of where each goes next; at the top, one per
// route, ordered by where each comes from.
void spreadPorts(GroupLayout& layout) {
  const size_t n = layout.items.size();
  struct End {
    double towards;  // x of the route's next point away from the box
    uint32_t value;
    double* dx;
  };
  std::vector<std::vector<End>> bottom(n);
  std::vector<std::vector<End>> top(n);
  auto at = [&](uint32_t item) { return layout.items[item].x; };
  for (Route& route : layout.routes) {
    // The route from its upper end to its lower end.
    uint32_t upper = route.reversed ? route.to : route.start;
    uint32_t lower = route.reversed ? route.from : route.to;
    uint32_t below_upper =
        route.bends.empty() ? lower : (route.reversed ? route.bends.back() : route.bends.front());
    uint32_t above_lower =
        route.bends.empty() ? upper : (route.reversed ? route.bends.front() : route.bends.back());
    double* upper_dx = route.reversed ? &route.end_dx : &route.start_dx;
    double* lower_dx = route.reversed ? &route.start_dx : &route.end_dx;
    bottom[upper].push_back({at(below_upper), route.value, upper_dx});
    top[lower].push_back({at(above_lower), UINT32_MAX, lower_dx});
  }
  auto spread = [&](std::vector<End>& ends, double width, bool by_value) {
    if (ends.empty()) return;
    std::stable_sort(ends.begin(), ends.end(),
                     [](const End& a, const End& b) { return a.towards < b.towards; });
    // Ports: ends of one value share the first one's place.
    std::vector<uint32_t> port(ends.size(), 0);
    std::unordered_map<uint32_t, uint32_t> by;
    uint32_t ports = 0;
    for (size_t i = 0; i < ends.size(); ++i) {
      if (!by_value) {
        port[i] = ports++;
        continue;
      }
      auto [found, inserted] = by.try_emplace(ends[i].value, ports);
      if (inserted) ++ports;
      port[i] = found->second;
    }
    double usable = std::max(0.0, width - 2 * Geometry::kPadding);
    for (size_t i = 0; i < ends.size(); ++i) {
      *ends[i].dx = -usable / 2 + usable * (port[i] + 0.5) / ports;
    }
  };
  for (size_t i = 0; i < n; ++i) {
    spread(bottom[i], layout.items[i].width, true);
    spread(top[i], layout.items[i].width, false);
  }
}

struct Neighbours {
  std::vector<std::vector<uint32_t>> up;    // items in the rank above joined to each item
  std::vector<std::vector<uint32_t>> down;  // ... in the rank below
};

Neighbours neighboursOf(const GroupLayout& layout) {
  Neighbours joined;
  joined.up.resize(layout.items.size());
  joined.down.resize(layout.items.size());
  for (const Route& route : layout.routes) {
    std::vector<uint32_t> chain;
    chain.reserve(route.bends.size() + 2);
    chain.push_back(route.start);
    chain.insert(chain.end(), route.bends.begin(), route.bends.end());
    chain.push_back(route.to);
    if (route.reversed) std::reverse(chain.begin(), chain.end());
    for (size_t i = 0; i + 1 < chain.size(); ++i) {
      joined.down[chain[i]].push_back(chain[i + 1]);
      joined.up[chain[i + 1]].push_back(chain[i]);
    }
  }
  return joined;
}

// Sorts each rank by the mean position of its neighbours in the rank before it (above when
// sweeping down, below when sweeping up); an item without such neighbours keeps its place.
void orderRanks(GroupLayout& layout, const Neighbours& joined) {
  std::vector<double> position(layout.items.size(), 0);
  for (const auto& rank : layout.ranks) {
    for (size_t i = 0; i < rank.size(); ++i) position[rank[i]] = static_cast<double>(i);
  }
  std::vector<std::pair<double, uint32_t>> keyed;
  auto sweep = [&](size_t r, const std::vector<std::vector<uint32_t>>& before) {
    std::vector<uint32_t>& rank = layout.ranks[r];
    keyed.clear();
    for (uint32_t item : rank) {
      const auto& others = before[item];
      double key = position[item];
      if (!others.empty()) {
        double sum = 0;
        for (uint32_t other : others) sum += position[other];
        key = sum / static_cast<double>(others.size());
      }
      keyed.emplace_back(key, item);
    }
    std::stable_sort(keyed.begin(), keyed.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    for (size_t i = 0; i < rank.size(); ++i) {
      rank[i] = keyed[i].second;
      position[rank[i]] = static_cast<double>(i);
    }
  };
  const size_t ranks = layout.ranks.size();
  for (int round = 0; round < kOrderSweeps; ++round) {
    for (size_t r = 1; r < ranks; ++r) sweep(r, joined.up);
    for (size_t r = ranks; r-- > 1;) sweep(r - 1, joined.down);
  }
}

// x of every item: packed from the left, then pulled towards the mean of its neighbours, a
// rank at a time, down and up.
void placeItems(GroupLayout& layout, const Neighbours& joined) {
  for (const auto& rank : layout.ranks) {
    double x = 0;
    for (uint32_t item : rank) {
      layout.items[item].x = x + layout.items[item].width / 2;
      x += layout.items[item].width + Geometry::kItemGap;
    }
  }
  auto pull = [&](size_t r, const std::vector<std::vector<uint32_t>>& towards) {
    for (uint32_t item : layout.ranks[r]) {
      const auto& others = towards[item];
      if (others.empty()) continue;
      double sum = 0;
      for (uint32_t other : others) sum += layout.items[other].x;
      layout.items[item].x = sum / static_cast<double>(others.size());
    }
    placeRank(layout.ranks[r], layout.items);
  };
  const size_t ranks = layout.ranks.size();
  for (int round = 0; round < kPlaceSweeps; ++round) {
    for (size_t r = 1; r < ranks; ++r) pull(r, joined.up);
    for (size_t r = ranks; r-- > 1;) pull(r - 1, joined.down);
  }
}

// The layout of `group`'s children and ports, joined by `routes`. Items are numbered: the
// children in their order, then `in_ports` input ports, then `out_ports` output ports.
GroupLayout layoutGroup(const Scene& scene, uint32_t group, std::vector<Route> routes,
                        uint32_t in_ports, uint32_t out_ports, const std::vector<double>& width,
                        const std::vector<double>& height) {
  const std::vector<uint32_t>& children = scene.boxes[group].children;
  const size_t n = children.size();
  const size_t items = n + in_ports + out_ports;
  GroupLayout layout;
  layout.items.resize(items);
  for (size_t i = 0; i < n; ++i) {
    layout.items[i].box = children[i];
    layout.items[i].width = width[children[i]];
    layout.items[i].height = height[children[i]];
  }
  for (size_t i = n; i < items; ++i) {
    layout.items[i].port = true;
    layout.items[i].width = Geometry::kBendWidth;
  }
  auto isInPort = [&](size_t item) { return item >= n && item < n + in_ports; };
  auto isOutPort = [&](size_t item) { return item >= n + in_ports; };
  // Graph order: input ports first, output ports last.
  auto order = [&](size_t item) -> int64_t {
    if (isInPort(item)) return -1;
    if (isOutPort(item)) return static_cast<int64_t>(n);
    return static_cast<int64_t>(item);
  };
  // Ranks: longest path over the routes turned to go forward in graph order, visiting the
  // items in that order.
  std::vector<std::vector<uint32_t>> successors(items);
  for (Route& route : routes) {
    route.reversed = order(route.from) > order(route.to);
    uint32_t upper = route.reversed ? route.to : route.from;
    uint32_t lower = route.reversed ? route.from : route.to;
    successors[upper].push_back(lower);
  }
  std::vector<uint32_t> visit;
  visit.reserve(items);
  for (size_t i = n; i < n + in_ports; ++i) visit.push_back(static_cast<uint32_t>(i));
  for (size_t i = 0; i < n; ++i) visit.push_back(static_cast<uint32_t>(i));
  // With input ports, rank 0 is theirs alone.
  const uint32_t first = in_ports > 0 ? 1 : 0;
  std::vector<uint32_t> rank(items, first);
  for (size_t i = n; i < n + in_ports; ++i) rank[i] = 0;
  for (uint32_t i : visit) {
    for (uint32_t next : successors[i]) rank[next] = std::max(rank[next], rank[i] + 1);
  }
  // Then each child but the graph's inputs moves down as far as its first reader allows, the
  // readers first (they come later in the order): what is computed early for a later reader
  // (a constant's Cast and Sqrt, a mask) is drawn beside that reader, not at the top with an
  // edge down the whole graph.
  for (size_t i = n; i-- > 0;) {
    if (successors[i].empty() || scene.boxes[children[i]].kind == BoxKind::kInput) continue;
    uint32_t lowest = UINT32_MAX;
    for (uint32_t next : successors[i]) {
      if (!isOutPort(next)) lowest = std::min(lowest, rank[next]);
    }
    if (lowest != UINT32_MAX && lowest > rank[i] + 1) rank[i] = lowest - 1;
  }
  // Output ports take a last rank of their own.
  uint32_t rank_count = 0;
  for (size_t i = 0; i < n + in_ports; ++i) rank_count = std::max(rank_count, rank[i] + 1);
  for (size_t i = n + in_ports; i < items; ++i) rank[i] = rank_count;
  if (out_ports > 0) ++rank_count;
  for (size_t i = 0; i < items; ++i) layout.items[i].rank = rank[i];
  layout.ranks.resize(rank_count);
  for (size_t i = 0; i < items; ++i) layout.ranks[rank[i]].push_back(static_cast<uint32_t>(i));
  // Bends, in each rank an edge crosses, listed from `from` to `to`. The edges of one value
  // going down from one item share a trunk: the nearest reader's edge bends first, and each
  // farther one starts at the deepest bend so far.
  auto addBend = [&](uint32_t r) {
    auto bend = static_cast<uint32_t>(layout.items.size());
    LayoutItem& item = layout.items.emplace_back();
    item.rank = r;
    item.width = Geometry::kBendWidth;
    layout.ranks[r].push_back(bend);
    return bend;
  };
  std::vector<uint32_t> by_depth(routes.size());
  std::iota(by_depth.begin(), by_depth.end(), 0U);
  std::stable_sort(by_depth.begin(), by_depth.end(),
                   [&](uint32_t a, uint32_t b) { return rank[routes[a].to] < rank[routes[b].to]; });
  std::unordered_map<uint64_t, std::vector<uint32_t>> trunks;  // (from, value) -> bends
  for (uint32_t index : by_depth) {
    Route& route = routes[index];
    route.start = route.from;
    uint32_t from_rank = rank[route.from];
    uint32_t to_rank = rank[route.to];
    if (route.reversed) {
      for (uint32_t r = from_rank - 1; r > to_rank; --r) route.bends.push_back(addBend(r));
      continue;
    }
    std::vector<uint32_t>& trunk = trunks[(static_cast<uint64_t>(route.from) << 32) | route.value];
    // trunk[k] is the bend at rank from_rank + 1 + k.
    const uint32_t shared =
        std::min<uint32_t>(static_cast<uint32_t>(trunk.size()), to_rank - from_rank - 1);
    if (shared > 0) route.start = trunk[shared - 1];
    for (uint32_t r = from_rank + 1 + shared; r < to_rank; ++r) {
      uint32_t bend = addBend(r);
      route.bends.push_back(bend);
      trunk.push_back(bend);
    }
  }
  layout.routes = std::move(routes);
  Neighbours joined = neighboursOf(layout);
  orderRanks(layout, joined);
  placeItems(layout, joined);
  placeRanks(layout);
  return layout;
}

// The routes of every group, with their ends as boxes (children of the group) or ports, as
// they are collected; one route per pair of ends, counting the values it carries.
class GroupRoutes {
 public:
  explicit GroupRoutes(size_t groups) : groups_(groups) {}

  // Ends that are ports: a flag bit for in or out, and the port's slot.
  static constexpr uint32_t kInPortFlag = 1U << 31;
  static constexpr uint32_t kOutPortFlag = 1U << 30;
  static bool isPort(uint32_t end) { return (end & (kInPortFlag | kOutPortFlag)) != 0; }
  static bool isOutPort(uint32_t end) { return (end & kOutPortFlag) != 0; }
  static uint32_t portSlot(uint32_t end) { return end & ~(kInPortFlag | kOutPortFlag); }

  uint32_t inPort(uint32_t group, uint32_t value) {
    auto& ports = groups_[group].in_ports;
    return kInPortFlag |
           ports.try_emplace(value, static_cast<uint32_t>(ports.size())).first->second;
  }
  uint32_t outPort(uint32_t group, uint32_t value) {
    auto& ports = groups_[group].out_ports;
    return kOutPortFlag |
           ports.try_emplace(value, static_cast<uint32_t>(ports.size())).first->second;
  }
  uint32_t inPorts(uint32_t group) const {
    return static_cast<uint32_t>(groups_[group].in_ports.size());
  }
  uint32_t outPorts(uint32_t group) const {
    return static_cast<uint32_t>(groups_[group].out_ports.size());
  }

  void add(uint32_t group, uint32_t from, uint32_t to, uint32_t value) {
    Routes& routes = groups_[group];
    uint64_t key = (static_cast<uint64_t>(from) << 32) | to;
    auto [found, inserted] =
        routes.seen.try_emplace(key, static_cast<uint32_t>(routes.routes.size()));
    if (!inserted) {
      ++routes.routes[found->second].count;
      return;
    }
    Route route;
    route.from = from;
    route.to = to;
    route.value = value;
    routes.routes.push_back(route);
  }

  std::vector<Route> take(uint32_t group) { return std::move(groups_[group].routes); }

 private:
  struct Routes {
    std::vector<Route> routes;
    std::unordered_map<uint64_t, uint32_t> seen;
    std::unordered_map<uint32_t, uint32_t> in_ports;   // value -> slot
    std::unordered_map<uint32_t, uint32_t> out_ports;  // value -> slot
  };
  std::vector<Routes> groups_;
};

}  // namespace

BoxText boxText(const Scene& scene, uint32_t index) {
  const Box& box = scene.boxes[index];
  BoxText text;
  text.title = displayText(box.title, Geometry::kMaxLabelChars);
  if (box.kind == BoxKind::kScope || box.kind == BoxKind::kGraph) {
    text.lines.push_back(std::to_string(box.node_count) +
                         (box.node_count == 1 ? " node" : " nodes"));
    return text;
  }
  std::string_view name = box.name;
  if (box.isNode()) {
    name = ownName(name);
    // Exporters name nodes after their operator (`/layer.0/attn/MatMul`): said once is enough.
    if (name == box.title) name = {};
  }
  if (!name.empty()) text.lines.push_back(displayText(name, Geometry::kMaxLabelChars));
  for (const std::string& detail : box.details) {
    text.lines.push_back(displayText(detail, Geometry::kMaxLabelChars));
  }
  return text;
}

std::string groupTitle(const Scene& scene, uint32_t index) {
  const Box& box = scene.boxes[index];
  std::string title = box.title;
  if (box.isNode()) {  // a call or a node holding graphs: its own name too
    std::string_view name = ownName(box.name);
    if (!name.empty() && name != box.title) {
      title += "  ";
      title += name;
    }
  }
  return displayText(title, 2 * Geometry::kMaxLabelChars);
}

std::vector<bool> expandedGroups(const Scene& scene, int depth,
                                 const std::vector<std::string>& collapse) {
  std::vector<bool> expanded(scene.boxes.size(), false);
  for (size_t i = 0; i < scene.boxes.size(); ++i) {
    const Box& box = scene.boxes[i];
    if (!box.isGroup()) continue;
    if (i == 0) {
      expanded[i] = true;
      continue;
    }
    bool open = static_cast<int>(box.depth) < depth && expanded[box.parent];
    if (open && box.kind == BoxKind::kScope) {
      for (const std::string& prefix : collapse) {
        if (box.name.starts_with(prefix)) open = false;
      }
    }
    expanded[i] = open;
  }
  return expanded;
}

int depthWithin(const Scene& scene, size_t budget) {
  // At depth d the boxes at depths 1..d show (groups at depth d collapsed).
  std::vector<size_t> at_depth;
  for (const Box& box : scene.boxes) {
    if (box.depth >= at_depth.size()) at_depth.resize(box.depth + 1, 0);
    ++at_depth[box.depth];
  }
  int best = 1;
  size_t shown = 0;
  for (size_t d = 1; d < at_depth.size(); ++d) {
    shown += at_depth[d];
    if (d > 1 && shown > budget) break;
    best = static_cast<int>(d);
  }
  return best;
}

void placeRanks(GroupLayout& layout) {
  for (const auto& rank : layout.ranks) placeRank(rank, layout.items);
  double left = 0;
  double right = 0;
  bool any = false;
  for (const LayoutItem& item : layout.items) {
    double l = item.x - item.width / 2;
    double r = item.x + item.width / 2;
    left = any ? std::min(left, l) : l;
    right = any ? std::max(right, r) : r;
    any = true;
  }
  for (LayoutItem& item : layout.items) item.x -= left;
  layout.width = any ? right - left : 0;
  double y = 0;
  for (const auto& rank : layout.ranks) {
    // Bends take the rank's whole height (an edge runs straight down through it).
    double tallest = 0;
    for (uint32_t item : rank) {
      if (layout.items[item].box != kNoBox) {
        tallest = std::max(tallest, layout.items[item].height);
      }
    }
    for (uint32_t item : rank) {
      LayoutItem& placed = layout.items[item];
      if (placed.box == kNoBox) placed.height = tallest;
      placed.y = y + (tallest - placed.height) / 2;
    }
    y += tallest + Geometry::kRankGap;
  }
  layout.height = layout.ranks.empty() ? 0 : y - Geometry::kRankGap;
  spreadPorts(layout);
}

SceneLayout layoutScene(const Scene& scene, const std::vector<bool>& expanded, bool all_groups) {
  const size_t count = scene.boxes.size();
  SceneLayout result;
  result.groups.resize(count);
  result.width.assign(count, 0);
  result.height.assign(count, 0);
  result.closed_width.assign(count, 0);
  result.closed_height.assign(count, 0);
  // Each edge is drawn in the layout of the group that holds both its ends, between the two
  // children of that group that hold them; in each group between that one and an end, from
  // an input port or to an output port.
  GroupRoutes routes(count);
  for (const Edge& edge : scene.edges) {
    if (edge.from == kNoBox || edge.to == kNoBox || edge.from == edge.to) continue;
    uint32_t group = commonGroup(scene, edge.from, edge.to);
    uint32_t from = childOf(scene, group, edge.from);
    uint32_t to = childOf(scene, group, edge.to);
    if (from == kNoBox || to == kNoBox || from == to) continue;
    routes.add(group, from, to, edge.value);
    for (uint32_t inner = edge.to; scene.boxes[inner].parent != group;) {
      uint32_t holder = scene.boxes[inner].parent;
      routes.add(holder, routes.inPort(holder, edge.value), inner, edge.value);
      inner = holder;
    }
    for (uint32_t inner = edge.from; scene.boxes[inner].parent != group;) {
      uint32_t holder = scene.boxes[inner].parent;
      routes.add(holder, inner, routes.outPort(holder, edge.value), edge.value);
      inner = holder;
    }
  }
  std::vector<uint32_t> position(count, 0);
  for (const Box& box : scene.boxes) {
    for (size_t i = 0; i < box.children.size(); ++i) {
      position[box.children[i]] = static_cast<uint32_t>(i);
    }
  }
  // Children come after their parents: backwards, every child is sized before its group.
  for (size_t i = count; i-- > 0;) {
    const Box& box = scene.boxes[i];
    BoxText text = boxText(scene, static_cast<uint32_t>(i));
    double text_width = textWidth(text.title);
    for (const std::string& line : text.lines) text_width = std::max(text_width, textWidth(line));
    double leaf_width = text_width + 2 * Geometry::kPadding;
    double leaf_height =
        Geometry::kLineHeight * static_cast<double>(1 + text.lines.size()) + 2 * Geometry::kPadding;
    result.width[i] = result.closed_width[i] = leaf_width;
    result.height[i] = result.closed_height[i] = leaf_height;
    if (!box.isGroup() || !(expanded[i] || all_groups)) continue;
    const auto children = static_cast<uint32_t>(box.children.size());
    const uint32_t in_ports = routes.inPorts(static_cast<uint32_t>(i));
    auto itemOf = [&](uint32_t end) {
      if (!GroupRoutes::isPort(end)) return position[end];
      return children + GroupRoutes::portSlot(end) + (GroupRoutes::isOutPort(end) ? in_ports : 0);
    };
    std::vector<Route> laid = routes.take(static_cast<uint32_t>(i));
    for (Route& route : laid) {
      route.from = itemOf(route.from);
      route.to = itemOf(route.to);
    }
    result.groups[i] =
        layoutGroup(scene, static_cast<uint32_t>(i), std::move(laid), in_ports,
                    routes.outPorts(static_cast<uint32_t>(i)), result.width, result.height);
    if (!expanded[i]) continue;
    const GroupLayout& layout = result.groups[i];
    result.width[i] =
        std::max(layout.width + 2 * Geometry::kGroupPadding,
                 textWidth(groupTitle(scene, static_cast<uint32_t>(i))) + 2 * Geometry::kPadding);
    result.height[i] = layout.height + Geometry::kGroupHeader + 2 * Geometry::kGroupPadding;
  }
  return result;
}

}  // namespace onyx::draw
