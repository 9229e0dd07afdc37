#include "onyx/ir/clone.h"
#include "onyx/ir/editor.h"

#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>
#include "core/development_checks.h"

#include "ir/graph_builder.h"
#include "ir/scope.h"
#include "onyx/core/quote.h"
#include "onyx/ir/tensor_data.h"
#include "onyx/ir/unique_names.h"

namespace onyx {

namespace {

using B = ir_internal::GraphBuilder;
using ir_internal::NameTableWriter;

class Cloner {
 public:
  explicit Cloner(Arena& arena) : arena_(arena) {}

  // ---- leaves (no values inside) ---------------------------------------------------------

  template <class T>
  ArenaList<T> list(const ArenaList<T>& source) {
    return source.copy(arena_);
  }
  template <class T>
  Repeated<T> repeated(const Repeated<T>& source) {
    Repeated<T> copy;
    copy.values = list(source.values);
    copy.packed = source.packed;
    return copy;
  }
  ArenaList<StringStringEntry> entries(const ArenaList<StringStringEntry>& source) {
    ArenaList<StringStringEntry> copy = list(source);
    for (StringStringEntry& entry : copy) entry.unknown = list(entry.unknown);
    return copy;
  }
  ArenaList<OperatorSetId> opsets(const ArenaList<OperatorSetId>& source) {
    ArenaList<OperatorSetId> copy = list(source);
    for (OperatorSetId& opset : copy) opset.unknown = list(opset.unknown);
    return copy;
  }
  // A list of pointers whose targets are copied by `fn`.
  template <class T, class Fn>
  ArenaList<T*> each(const ArenaList<T*>& source, Fn&& fn) {
    return each(std::span<T* const>(source.data(), source.size()), fn);
  }
  template <class T, class Fn>
  ArenaList<T*> each(std::span<T* const> source, Fn&& fn) {
    ArenaList<T*> copy;
    copy.reserve(arena_, source.size());
    for (const T* item : source) copy.push_back(arena_, item != nullptr ? fn(*item) : nullptr);
    return copy;
  }

  Type* type(const Type& source) {
    Type* copy = arena_.make<Type>(source);
    if (source.shape != nullptr) {
      copy->shape = arena_.make<TensorShape>();
      copy->shape->dims = list(source.shape->dims);
      for (Dimension& dim : copy->shape->dims) dim.unknown = list(dim.unknown);
      copy->shape->unknown = list(source.shape->unknown);
    }
    if (source.elem != nullptr) copy->elem = type(*source.elem);
    copy->unknown = list(source.unknown);
    copy->member_unknown = list(source.member_unknown);
    return copy;
  }

  Tensor* tensor(const Tensor& source) {
    Tensor* copy = arena_.make<Tensor>(source);
    copy->dims = repeated(source.dims);
    if (source.rare_fields != nullptr) {
      const TensorRareFields& more = *source.rare_fields;
      copy->rare_fields = arena_.make<TensorRareFields>(more);
      TensorRareFields& out = *copy->rare_fields;
      if (more.segment != nullptr) {
        out.segment = arena_.make<TensorSegment>(*more.segment);
        out.segment->unknown = list(more.segment->unknown);
      }
      // The payloads are shared views; the clone has no spare room after them to grow into.
      for (PackedData* data : {&out.float_data, &out.int32_data, &out.int64_data, &out.double_data,
                               &out.uint64_data}) {
        data->arena_capacity = 0;
      }
      out.string_data = list(more.string_data);
      out.external_data = entries(more.external_data);
      out.metadata_props = entries(more.metadata_props);
      out.unknown = list(more.unknown);
    }
    return copy;
  }

  SparseTensor* sparse(const SparseTensor& source) {
    SparseTensor* copy = arena_.make<SparseTensor>();
    if (source.values != nullptr) copy->values = tensor(*source.values);
    if (source.indices != nullptr) copy->indices = tensor(*source.indices);
    copy->dims = repeated(source.dims);
    copy->unknown = list(source.unknown);
    return copy;
  }

  NodeDeviceConfiguration* deviceConfiguration(const NodeDeviceConfiguration& source) {
    auto* copy = arena_.make<NodeDeviceConfiguration>(source);
    copy->sharding_spec = each(source.sharding_spec, [&](const ShardingSpec& spec) {
      auto* spec_copy = arena_.make<ShardingSpec>(spec);
      spec_copy->device = repeated(spec.device);
      spec_copy->index_to_device_group_map =
          each(spec.index_to_device_group_map, [&](const IntIntListEntry& entry) {
            auto* entry_copy = arena_.make<IntIntListEntry>(entry);
            entry_copy->value = repeated(entry.value);
            entry_copy->unknown = list(entry.unknown);
            return entry_copy;
          });
      spec_copy->sharded_dim = each(spec.sharded_dim, [&](const ShardedDim& dim) {
        auto* dim_copy = arena_.make<ShardedDim>(dim);
        dim_copy->simple_sharding = each(dim.simple_sharding, [&](const SimpleShardedDim& s) {
          auto* simple = arena_.make<SimpleShardedDim>(s);
          simple->unknown = list(s.unknown);
          return simple;
        });
        dim_copy->unknown = list(dim.unknown);
        return dim_copy;
      });
      spec_copy->unknown = list(spec.unknown);
      return spec_copy;
    });
    copy->unknown = list(source.unknown);
    return copy;
  }

  DeviceConfiguration* modelConfiguration(const DeviceConfiguration& source) {
    auto* copy = arena_.make<DeviceConfiguration>(source);
    copy->device = list(source.device);
    copy->unknown = list(source.unknown);
    return copy;
  }

  // ---- graphs, with their values ---------------------------------------------------------

  /// A graph that is the root of what is being cloned (its outside reads resolve through
  /// `parent`).
  Graph* graphTree(const Graph& source, Graph* parent, Node* owner) {
    Graph* saved = root_;
    root_ = nullptr;
    Graph* copy = graph(source, parent, owner);
    root_ = saved;
    return copy;
  }

  Value* value(const Value* source) {
    if (source == nullptr) return nullptr;
    auto found = values_.find(source);
    if (found != values_.end()) return found->second;
    // Defined outside what is cloned: the same name in the clone's enclosing scopes, or
    // an undefined read of the clone's root. (Roots with no parent read nothing outside.)
    ONYX_ASSERT(root_ != nullptr);
    Value* outer = root_->parent() != nullptr ? root_->parent()->lookup(source->name()) : nullptr;
    if (outer == nullptr) outer = root_->names().find(source->name());
    if (outer == nullptr) outer = ir_internal::defineValue(arena_, *root_, source->name());
    values_.emplace(source, outer);
    return outer;
  }

  Attribute* attribute(const Attribute& source, Graph* scope, Node* owner) {
    Attribute* copy = arena_.make<Attribute>(source);
    if (source.t != nullptr) copy->t = tensor(*source.t);
    if (source.g != nullptr) copy->g = subgraph(*source.g, scope, owner);
    copy->floats = repeated(source.floats);
    copy->ints = repeated(source.ints);
    if (source.rare_fields != nullptr) {
      const AttributeRareFields& more = *source.rare_fields;
      copy->rare_fields = arena_.make<AttributeRareFields>(more);
      AttributeRareFields& out = *copy->rare_fields;
      out.strings = list(more.strings);
      out.tensors = each(more.tensors, [&](const Tensor& t) { return tensor(t); });
      out.graphs = each(more.graphs, [&](const Graph& g) { return subgraph(g, scope, owner); });
      out.sparse_tensors =
          each(more.sparse_tensors, [&](const SparseTensor& s) { return sparse(s); });
      out.type_protos = each(more.type_protos, [&](const Type& t) { return type(t); });
      if (more.tp != nullptr) out.tp = type(*more.tp);
      if (more.sparse_tensor != nullptr) out.sparse_tensor = sparse(*more.sparse_tensor);
      out.unknown = list(more.unknown);
    }
    return copy;
  }

  ValueInfo* valueInfo(const ValueInfo& source) {
    ValueInfo* copy = arena_.make<ValueInfo>();
    copy->name = source.name;
    if (source.type != nullptr) copy->type = type(*source.type);
    copy->doc_string = source.doc_string;
    copy->metadata_props = entries(source.metadata_props);
    copy->unknown = list(source.unknown);
    infos_.emplace(&source, copy);
    return copy;
  }

  Function* function(const Function& source) {
    Function* copy = arena_.make<Function>();
    copy->name = source.name;
    copy->attribute = list(source.attribute);
    copy->attribute_proto = each(source.attribute_proto, [&](const Attribute& a) {
      // Defaults are no graph's attributes: their graphs are roots.
      Attribute* default_copy = attribute(a, nullptr, nullptr);
      return default_copy;
    });
    if (source.body != nullptr) copy->body = graphTree(*source.body, nullptr, nullptr);
    copy->inputs = each(source.inputs, [&](const Value& v) { return value(&v); });
    copy->outputs = each(source.outputs, [&](const Use& use) {
      Use* output = arena_.make<Use>();
      output->set(value(use.value()));
      return output;
    });
    copy->doc_string = source.doc_string;
    copy->opset_import = opsets(source.opset_import);
    copy->domain = source.domain;
    copy->overload = source.overload;
    copy->metadata_props = entries(source.metadata_props);
    copy->unknown = list(source.unknown);
    return copy;
  }

  /// `source`'s contents appended to `into` (GraphEditor::graftGraph); `shared` holds the
  /// graph inputs of `source` that read `into`'s values of the same name.
  void graft(const Graph& source, Graph& into, const std::unordered_set<const Value*>& shared) {
    root_ = &into;
    for (const Value* v : source.values()) {
      if (v->graph() != &source) continue;
      if (shared.contains(v)) {
        values_.emplace(v, into.names().find(v->name()));
        continue;
      }
      Value* clone = arena_.make<Value>();
      B::name(clone) = v->name();
      B::graph(clone) = &into;
      B::values(&into).push_back(arena_, clone);
      NameTableWriter::findOrAdd(B::names(&into), arena_, clone->name(), [&] { return clone; });
      values_.emplace(v, clone);
    }
    for (const Node* node = source.firstNode(); node != nullptr; node = node->next()) {
      into.appendNode(this->node(*node, &into));
    }
    auto copied = [&](std::string_view tensor_name) {
      const Value* v = source.names().find(tensor_name);
      return v == nullptr || !shared.contains(v);
    };
    for (const Tensor* t : source.initializers) {
      if (!copied(t->nameOrEmpty())) continue;
      Tensor* clone = tensor(*t);
      tensors_.emplace(t, clone);
      into.initializers.push_back(arena_, clone);
    }
    for (const SparseTensor* s : source.sparse_initializers) {
      if (s->values != nullptr && !copied(s->values->nameOrEmpty())) continue;
      SparseTensor* clone = sparse(*s);
      sparse_tensors_.emplace(s, clone);
      into.sparse_initializers.push_back(arena_, clone);
    }
    for (const ValueInfo* info : source.inputs) {
      if (shared.contains(info->value)) continue;
      ValueInfo* clone = valueInfo(*info);
      clone->value = value(info->value);
      into.inputs.push_back(arena_, clone);
    }
    for (const ValueInfo* info : source.outputs) {
      ValueInfo* clone = valueInfo(*info);
      clone->output.set(value(info->output.value()));
      into.outputs.push_back(arena_, clone);
    }
    for (const ValueInfo* info : source.value_info) {
      if (info->isRemoved() || shared.contains(info->value)) continue;
      ValueInfo* clone = valueInfo(*info);
      clone->value = value(info->value);
      into.value_info.push_back(arena_, clone);
    }
    bindDeclarations(source, shared);
    for (const TensorAnnotation* source_annotation : source.quantization_annotation) {
      into.quantization_annotation.push_back(arena_, annotation(*source_annotation));
    }
  }

 private:
  Graph* subgraph(const Graph& source, Graph* scope, Node* owner) {
    // A default of a function attribute has no enclosing graph.
    return scope == nullptr ? graphTree(source, nullptr, nullptr) : graph(source, scope, owner);
  }

  Graph* graph(const Graph& source, Graph* parent, Node* owner) {
    Graph* copy = arena_.make<Graph>();
    if (root_ == nullptr) root_ = copy;
    B::parent(copy) = parent;
    B::owner(copy) = owner;
    if (parent != nullptr) B::subgraphs(parent).push_back(arena_, copy);
    copy->name = source.name;
    copy->doc_string = source.doc_string;
    B::nameCounter(copy) = B::nameCounter(const_cast<Graph*>(&source));

    // Values first, so that nested graphs find the values they capture.
    NameTableWriter::reserve(B::names(copy), arena_, source.names().size());
    B::values(copy).reserve(arena_, source.values().size());
    for (const Value* v : source.values()) {
      if (v->graph() != &source) continue;
      Value* clone = arena_.make<Value>();
      B::name(clone) = v->name();
      B::graph(clone) = copy;
      B::functionInput(clone) = v->isFunctionInput();
      B::values(copy).push_back(arena_, clone);
      values_.emplace(v, clone);
    }
    source.names().forEach([&](std::string_view, Value* v) {
      if (v->graph() == &source) NameTableWriter::put(B::names(copy), arena_, values_.at(v));
    });

    for (const Node* node = source.firstNode(); node != nullptr; node = node->next()) {
      copy->appendNode(this->node(*node, copy));
    }

    copy->initializers = each(source.initializers, [&](const Tensor& t) {
      Tensor* clone = tensor(t);
      tensors_.emplace(&t, clone);
      return clone;
    });
    copy->sparse_initializers = each(source.sparse_initializers, [&](const SparseTensor& s) {
      SparseTensor* clone = sparse(s);
      sparse_tensors_.emplace(&s, clone);
      return clone;
    });
    copy->inputs = each(source.inputs, [&](const ValueInfo& info) {
      ValueInfo* clone = valueInfo(info);
      clone->value = value(info.value);
      return clone;
    });
    copy->outputs = each(source.outputs, [&](const ValueInfo& info) {
      ValueInfo* clone = valueInfo(info);
      clone->output.set(value(info.output.value()));
      return clone;
    });
    copy->value_info.reserve(arena_, source.value_info.size());
    for (const ValueInfo* info : source.value_info) {
      if (info->isRemoved()) continue;
      ValueInfo* clone = valueInfo(*info);
      clone->value = value(info->value);
      copy->value_info.push_back(arena_, clone);
    }
    bindDeclarations(source, {});
    copy->quantization_annotation = each(source.quantization_annotation,
                                         [&](const TensorAnnotation& a) { return annotation(a); });
    copy->metadata_props = entries(source.metadata_props);
    copy->unknown = list(source.unknown);
    return copy;
  }

  // What each copied value of `source` (those not `skipped`) is declared by, once the copies
  // of the declarations exist.
  void bindDeclarations(const Graph& source, const std::unordered_set<const Value*>& skipped) {
    for (const Value* v : source.values()) {
      if (v->graph() != &source || skipped.contains(v)) continue;
      Value* clone = values_.at(v);
      if (v->isGraphInput()) B::graphInput(clone) = infos_.at(v->graphInput());
      if (v->valueInfo() != nullptr) B::valueInfo(clone) = infos_.at(v->valueInfo());
      if (v->initializer() != nullptr) B::initializer(clone) = tensors_.at(v->initializer());
      if (v->sparseInitializer() != nullptr) {
        B::sparseInitializer(clone) = sparse_tensors_.at(v->sparseInitializer());
      }
    }
  }

  TensorAnnotation* annotation(const TensorAnnotation& source) {
    auto* clone = arena_.make<TensorAnnotation>();
    clone->tensor_name = source.tensor_name;
    clone->quant_parameter_tensor_names = entries(source.quant_parameter_tensor_names);
    clone->unknown = list(source.unknown);
    return clone;
  }

  Node* node(const Node& source, Graph* scope) {
    Node* copy = arena_.make<Node>();
    B::graph(copy) = scope;
    copy->name = source.name;
    copy->op_type = source.op_type;
    copy->domain = source.domain;
    B::outputs(copy) = each(source.outputs(), [&](const Value& v) {
      Value* clone = value(&v);
      B::producer(clone) = copy;
      B::outputIndex(clone) = v.outputIndex();
      return clone;
    });
    ArenaList<Use>& slots = B::inputs(copy);
    slots.resize(arena_, source.inputCount());
    for (size_t i = 0; i < source.inputCount(); ++i) {
      B::user(&slots[i]) = copy;
      slots[i].set(value(source.input(i)));
    }
    copy->attributes =
        each(source.attributes, [&](const Attribute& a) { return attribute(a, scope, copy); });
    if (source.rare_fields != nullptr) {
      const NodeRareFields& rare = *source.rare_fields;
      NodeRareFields& rare_copy = ir_internal::GraphBuilder::editorOn(arena_).rare(copy);
      rare_copy.doc_string = rare.doc_string;
      rare_copy.overload = rare.overload;
      rare_copy.metadata_props = entries(rare.metadata_props);
      rare_copy.device_configurations =
          each(rare.device_configurations,
               [&](const NodeDeviceConfiguration& config) { return deviceConfiguration(config); });
      rare_copy.unknown = list(rare.unknown);
    }
    return copy;
  }

  Arena& arena_;
  Graph* root_ = nullptr;
  std::unordered_map<const Value*, Value*> values_;
  std::unordered_map<const ValueInfo*, ValueInfo*> infos_;
  std::unordered_map<const Tensor*, Tensor*> tensors_;
  std::unordered_map<const SparseTensor*, SparseTensor*> sparse_tensors_;
};

}  // namespace

Graph* GraphEditor::cloneGraph(const Graph& source, Graph* parent, Node* owner) const {
  return Cloner(*arena_).graphTree(source, parent, owner);
}

namespace {

// Whether two values are initializers (not inputs) holding the same tensor: the same element
// type, dimensions and bytes (two halves of one model both reading a tied embedding).
bool sameConstant(const Value& a, const Value& b) {
  const Tensor* x = a.initializer();
  const Tensor* y = b.initializer();
  if (x == nullptr || y == nullptr || a.isGraphInput() || b.isGraphInput()) return false;
  if (x->data_type != y->data_type || x->dims.values.size() != y->dims.values.size()) return false;
  for (size_t i = 0; i < x->dims.values.size(); ++i) {
    if (x->dims.values[i] != y->dims.values[i]) return false;
  }
  Result<TensorBytes> first = rawBytes(*x);
  Result<TensorBytes> second = rawBytes(*y);
  return first && second && first->bytes() == second->bytes();
}

}  // namespace

Status GraphEditor::graftGraph(Graph& into, const Graph& source) const {
  ONYX_ASSERT(into.parent() == nullptr && source.parent() == nullptr && &into != &source);
  // Checked before anything changes: every name `source`'s graphs define, against `into`'s.
  std::unordered_set<const Value*> shared;
  std::vector<std::string_view> clashes;
  // A name of `source` itself may be defined nowhere in `into` (nor in its nested graphs, which
  // would shadow it); a name of a nested graph only not in `into` itself (graphs side by side
  // may share names).
  auto check = [&](const Graph& graph) {
    for (const Value* v : graph.values()) {
      if (v->graph() != &graph) continue;
      bool taken = &graph == &source ? isNameInScope(into, v->name())
                                     : into.names().find(v->name()) != nullptr;
      if (!taken) continue;
      const Value* theirs = into.names().find(v->name());
      bool reads_theirs = &graph == &source && theirs != nullptr &&
                          ((v->isGraphInput() && !v->isInitializer() && v->producer() == nullptr) ||
                           sameConstant(*v, *theirs));
      if (reads_theirs) {
        shared.insert(v);
      } else {
        clashes.push_back(v->name());
      }
    }
  };
  check(source);
  // Every node at any depth: each nested graph is checked through the node that holds it.
  source.forEachNode([&](const Node* node) {
    for (const Attribute* attribute : node->attributes) {
      if (attribute->g != nullptr) check(*attribute->g);
      for (const Graph* graph : attribute->rare().graphs) check(*graph);
    }
  });
  if (!clashes.empty()) {
    std::string message = "both graphs define ";
    constexpr size_t kListed = 10;
    for (size_t i = 0; i < clashes.size() && i < kListed; ++i) {
      message += (i > 0 ? ", " : "") + quoted(clashes[i]);
    }
    if (clashes.size() > kListed) {
      message += " and " + std::to_string(clashes.size() - kListed) + " more names";
    }
    return Status(ErrorCode::kInvalidArgument, message);
  }
  Cloner(*arena_).graft(source, into, shared);
  return Status::ok();
}

Function* GraphEditor::cloneFunction(const Function& source) const {
  return Cloner(*arena_).function(source);
}

Type* GraphEditor::cloneType(const Type& source) const { return Cloner(*arena_).type(source); }

Tensor* GraphEditor::cloneTensor(const Tensor& source) const {
  return Cloner(*arena_).tensor(source);
}

SparseTensor* GraphEditor::cloneSparseTensor(const SparseTensor& source) const {
  return Cloner(*arena_).sparse(source);
}

Model cloneModel(const Model& source) {
  Model model;
  model.shareBytesOf(source);
  model.setFolder(source.folder());
  Arena& arena = GraphEditor(model).arena();
  Cloner cloner(arena);
  model.ir_version = source.ir_version;
  model.opset_import = cloner.opsets(source.opset_import);
  model.producer_name = source.producer_name;
  model.producer_version = source.producer_version;
  model.domain = source.domain;
  model.model_version = source.model_version;
  model.doc_string = source.doc_string;
  if (source.graph != nullptr) model.graph = cloner.graphTree(*source.graph, nullptr, nullptr);
  model.metadata_props = cloner.entries(source.metadata_props);
  model.training_info = cloner.each(source.training_info, [&](const TrainingInfo& info) {
    auto* copy = arena.make<TrainingInfo>();
    if (info.initialization != nullptr) {
      copy->initialization = cloner.graphTree(*info.initialization, nullptr, nullptr);
    }
    if (info.algorithm != nullptr) {
      copy->algorithm = cloner.graphTree(*info.algorithm, nullptr, nullptr);
    }
    copy->initialization_binding = cloner.entries(info.initialization_binding);
    copy->update_binding = cloner.entries(info.update_binding);
    copy->unknown = cloner.list(info.unknown);
    return copy;
  });
  model.functions =
      cloner.each(source.functions, [&](const Function& f) { return cloner.function(f); });
  model.configuration = cloner.each(source.configuration, [&](const DeviceConfiguration& c) {
    return cloner.modelConfiguration(c);
  });
  model.unknown = cloner.list(source.unknown);
  return model;
}

}  // namespace onyx
