#include "eval/kernels/shared_preparation.h"

#include <functional>
#include <mutex>
#include <span>
#include <unordered_map>

namespace onyx::eval_internal::shared_preparation_detail {

Key::Source Key::of(const Array* array) {
  if (array == nullptr) return {};
  return of(array->bytes(), array->type());
}

Key::Source Key::of(std::span<const std::byte> bytes, ElementType type) {
  Source source;
  source.bytes = bytes.size();
  source.type = type;
  if (bytes.size() >= kSharedFrom) {
    source.data = bytes.data();
  } else {
    source.elements.assign(reinterpret_cast<const char*>(bytes.data()), bytes.size());
  }
  return source;
}

namespace {

struct KeyHash {
  size_t operator()(const Key& key) const {
    size_t hash = key.made_type.hash_code() ^ std::hash<std::string>()(key.recipe);
    for (const Key::Source& source : key.sources) {
      hash = hash * 31 + std::hash<const void*>()(source.data);
      hash = hash * 31 + source.bytes;
      hash = hash * 31 + std::hash<std::string>()(source.elements);
    }
    return hash;
  }
};

class Table {
 public:
  std::shared_ptr<const void> find(const Key& key) {
    std::lock_guard lock(mutex_);
    auto found = held_.find(key);
    return found == held_.end() ? nullptr : found->second.lock();
  }

  std::shared_ptr<const void> keep(Key key, std::shared_ptr<const void> made) {
    std::lock_guard lock(mutex_);
    std::weak_ptr<const void>& slot = held_[std::move(key)];
    if (std::shared_ptr<const void> kept = slot.lock()) return kept;
    slot = made;
    // Entries whose preparation every holder dropped are swept once the table has doubled
    // since the last sweep, so that a process loading model after model stays bounded.
    if (held_.size() > 2 * live_after_sweep_ + 16) {
      std::erase_if(held_, [](const auto& entry) { return entry.second.expired(); });
      live_after_sweep_ = held_.size();
    }
    return made;
  }

  size_t live() {
    std::lock_guard lock(mutex_);
    size_t count = 0;
    for (const auto& entry : held_) count += entry.second.expired() ? 0 : 1;
    return count;
  }

 private:
  std::mutex mutex_;
  std::unordered_map<Key, std::weak_ptr<const void>, KeyHash> held_;
  size_t live_after_sweep_ = 0;
};

Table& table() {
  static Table* the_table = new Table();  // never destroyed: kernels may outlive statics
  return *the_table;
}

}  // namespace

std::shared_ptr<const void> find(const Key& key) { return table().find(key); }

std::shared_ptr<const void> keep(Key key, std::shared_ptr<const void> made) {
  return table().keep(std::move(key), std::move(made));
}

}  // namespace onyx::eval_internal::shared_preparation_detail

namespace onyx::eval_internal {

size_t livePreparations() { return shared_preparation_detail::table().live(); }

}  // namespace onyx::eval_internal
