// Internal to the evaluator: the oneDNN primitive a kernel keeps from call to call.
//
// Making a oneDNN primitive (choosing an implementation, generating its code) costs far more
// than a small call's work, so each kernel object keeps the primitive of its last call, with
// what is bound to it (memory objects, reorders, scratch, the weights in its own layout), and
// makes another only when the call's key (sizes, types, threads, fused operations) changes.
// A key for which oneDNN has only its reference code, slower than onyx's own, is remembered
// as refused: the kernel returns notHandled() for it without asking oneDNN again. After a
// oneDNN error the kernel forgets the entry, so that the next call starts afresh.
#pragma once

#include <dnnl.hpp>

#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>

#include "eval/kernels/onednn_support.h"
#include "eval/kernels/shared_preparation.h"

namespace onyx::eval_internal {

/// One kernel's cache: `Key` (equality-comparable) says when a primitive still fits a call,
/// `Primitive` is oneDNN's (dnnl::matmul, dnnl::convolution_forward), and `Bound` is what the
/// kernel makes once per key beside it. Not thread-safe, as the kernel object that owns it.
template <class Key, class Primitive, class Bound>
class OneDnnPrimitiveCache {
 public:
  using Description = typename Primitive::primitive_desc;

  struct Entry {
    Description description;
    Primitive primitive;
    Bound bound;
    std::unordered_map<int, dnnl::memory> arguments;  // given to every execute()
    std::shared_ptr<const OneDnnWeights> weights;     // in the primitive's own layout
    const void* weights_source = nullptr;             // the fixed weights they were made from

    /// Whether the weights must be made (again) for a call reading `source`: none yet, or
    /// weights that change from call to call (not `fixed`), or other fixed weights.
    bool needsWeights(const void* source, bool fixed) const {
      return !weights || !fixed || weights_source != source;
    }
    /// Makes the primitive's weights argument for a call reading `source`: `make()`'s
    /// (std::optional<OneDnnWeights>) for weights that change from call to call; for `fixed`
    /// ones, the weights prepared once per process from the same elements by the same
    /// `recipe` and for the same layout (shared_preparation.h), so that every executor and
    /// session holds one copy. False when they cannot be made.
    template <class Make>
    bool prepareWeights(const Array& source, bool fixed, std::string recipe, Make&& make) {
      if (fixed) {
        recipe += layoutRecipe(description.weights_desc());
        weights = sharedPreparation<OneDnnWeights>({&source}, std::move(recipe), make);
      } else {
        std::optional<OneDnnWeights> made = make();
        weights = made ? std::make_shared<const OneDnnWeights>(std::move(*made)) : nullptr;
      }
      weights_source = fixed && weights ? source.bytes().data() : nullptr;
      if (!weights) return false;
      arguments.insert_or_assign(DNNL_ARG_WEIGHTS, weights->memory);
      return true;
    }
  };

  const dnnl::engine& engine() const { return engine_; }
  dnnl::stream& stream() { return stream_; }

  /// The entry for `key`: the kept one when the key is the one it was made for, else a new
  /// one, its description from `describe(engine)`, its primitive made from that, then
  /// `bind(entry)` called to make the rest. Null when oneDNN has only its reference code for
  /// the key. May throw dnnl::error (then call forget()).
  template <class Describe, class Bind>
  Entry* find(const Key& key, Describe&& describe, Bind&& bind) {
    if (key_ && *key_ == key) return entry_ ? &*entry_ : nullptr;
    forget();
    Description description = describe(engine_);
    if (!onlyReference(description)) {
      entry_.emplace();
      entry_->description = std::move(description);
      entry_->primitive = Primitive(entry_->description);
      bind(*entry_);
      // Its own scratch (keptPrimitiveAttributes), which no other cache's primitive writes.
      dnnl::memory::desc scratch = entry_->description.scratchpad_desc();
      if (scratch.get_size() > 0) {
        entry_->arguments.insert_or_assign(DNNL_ARG_SCRATCHPAD, dnnl::memory(scratch, engine_));
      }
    }
    key_ = key;
    return entry_ ? &*entry_ : nullptr;
  }

  /// Drops the entry and its key: the next find() makes a new one.
  void forget() {
    key_.reset();
    entry_.reset();
  }

 private:
  dnnl::engine engine_ = processEngine();
  dnnl::stream stream_{engine_};
  std::optional<Key> key_;
  std::optional<Entry> entry_;
};

}  // namespace onyx::eval_internal
