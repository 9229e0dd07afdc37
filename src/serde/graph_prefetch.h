// Internal: a large graph's nodes, initializers and value_info entries decoded on several
// threads, ahead of the decode that walks the graph.
//
// The walking decode (the "main" one) still reads the graph's fields in file order and
// alone does everything that touches shared state: joining nodes into the graph's list,
// binding names in the graph's table (so use-list order, and which value a repeated name
// gets, are as without threads), making subgraphs and their scopes. What it takes from here
// is each item's own message, decoded by a worker into an arena of the worker's (a Node, a
// Tensor, a ValueInfo), with the names it binds hashed and queued for the main decode to
// bind. A worker links the nodes of its chunk to each other as the main decode will append
// them, and a read of a name defined earlier in its own chunk (Decoder::LocalNames);
// the main decode puts such values in the table and fixes up what one thread would have done
// differently. An item a worker could not decode — it is malformed, or it holds a subgraph,
// whose scope only the main decode may build — is left for the main decode to decode where
// it stands, which gives the same error at the same place as without threads.
//
// The main thread decodes chunks too: when the chunk it needs next is unclaimed, it takes
// it; when a worker holds it, it decodes a later unclaimed one rather than wait.
//
// Finding the items means reading every key of the graph in turn, which for a large graph
// takes as long as a sixth of the rest of the load. The workers do not wait for it: the
// main thread hands out each chunk as soon as its items are found, and the workers decode
// it while the bytes are still in cache.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <new>
#include <span>
#include <string_view>
#include <thread>
#include <vector>

#include "serde/decoder.h"

namespace onyx::serde {

/// A field of the graph that workers decode: its message, and what they made of it.
struct PrefetchItem {
  enum class Kind : uint8_t { kNode, kInitializer, kInput, kOutput, kValueInfo };
  const char* key;   // where the field's length prefix starts: the main decode's position
  const char* data;  // the message
  uint32_t size;
  uint32_t names_end = 0;  // where the names it binds end in its chunk's names
  void* object = nullptr;  // the decoded Node / Tensor / ValueInfo; null: not decoded
  Kind kind;
  // A node its worker linked behind the node item before it in the chunk (no node between
  // them failed): that one is the graph's last node when the walk takes this one.
  bool follows_linked = false;
};

/// The size of a cache line, the unit in which cores share memory.
inline constexpr size_t kCacheLine = 64;

/// An array that one thread appends to while others read the elements below a count it
/// has published to them: the elements never move, as a vector's would when it grows.
template <class T, size_t kSegmentShift>
class StableArray {
 public:
  /// Room for up to `capacity` elements; their storage is allocated as they are added.
  void init(size_t capacity) { segments_.assign((capacity >> kSegmentShift) + 1, nullptr); }

  size_t size() const { return size_; }
  T& operator[](size_t i) { return segments_[i >> kSegmentShift][i & kMask]; }

  /// A new element, value-initialized, at the end. Never called past init's capacity.
  T& emplace_back(Arena& arena) {
    T*& segment = segments_[size_ >> kSegmentShift];
    if (segment == nullptr) segment = arena.allocateArray<T>(kMask + 1);
    return *new (&segment[size_++ & kMask]) T();
  }

 private:
  static constexpr size_t kMask = (size_t{1} << kSegmentShift) - 1;
  // Readers go through segments_; size_, which the appending thread writes for every
  // element, sits on a line of its own.
  alignas(kCacheLine) std::vector<T*> segments_;
  alignas(kCacheLine) size_t size_ = 0;
};

class GraphPrefetch {
 public:
  using Item = PrefetchItem;
  using Kind = PrefetchItem::Kind;

  struct Chunk {
    size_t first_item = 0;
    size_t end_item = 0;
    // In the arena of the worker that decoded the chunk.
    std::span<const Decoder::PendingName> names;
    std::span<const Decoder::DecodedTensor> tensors;
    std::atomic<int> state{kUnclaimed};
  };

  /// Decodes the graph `bytes` ahead on `threads` threads (the caller's among them), the
  /// graph's messages being read at nesting depth `depth`; returns once it has found every
  /// item, the workers decoding on. Null when there is too little to decode ahead. Either
  /// way counts the graph's name-defining fields into `definitions`.
  static std::unique_ptr<GraphPrefetch> start(Decoder& main, Graph& graph, std::string_view bytes,
                                              int threads, int depth, size_t& definitions);
  GraphPrefetch(Decoder& main, Graph& graph, int depth);
  /// Stops the workers and hands their arenas, which hold what the graph now links to, to
  /// the main decode's arena.
  ~GraphPrefetch();

  GraphPrefetch(const GraphPrefetch&) = delete;
  GraphPrefetch& operator=(const GraphPrefetch&) = delete;

  /// The item whose length prefix is at `key` when it is the next one in file order (its
  /// chunk decoded), else null (the scan stopped before it). When this call reached a new
  /// chunk, `entered` is that chunk: its names and tensors are the main decode's to take.
  /// The item stays next until pop().
  const Item* next(const char* key, Chunk*& entered) {
    entered = nullptr;
    if (next_item_ >= items_.size() || items_[next_item_].key != key) return nullptr;
    if (!current_chunk_entered_) entered = enterChunk();
    return &items_[next_item_];
  }
  void pop() {
    if (++next_item_ == chunks_[current_chunk_].end_item) {
      ++current_chunk_;
      current_chunk_entered_ = false;
    }
  }

 private:
  /// Lists the items of the graph `bytes` (up to the first malformed field) in items_ and
  /// hands out each chunk as it closes, starting the workers once there is enough to do.
  /// Whether they were started.
  bool scan(std::string_view bytes, int threads, size_t& definitions);
  void closeChunk(size_t end_item);
  void startWorkers(int threads);
  /// Waits until chunk `index` is handed out; false when the scan ended without it.
  bool waitForChunk(size_t index);

  static constexpr int kUnclaimed = 0;
  static constexpr int kClaimed = 1;
  static constexpr int kDone = 2;

  // One thread's state, written on every item it decodes: on cache lines of its own, not
  // beside another worker's in the heap.
  struct alignas(kCacheLine) Worker {
    Worker(const LoadOptions& options, const char* origin) : decoder(arena, options, origin) {}
    Arena arena;    // what the model keeps: nodes, tensors, value infos
    Arena scratch;  // what only the main decode reads: chunk names
    Decoder decoder;
  };

  /// Waits for the chunk the walk reaches (decoding it, or others, meanwhile) and returns it.
  Chunk* enterChunk();
  void work(size_t worker);
  void decodeChunk(size_t worker, Chunk& chunk);
  bool claim(Chunk& chunk) {
    int expected = kUnclaimed;
    return chunk.state.compare_exchange_strong(expected, kClaimed, std::memory_order_acquire);
  }

  // Members are grouped by who writes them, each group on cache lines of its own: a line
  // one thread writes while another reads it moves between the cores on every write.

  // Set before the workers start; read by all (cancelled_ is set only at the end).
  Decoder& main_;
  Graph& graph_;
  int depth_;
  std::atomic<bool> cancelled_{false};
  std::vector<std::unique_ptr<Worker>> workers_;  // [0] is the main thread's
  StableArray<Item, 12> items_;
  StableArray<Chunk, 8> chunks_;
  // Written by the scan as it goes. The chunks handed out so far, times two, plus one once
  // the scan has ended: the workers wait on it, so the end must change it too.
  alignas(kCacheLine) std::atomic<size_t> scanned_{0};
  // Transient memory from arenas, whose blocks the next load reuses without page faults
  // (from malloc, a large graph's lists would fault in fresh pages on every load).
  Arena scratch_;
  // Taken by every thread, a chunk at a time.
  alignas(kCacheLine) std::atomic<size_t> next_chunk_{0};
  // The walk's, on the main thread alone.
  alignas(kCacheLine) size_t next_item_ = 0;
  size_t current_chunk_ = 0;
  bool current_chunk_entered_ = false;
  std::vector<std::thread> threads_;
};

}  // namespace onyx::serde
