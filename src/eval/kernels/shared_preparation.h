// Internal to the evaluator: what kernels prepare from arrays that are the same on every run
// (weights reordered into a library's layout, widened from float16, packed, with a
// BatchNormalization folded in), made once per process and shared by every executor and
// session whose kernels read the same arrays by the same recipe.
//
// Without it each executor kept its own preparation: a server running eight callers of one
// model held eight copies of its weights in the library's layout. Sessions of one model file
// read the same arrays (engine/constant_arrays.h), so their kernels find one another's
// preparations too.
//
// A preparation is found by the arrays it was made from and a recipe (the kernel's name for
// what it made, with everything besides the sources that decides it: sizes, layout, group, CPU
// tier). A large array is known by its address, size and type: sessions share large
// constants (engine/constant_arrays.h). A small one, which each session copies, is known by
// its type and elements. A preparation holds handles of its arrays, so that their bytes cannot
// be freed, and their address reused by other elements, while anyone holds it; the table
// itself holds it weakly, so it lives as long as the kernels that use it.
#pragma once

#include <initializer_list>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <typeindex>
#include <utility>
#include <vector>

#include "onyx/core/array.h"

namespace onyx::eval_internal {

/// Constants of fewer bytes are a session's own (engine/constant_arrays.h): sharing them saves
/// less than it costs. Larger ones are one array per process.
inline constexpr size_t kSharedFrom = 4096;

namespace shared_preparation_detail {

/// Which arrays, by which recipe, made a preparation of which type.
struct Key {
  struct Source {
    const void* data = nullptr;  // a large array's; null for a small or absent one
    size_t bytes = 0;
    ElementType type = ElementType::kUndefined;
    std::string elements;  // a small array's
    bool operator==(const Source&) const = default;
  };
  static Source of(const Array* array);
  static Source of(std::span<const std::byte> bytes, ElementType type);
  std::type_index made_type;
  std::vector<Source> sources;
  std::string recipe;
  bool operator==(const Key&) const = default;
};

/// The live preparation for `key`, or null.
std::shared_ptr<const void> find(const Key& key);
/// Keeps `made` for `key` unless a live one is there already (another thread made it
/// meanwhile); returns the one kept.
std::shared_ptr<const void> keep(Key key, std::shared_ptr<const void> made);

template <class T>
struct Held {
  Held(std::vector<Array> handles, std::shared_ptr<const void> bytes_owner, T made)
      : sources(std::move(handles)), owner(std::move(bytes_owner)), value(std::move(made)) {}
  std::vector<Array> sources;         // handles: the sources' bytes outlive the preparation
  std::shared_ptr<const void> owner;  // a BytesSource's owner, or null
  T value;
};

template <class T, class Make>
std::shared_ptr<const T> prepareOnce(Key key, std::initializer_list<const Array*> sources,
                                     std::shared_ptr<const void> owner, Make&& make) {
  for (const Array* source : sources) key.sources.push_back(Key::of(source));
  if (std::shared_ptr<const void> found = find(key)) {
    return std::static_pointer_cast<const T>(std::move(found));
  }
  std::optional<T> made;
  {
    // Kept beyond the run: never in memory a caller bound for its outputs.
    ArrayDestinationScope none({});
    made = make();
  }
  if (!made) return nullptr;
  std::vector<Array> handles;
  for (const Array* source : sources) {
    if (source != nullptr) handles.push_back(*source);
  }
  auto held = std::make_shared<Held<T>>(std::move(handles), std::move(owner), std::move(*made));
  std::shared_ptr<const void> value(held, &held->value);
  return std::static_pointer_cast<const T>(keep(std::move(key), std::move(value)));
}

}  // namespace shared_preparation_detail

/// How many preparations some kernel still holds, for tests and the memory benchmark.
size_t livePreparations();

/// The preparation of `T` from `sources` (null entries stand for absent optional inputs) by
/// `recipe`: the one made before in this process when it is still held, else `make()`'s
/// (std::optional<T>; nullopt when it cannot be made, then nothing is kept and null is
/// returned). Only for sources whose elements are the same on every run. `make` runs outside
/// the table's lock; when two threads make one preparation at once, the first kept wins and
/// both return it.
template <class T, class Make>
std::shared_ptr<const T> sharedPreparation(std::initializer_list<const Array*> sources,
                                           std::string recipe, Make&& make) {
  namespace detail = shared_preparation_detail;
  detail::Key key{
      .made_type = std::type_index(typeid(T)), .sources = {}, .recipe = std::move(recipe)};
  return detail::prepareOnce<T>(std::move(key), sources, nullptr, std::forward<Make>(make));
}

/// Bytes among a preparation's sources that no array holds (int4 weights read where the
/// model keeps them): known as an array of their size is, and kept alive by `owner`
/// (StepRun::modelBytes) while the preparation lives.
struct BytesSource {
  std::span<const std::byte> bytes;
  std::shared_ptr<const void> owner;
};

/// As above, with `bytes` the first source.
template <class T, class Make>
std::shared_ptr<const T> sharedPreparation(const BytesSource& bytes,
                                           std::initializer_list<const Array*> sources,
                                           std::string recipe, Make&& make) {
  namespace detail = shared_preparation_detail;
  detail::Key key{.made_type = std::type_index(typeid(T)),
                  .sources = {detail::Key::of(bytes.bytes, ElementType::kUndefined)},
                  .recipe = std::move(recipe)};
  return detail::prepareOnce<T>(std::move(key), sources, bytes.owner, std::forward<Make>(make));
}

}  // namespace onyx::eval_internal
