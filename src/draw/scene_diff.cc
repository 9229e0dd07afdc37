#include "draw/scene_diff.h"

#include <algorithm>
#include <set>
#include <unordered_map>

namespace onyx::draw {

namespace {

// Boxes by key; a key two boxes share (a model that reuses a name) matches neither.
std::unordered_map<std::string_view, uint32_t> byKey(const Scene& scene) {
  std::unordered_map<std::string_view, uint32_t> keyed;
  for (size_t i = 0; i < scene.boxes.size(); ++i) {
    const std::string& key = scene.boxes[i].key;
    if (key.empty()) continue;
    auto [found, inserted] = keyed.try_emplace(key, static_cast<uint32_t>(i));
    if (!inserted) found->second = kNoBox;
  }
  return keyed;
}

// The child of `group` that holds `box`, or kNoBox.
uint32_t childHolding(const Scene& scene, uint32_t group, uint32_t box) {
  while (box != kNoBox && scene.boxes[box].parent != group) box = scene.boxes[box].parent;
  return box;
}

// Orders `group`'s children so that its edges go forward where they can (the layout reads the
// order as the graph's): by Kahn's algorithm, the earliest child first among those ready, and
// the earliest of the rest when a cycle leaves none ready.
void orderChildren(Scene& scene, uint32_t group) {
  std::vector<uint32_t>& children = scene.boxes[group].children;
  const size_t n = children.size();
  std::unordered_map<uint32_t, uint32_t> position;
  for (size_t i = 0; i < n; ++i) position[children[i]] = static_cast<uint32_t>(i);
  std::vector<std::vector<uint32_t>> successors(n);
  std::vector<uint32_t> waiting(n, 0);
  for (const Edge& edge : scene.edges) {
    uint32_t from = childHolding(scene, group, edge.from);
    uint32_t to = childHolding(scene, group, edge.to);
    if (from == kNoBox || to == kNoBox || from == to) continue;
    successors[position[from]].push_back(position[to]);
    ++waiting[position[to]];
  }
  std::set<uint32_t> ready;
  std::set<uint32_t> left;
  for (uint32_t i = 0; i < n; ++i) {
    left.insert(i);
    if (waiting[i] == 0) ready.insert(i);
  }
  std::vector<uint32_t> ordered;
  ordered.reserve(n);
  while (!left.empty()) {
    uint32_t next = ready.empty() ? *left.begin() : *ready.begin();
    ready.erase(next);
    left.erase(next);
    ordered.push_back(children[next]);
    for (uint32_t successor : successors[next]) {
      if (--waiting[successor] == 0 && left.contains(successor)) ready.insert(successor);
    }
  }
  children = std::move(ordered);
}

}  // namespace

Status buildDiffScene(const Model& before, const Model& after, Scene& scene) {
  Scene old_scene;
  Status built = buildScene(before, old_scene);
  if (!built.isOk()) return built;
  built = buildScene(after, scene);
  if (!built.isOk()) return built;
  auto old_keys = byKey(old_scene);
  auto new_keys = byKey(scene);
  // Marks on the new boxes.
  for (Box& box : scene.boxes) {
    if (box.key.empty() ||
        !(box.isNode() || box.kind == BoxKind::kInput || box.kind == BoxKind::kOutput)) {
      continue;
    }
    // A key two old boxes share cannot be matched: its boxes count as the same.
    auto found = old_keys.find(box.key);
    if (found == old_keys.end()) {
      box.change = Change::kAdded;
    } else if (found->second != kNoBox &&
               old_scene.boxes[found->second].signature != box.signature) {
      box.change = Change::kChanged;
    }
  }
  // The old boxes in the new scene: matched ones by key, removed nodes added below.
  std::vector<uint32_t> placed(old_scene.boxes.size(), kNoBox);
  std::vector<bool> kept(old_scene.boxes.size(), false);  // its key is in the new scene
  for (size_t i = 0; i < old_scene.boxes.size(); ++i) {
    const std::string& key = old_scene.boxes[i].key;
    if (key.empty()) continue;
    auto found = new_keys.find(key);
    if (found == new_keys.end()) continue;
    kept[i] = true;
    placed[i] = found->second;  // kNoBox when two new boxes share the key
  }
  if (!scene.boxes.empty()) placed[0] = 0;
  for (size_t i = 1; i < old_scene.boxes.size(); ++i) {
    const Box& old_box = old_scene.boxes[i];
    // A node without a key cannot be matched either way: unmarked in the new scene, and not
    // put back as removed from the old one.
    if (kept[i] || !old_box.isNode() || old_box.key.empty()) continue;
    // What a removed node held goes with it.
    bool held = false;
    for (uint32_t at = old_box.parent; at != kNoBox; at = old_scene.boxes[at].parent) {
      if (old_scene.boxes[at].isNode() &&
          (!kept[at] ||
           (placed[at] != kNoBox && scene.boxes[placed[at]].change == Change::kRemoved))) {
        held = true;
      }
    }
    if (held) continue;
    // Into the group of its old group's key, or the nearest one that is still there.
    uint32_t group = kNoBox;
    for (uint32_t at = old_box.parent; at != kNoBox && group == kNoBox;
         at = old_scene.boxes[at].parent) {
      if (placed[at] != kNoBox && scene.boxes[placed[at]].isGroup()) group = placed[at];
      if (at == 0) group = 0;
    }
    if (group == kNoBox) group = 0;
    // After the box that came before it in its old group, when that one is there too.
    const auto& old_siblings = old_scene.boxes[old_box.parent].children;
    auto at_old = std::find(old_siblings.begin(), old_siblings.end(), static_cast<uint32_t>(i));
    uint32_t previous = kNoBox;
    for (auto it = at_old; it != old_siblings.begin();) {
      --it;
      if (placed[*it] != kNoBox) {
        previous = placed[*it];
        break;
      }
    }
    auto index = static_cast<uint32_t>(scene.boxes.size());
    Box removed = old_box;
    removed.change = Change::kRemoved;
    removed.children.clear();  // what a removed node held is not drawn
    if (removed.kind != BoxKind::kNode) removed.kind = BoxKind::kNode;
    removed.parent = group;
    scene.boxes.push_back(std::move(removed));
    auto& children = scene.boxes[group].children;
    auto after_previous = std::find(children.begin(), children.end(), previous);
    children.insert(after_previous == children.end() ? children.begin() : after_previous + 1,
                    index);
    placed[i] = index;
  }
  // The removed nodes' edges, with their values.
  for (const Edge& edge : old_scene.edges) {
    uint32_t from = placed[edge.from];
    uint32_t to = placed[edge.to];
    if (from == kNoBox || to == kNoBox) continue;
    if (scene.boxes[from].change != Change::kRemoved &&
        scene.boxes[to].change != Change::kRemoved) {
      continue;
    }
    auto value = static_cast<uint32_t>(scene.values.size());
    scene.values.push_back(old_scene.values[edge.value]);
    scene.edges.push_back({from, to, value});
  }
  // Removed boxes went after their old neighbours; their edges may still run backwards.
  std::set<uint32_t> regrouped;
  for (const Box& box : scene.boxes) {
    if (box.change == Change::kRemoved) regrouped.insert(box.parent);
  }
  for (uint32_t group : regrouped) orderChildren(scene, group);
  countNodesAndDepths(scene);
  return Status::ok();
}

}  // namespace onyx::draw
