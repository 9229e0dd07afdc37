// Internal: what inference knows of each value of one frame, found by the value's address.
//
// Open addressing over one array of (pointer, index) slots, states in a deque so that a
// state never moves (rules hold pointers to their inputs' types while outputs are added).
// A model of 10,000 nodes inserts tens of thousands of states; std::unordered_map would
// allocate a node for each.
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <vector>

#include "core/pointer_set.h"
#include "onyx/ops/inferred_type.h"

namespace onyx {
struct Tensor;
struct Value;
}  // namespace onyx

namespace onyx::infer {

struct ValueState {
  InferredType type;
  // Propagated elements; most values have none, so they live behind a pointer.
  std::unique_ptr<Dims> data;
  const Tensor* constant = nullptr;
  bool improves_declaration = false;  // write back: the type says more than the model did
  // The graph input whose run-time values this value's shape depends on, if any.
  const Value* value_source = nullptr;
  // A graph input this value's elements are computed from (itself, for a graph input): a
  // rule that wants those elements cannot have them.
  const Value* data_source = nullptr;
};

class ValueStates {
 public:
  /// Room for `count` states without growing.
  void reserve(size_t count) {
    while (count * 4 > slots_.size() * 3) grow();
  }
  /// The state of `value`, or null.
  ValueState* find(const Value* value) {
    RecentEntry& recent = recent_[recentIndex(value)];
    if (recent.key == value) return recent.state;
    if (slots_.empty()) return nullptr;
    for (size_t i = hashPointer(value) & mask();; i = (i + 1) & mask()) {
      if (slots_[i].key == nullptr) return nullptr;
      if (slots_[i].key == value) return remembered(value, &states_[slots_[i].index]);
    }
  }
  /// The state of `value`, and whether it was just made (empty).
  std::pair<ValueState*, bool> insert(const Value* value) {
    RecentEntry& recent = recent_[recentIndex(value)];
    if (recent.key == value) return {recent.state, false};
    if ((states_.size() + 1) * 4 > slots_.size() * 3) grow();
    for (size_t i = hashPointer(value) & mask();; i = (i + 1) & mask()) {
      if (slots_[i].key == value) return {remembered(value, &states_[slots_[i].index]), false};
      if (slots_[i].key == nullptr) {
        slots_[i] = {value, static_cast<uint32_t>(states_.size())};
        states_.emplace_back();
        return {remembered(value, &states_.back()), true};
      }
    }
  }

 private:
  struct Slot {
    const Value* key = nullptr;
    uint32_t index = 0;
  };
  size_t mask() const { return slots_.size() - 1; }

  // The states used last, by a few bits of the address: a value is mostly read soon after
  // it is defined (a chain of nodes), and this finds it without touching the large table.
  struct RecentEntry {
    const Value* key = nullptr;
    ValueState* state = nullptr;
  };
  static constexpr size_t kRecent = 64;
  static size_t recentIndex(const Value* value) {
    return (reinterpret_cast<uintptr_t>(value) >> 4) & (kRecent - 1);
  }
  ValueState* remembered(const Value* value, ValueState* state) {
    recent_[recentIndex(value)] = {value, state};
    return state;
  }
  RecentEntry recent_[kRecent];
  void grow() {
    std::vector<Slot> old = std::move(slots_);
    slots_.assign(old.empty() ? 256 : old.size() * 2, Slot{});
    for (const Slot& slot : old) {
      if (slot.key == nullptr) continue;
      for (size_t i = hashPointer(slot.key) & mask();; i = (i + 1) & mask()) {
        if (slots_[i].key == nullptr) {
          slots_[i] = slot;
          break;
        }
      }
    }
  }

  std::vector<Slot> slots_;
  std::deque<ValueState> states_;
};

}  // namespace onyx::infer
