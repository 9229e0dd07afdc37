// Internal: the protobuf decoder that builds the IR directly from wire bytes.
//
// One Decoder per input. Every decode function reads one message from `bytes` into an
// IR object (merging into it when the message occurs twice, as protobuf does) and returns
// false on failure, leaving the error in status(); callers add their own path segment as
// the failure travels out, so the final Status names the place from the top.
//
// decoder.cc holds the field readers, errors and scopes; decode_messages.cc one decode
// function per onnx.proto message.
#pragma once

#include <concepts>
#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "ir/graph_builder.h"
#include "onyx/core/status.h"
#include "onyx/core/utf8.h"
#include "onyx/ir/model.h"
#include "onyx/serde/model_io.h"
#include "onyx/serde/test_data.h"
#include "wire/reader.h"

namespace onyx::serde {

class GraphPrefetch;
struct PrefetchItem;

/// Whether a GraphProto field defines a name (node, initializer, input, sparse initializer):
/// what sizes the graph's name table before the decode.
inline bool definesName(uint32_t graph_field) {
  return graph_field == 1 || graph_field == 5 || graph_field == 11 || graph_field == 15;
}

class Decoder {
 public:
  enum class Role { kNodeOutput, kGraphInput, kInitializer, kSparseInitializer, kFunctionInput };

  /// What a message's field handler did with one field.
  enum class Step : uint8_t { kRead, kFailed, kUnknown };

  Decoder(Arena& arena, const LoadOptions& options, const char* origin)
      : arena_(arena), options_(options), origin_(origin) {}

  bool decodeModel(std::string_view bytes, Model& model);
  bool decodeTensor(std::string_view bytes, Tensor& tensor);
  bool decodeSparseTensor(std::string_view bytes, SparseTensor& sparse);
  bool decodeType(std::string_view bytes, Type& type);
  bool decodeGraph(std::string_view bytes, Graph& graph);
  // onnx-data.proto, for test data (defined in test_data.cc).
  bool decodeSequence(std::string_view bytes, SequenceValue& sequence);
  bool decodeMap(std::string_view bytes, MapValue& map);
  bool decodeOptional(std::string_view bytes, OptionalValue& optional);

  /// Makes `info` (a value_info or graph output entry of `value`'s own graph) the value's
  /// type declaration, unless it has one: value_info entries win over output entries.
  static void declareType(Value& value, ValueInfo& info) {
    bool is_output = info.output.value() != nullptr;
    ValueInfo*& declaration = ir_internal::GraphBuilder::valueInfo(&value);
    if (declaration == nullptr || (!is_output && declaration->output.value() != nullptr)) {
      declaration = &info;
    }
  }

  /// Links what a whole decode left pending: subgraph reads of outer-scope names, and
  /// value_info entries to their values. Call once after the outermost decode.
  void linkScopes(Graph& root);

  /// Checks every tensor the decode met, once all of them are complete (a singular tensor
  /// field that occurs twice merges, so no check is final before the end): dims must give
  /// an element count that fits in 63 bits. Errors name the tensor's place in `model`.
  /// Also lists the external tensors. Call once after the outermost decode.
  bool finishTensors(const Model* model);

  /// Forgets the tensors met so far that need nothing more (internal, dims fine), each
  /// judged at its last occurrence, and keeps the rest once each. finishTensors starts so; a
  /// worker calls it after each chunk (an item, and so every occurrence of its tensors, is
  /// decoded by one thread, so the judgement is final).
  void keepUnfinishedTensors();

  /// Every tensor the decode met whose data_location says EXTERNAL (after finishTensors).
  const std::vector<Tensor*>& externalTensors() const { return external_tensors_; }

  Status takeStatus() { return std::move(status_); }
  const Status& status() const { return status_; }

  // ---- building blocks, also used by the test-data decoder -----------------------------

  Arena& arena() { return arena_; }
  wire::Reader reader(std::string_view bytes) const {
    return wire::Reader(bytes.data(), bytes.data() + bytes.size(), origin_);
  }

  /// Reads every field of one message: `handle(reader, field, wire_type)` reads the fields
  /// it knows and returns kUnknown for the rest, which are kept in `unknown`.
  template <class Handler>
  bool readFields(std::string_view bytes, UnknownFields& unknown, Handler&& handle) {
    return readFields(
        bytes, [&]() -> UnknownFields& { return unknown; }, handle);
  }
  /// The same, with `unknown_list()` giving the list for unknown fields, called only when
  /// one occurs (for a message whose list is allocated on first use).
  template <class Handler, class UnknownList>
  requires std::is_invocable_r_v<UnknownFields&, UnknownList>
  bool readFields(std::string_view bytes, UnknownList&& unknown_list, Handler&& handle) {
    wire::Reader r = reader(bytes);
    while (!r.atEnd()) {
      const char* key_start = r.position();
      uint32_t field;
      wire::WireType wt;
      if (!r.readTag(field, wt)) return wireError(r);
      switch (handle(r, field, wt)) {
        case Step::kRead: break;
        case Step::kFailed: return false;
        case Step::kUnknown:
          if (!keepUnknown(r, field, wt, key_start, unknown_list())) return false;
      }
    }
    return true;
  }
  static Step step(bool ok) { return ok ? Step::kRead : Step::kFailed; }

  template <class T>
  using DecodeFn = bool (Decoder::*)(std::string_view, T&);

  /// Reads a length-delimited field as a message into `target`, counting nesting depth.
  /// On failure the caller adds the field's path segment.
  template <class T>
  bool readMessage(wire::Reader& r, wire::WireType wt, const char* name, T& target,
                   DecodeFn<T> decode) {
    if (!expectType(r, wt, wire::WireType::kLengthDelimited, name)) return false;
    std::string_view bytes;
    if (!r.readBytes(bytes)) return wireError(r);
    if (!enter(r)) return false;
    bool ok = (this->*decode)(bytes, target);
    leave();
    return ok;
  }
  /// A singular message field; an error gets the path segment `name`.
  template <class T>
  Step one(wire::Reader& r, wire::WireType wt, const char* name, T& target, DecodeFn<T> decode) {
    return readMessage(r, wt, name, target, decode) ? Step::kRead : step(within(name));
  }
  /// A repeated message field held by pointer; an error gets `name[i](its name)`.
  template <class T>
  Step item(wire::Reader& r, wire::WireType wt, const char* name, ArenaList<T*>& list,
            DecodeFn<T> decode) {
    T* target = arena_.make<T>();
    list.push_back(arena_, target);
    if (readMessage(r, wt, name, *target, decode)) return Step::kRead;
    return step(within(name, list.size() - 1, nameOf(*target)));
  }
  /// A repeated message field held by value.
  template <class T>
  Step valueItem(wire::Reader& r, wire::WireType wt, const char* name, ArenaList<T>& list,
                 DecodeFn<T> decode) {
    T& target = list.emplace_back(arena_);
    if (readMessage(r, wt, name, target, decode)) return Step::kRead;
    return step(within(name, list.size() - 1, nameOf(list.back())));
  }
  template <class T>
  T& ensure(T*& slot) {
    if (slot == nullptr) slot = arena_.make<T>();
    return *slot;
  }

  bool wireError(const wire::Reader& reader);
  /// wireError() with `field` as the last path segment.
  bool fieldWireError(const wire::Reader& reader, const char* field);
  bool failField(const char* field, ErrorCode code, std::string message, uint64_t offset);
  bool fail(ErrorCode code, std::string message, uint64_t offset);
  /// Adds a path segment to the current error; returns false for tail calls.
  bool within(std::string_view segment);
  bool within(std::string_view list, size_t index, OptString name = {});
  bool expectType(wire::Reader& r, wire::WireType actual, wire::WireType expected,
                  const char* field) {
    return actual == expected || wrongType(r, actual, expected, field);
  }
  bool wrongType(wire::Reader& r, wire::WireType actual, wire::WireType expected,
                 const char* field);
  /// A string or bytes field; a name (`is_name`) must be shorter than 4 GiB and, unless
  /// the options say otherwise, valid UTF-8.
  bool readString(wire::Reader& r, wire::WireType wt, OptString& out, const char* field,
                  bool is_name) {
    // Inline for the common case, a length-delimited field of under 128 bytes that fits,
    // ASCII when a name: most fields of a graph are such names.
    const char* at = r.position();
    if (wt == wire::WireType::kLengthDelimited && at < r.end()) {
      uint8_t length = static_cast<uint8_t>(*at);
      if (length < 0x80 && length < r.end() - at) {
        std::string_view text(at + 1, length);
        if (!is_name || !options_.validate_utf8 || detail::isAscii(text)) {
          r.moveTo(at + 1 + length);
          out = text;
          return true;
        }
      }
    }
    return readStringSlow(r, wt, out, field, is_name);
  }
  bool readStringSlow(wire::Reader& r, wire::WireType wt, OptString& out, const char* field,
                      bool is_name);
  bool readBytesList(wire::Reader& r, wire::WireType wt, ArenaList<std::string_view>& out,
                     const char* field, bool is_name);
  bool readInt64(wire::Reader& r, wire::WireType wt, std::optional<int64_t>& out,
                 const char* field);
  bool readInt32(wire::Reader& r, wire::WireType wt, std::optional<int32_t>& out,
                 const char* field);
  bool readFloat(wire::Reader& r, wire::WireType wt, std::optional<float>& out, const char* field);
  bool readRepeatedInt64(wire::Reader& r, wire::WireType wt, Repeated<int64_t>& out,
                         const char* field);
  bool readRepeatedFloat(wire::Reader& r, wire::WireType wt, Repeated<float>& out,
                         const char* field);
  enum class PackedKind { kVarint, kFixed32, kFixed64 };
  bool readPacked(wire::Reader& r, wire::WireType wt, PackedData& out, PackedKind kind,
                  const char* field);
  bool keepUnknown(wire::Reader& r, uint32_t field, wire::WireType wt, const char* key_start,
                   UnknownFields& unknown);
  bool enter(const wire::Reader& r) { return ++depth_ <= options_.max_depth || tooDeep(r); }
  bool tooDeep(const wire::Reader& r);
  void leave() { --depth_; }

 private:
  friend class GraphPrefetch;

  // The name a list item shows in error paths, for messages that have one.
  template <class T>
  static OptString nameOf(const T& target) {
    if constexpr (requires {
                    { target.name } -> std::convertible_to<OptString>;
                  }) {
      return target.name;
    } else if constexpr (std::is_same_v<T, StringStringEntry>) {
      return target.key;
    } else {
      return {};
    }
  }
  static OptString nameOf(const SparseTensor& sparse) {
    return sparse.values ? sparse.values->name : OptString();
  }

  bool decodeOpsetId(std::string_view bytes, OperatorSetId& opset);
  bool decodeEntry(std::string_view bytes, StringStringEntry& entry);
  bool decodeNode(std::string_view bytes, Node& node);
  bool decodeAttribute(std::string_view bytes, Attribute& attribute);
  bool decodeValueInfo(std::string_view bytes, ValueInfo& info);
  bool decodeShape(std::string_view bytes, TensorShape& shape);
  bool decodeDimension(std::string_view bytes, Dimension& dim);
  bool decodeTypeMember(std::string_view bytes, Type& type);
  bool decodeSegment(std::string_view bytes, TensorSegment& segment);
  bool decodeFunction(std::string_view bytes, Function& function);
  bool decodeTrainingInfo(std::string_view bytes, TrainingInfo& info);
  bool decodeAnnotation(std::string_view bytes, TensorAnnotation& annotation);
  bool decodeDeviceConfiguration(std::string_view bytes, DeviceConfiguration& config);
  bool decodeNodeDeviceConfiguration(std::string_view bytes, NodeDeviceConfiguration& config);
  bool decodeShardingSpec(std::string_view bytes, ShardingSpec& spec);
  bool decodeIntIntListEntry(std::string_view bytes, IntIntListEntry& entry);
  bool decodeShardedDim(std::string_view bytes, ShardedDim& dim);
  bool decodeSimpleShardedDim(std::string_view bytes, SimpleShardedDim& dim);

  Step entries(wire::Reader& r, wire::WireType wt, const char* name,
               ArenaList<StringStringEntry>& list) {
    return valueItem(r, wt, name, list, &Decoder::decodeEntry);
  }
  /// An enum field whose declared values are 0 to `largest`: such a value is read into
  /// `out`; any other stays an unknown field, as protobuf keeps it, so that it is written
  /// back as it came.
  Step readEnum(wire::Reader& r, wire::WireType wt, std::optional<int32_t>& out, const char* field,
                int32_t largest);
  /// A graph held by `slot`, made on first use, scoped inside `parent`.
  Graph& ensureGraph(Graph*& slot, Graph* parent, Node* owner);
  Graph* newGraph(Graph* parent, Node* owner);
  Value* newValue(Graph& graph, std::string_view name);
  /// The value `name` reads in `graph`: defined there, or a placeholder to be linked.
  Value* valueForRead(Graph& graph, std::string_view name);
  /// Defines `name` in `graph` in `role`, taking over a placeholder made by an earlier read.
  Value* defineAs(Graph& graph, std::string_view name, Role role);
  Value* valueForRead(Graph& graph, std::string_view name, uint64_t hash);
  Value* defineAs(Graph& graph, std::string_view name, uint64_t hash, Role role);

  // Names are bound to values in batches: a large graph's name table does not fit in
  // cache, and resolving names one at a time waits on a miss for each, where a batch
  // prefetches ahead and overlaps them. Names bind in the order they were read, exactly as
  // if each were resolved on the spot: a name operation that is not queued binds the
  // queued ones first. Node inputs and outputs are queued, and so are a graph's
  // initializers, inputs, outputs and value_info entries.
  static constexpr size_t kNameBatch = 256;
  enum class NameUse : uint8_t {
    kNodeOutput,   // target: the Node; index: the output's
    kNodeInput,    // target: the input's Use (binding need not touch the Node); no index
    kInitializer,  // target: the Tensor
    kGraphInput,   // target: the ValueInfo
    kGraphOutput,  // target: the ValueInfo
    kValueInfo,    // target: the ValueInfo
    // A node output whose value a worker made, with the chunk's reads of it already
    // linked (see LocalNames). target: the Value (its producer and output_index say where).
    kLocalOutput,
  };
  struct PendingName {
    // Constructed in place in the queue: a temporary's fields, written one by one and then
    // copied as 16-byte words, stalled every push on store forwarding. 32 bytes: a large
    // graph queues hundreds of thousands, each written by a worker and read by the binding
    // thread. The graph they bind in is the queue's (pending_graph_, ChunkNames::graph).
    PendingName(uint64_t name_hash, std::string_view text, void* where, uint32_t position,
                NameUse kind)
        : name(text.data()),
          hash(static_cast<uint32_t>(name_hash)),
          length(static_cast<uint32_t>(text.size())),
          target(where),
          index(position),
          use(kind) {}
    std::string_view text() const { return {name, length}; }
    const char* name;
    // The low half of the name's hash: all a name table uses (the slot and the tag).
    uint32_t hash;
    uint32_t length;  // names are shorter than NameTable::kMaxNameBytes
    void* target;
    uint32_t index;
    NameUse use;
  };
  /// Queues a name `graph` binds. The queue binds in one graph: a name of another graph
  /// binds what is queued first (never on a worker, which queues for one graph only).
  void queueName(Graph& graph, uint64_t hash, std::string_view name, void* target, uint32_t index,
                 NameUse use) {
    if (&graph != pending_graph_) {
      if (!pending_names_.empty()) bindPendingNames();
      pending_graph_ = &graph;
    }
    pending_names_.emplace_back(hash, name, target, index, use);
  }
  void queueName(Graph& graph, void* target, std::string_view name, uint32_t index, NameUse use) {
    queueName(graph, NameTable::hashName(name), name, target, index, use);
  }
  void bindName(const PendingName& pending, Graph& graph);
  /// Binds the queue once it holds a batch (never on a worker, which binds nothing).
  void bindFullBatch() {
    if (pending_names_.size() >= kNameBatch && !prefetching_) bindPendingNames();
  }
  /// Queues the name a graph's initializer (`target` a Tensor) or input, output or
  /// value_info entry (a ValueInfo) binds, if it binds one.
  void queueGraphName(Graph& graph, NameUse use, void* target);
  /// A graph's input, output or value_info field, into `list`, its name queued and bound.
  Step graphValueInfo(wire::Reader& r, wire::WireType wt, Graph& graph, const char* field,
                      ArenaList<ValueInfo*>& list, NameUse use);
  /// Binds every queued name: a prefetched chunk's, then pending_names_ (never both at
  /// once: taking a prefetched node binds pending_names_ first, decoding one here binds
  /// the chunk's first).
  void bindPendingNames();
  void bindNames(const PendingName* begin, const PendingName* end, Graph& graph);

  // ---- a graph decoded ahead by other threads (graph_prefetch.h) -------------------------

  /// Whether `bytes`, a graph at the current depth, is worth decoding on several threads.
  bool wantsPrefetch(std::string_view bytes) const;
  /// Takes what the workers decoded for the field whose length prefix is at r's position,
  /// and for the fields right behind it, into `graph`, moving r past them; false when
  /// this decoder is to decode the field itself.
  bool takePrefetched(wire::Reader& r, Graph& graph);
  /// The decoded item whose length prefix is at `key`, its chunk's names and tensors taken
  /// when it is the first of its chunk; null when there is none.
  const PrefetchItem* nextPrefetched(const char* key);
  // The names of prefetched nodes, taken but not yet bound: [bound, end) of the names of
  // the chunk that starts at `base`.
  struct ChunkNames {
    Graph* graph = nullptr;  // the graph the chunk's items belong to
    const PendingName* base = nullptr;
    const PendingName* bound = nullptr;
    const PendingName* end = nullptr;
  };

  Arena& arena_;
  const LoadOptions& options_;
  const char* origin_;
  Status status_;
  int depth_ = 0;
  Graph* current_graph_ = nullptr;     // the graph whose nodes are being read
  GraphPrefetch* prefetch_ = nullptr;  // current_graph_'s, when it is decoded ahead
  ChunkNames chunk_names_;
  // A worker of a GraphPrefetch: decodes single items, binds no names and builds no scopes.
  bool prefetching_ = false;
  Node* current_node_ = nullptr;  // the node whose attributes are being read
  struct DecodedTensor {
    Tensor* tensor;
    uint64_t end_offset;  // where its last occurrence ended, for error messages
  };
  std::vector<DecodedTensor> tensors_;
  std::vector<Tensor*> external_tensors_;
  std::vector<PendingName> pending_names_;
  Graph* pending_graph_ = nullptr;  // the graph pending_names_ bind in

  // A worker's names defined so far in the chunk it decodes. Most reads name a value defined
  // a few nodes before, in the same chunk: the worker makes that value and links such reads
  // itself, and the main decode only puts the value in place (kLocalOutput), fixing up what
  // one thread would have done differently: a name read before this definition, or defined
  // before it. Uses of a local value must all come from the chunk's nodes, in file order, so
  // a name is dropped when anything else in the chunk might read it (a graph output naming
  // it, an item the main decode decodes itself).
  class LocalNames {
   public:
    void clear() {
      ++generation_;
      count_ = 0;
    }
    /// The local value named `name`, or null.
    Value* find(std::string_view name, uint64_t hash) const;
    /// Records the value `make()` returns under `name`, in one probe; false, without calling
    /// `make`, when the name is already local or the table is full (the name is then bound
    /// by the main decode, as any other).
    template <class Make>
    bool add(std::string_view name, uint64_t hash, Make&& make) {
      Slot& slot = slotFor(name, hash);
      if (slot.generation == generation_) {
        if (slot.value != nullptr) return false;
        slot.value = make();  // defined again after it was dropped
        return true;
      }
      if (2 * (count_ + 1) > kCapacity) return false;  // keeps probe runs short, and ends them
      slot = Slot{hash, name, make(), generation_};
      ++count_;
      return true;
    }
    /// Forgets `name`: later reads of it go to the main decode.
    void drop(std::string_view name, uint64_t hash);

   private:
    struct Slot {
      uint64_t hash = 0;
      std::string_view name;
      Value* value = nullptr;  // null: dropped
      uint32_t generation = 0;
    };
    static constexpr size_t kCapacity = 1024;  // a power of two
    /// The slot of `name`, or the empty one where it would go.
    Slot& slotFor(std::string_view name, uint64_t hash);
    std::vector<Slot> slots_ = std::vector<Slot>(kCapacity);
    uint32_t generation_ = 1;
    size_t count_ = 0;
  };
  LocalNames local_names_;
  /// On a worker: makes the value node output `index` defines, for the chunk's reads to link
  /// to; false when the main decode is to define it (the name is already local here).
  bool defineLocally(Graph& graph, Node& node, std::string_view name, uint32_t index);
  /// Moves every use of `from` onto `to`, in file order after `to`'s own.
  static void moveUses(Value& from, Value& to);
  std::vector<std::string_view> scratch_names_;
  std::vector<std::string_view> scratch_outputs_;
  std::vector<Attribute*> scratch_attributes_;
};

}  // namespace onyx::serde
