#include "serde/decoder.h"

#include <cstring>

#include "core/place_path.h"
#include "onyx/core/element_type.h"
#include "onyx/core/utf8.h"

namespace onyx::serde {

using B = ir_internal::GraphBuilder;
using ir_internal::NameTableWriter;

using wire::Reader;
using wire::WireType;

namespace {

const char* wireTypeName(WireType type) {
  switch (type) {
    case WireType::kVarint: return "varint";
    case WireType::kFixed64: return "fixed64";
    case WireType::kLengthDelimited: return "length-delimited";
    case WireType::kStartGroup: return "start-group";
    case WireType::kEndGroup: return "end-group";
    case WireType::kFixed32: return "fixed32";
  }
  return "invalid";
}

bool mayShare(const Value& value, Decoder::Role role) {
  using Role = Decoder::Role;
  if (value.isUndefined()) return true;
  // A graph input may also be an initializer (its default); nothing else shares a name.
  bool only_initializer = value.producer() == nullptr && !value.isGraphInput() &&
                          !value.isFunctionInput() && value.isInitializer();
  bool only_input = value.producer() == nullptr && value.isGraphInput() && !value.isInitializer();
  switch (role) {
    case Role::kGraphInput: return only_initializer;
    case Role::kInitializer:
    case Role::kSparseInitializer: return only_input;
    default: return false;
  }
}

}  // namespace

// ---------------------------------------------------------------------------------------
// Errors

bool Decoder::fail(ErrorCode code, std::string message, uint64_t offset) {
  if (status_.isOk()) {
    status_ = Status(code, std::move(message));
    status_.atOffset(offset);
  }
  return false;
}

bool Decoder::wireError(const Reader& reader) {
  return fail(reader.errorCode(), reader.error(), reader.errorOffset());
}

bool Decoder::fieldWireError(const Reader& reader, const char* field) {
  wireError(reader);
  return within(field);
}

bool Decoder::failField(const char* field, ErrorCode code, std::string message, uint64_t offset) {
  fail(code, std::move(message), offset);
  return within(field);
}

bool Decoder::within(std::string_view segment) {
  status_.within(segment);
  return false;
}

bool Decoder::within(std::string_view list, size_t index, OptString name) {
  return within(pathSegment(list, index, name.value_or(std::string_view())));
}

bool Decoder::wrongType(Reader& r, WireType actual, WireType expected, const char* field) {
  return fail(ErrorCode::kMalformed,
              std::string("wire type ") + wireTypeName(actual) + " where " + field + " needs " +
                  wireTypeName(expected),
              r.offset());
}

bool Decoder::tooDeep(const Reader& r) {
  --depth_;
  return fail(ErrorCode::kLimitExceeded,
              "messages nest more than " + std::to_string(options_.max_depth) + " deep",
              r.offset());
}

// ---------------------------------------------------------------------------------------
// Scalar fields

bool Decoder::readStringSlow(Reader& r, WireType wt, OptString& out, const char* field,
                             bool is_name) {
  if (!expectType(r, wt, WireType::kLengthDelimited, field)) return within(field);
  std::string_view text;
  uint64_t at = r.offset();
  if (!r.readBytes(text)) {
    return fieldWireError(r, field);
  }
  if (is_name && text.size() >= NameTable::kMaxNameBytes) {
    return failField(field, ErrorCode::kLimitExceeded, "a name of 4 GiB or more", at);
  }
  if (is_name && options_.validate_utf8 && !isValidUtf8(text)) {
    return failField(field, ErrorCode::kMalformed, "not valid UTF-8", at);
  }
  out = text;
  return true;
}

bool Decoder::readBytesList(Reader& r, WireType wt, ArenaList<std::string_view>& out,
                            const char* field, bool is_name) {
  OptString text;
  if (!readString(r, wt, text, field, is_name)) return false;
  out.push_back(arena_, *text);
  return true;
}

bool Decoder::readInt64(Reader& r, WireType wt, std::optional<int64_t>& out, const char* field) {
  if (!expectType(r, wt, WireType::kVarint, field)) return within(field);
  uint64_t raw;
  if (!r.readVarint(raw)) return fieldWireError(r, field);
  out = static_cast<int64_t>(raw);
  return true;
}

bool Decoder::readInt32(Reader& r, WireType wt, std::optional<int32_t>& out, const char* field) {
  if (!expectType(r, wt, WireType::kVarint, field)) return within(field);
  uint64_t raw;
  if (!r.readVarint(raw)) return fieldWireError(r, field);
  out = static_cast<int32_t>(static_cast<uint32_t>(raw));  // protobuf keeps the low 32 bits
  return true;
}

bool Decoder::readFloat(Reader& r, WireType wt, std::optional<float>& out, const char* field) {
  if (!expectType(r, wt, WireType::kFixed32, field)) return within(field);
  uint32_t bits;
  if (!r.readFixed32(bits)) return fieldWireError(r, field);
  float value;
  std::memcpy(&value, &bits, 4);
  out = value;
  return true;
}

bool Decoder::readRepeatedInt64(Reader& r, WireType wt, Repeated<int64_t>& out, const char* field) {
  if (wt == WireType::kVarint) {
    uint64_t raw;
    if (!r.readVarint(raw)) return fieldWireError(r, field);
    if (out.values.empty()) out.packed = false;
    out.values.push_back(arena_, static_cast<int64_t>(raw));
    return true;
  }
  if (!expectType(r, wt, WireType::kLengthDelimited, field)) return within(field);
  std::string_view payload;
  if (!r.readBytes(payload)) return fieldWireError(r, field);
  Reader inner = reader(payload);
  if (out.values.empty()) out.packed = true;
  while (!inner.atEnd()) {
    uint64_t raw;
    if (!inner.readVarint(raw)) return fieldWireError(inner, field);
    out.values.push_back(arena_, static_cast<int64_t>(raw));
  }
  return true;
}

bool Decoder::readRepeatedFloat(Reader& r, WireType wt, Repeated<float>& out, const char* field) {
  if (wt == WireType::kFixed32) {
    std::optional<float> value;
    if (!readFloat(r, wt, value, field)) return false;
    if (out.values.empty()) out.packed = false;
    out.values.push_back(arena_, *value);
    return true;
  }
  if (!expectType(r, wt, WireType::kLengthDelimited, field)) return within(field);
  std::string_view payload;
  uint64_t at = r.offset();
  if (!r.readBytes(payload)) return fieldWireError(r, field);
  if (payload.size() % 4 != 0) {
    return failField(field, ErrorCode::kMalformed,
                     std::string("packed ") + field + " is not a whole number of floats", at);
  }
  if (out.values.empty()) out.packed = true;
  size_t count = payload.size() / 4;
  out.values.reserve(arena_, out.values.size() + count);
  for (size_t i = 0; i < count; ++i) {
    float value;
    std::memcpy(&value, payload.data() + 4 * i, 4);
    out.values.push_back(arena_, value);
  }
  return true;
}

bool Decoder::readPacked(Reader& r, WireType wt, PackedData& out, PackedKind kind,
                         const char* field) {
  WireType element = kind == PackedKind::kVarint    ? WireType::kVarint
                     : kind == PackedKind::kFixed32 ? WireType::kFixed32
                                                    : WireType::kFixed64;
  std::string_view added;
  uint64_t added_count = 0;
  bool packed;
  uint64_t at = r.offset();
  if (wt == WireType::kLengthDelimited) {
    packed = true;
    if (!r.readBytes(added)) return fieldWireError(r, field);
    bool whole = true;
    if (kind == PackedKind::kVarint) {
      whole = wire::countPackedVarints(added, added_count);
    } else {
      size_t width = kind == PackedKind::kFixed32 ? 4 : 8;
      whole = added.size() % width == 0;
      added_count = added.size() / width;
    }
    if (!whole) {
      return failField(field, ErrorCode::kMalformed,
                       std::string("packed ") + field + " does not hold whole elements", at);
    }
  } else if (wt == element) {
    packed = false;
    const char* start = r.position();
    if (!r.skipValue(0, wt, 0)) return fieldWireError(r, field);
    added = std::string_view(start, static_cast<size_t>(r.position() - start));
    added_count = 1;
  } else {
    expectType(r, wt, WireType::kLengthDelimited, field);
    return within(field);
  }

  if (!out.present) {
    out.present = true;
    out.packed = packed;
    out.payload = added;
    out.count = added_count;
    return true;
  }
  // More than one occurrence: the payloads concatenate. Grow an arena copy geometrically so
  // that a field sent one element at a time stays linear.
  size_t needed = out.payload.size() + added.size();
  char* data = const_cast<char*>(out.payload.data());
  if (out.arena_capacity < needed) {
    size_t capacity = needed < 64 ? 64 : needed * 2;
    char* bigger = arena_.allocateArray<char>(capacity);
    std::memcpy(bigger, out.payload.data(), out.payload.size());
    data = bigger;
    out.arena_capacity = capacity;
  }
  std::memcpy(data + out.payload.size(), added.data(), added.size());
  out.payload = std::string_view(data, needed);
  out.count += added_count;
  return true;
}

Decoder::Step Decoder::readEnum(Reader& r, WireType wt, std::optional<int32_t>& out,
                                const char* field, int32_t largest) {
  if (!expectType(r, wt, WireType::kVarint, field)) return step(within(field));
  const char* start = r.position();
  uint64_t raw;
  if (!r.readVarint(raw)) return step(fieldWireError(r, field));
  int32_t value = static_cast<int32_t>(static_cast<uint32_t>(raw));
  if (value < 0 || value > largest) {
    r.moveTo(start);  // the caller keeps the field, key and value, from there
    return Step::kUnknown;
  }
  out = value;
  return Step::kRead;
}

bool Decoder::keepUnknown(Reader& r, uint32_t field, WireType wt, const char* key_start,
                          UnknownFields& unknown) {
  if (wt == WireType::kEndGroup) {
    return fail(ErrorCode::kMalformed, "end of group " + std::to_string(field) + " without a start",
                r.offset());
  }
  if (!r.skipValue(field, wt, options_.max_depth - depth_)) return wireError(r);
  unknown.push_back(
      arena_, UnknownField{field, std::string_view(key_start,
                                                   static_cast<size_t>(r.position() - key_start))});
  return true;
}

// ---------------------------------------------------------------------------------------
// Values and scopes

Graph& Decoder::ensureGraph(Graph*& slot, Graph* parent, Node* owner) {
  if (slot == nullptr) slot = newGraph(parent, owner);
  return *slot;
}

Graph* Decoder::newGraph(Graph* parent, Node* owner) {
  Graph* graph = arena_.make<Graph>();
  B::parent(graph) = parent;
  B::owner(graph) = owner;
  if (parent != nullptr) B::subgraphs(parent).push_back(arena_, graph);
  return graph;
}

Value* Decoder::newValue(Graph& graph, std::string_view name) {
  Value* value = arena_.make<Value>();
  B::name(value) = name;
  B::graph(value) = &graph;
  B::values(&graph).push_back(arena_, value);
  return value;
}

Value* Decoder::valueForRead(Graph& graph, std::string_view name) {
  bindPendingNames();
  return valueForRead(graph, name, NameTable::hashName(name));
}

Value* Decoder::defineAs(Graph& graph, std::string_view name, Role role) {
  bindPendingNames();
  return defineAs(graph, name, NameTable::hashName(name), role);
}

Value* Decoder::valueForRead(Graph& graph, std::string_view name, uint64_t hash) {
  return NameTableWriter::findOrAdd(B::names(&graph), arena_, name, hash,
                                    [&] { return newValue(graph, name); });
}

Value* Decoder::defineAs(Graph& graph, std::string_view name, uint64_t hash, Role role) {
  bool made = false;
  Value* value = NameTableWriter::findOrAdd(B::names(&graph), arena_, name, hash, [&] {
    made = true;
    return newValue(graph, name);
  });
  if (made || mayShare(*value, role)) return value;
  // A second definition of a name (invalid SSA) gets its own value outside the name table,
  // so that reads keep binding to the first and the file is still written back as it was.
  return newValue(graph, name);
}

void Decoder::bindPendingNames() {
  if (chunk_names_.bound != chunk_names_.end) {
    bindNames(chunk_names_.bound, chunk_names_.end, *chunk_names_.graph);
    chunk_names_.bound = chunk_names_.end;
  }
  if (!pending_names_.empty()) {
    bindNames(pending_names_.data(), pending_names_.data() + pending_names_.size(),
              *pending_graph_);
    pending_names_.clear();
  }
}

void Decoder::bindNames(const PendingName* begin, const PendingName* end, Graph& graph) {
  // Each binding waits on up to three cache misses in a row: the table slot, then the name
  // it holds (to compare) and its value (to link a use). The slot is asked for far ahead,
  // the name and value nearer, once the slot has arrived.
  constexpr ptrdiff_t kSlotAhead = 32;
  constexpr ptrdiff_t kEntryAhead = 12;
  for (const PendingName* at = begin; at != end; ++at) {
    ptrdiff_t left = end - at;
    if (left > kSlotAhead) {
      const PendingName& later = at[kSlotAhead];
      graph.names().prefetch(later.hash);
      // The name itself, to compare with the slot's: a worker read it, this core has not.
      // Not for a chunk's own definitions, which are new to the table nearly always.
      if (later.use != NameUse::kLocalOutput) {
        __builtin_prefetch(later.name);
        __builtin_prefetch(later.name + later.length - 1);
      }
    }
    if (left > kEntryAhead) {
      const PendingName& later = at[kEntryAhead];
      graph.names().prefetchEntry(later.hash);
      // A worker wrote the input's slot: it is in the other core's cache, or gone from all.
      if (later.use == NameUse::kNodeInput) __builtin_prefetch(later.target, 1);
    }
    bindName(*at, graph);
  }
}

void Decoder::bindName(const PendingName& pending, Graph& graph) {
  std::string_view name = pending.text();
  switch (pending.use) {
    case NameUse::kNodeOutput: {
      Node& node = *static_cast<Node*>(pending.target);
      Value* value = defineAs(graph, name, pending.hash, Role::kNodeOutput);
      B::producer(value) = &node;
      B::outputIndex(value) = pending.index;
      B::outputs(&node)[pending.index] = value;
      return;
    }
    case NameUse::kNodeInput:
      static_cast<Use*>(pending.target)->set(valueForRead(graph, name, pending.hash));
      return;
    case NameUse::kInitializer: {
      Value* value = defineAs(graph, name, pending.hash, Role::kInitializer);
      Tensor*& initializer = B::initializer(value);
      if (initializer == nullptr) initializer = static_cast<Tensor*>(pending.target);
      return;
    }
    case NameUse::kGraphInput: {
      auto* info = static_cast<ValueInfo*>(pending.target);
      Value* value = defineAs(graph, name, pending.hash, Role::kGraphInput);
      if (!value->isGraphInput()) B::graphInput(value) = info;
      info->value = value;
      return;
    }
    case NameUse::kGraphOutput: {
      auto* info = static_cast<ValueInfo*>(pending.target);
      Value* value = valueForRead(graph, name, pending.hash);
      info->output.set(value);
      // A read of an outer name is a placeholder until linkScopes: it declares nothing
      // for the outer value.
      declareType(*value, *info);
      return;
    }
    case NameUse::kLocalOutput: {
      Value* local = static_cast<Value*>(pending.target);
      bool made = false;
      Value* value = NameTableWriter::findOrAdd(B::names(&graph), arena_, name, pending.hash, [&] {
        made = true;
        return local;
      });
      if (made) {
        B::values(&graph).push_back(arena_, local);
        return;
      }
      if (value->isUndefined()) {
        // Read before this definition: the value made for that read becomes the output.
        Node* node = local->producer();
        B::producer(value) = node;
        B::outputIndex(value) = local->outputIndex();
        B::outputs(node)[local->outputIndex()] = value;
        moveUses(*local, *value);
        B::producer(local) = nullptr;
        B::graph(local) = nullptr;
        return;
      }
      // Defined before: this output gets a value of its own outside the name table, and
      // the reads keep binding to the first definition.
      B::values(&graph).push_back(arena_, local);
      moveUses(*local, *value);
      return;
    }
    case NameUse::kValueInfo: {
      // Bound now, while its name is in cache, when the name is already defined here: a
      // defined name keeps its value for good. Others wait for linkScopes.
      auto* info = static_cast<ValueInfo*>(pending.target);
      Value* value = graph.names().find(name, pending.hash);
      if (value != nullptr && !value->isUndefined()) {
        info->value = value;
        declareType(*value, *info);
      }
      return;
    }
  }
}

Decoder::LocalNames::Slot& Decoder::LocalNames::slotFor(std::string_view name, uint64_t hash) {
  for (size_t i = hash & (kCapacity - 1);; i = (i + 1) & (kCapacity - 1)) {
    Slot& slot = slots_[i];
    if (slot.generation != generation_) return slot;
    if (slot.hash == hash && slot.name == name) return slot;
  }
}

Value* Decoder::LocalNames::find(std::string_view name, uint64_t hash) const {
  const Slot& slot = const_cast<LocalNames*>(this)->slotFor(name, hash);
  return slot.generation == generation_ ? slot.value : nullptr;
}

void Decoder::LocalNames::drop(std::string_view name, uint64_t hash) {
  Slot& slot = slotFor(name, hash);
  if (slot.generation == generation_) slot.value = nullptr;
}

bool Decoder::defineLocally(Graph& graph, Node& node, std::string_view name, uint32_t index) {
  uint64_t hash = NameTable::hashName(name);
  Value* value = nullptr;
  bool added = local_names_.add(name, hash, [&] {
    value = arena_.make<Value>();
    B::name(value) = name;
    B::graph(value) = &graph;
    B::producer(value) = &node;
    B::outputIndex(value) = index;
    return value;
  });
  if (!added) return false;
  B::outputs(&node)[index] = value;
  queueName(graph, hash, name, value, index, NameUse::kLocalOutput);
  return true;
}

void Decoder::moveUses(Value& from, Value& to) {
  // The list runs newest first, and linking puts a use first: move the oldest first.
  std::vector<Use*> uses;
  for (Use& use : from.uses()) uses.push_back(&use);
  for (size_t i = uses.size(); i-- > 0;) uses[i]->set(&to);
}

void Decoder::linkScopes(Graph& root) {
  // First merge, innermost graphs first: a subgraph's read of a name it does not define
  // becomes a use of the value the enclosing scopes give that name.
  struct Merge {
    void run(Graph& graph) {
      for (Graph* sub : graph.subgraphs()) run(*sub);
      if (graph.parent() == nullptr) return;
      ArenaList<Value*>& values = B::values(&graph);
      size_t kept = 0;
      for (size_t i = 0; i < values.size(); ++i) {
        Value* value = values[i];
        if (value->isUndefined()) {
          if (Value* outer = graph.parent()->lookup(value->name())) {
            value->replaceAllUsesWith(outer);
            B::graph(value) = nullptr;
            // The name is the outer value's: this scope resolves it through its parent.
            B::names(&graph).erase(value->name());
            continue;
          }
        }
        values[kept++] = value;
      }
      values.truncate(kept);
    }
  };
  Merge{}.run(root);
  // Then bind value_info entries, once every name has its final value.
  struct Bind {
    static void run(Graph& graph) {
      for (ValueInfo* info : graph.value_info) {
        if (info->value == nullptr && info->name.has_value()) {
          info->value = graph.lookup(*info->name);
          // Declares the value's type only in the graph that defines it.
          if (info->value != nullptr && info->value->graph() == &graph) {
            Decoder::declareType(*info->value, *info);
          }
        }
      }
      for (Graph* sub : graph.subgraphs()) run(*sub);
    }
  };
  Bind::run(root);
}

}  // namespace onyx::serde
