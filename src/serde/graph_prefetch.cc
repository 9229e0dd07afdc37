#include "serde/graph_prefetch.h"

#include <cstring>
#include <system_error>

namespace onyx::serde {

using wire::Reader;
using wire::WireType;

namespace {

// Big enough that claiming a chunk and waking a waiter are lost in its decoding, small
// enough that the last chunks to finish leave no core idle for long.
constexpr size_t kChunkCost = size_t{64} << 10;

// What decoding an item costs, in bytes of an ordinary message: a tensor's data is a view,
// as cheap at a gigabyte as at a kilobyte.
constexpr size_t kMostItemCost = 1024;
constexpr size_t kFixedItemCost = 64;
size_t decodeCost(const PrefetchItem& item) {
  return (item.size < kMostItemCost ? item.size : kMostItemCost) + kFixedItemCost;
}

// A copy of `list` in `arena`.
template <class T>
std::span<const T> keep(Arena& arena, const std::vector<T>& list) {
  if (list.empty()) return {};
  T* copy = arena.allocateArray<T>(list.size());
  std::memcpy(static_cast<void*>(copy), list.data(), list.size() * sizeof(T));
  return {copy, list.size()};
}

}  // namespace

std::unique_ptr<GraphPrefetch> GraphPrefetch::start(Decoder& main, Graph& graph,
                                                    std::string_view bytes, int threads, int depth,
                                                    size_t& definitions) {
  auto prefetch = std::make_unique<GraphPrefetch>(main, graph, depth);
  if (!prefetch->scan(bytes, threads, definitions)) return nullptr;
  return prefetch;
}

GraphPrefetch::GraphPrefetch(Decoder& main, Graph& graph, int depth)
    : main_(main), graph_(graph), depth_(depth) {}

bool GraphPrefetch::scan(std::string_view bytes, int threads, size_t& definitions) {
  // Every item takes at least its key and length byte, and costs at most its size plus
  // kFixedItemCost: bounds on how many items and chunks there can be.
  size_t most_items = bytes.size() / 2 + 1;
  items_.init(most_items);
  chunks_.init((bytes.size() + most_items * kFixedItemCost) / kChunkCost + 1);
  definitions = 0;
  size_t total_cost = 0;
  size_t chunk_cost = 0;
  bool started = false;
  auto startOnceWorthIt = [&] {
    if (started || chunks_.size() == 0 || total_cost < main_.options_.parallel_min_bytes) return;
    startWorkers(threads);
    started = true;
  };
  Reader r(bytes.data(), bytes.data() + bytes.size(), main_.origin_);
  uint32_t field;
  WireType wt;
  // Only keys and lengths are read; a malformed field ends the scan, and the main decode
  // reports it where it stands.
  while (!r.atEnd() && r.readTag(field, wt)) {
    r.prefetchAhead();
    if (definesName(field)) ++definitions;
    bool is_item = field == 1 || field == 5 || field == 11 || field == 12 || field == 13;
    if (!is_item || wt != WireType::kLengthDelimited) {
      if (!r.skipValue(field, wt, 0)) break;
      continue;
    }
    const char* key = r.position();
    std::string_view message;
    if (!r.readBytes(message) || message.size() > UINT32_MAX) break;
    Item& item = items_.emplace_back(scratch_);
    item.key = key;
    item.data = message.data();
    item.size = static_cast<uint32_t>(message.size());
    item.kind = field == 1    ? Kind::kNode
                : field == 5  ? Kind::kInitializer
                : field == 11 ? Kind::kInput
                : field == 12 ? Kind::kOutput
                              : Kind::kValueInfo;
    size_t cost = decodeCost(item);
    total_cost += cost;
    chunk_cost += cost;
    if (chunk_cost < kChunkCost) continue;
    closeChunk(items_.size());
    chunk_cost = 0;
    startOnceWorthIt();
  }
  if (chunk_cost != 0) closeChunk(items_.size());
  startOnceWorthIt();
  scanned_.store(chunks_.size() * 2 + 1, std::memory_order_release);
  scanned_.notify_all();
  return started;
}

void GraphPrefetch::closeChunk(size_t end_item) {
  size_t first_item = chunks_.size() == 0 ? 0 : chunks_[chunks_.size() - 1].end_item;
  Chunk& chunk = chunks_.emplace_back(scratch_);
  chunk.first_item = first_item;
  chunk.end_item = end_item;
  scanned_.store(chunks_.size() * 2, std::memory_order_release);
  scanned_.notify_all();
}

void GraphPrefetch::startWorkers(int threads) {
  size_t worker_count = threads < 1 ? 1 : static_cast<size_t>(threads);
  workers_.reserve(worker_count);
  for (size_t w = 0; w < worker_count; ++w) {
    Worker& worker =
        *workers_.emplace_back(std::make_unique<Worker>(main_.options_, main_.origin_));
    worker.decoder.prefetching_ = true;
    worker.decoder.current_graph_ = &graph_;
  }
  threads_.reserve(worker_count - 1);
  for (size_t w = 1; w < worker_count; ++w) {
    try {
      threads_.emplace_back([this, w] { work(w); });
    } catch (const std::system_error&) {
      break;  // fewer threads than asked: the main thread decodes what they would have
    }
  }
}

bool GraphPrefetch::waitForChunk(size_t index) {
  for (size_t state = scanned_.load(std::memory_order_acquire);;
       state = scanned_.load(std::memory_order_acquire)) {
    if (index < state / 2) return true;
    if (state % 2 == 1) return false;
    scanned_.wait(state, std::memory_order_acquire);
  }
}

GraphPrefetch::~GraphPrefetch() {
  cancelled_.store(true, std::memory_order_relaxed);
  // Ends the scan for the workers, should it not have ended (start() left early): else a
  // worker waiting for the next chunk would wait for ever.
  scanned_.fetch_or(1, std::memory_order_release);
  scanned_.notify_all();
  for (std::thread& thread : threads_) thread.join();
  for (std::unique_ptr<Worker>& worker : workers_) main_.arena_.adopt(worker->arena);
}

void GraphPrefetch::work(size_t worker) {
  for (;;) {
    size_t index = next_chunk_.fetch_add(1, std::memory_order_relaxed);
    if (!waitForChunk(index) || cancelled_.load(std::memory_order_relaxed)) return;
    Chunk& chunk = chunks_[index];
    if (!claim(chunk)) continue;  // the main thread took it
    decodeChunk(worker, chunk);
    chunk.state.store(kDone, std::memory_order_release);
    chunk.state.notify_all();
  }
}

void GraphPrefetch::decodeChunk(size_t worker, Chunk& chunk) {
  Decoder& decoder = workers_[worker]->decoder;
  decoder.local_names_.clear();
  // The last node decoded here with no failed node after it: the next one is linked to it.
  Node* previous_node = nullptr;
  for (size_t i = chunk.first_item; i < chunk.end_item; ++i) {
    if (cancelled_.load(std::memory_order_relaxed)) break;
    Item& item = items_[i];
    size_t names_before = decoder.pending_names_.size();
    size_t tensors_before = decoder.tensors_.size();
    decoder.depth_ = depth_;
    std::string_view bytes(item.data, item.size);
    Arena& arena = decoder.arena_;
    void* object = nullptr;
    bool ok = false;
    switch (item.kind) {
      case Kind::kNode: {
        Node* node = arena.make<Node>();
        ok = decoder.decodeNode(bytes, *node);
        object = node;
        // Linked here into the graph's list as the main decode will append it, so that it
        // need not write to the node (a line in this core's cache) unless the chain breaks.
        if (!ok) {
          previous_node = nullptr;
          break;
        }
        ir_internal::GraphBuilder::graph(node) = &graph_;
        if (previous_node != nullptr) {
          ir_internal::GraphBuilder::prev(node) = previous_node;
          ir_internal::GraphBuilder::next(previous_node) = node;
          item.follows_linked = true;
        }
        previous_node = node;
        break;
      }
      case Kind::kInitializer: {
        Tensor* tensor = arena.make<Tensor>();
        ok = decoder.decodeTensor(bytes, *tensor);
        if (ok) decoder.queueGraphName(graph_, Decoder::NameUse::kInitializer, tensor);
        object = tensor;
        break;
      }
      case Kind::kInput:
      case Kind::kOutput:
      case Kind::kValueInfo: {
        ValueInfo* info = arena.make<ValueInfo>();
        ok = decoder.decodeValueInfo(bytes, *info);
        Decoder::NameUse use = item.kind == Kind::kInput    ? Decoder::NameUse::kGraphInput
                               : item.kind == Kind::kOutput ? Decoder::NameUse::kGraphOutput
                                                            : Decoder::NameUse::kValueInfo;
        if (ok) decoder.queueGraphName(graph_, use, info);
        if (ok && item.kind == Kind::kOutput && info->name.has_value()) {
          // A graph output is a use the main decode links: later reads of the name in this
          // chunk must be linked after it, by the main decode too.
          decoder.local_names_.drop(*info->name, NameTable::hashName(*info->name));
        }
        object = info;
        break;
      }
    }
    if (ok) {
      item.object = object;
      item.names_end = static_cast<uint32_t>(decoder.pending_names_.size());
    } else {
      // What the failed item queued belongs to nothing the model will hold. The main decode
      // decodes it itself, and whatever it reads must be linked in order with the reads
      // after it: no name is local from here on.
      decoder.local_names_.clear();
      decoder.pending_names_.erase(
          decoder.pending_names_.begin() + static_cast<std::ptrdiff_t>(names_before),
          decoder.pending_names_.end());
      decoder.tensors_.resize(tensors_before);
      decoder.status_ = Status();
      item.names_end = static_cast<uint32_t>(names_before);
    }
  }
  // Checked here, the main decode has (nearly) none of this chunk's tensors left to check.
  decoder.keepUnfinishedTensors();
  chunk.names = keep(workers_[worker]->scratch, decoder.pending_names_);
  chunk.tensors = keep(workers_[worker]->scratch, decoder.tensors_);
  decoder.pending_names_.clear();
  decoder.tensors_.clear();
}

GraphPrefetch::Chunk* GraphPrefetch::enterChunk() {
  Chunk& chunk = chunks_[current_chunk_];
  if (claim(chunk)) {
    decodeChunk(0, chunk);
    chunk.state.store(kDone, std::memory_order_relaxed);
  } else {
    // A worker holds it: decode a chunk nobody has claimed yet rather than wait.
    while (chunk.state.load(std::memory_order_acquire) != kDone) {
      size_t index = next_chunk_.fetch_add(1, std::memory_order_relaxed);
      if (index >= chunks_.size()) {
        for (int state; (state = chunk.state.load(std::memory_order_acquire)) != kDone;) {
          chunk.state.wait(state, std::memory_order_acquire);
        }
        break;
      }
      Chunk& other = chunks_[index];
      if (!claim(other)) continue;
      decodeChunk(0, other);
      other.state.store(kDone, std::memory_order_release);
    }
  }
  current_chunk_entered_ = true;
  return &chunk;
}

}  // namespace onyx::serde
