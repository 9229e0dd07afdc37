// One decode function per onnx.proto message, each a switch over the field numbers it
// knows (the numbers are onnx.proto's); everything else is kept as an unknown field.
#include <algorithm>
#include <memory>
#include <span>
#include <thread>
#include <type_traits>
#include "core/development_checks.h"

#include "onyx/core/element_type.h"
#include "onyx/ir/walk.h"
#include "serde/decoder.h"
#include "serde/graph_prefetch.h"

namespace onyx::serde {

using B = ir_internal::GraphBuilder;
using ir_internal::NameTableWriter;
using wire::Reader;
using wire::WireType;

bool Decoder::decodeEntry(std::string_view bytes, StringStringEntry& entry) {
  return readFields(bytes, entry.unknown, [&](Reader& r, uint32_t field, WireType wt) {
    switch (field) {
      case 1: return step(readString(r, wt, entry.key, "key", false));
      case 2: return step(readString(r, wt, entry.value, "value", false));
      default: return Step::kUnknown;
    }
  });
}

bool Decoder::decodeOpsetId(std::string_view bytes, OperatorSetId& opset) {
  return readFields(bytes, opset.unknown, [&](Reader& r, uint32_t field, WireType wt) {
    switch (field) {
      case 1: return step(readString(r, wt, opset.domain, "domain", true));
      case 2: return step(readInt64(r, wt, opset.version, "version"));
      default: return Step::kUnknown;
    }
  });
}

bool Decoder::decodeModel(std::string_view bytes, Model& model) {
  bool ok = readFields(bytes, model.unknown, [&](Reader& r, uint32_t field, WireType wt) {
    switch (field) {
      case 1: return step(readInt64(r, wt, model.ir_version, "ir_version"));
      case 2: return step(readString(r, wt, model.producer_name, "producer_name", false));
      case 3: return step(readString(r, wt, model.producer_version, "producer_version", false));
      case 4: return step(readString(r, wt, model.domain, "domain", false));
      case 5: return step(readInt64(r, wt, model.model_version, "model_version"));
      case 6: return step(readString(r, wt, model.doc_string, "doc_string", false));
      case 7:
        return one(r, wt, "graph", ensureGraph(model.graph, nullptr, nullptr),
                   &Decoder::decodeGraph);
      case 8: return valueItem(r, wt, "opset_import", model.opset_import, &Decoder::decodeOpsetId);
      case 14: return entries(r, wt, "metadata_props", model.metadata_props);
      case 20:
        return item(r, wt, "training_info", model.training_info, &Decoder::decodeTrainingInfo);
      case 25: return item(r, wt, "functions", model.functions, &Decoder::decodeFunction);
      case 26:
        return item(r, wt, "configuration", model.configuration,
                    &Decoder::decodeDeviceConfiguration);
      default: return Step::kUnknown;
    }
  });
  if (!ok) return false;
  if (!finishTensors(&model)) return false;
  if (model.graph != nullptr) linkScopes(*model.graph);
  for (Function* function : model.functions) linkScopes(*function->body);
  for (TrainingInfo* info : model.training_info) {
    if (info->initialization != nullptr) linkScopes(*info->initialization);
    if (info->algorithm != nullptr) linkScopes(*info->algorithm);
  }
  return true;
}

bool Decoder::decodeTrainingInfo(std::string_view bytes, TrainingInfo& info) {
  // Training graphs are scopes of their own.
  return readFields(bytes, info.unknown, [&](Reader& r, uint32_t field, WireType wt) {
    switch (field) {
      case 1:
        return one(r, wt, "initialization", ensureGraph(info.initialization, nullptr, nullptr),
                   &Decoder::decodeGraph);
      case 2:
        return one(r, wt, "algorithm", ensureGraph(info.algorithm, nullptr, nullptr),
                   &Decoder::decodeGraph);
      case 3: return entries(r, wt, "initialization_binding", info.initialization_binding);
      case 4: return entries(r, wt, "update_binding", info.update_binding);
      default: return Step::kUnknown;
    }
  });
}

namespace {

// Counts the fields of a GraphProto that define names (nodes, initializers, inputs), so
// that its name table is allocated once at the right size. Only keys and lengths are read;
// a malformed graph stops the count and is reported by the real decode.
size_t countDefinitions(Reader r) {
  size_t count = 0;
  uint32_t field;
  WireType wt;
  while (!r.atEnd() && r.readTag(field, wt)) {
    r.prefetchAhead();
    if (definesName(field)) ++count;
    if (!r.skipValue(field, wt, 0)) break;
  }
  return count;
}

int threadCount(const LoadOptions& options) {
  if (options.threads > 0) return options.threads;
  unsigned cores = std::thread::hardware_concurrency();
  return cores == 0 ? 1 : static_cast<int>(cores);
}

}  // namespace

bool Decoder::wantsPrefetch(std::string_view bytes) const {
  // One graph decoded ahead at a time: a graph inside a prefetched one is decoded by the
  // main thread while the workers are busy with the outer graph's items.
  return prefetch_ == nullptr && !prefetching_ && bytes.size() >= options_.parallel_min_bytes &&
         depth_ + 1 <= options_.max_depth && threadCount(options_) > 1;
}

const PrefetchItem* Decoder::nextPrefetched(const char* key) {
  GraphPrefetch::Chunk* entered;
  const PrefetchItem* item = prefetch_->next(key, entered);
  if (entered != nullptr) {
    bindPendingNames();  // the previous chunk's, while they are still there
    tensors_.insert(tensors_.end(), entered->tensors.begin(), entered->tensors.end());
    const PendingName* base = entered->names.data();
    chunk_names_ = {current_graph_, base, base, base};
  }
  return item;
}

bool Decoder::takePrefetched(Reader& r, Graph& graph) {
  const PrefetchItem* item = nextPrefetched(r.position());
  if (item != nullptr) prefetch_->pop();
  if (item == nullptr || item->object == nullptr) {
    // Decoded here: the names it binds go after those queued so far.
    bindPendingNames();
    return false;
  }
  if (!pending_names_.empty()) bindPendingNames();
  // This item, and every decoded one right behind it in the file: their keys need not be
  // read again.
  for (;;) {
    chunk_names_.end = chunk_names_.base + item->names_end;
    switch (item->kind) {
      case PrefetchItem::Kind::kNode: {
        Node* node = static_cast<Node*>(item->object);
        // Its worker linked it to the nodes it decoded before and after it. When the one
        // before is the last node here (the item says so: the node's line is in the worker's
        // cache), the link holds; else it is appended, keeping the link to the one after,
        // which then finds it last.
        if (item->follows_linked) {
          ONYX_ASSERT(node->prev() == graph.lastNode());
          B::lastNode(&graph) = node;
          ++B::nodeCount(&graph);
        } else {
          Node* after = node->next();
          graph.appendNode(node);
          B::next(node) = after;
        }
        break;
      }
      case PrefetchItem::Kind::kInitializer:
        graph.initializers.push_back(arena_, static_cast<Tensor*>(item->object));
        break;
      default: {
        ArenaList<ValueInfo*>& list = item->kind == PrefetchItem::Kind::kInput ? graph.inputs
                                      : item->kind == PrefetchItem::Kind::kOutput
                                          ? graph.outputs
                                          : graph.value_info;
        list.push_back(arena_, static_cast<ValueInfo*>(item->object));
      }
    }
    const char* end = item->data + item->size;
    r.moveTo(end);
    // Every item field has a one-byte key: the next item follows directly if its length
    // prefix is one byte on.
    if (r.remaining() < 2) return true;
    item = nextPrefetched(end + 1);
    // One the workers did not decode is left for the walk to meet.
    if (item == nullptr || item->object == nullptr) return true;
    prefetch_->pop();
  }
}

void Decoder::queueGraphName(Graph& graph, NameUse use, void* target) {
  OptString name = use == NameUse::kInitializer ? static_cast<Tensor*>(target)->name
                                                : static_cast<ValueInfo*>(target)->name;
  if (!name.has_value()) return;
  // An empty name defines nothing; a value_info entry named "" still looks itself up.
  if (name->empty() && use != NameUse::kValueInfo) return;
  queueName(graph, target, *name, 0, use);
  // Bound in batches, as node names are: a graph's initializers and value_info entries come
  // after its nodes in the file, so each lookup finds a name read long before, out of cache.
  bindFullBatch();
}

Decoder::Step Decoder::graphValueInfo(Reader& r, WireType wt, Graph& graph, const char* field,
                                      ArenaList<ValueInfo*>& list, NameUse use) {
  if (prefetch_ != nullptr && takePrefetched(r, graph)) return Step::kRead;
  if (item(r, wt, field, list, &Decoder::decodeValueInfo) == Step::kFailed) return Step::kFailed;
  queueGraphName(graph, use, list.back());
  return Step::kRead;
}

bool Decoder::decodeGraph(std::string_view bytes, Graph& graph) {
  Graph* saved_graph = current_graph_;
  GraphPrefetch* saved_prefetch = prefetch_;
  ChunkNames saved_chunk_names = chunk_names_;
  current_graph_ = &graph;
  std::unique_ptr<GraphPrefetch> prefetch;
  if (graph.names().size() == 0) {
    size_t definitions;
    if (wantsPrefetch(bytes)) {
      prefetch =
          GraphPrefetch::start(*this, graph, bytes, threadCount(options_), depth_ + 1, definitions);
    } else {
      definitions = countDefinitions(reader(bytes));
    }
    NameTableWriter::reserve(B::names(&graph), arena_, definitions);
    B::values(&graph).reserve(arena_, definitions);
  }
  prefetch_ = prefetch.get();
  chunk_names_ = {};
  bool ok = readFields(bytes, graph.unknown, [&](Reader& r, uint32_t field, WireType wt) {
    switch (field) {
      case 1: {
        if (prefetch_ != nullptr && takePrefetched(r, graph)) return Step::kRead;
        Node* node = arena_.make<Node>();
        graph.appendNode(node);
        if (readMessage(r, wt, "node", *node, &Decoder::decodeNode)) return Step::kRead;
        return step(within("node", graph.nodeCount() - 1, node->name));
      }
      case 2: return step(readString(r, wt, graph.name, "name", true));
      case 5: {
        if (prefetch_ != nullptr && takePrefetched(r, graph)) return Step::kRead;
        if (item(r, wt, "initializer", graph.initializers, &Decoder::decodeTensor) ==
            Step::kFailed) {
          return Step::kFailed;
        }
        queueGraphName(graph, NameUse::kInitializer, graph.initializers.back());
        return Step::kRead;
      }
      case 10: return step(readString(r, wt, graph.doc_string, "doc_string", false));
      case 11: return graphValueInfo(r, wt, graph, "input", graph.inputs, NameUse::kGraphInput);
      case 12: return graphValueInfo(r, wt, graph, "output", graph.outputs, NameUse::kGraphOutput);
      case 13:
        return graphValueInfo(r, wt, graph, "value_info", graph.value_info, NameUse::kValueInfo);
      case 14:
        return item(r, wt, "quantization_annotation", graph.quantization_annotation,
                    &Decoder::decodeAnnotation);
      case 15: {
        if (item(r, wt, "sparse_initializer", graph.sparse_initializers,
                 &Decoder::decodeSparseTensor) == Step::kFailed) {
          return Step::kFailed;
        }
        SparseTensor* sparse = graph.sparse_initializers.back();
        OptString name = nameOf(*sparse);
        if (name.has_value() && !name->empty()) {
          Value* value = defineAs(graph, *name, Role::kSparseInitializer);
          if (value->sparseInitializer() == nullptr) B::sparseInitializer(value) = sparse;
        }
        return Step::kRead;
      }
      case 16: return entries(r, wt, "metadata_props", graph.metadata_props);
      default: return Step::kUnknown;
    }
  });
  bindPendingNames();
  prefetch.reset();  // joins the workers; their arenas become this decode's
  prefetch_ = saved_prefetch;
  chunk_names_ = saved_chunk_names;
  current_graph_ = saved_graph;
  return ok;
}

bool Decoder::decodeNode(std::string_view bytes, Node& node) {
  Graph& graph = *current_graph_;
  Node* saved_node = current_node_;
  current_node_ = &node;
  // Inputs, outputs and attributes gather on scratch stacks shared by all nodes (a node in
  // a subgraph pushes above its owner's entries and pops before the owner goes on), then
  // move to arena arrays of their exact size.
  size_t first_input = scratch_names_.size();
  size_t first_output = scratch_outputs_.size();
  size_t first_attribute = scratch_attributes_.size();
  // The rare fields are allocated only when one occurs (most nodes have none).
  auto unknown = [&]() -> UnknownFields& { return B::editorOn(arena_).rare(&node).unknown; };
  bool ok = readFields(bytes, unknown, [&](Reader& r, uint32_t field, WireType wt) {
    switch (field) {
      case 1: {
        OptString name;
        if (!readString(r, wt, name, "input", true)) return Step::kFailed;
        scratch_names_.push_back(*name);
        return Step::kRead;
      }
      case 2: {
        OptString name;
        if (!readString(r, wt, name, "output", true)) return Step::kFailed;
        scratch_outputs_.push_back(*name);
        return Step::kRead;
      }
      case 3: return step(readString(r, wt, node.name, "name", true));
      case 4: return step(readString(r, wt, node.op_type, "op_type", true));
      case 5: {
        Attribute* attribute = arena_.make<Attribute>();
        scratch_attributes_.push_back(attribute);
        if (readMessage(r, wt, "attribute", *attribute, &Decoder::decodeAttribute)) {
          return Step::kRead;
        }
        return step(
            within("attribute", scratch_attributes_.size() - 1 - first_attribute, attribute->name));
      }
      case 6:
        return step(
            readString(r, wt, B::editorOn(arena_).rare(&node).doc_string, "doc_string", false));
      case 7: return step(readString(r, wt, node.domain, "domain", true));
      case 8:
        return step(readString(r, wt, B::editorOn(arena_).rare(&node).overload, "overload", true));
      case 9:
        return entries(r, wt, "metadata_props", B::editorOn(arena_).rare(&node).metadata_props);
      case 10:
        return item(r, wt, "device_configurations",
                    B::editorOn(arena_).rare(&node).device_configurations,
                    &Decoder::decodeNodeDeviceConfiguration);
      default: return Step::kUnknown;
    }
  });
  current_node_ = saved_node;
  if (ok) {
    // Outputs are defined before inputs are read, so that a node reading its own output
    // binds to it, as when the outputs came first in the file.
    size_t outputs = scratch_outputs_.size() - first_output;
    B::outputs(&node).resize(arena_, outputs);
    for (size_t i = 0; i < outputs; ++i) {
      std::string_view name = scratch_outputs_[first_output + i];
      if (name.empty()) continue;
      if (prefetching_ && defineLocally(graph, node, name, static_cast<uint32_t>(i))) continue;
      queueName(graph, &node, name, static_cast<uint32_t>(i), NameUse::kNodeOutput);
    }
    size_t inputs = scratch_names_.size() - first_input;
    // The input slots are allocated once, at their final size, so the links never move.
    ArenaList<Use>& slots = B::inputs(&node);
    slots.resize(arena_, inputs);
    for (size_t i = 0; i < inputs; ++i) {
      B::user(&slots[i]) = &node;
      std::string_view name = scratch_names_[first_input + i];
      if (name.empty()) continue;
      uint64_t hash = NameTable::hashName(name);
      if (prefetching_) {
        if (Value* local = local_names_.find(name, hash)) {
          slots[i].set(local);
          continue;
        }
      }
      queueName(graph, hash, name, &slots[i], 0u, NameUse::kNodeInput);
    }
    bindFullBatch();
    node.attributes.assign(arena_, scratch_attributes_.data() + first_attribute,
                           scratch_attributes_.size() - first_attribute);
  }
  scratch_names_.resize(first_input);
  scratch_outputs_.resize(first_output);
  scratch_attributes_.resize(first_attribute);
  return ok;
}

bool Decoder::decodeAttribute(std::string_view bytes, Attribute& attribute) {
  // The rare fields are allocated only when one occurs (most attributes have none).
  auto more = [&]() -> AttributeRareFields& { return B::editorOn(arena_).rare(&attribute); };
  auto unknown = [&]() -> UnknownFields& { return more().unknown; };
  return readFields(bytes, unknown, [&](Reader& r, uint32_t field, WireType wt) {
    switch (field) {
      case 1: return step(readString(r, wt, attribute.name, "name", true));
      case 2: return step(readFloat(r, wt, attribute.f, "f"));
      case 3: return step(readInt64(r, wt, attribute.i, "i"));
      case 4: return step(readString(r, wt, attribute.s, "s", false));
      case 5: return one(r, wt, "t", ensure(attribute.t), &Decoder::decodeTensor);
      case 6:
        if (prefetching_) return Step::kFailed;  // a scope: the main decode's to build
        return one(r, wt, "g", ensureGraph(attribute.g, current_graph_, current_node_),
                   &Decoder::decodeGraph);
      case 7: return step(readRepeatedFloat(r, wt, attribute.floats, "floats"));
      case 8: return step(readRepeatedInt64(r, wt, attribute.ints, "ints"));
      case 9: return step(readBytesList(r, wt, more().strings, "strings", false));
      case 10: return item(r, wt, "tensors", more().tensors, &Decoder::decodeTensor);
      case 11: {
        if (prefetching_) return Step::kFailed;
        Graph* graph = newGraph(current_graph_, current_node_);
        ArenaList<Graph*>& graphs = more().graphs;
        graphs.push_back(arena_, graph);
        if (readMessage(r, wt, "graphs", *graph, &Decoder::decodeGraph)) return Step::kRead;
        return step(within("graphs", graphs.size() - 1, graph->name));
      }
      case 13: return step(readString(r, wt, more().doc_string, "doc_string", false));
      case 14: return one(r, wt, "tp", ensure(more().tp), &Decoder::decodeType);
      case 15: return item(r, wt, "type_protos", more().type_protos, &Decoder::decodeType);
      case 20: return readEnum(r, wt, attribute.type, "type", 14);
      case 21: return step(readString(r, wt, more().ref_attr_name, "ref_attr_name", true));
      case 22:
        return one(r, wt, "sparse_tensor", ensure(more().sparse_tensor),
                   &Decoder::decodeSparseTensor);
      case 23:
        return item(r, wt, "sparse_tensors", more().sparse_tensors, &Decoder::decodeSparseTensor);
      default: return Step::kUnknown;
    }
  });
}

bool Decoder::decodeValueInfo(std::string_view bytes, ValueInfo& info) {
  return readFields(bytes, info.unknown, [&](Reader& r, uint32_t field, WireType wt) {
    switch (field) {
      case 1: return step(readString(r, wt, info.name, "name", true));
      case 2: return one(r, wt, "type", ensure(info.type), &Decoder::decodeType);
      case 3: return step(readString(r, wt, info.doc_string, "doc_string", false));
      case 4: return entries(r, wt, "metadata_props", info.metadata_props);
      default: return Step::kUnknown;
    }
  });
}

namespace {

const char* typeMemberName(Type::Kind kind) {
  switch (kind) {
    case Type::Kind::kTensor: return "tensor_type";
    case Type::Kind::kSequence: return "sequence_type";
    case Type::Kind::kMap: return "map_type";
    case Type::Kind::kOpaque: return "opaque_type";
    case Type::Kind::kSparseTensor: return "sparse_tensor_type";
    case Type::Kind::kOptional: return "optional_type";
    case Type::Kind::kNone: break;
  }
  return "value";
}

}  // namespace

bool Decoder::decodeType(std::string_view bytes, Type& type) {
  return readFields(bytes, type.unknown, [&](Reader& r, uint32_t field, WireType wt) {
    switch (field) {
      case 1:
      case 4:
      case 5:
      case 7:
      case 8:
      case 9: {
        auto kind = static_cast<Type::Kind>(field);
        if (type.kind != kind) {
          // Setting another member of the oneof clears the one that was set.
          Type fresh;
          fresh.denotation = type.denotation;
          fresh.unknown = type.unknown;
          fresh.kind = kind;
          type = fresh;
        }
        return one(r, wt, typeMemberName(kind), type, &Decoder::decodeTypeMember);
      }
      case 6: return step(readString(r, wt, type.denotation, "denotation", false));
      default: return Step::kUnknown;
    }
  });
}

bool Decoder::decodeTypeMember(std::string_view bytes, Type& type) {
  // The member messages share field numbers: which field 1 is depends on the kind.
  return readFields(bytes, type.member_unknown, [&](Reader& r, uint32_t field, WireType wt) {
    switch (type.kind) {
      case Type::Kind::kTensor:
      case Type::Kind::kSparseTensor:
        if (field == 1) return step(readInt32(r, wt, type.elem_type, "elem_type"));
        if (field == 2) return one(r, wt, "shape", ensure(type.shape), &Decoder::decodeShape);
        return Step::kUnknown;
      case Type::Kind::kSequence:
      case Type::Kind::kOptional:
        if (field == 1) return one(r, wt, "elem_type", ensure(type.elem), &Decoder::decodeType);
        return Step::kUnknown;
      case Type::Kind::kMap:
        if (field == 1) return step(readInt32(r, wt, type.key_type, "key_type"));
        if (field == 2) return one(r, wt, "value_type", ensure(type.elem), &Decoder::decodeType);
        return Step::kUnknown;
      case Type::Kind::kOpaque:
        if (field == 1) return step(readString(r, wt, type.opaque_domain, "domain", false));
        if (field == 2) return step(readString(r, wt, type.opaque_name, "name", false));
        return Step::kUnknown;
      case Type::Kind::kNone: break;
    }
    return Step::kUnknown;
  });
}

bool Decoder::decodeShape(std::string_view bytes, TensorShape& shape) {
  return readFields(bytes, shape.unknown, [&](Reader& r, uint32_t field, WireType wt) {
    if (field == 1) return valueItem(r, wt, "dim", shape.dims, &Decoder::decodeDimension);
    return Step::kUnknown;
  });
}

bool Decoder::decodeDimension(std::string_view bytes, Dimension& dim) {
  return readFields(bytes, dim.unknown, [&](Reader& r, uint32_t field, WireType wt) {
    switch (field) {
      case 1: dim.dim_param.reset(); return step(readInt64(r, wt, dim.dim_value, "dim_value"));
      case 2:
        dim.dim_value.reset();
        return step(readString(r, wt, dim.dim_param, "dim_param", true));
      case 3: return step(readString(r, wt, dim.denotation, "denotation", false));
      default: return Step::kUnknown;
    }
  });
}

bool Decoder::decodeSegment(std::string_view bytes, TensorSegment& segment) {
  return readFields(bytes, segment.unknown, [&](Reader& r, uint32_t field, WireType wt) {
    switch (field) {
      case 1: return step(readInt64(r, wt, segment.begin, "begin"));
      case 2: return step(readInt64(r, wt, segment.end, "end"));
      default: return Step::kUnknown;
    }
  });
}

bool Decoder::decodeTensor(std::string_view bytes, Tensor& tensor) {
  // The rare fields are allocated only when one occurs (most tensors have none).
  auto more = [&]() -> TensorRareFields& { return B::editorOn(arena_).rare(&tensor); };
  auto unknown = [&]() -> UnknownFields& { return more().unknown; };
  bool ok = readFields(bytes, unknown, [&](Reader& r, uint32_t field, WireType wt) {
    switch (field) {
      case 1: return step(readRepeatedInt64(r, wt, tensor.dims, "dims"));
      case 2: return step(readInt32(r, wt, tensor.data_type, "data_type"));
      case 3: return one(r, wt, "segment", ensure(more().segment), &Decoder::decodeSegment);
      case 4: return step(readPacked(r, wt, more().float_data, PackedKind::kFixed32, "float_data"));
      case 5: return step(readPacked(r, wt, more().int32_data, PackedKind::kVarint, "int32_data"));
      case 6: return step(readBytesList(r, wt, more().string_data, "string_data", false));
      case 7: return step(readPacked(r, wt, more().int64_data, PackedKind::kVarint, "int64_data"));
      case 8: return step(readString(r, wt, tensor.name, "name", true));
      case 9: return step(readString(r, wt, tensor.raw_data, "raw_data", false));
      case 10:
        return step(readPacked(r, wt, more().double_data, PackedKind::kFixed64, "double_data"));
      case 11:
        return step(readPacked(r, wt, more().uint64_data, PackedKind::kVarint, "uint64_data"));
      case 12: return step(readString(r, wt, more().doc_string, "doc_string", false));
      case 13: return entries(r, wt, "external_data", more().external_data);
      case 14: return readEnum(r, wt, tensor.data_location, "data_location", 1);
      case 16: return entries(r, wt, "metadata_props", more().metadata_props);
      default: return Step::kUnknown;
    }
  });
  if (!ok) return false;
  tensors_.push_back({&tensor, static_cast<uint64_t>(bytes.data() + bytes.size() - origin_)});
  return true;
}

void Decoder::keepUnfinishedTensors() {
  // A tensor met twice (a singular field that merges) is judged at its last occurrence:
  // sorted so, that is the last entry of its run.
  std::sort(tensors_.begin(), tensors_.end(), [](const DecodedTensor& a, const DecodedTensor& b) {
    return a.tensor != b.tensor ? a.tensor < b.tensor : a.end_offset < b.end_offset;
  });
  size_t kept = 0;
  for (size_t i = 0; i < tensors_.size(); ++i) {
    if (i + 1 < tensors_.size() && tensors_[i + 1].tensor == tensors_[i].tensor) continue;
    const Tensor& tensor = *tensors_[i].tensor;
    bool dims_fit = static_cast<bool>(
        elementCount(std::span<const int64_t>(tensor.dims.begin(), tensor.dims.size())));
    if (tensor.isExternal() || !dims_fit) tensors_[kept++] = tensors_[i];
  }
  tensors_.resize(kept);
}

bool Decoder::finishTensors(const Model* model) {
  keepUnfinishedTensors();  // what is left is each tensor once, its dims bad or it external
  external_tensors_.clear();
  std::vector<DecodedTensor> external;
  const DecodedTensor* first_bad = nullptr;
  Status bad_status;
  for (const DecodedTensor& decoded : tensors_) {
    const Tensor& tensor = *decoded.tensor;
    // Every later use multiplies the dims; refuse here what no use could survive.
    auto count = elementCount(std::span<const int64_t>(tensor.dims.begin(), tensor.dims.size()));
    if (!count) {
      // The error names the first such tensor in the file, whichever thread decoded it.
      if (first_bad == nullptr || decoded.end_offset < first_bad->end_offset) {
        first_bad = &decoded;
        bad_status = std::move(count).takeStatus();
      }
      continue;
    }
    external.push_back(decoded);
  }
  // In file order, whichever thread met them.
  std::sort(external.begin(), external.end(), [](const DecodedTensor& a, const DecodedTensor& b) {
    return a.end_offset < b.end_offset;
  });
  for (const DecodedTensor& decoded : external) external_tensors_.push_back(decoded.tensor);
  if (first_bad != nullptr) {
    fail(bad_status.code(), bad_status.message(), first_bad->end_offset);
    within("dims");
    if (model != nullptr) within(tensorPath(*model, first_bad->tensor));
    return false;
  }
  return true;
}

bool Decoder::decodeSparseTensor(std::string_view bytes, SparseTensor& sparse) {
  return readFields(bytes, sparse.unknown, [&](Reader& r, uint32_t field, WireType wt) {
    switch (field) {
      case 1: return one(r, wt, "values", ensure(sparse.values), &Decoder::decodeTensor);
      case 2: return one(r, wt, "indices", ensure(sparse.indices), &Decoder::decodeTensor);
      case 3: return step(readRepeatedInt64(r, wt, sparse.dims, "dims"));
      default: return Step::kUnknown;
    }
  });
}

bool Decoder::decodeFunction(std::string_view bytes, Function& function) {
  Graph& body = ensureGraph(function.body, nullptr, nullptr);
  Graph* saved_graph = current_graph_;
  Node* saved_node = current_node_;
  bool ok = readFields(bytes, function.unknown, [&](Reader& r, uint32_t field, WireType wt) {
    switch (field) {
      case 1: return step(readString(r, wt, function.name, "name", true));
      case 4: {
        OptString name;
        if (!readString(r, wt, name, "input", true)) return Step::kFailed;
        Value* value = nullptr;
        if (!name->empty()) {
          value = defineAs(body, *name, Role::kFunctionInput);
          B::functionInput(value) = true;
        }
        function.inputs.push_back(arena_, value);
        return Step::kRead;
      }
      case 5: {
        OptString name;
        if (!readString(r, wt, name, "output", true)) return Step::kFailed;
        Use* use = arena_.make<Use>();
        // An empty output name reads nothing; the writer prints "" for a null value.
        if (!name->empty()) use->set(valueForRead(body, *name));
        function.outputs.push_back(arena_, use);
        return Step::kRead;
      }
      case 6: return step(readBytesList(r, wt, function.attribute, "attribute", true));
      case 7: {
        current_graph_ = &body;
        current_node_ = nullptr;
        Node* node = arena_.make<Node>();
        body.appendNode(node);
        bool read = readMessage(r, wt, "node", *node, &Decoder::decodeNode);
        current_graph_ = saved_graph;
        current_node_ = saved_node;
        return read ? Step::kRead : step(within("node", body.nodeCount() - 1, node->name));
      }
      case 8: return step(readString(r, wt, function.doc_string, "doc_string", false));
      case 9:
        return valueItem(r, wt, "opset_import", function.opset_import, &Decoder::decodeOpsetId);
      case 10: return step(readString(r, wt, function.domain, "domain", true));
      case 11: {
        // Attribute defaults are not in the body's scope: a graph default has no parent.
        current_graph_ = nullptr;
        current_node_ = nullptr;
        Step result =
            item(r, wt, "attribute_proto", function.attribute_proto, &Decoder::decodeAttribute);
        current_graph_ = saved_graph;
        current_node_ = saved_node;
        return result;
      }
      case 12: return item(r, wt, "value_info", body.value_info, &Decoder::decodeValueInfo);
      case 13: return step(readString(r, wt, function.overload, "overload", true));
      case 14: return entries(r, wt, "metadata_props", function.metadata_props);
      default: return Step::kUnknown;
    }
  });
  bindPendingNames();
  current_graph_ = saved_graph;
  current_node_ = saved_node;
  return ok;
}

bool Decoder::decodeAnnotation(std::string_view bytes, TensorAnnotation& annotation) {
  return readFields(bytes, annotation.unknown, [&](Reader& r, uint32_t field, WireType wt) {
    switch (field) {
      case 1: return step(readString(r, wt, annotation.tensor_name, "tensor_name", true));
      case 2:
        return entries(r, wt, "quant_parameter_tensor_names",
                       annotation.quant_parameter_tensor_names);
      default: return Step::kUnknown;
    }
  });
}

bool Decoder::decodeDeviceConfiguration(std::string_view bytes, DeviceConfiguration& config) {
  return readFields(bytes, config.unknown, [&](Reader& r, uint32_t field, WireType wt) {
    switch (field) {
      case 1: return step(readString(r, wt, config.name, "name", false));
      case 2: return step(readInt32(r, wt, config.num_devices, "num_devices"));
      case 3: return step(readBytesList(r, wt, config.device, "device", false));
      default: return Step::kUnknown;
    }
  });
}

bool Decoder::decodeNodeDeviceConfiguration(std::string_view bytes,
                                            NodeDeviceConfiguration& config) {
  return readFields(bytes, config.unknown, [&](Reader& r, uint32_t field, WireType wt) {
    switch (field) {
      case 1: return step(readString(r, wt, config.configuration_id, "configuration_id", false));
      case 2:
        return item(r, wt, "sharding_spec", config.sharding_spec, &Decoder::decodeShardingSpec);
      case 3: return step(readInt32(r, wt, config.pipeline_stage, "pipeline_stage"));
      default: return Step::kUnknown;
    }
  });
}

bool Decoder::decodeShardingSpec(std::string_view bytes, ShardingSpec& spec) {
  return readFields(bytes, spec.unknown, [&](Reader& r, uint32_t field, WireType wt) {
    switch (field) {
      case 1: return step(readString(r, wt, spec.tensor_name, "tensor_name", false));
      case 2: return step(readRepeatedInt64(r, wt, spec.device, "device"));
      case 3:
        return item(r, wt, "index_to_device_group_map", spec.index_to_device_group_map,
                    &Decoder::decodeIntIntListEntry);
      case 4: return item(r, wt, "sharded_dim", spec.sharded_dim, &Decoder::decodeShardedDim);
      default: return Step::kUnknown;
    }
  });
}

bool Decoder::decodeIntIntListEntry(std::string_view bytes, IntIntListEntry& entry) {
  return readFields(bytes, entry.unknown, [&](Reader& r, uint32_t field, WireType wt) {
    switch (field) {
      case 1: return step(readInt64(r, wt, entry.key, "key"));
      case 2: return step(readRepeatedInt64(r, wt, entry.value, "value"));
      default: return Step::kUnknown;
    }
  });
}

bool Decoder::decodeShardedDim(std::string_view bytes, ShardedDim& dim) {
  return readFields(bytes, dim.unknown, [&](Reader& r, uint32_t field, WireType wt) {
    switch (field) {
      case 1: return step(readInt64(r, wt, dim.axis, "axis"));
      case 2:
        return item(r, wt, "simple_sharding", dim.simple_sharding,
                    &Decoder::decodeSimpleShardedDim);
      default: return Step::kUnknown;
    }
  });
}

bool Decoder::decodeSimpleShardedDim(std::string_view bytes, SimpleShardedDim& dim) {
  return readFields(bytes, dim.unknown, [&](Reader& r, uint32_t field, WireType wt) {
    switch (field) {
      case 1: dim.dim_param.reset(); return step(readInt64(r, wt, dim.dim_value, "dim_value"));
      case 2:
        dim.dim_value.reset();
        return step(readString(r, wt, dim.dim_param, "dim_param", false));
      case 3: return step(readInt64(r, wt, dim.num_shards, "num_shards"));
      default: return Step::kUnknown;
    }
  });
}

}  // namespace onyx::serde
