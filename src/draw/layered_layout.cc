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
    double gap =
        (left.box == kNoBox && right.box == kNoBox) ? Geometry::kBendWidth : Geometry::kItemGap;
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
    uint32_t upper = route.reversed ? route.to : route.from;
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
    chain.push_back(route.from);
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

// The layout of `group`'s children, joined by `routes` (their from and to are positions in
// the group's child list), with `width` and `height` of every box.
GroupLayout layoutGroup(const Scene& scene, uint32_t group, std::vector<Route> routes,
                        const std::vector<double>& width, const std::vector<double>& height) {
  const std::vector<uint32_t>& children = scene.boxes[group].children;
  const size_t n = children.size();
  GroupLayout layout;
  layout.items.resize(n);
  for (size_t i = 0; i < n; ++i) {
    layout.items[i].box = children[i];
    layout.items[i].width = width[children[i]];
    layout.items[i].height = height[children[i]];
  }
  // Ranks: longest path over the routes turned to go forward in child order.
  std::vector<std::vector<uint32_t>> successors(n);
  std::vector<uint32_t> predecessors(n, 0);
  for (Route& route : routes) {
    route.reversed = route.from > route.to;
    uint32_t upper = route.reversed ? route.to : route.from;
    uint32_t lower = route.reversed ? route.from : route.to;
    successors[upper].push_back(lower);
    ++predecessors[lower];
  }
  std::vector<uint32_t> rank(n, 0);
  for (size_t i = 0; i < n; ++i) {
    for (uint32_t next : successors[i]) rank[next] = std::max(rank[next], rank[i] + 1);
  }
  for (size_t i = n; i-- > 0;) {
    if (predecessors[i] != 0 || successors[i].empty()) continue;
    if (scene.boxes[children[i]].kind == BoxKind::kInput) continue;
    uint32_t lowest = UINT32_MAX;
    for (uint32_t next : successors[i]) lowest = std::min(lowest, rank[next]);
    rank[i] = lowest - 1;
  }
  uint32_t rank_count = 0;
  for (size_t i = 0; i < n; ++i) {
    layout.items[i].rank = rank[i];
    rank_count = std::max(rank_count, rank[i] + 1);
  }
  layout.ranks.resize(rank_count);
  for (size_t i = 0; i < n; ++i) layout.ranks[rank[i]].push_back(static_cast<uint32_t>(i));
  // Bends, in each rank an edge crosses, listed from `from` to `to`.
  for (Route& route : routes) {
    uint32_t from_rank = rank[route.from];
    uint32_t to_rank = rank[route.to];
    uint32_t low = std::min(from_rank, to_rank);
    uint32_t high = std::max(from_rank, to_rank);
    for (uint32_t r = low + 1; r < high; ++r) {
      auto bend = static_cast<uint32_t>(layout.items.size());
      LayoutItem& item = layout.items.emplace_back();
      item.rank = r;
      item.width = Geometry::kBendWidth;
      layout.ranks[r].push_back(bend);
      route.bends.push_back(bend);
    }
    if (from_rank > to_rank) std::reverse(route.bends.begin(), route.bends.end());
  }
  layout.routes = std::move(routes);
  Neighbours joined = neighboursOf(layout);
  orderRanks(layout, joined);
  placeItems(layout, joined);
  placeRanks(layout);
  return layout;
}

BoxText collapsedText(const Scene& scene, uint32_t index) {
  const Box& box = scene.boxes[index];
  BoxText text;
  text.title = displayText(box.title, Geometry::kMaxLabelChars);
  if (box.kind == BoxKind::kScope || box.kind == BoxKind::kGraph) {
    text.lines.push_back(std::to_string(box.node_count) +
                         (box.node_count == 1 ? " node" : " nodes"));
    return text;
  }
  std::string_view name = box.name;
  if (box.kind == BoxKind::kNode || box.kind == BoxKind::kCall ||
      box.kind == BoxKind::kControlFlow) {
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

}  // namespace

BoxText boxText(const Scene& scene, uint32_t box) { return collapsedText(scene, box); }

std::string groupTitle(const Scene& scene, uint32_t index) {
  const Box& box = scene.boxes[index];
  std::string title = box.title;
  if (box.kind == BoxKind::kCall || box.kind == BoxKind::kControlFlow) {
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
  // children of that group that hold them.
  std::vector<std::vector<Route>> routes(count);
  std::vector<std::unordered_map<uint64_t, uint32_t>> seen(count);
  for (const Edge& edge : scene.edges) {
    if (edge.from == kNoBox || edge.to == kNoBox || edge.from == edge.to) continue;
    uint32_t group = commonGroup(scene, edge.from, edge.to);
    uint32_t from = childOf(scene, group, edge.from);
    uint32_t to = childOf(scene, group, edge.to);
    if (from == kNoBox || to == kNoBox || from == to) continue;
    uint64_t key = (static_cast<uint64_t>(from) << 32) | to;
    auto [found, inserted] =
        seen[group].try_emplace(key, static_cast<uint32_t>(routes[group].size()));
    if (!inserted) {
      ++routes[group][found->second].count;
      continue;
    }
    Route route;
    route.from = from;  // boxes for now; positions below
    route.to = to;
    route.value = edge.value;
    routes[group].push_back(route);
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
    BoxText text = collapsedText(scene, static_cast<uint32_t>(i));
    double text_width = textWidth(text.title);
    for (const std::string& line : text.lines) text_width = std::max(text_width, textWidth(line));
    double leaf_width = text_width + 2 * Geometry::kPadding;
    double leaf_height =
        Geometry::kLineHeight * static_cast<double>(1 + text.lines.size()) + 2 * Geometry::kPadding;
    result.width[i] = result.closed_width[i] = leaf_width;
    result.height[i] = result.closed_height[i] = leaf_height;
    if (!box.isGroup() || !(expanded[i] || all_groups)) continue;
    for (Route& route : routes[i]) {
      route.from = position[route.from];
      route.to = position[route.to];
    }
    result.groups[i] = layoutGroup(scene, static_cast<uint32_t>(i), std::move(routes[i]),
                                   result.width, result.height);
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
