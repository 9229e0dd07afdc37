#include "onyx/passes/set_dims.h"

#include <algorithm>
#include <charconv>
#include <map>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "core/place_path.h"
#include "infer/merge.h"
#include "ir/graph_place.h"
#include "onyx/core/array.h"
#include "onyx/core/quote.h"
#include "onyx/infer/infer.h"
#include "onyx/ir/clone.h"
#include "onyx/ir/editor.h"
#include "onyx/ir/opset_imports.h"
#include "onyx/ir/patch.h"
#include "onyx/ir/unique_names.h"
#include "ops/type_conversion.h"

namespace onyx {

namespace {

// A dimension of an input declared by a number, traced through the constants.
struct Traced {
  Value* input;
  size_t axis;
  int64_t old_value;
  std::string symbol;  // the fresh symbol it holds while traced
  const DimSetting* setting;
  bool first = true;  // the first traced dimension of its symbol
};

// Rounds of inference and rewriting at most: each round's rewrites show the dimension to the
// shapes after them (a chain of Reshapes takes one round each).
constexpr size_t kMaxRounds = 16;

// What one element of a rewritten shape becomes.
struct Element {
  // kKept: read from the shape as it was, at run time (an element computed from other
  // dimensions); kNumber: a constant; kRuntime: the traced dimension, read from its input.
  enum Kind : uint8_t { kKept, kNumber, kRuntime } kind = kKept;
  int64_t number = 0;
  const Traced* traced = nullptr;  // the dimension it stands for (kRuntime, or its 0 or 1)
};

struct Rewrite {
  Node* node;
  size_t shape_input;
  Value* original;  // the shape as the exporter wrote it
  std::vector<Element> elements;
};

// An operator whose shape input exporters bake: which it is, its shape input, and the data
// whose dimensions the shape sizes (SIZE_MAX: none).
struct ShapeReader {
  enum Kind : uint8_t { kReshape, kExpand, kConstantOfShape } kind;
  size_t shape_input;
  size_t data_input;

  // Where the data's axis 0 stands in a shape of `rank` elements: Expand aligns the data with
  // its shape from the right, Reshape reads positions as they are.
  size_t dataOffset(size_t rank, const Dims& data_dims) const {
    return kind == kExpand && rank > data_dims.size() ? rank - data_dims.size() : 0;
  }
};
std::optional<ShapeReader> shapeReaderOf(const Node& node) {
  if (isStandardOperator(node, "Reshape")) return ShapeReader{ShapeReader::kReshape, 1, 0};
  if (isStandardOperator(node, "Expand")) return ShapeReader{ShapeReader::kExpand, 1, 0};
  if (isStandardOperator(node, "ConstantOfShape")) {
    return ShapeReader{ShapeReader::kConstantOfShape, 0, SIZE_MAX};
  }
  return std::nullopt;
}

std::string nodeLabel(const Node& node) {
  return node.nameOrEmpty().empty() ? std::string(node.opType()) : std::string(node.nameOrEmpty());
}

class DimSetter {
 public:
  DimSetter(Model& model, std::span<const DimSetting> settings)
      : model_(model), graph_(*model.graph), edit_(model), settings_(settings) {}

  Result<SetDimsReport> run() {
    ONYX_RETURN_IF_ERROR(resolve());
    ONYX_RETURN_IF_ERROR(setDeclarationsAside());
    if (!traced_.empty()) {
      Patch patch(model_, graph_);
      for (const Traced& traced : traced_) {
        redeclare(patch, traced.input, traced.axis, [&](Dimension& dim) {
          dim.dim_value.reset();
          dim.dim_param = edit_.arena().copy(traced.symbol);
        });
      }
      ONYX_RETURN_IF_ERROR(patch.apply());
      // A Reshape whose shape held the number hides the symbol from what follows it until it
      // is rewritten: rounds until one finds nothing more.
      for (size_t round = 0; round < kMaxRounds; ++round) {
        ONYX_RETURN_IF_ERROR(findRewrites());
        if (rewrites_.empty()) break;
        ONYX_RETURN_IF_ERROR(applyRewrites());
      }
      ONYX_RETURN_IF_ERROR(fixNumbers());
    }
    ONYX_RETURN_IF_ERROR(declareNewDims());
    ONYX_RETURN_IF_ERROR(followInference());
    return std::move(report_);
  }

 private:
  Status resolve() {
    std::vector<std::string> missing;
    for (const DimSetting& setting : settings_) {
      if (setting.input.empty()) {
        if (!declaresSymbol(setting.symbol)) missing.push_back("symbol " + quoted(setting.symbol));
        renamed_symbols_[setting.symbol] = &setting;
        continue;
      }
      Value* input = graph_.names().find(setting.input);
      if (input == nullptr || !input->isGraphInput() || input->isInitializer()) {
        missing.push_back("input " + quoted(setting.input));
        continue;
      }
      const TensorShape* shape = input->shape();
      int64_t rank = shape != nullptr ? static_cast<int64_t>(shape->rank()) : 0;
      int64_t axis = setting.axis < 0 ? setting.axis + rank : setting.axis;
      if (shape == nullptr || axis < 0 || axis >= rank) {
        return Status(ErrorCode::kInvalidArgument,
                      "input " + quoted(setting.input) + " has no axis " +
                          std::to_string(setting.axis) +
                          (shape == nullptr ? " (its rank is not declared)"
                                            : " (its rank is " + std::to_string(rank) + ")"));
      }
      const Dimension& dim = shape->dims[static_cast<size_t>(axis)];
      if (dim.isSymbolic()) {
        renamed_symbols_[std::string(*dim.dim_param)] = &setting;
      } else if (dim.isKnown()) {
        // Inputs whose dimensions held one number and take one new value carry one dimension
        // (the batch of input_ids, attention_mask and the cache): one symbol, so that
        // inference sees them meet.
        std::string key =
            std::to_string(*dim.dim_value) + "->" +
            (setting.to_value ? std::to_string(*setting.to_value) : "symbol " + setting.to_symbol);
        auto [symbol, fresh] = traced_symbols_.try_emplace(
            key, "onyx_traced_" + std::to_string(traced_symbols_.size()));
        traced_.push_back(
            {input, static_cast<size_t>(axis), *dim.dim_value, symbol->second, &setting, fresh});
      } else {
        unknown_.push_back({input, static_cast<size_t>(axis), 0, {}, &setting});
      }
    }
    if (missing.empty()) return Status::ok();
    std::string message = "the model declares no ";
    for (size_t i = 0; i < missing.size(); ++i) message += (i > 0 ? ", no " : "") + missing[i];
    return Status(ErrorCode::kNotFound, message);
  }

  bool declaresSymbol(std::string_view symbol) const {
    for (const ValueInfo* input : graph_.inputs) {
      const TensorShape* shape = input->value != nullptr ? input->value->shape() : nullptr;
      if (shape == nullptr) continue;
      for (const Dimension& dim : shape->dims) {
        if (dim.dim_param && *dim.dim_param == symbol) return true;
      }
    }
    return false;
  }

  // The input's declared dimension `axis` (a copy of its type, so that a type shared with
  // other declarations stays as it was), set by `set`.
  template <class Set>
  void redeclare(Patch& patch, Value* input, size_t axis, Set&& set) {
    Type* type = edit_.cloneType(*input->type());
    set(type->shape->dims[axis]);
    patch.declareType(input, type);
  }

  static InferOptions traceOptions() {
    InferOptions options;
    options.keep_values = true;
    options.trust_value_info = false;
    options.write_back = false;
    return options;
  }

  // With each traced dimension a fresh symbol, inference tells which shapes hold its number
  // where the symbol belongs.
  Status findRewrites() {
    rewrites_.clear();
    InferResult result = inferModel(model_, traceOptions());
    size_t index = 0;
    for (Node* node = graph_.firstNode(); node != nullptr; node = node->next(), ++index) {
      std::optional<ShapeReader> reader = shapeReaderOf(*node);
      if (!reader || reader->shape_input >= node->inputCount() || rewritten_.contains(node)) {
        continue;
      }
      const Value* shape = node->input(reader->shape_input);
      auto known = shape != nullptr ? result.values.find(shape) : result.values.end();
      if (known == result.values.end() || !known->second.data) continue;
      const Dims& elements = *known->second.data;
      const Dims* data_dims = nullptr;
      if (reader->data_input < node->inputCount() && node->input(reader->data_input) != nullptr) {
        auto data = result.values.find(node->input(reader->data_input));
        if (data != result.values.end() && data->second.type.has_shape) {
          data_dims = &data->second.type.dims;
        }
      }
      Rewrite rewrite{node, reader->shape_input, node->input(reader->shape_input),
                      std::vector<Element>(elements.size())};
      bool changed = false;
      for (const Traced& traced : traced_) {
        if (!traced.first) continue;  // its symbol's first dimension finds them all
        DimValue symbol = result.dims.symbol(traced.symbol);
        Result<std::vector<size_t>> positions =
            tracedPositions(*node, *reader, elements, data_dims, symbol, traced, index);
        if (!positions) return positions.status();
        for (size_t p : *positions) {
          rewrite.elements[p] =
              replacement(*node, *reader, elements.size(), data_dims, symbol, traced, p);
          changed = true;
        }
      }
      if (!changed) continue;
      for (size_t p = 0; p < elements.size(); ++p) {
        if (rewrite.elements[p].kind == Element::kKept && elements[p].isKnown()) {
          rewrite.elements[p] = {Element::kNumber, elements[p].value(), nullptr};
        }
      }
      if (std::any_of(rewrite.elements.begin(), rewrite.elements.end(),
                      [](const Element& e) { return e.kind == Element::kKept; }) &&
          model_.opsetVersion("").value_or(0) < 10) {
        return Status(ErrorCode::kInvalidArgument,
                      "cannot rewrite the shape " + describeNode(*node, index) +
                          " reads: it holds the traced dimension beside elements computed at "
                          "run time, which a Slice before opset 10 cannot take apart");
      }
      rewritten_.insert(node);
      rewrites_.push_back(std::move(rewrite));
    }
    return Status::ok();
  }

  // Where `node`'s shape holds the traced dimension's old number in its place: at the position
  // of the symbol in the data (Reshape, Expand), else at the input's own axis (an Expand of data
  // without the symbol, ConstantOfShape).
  Result<std::vector<size_t>> tracedPositions(const Node& node, const ShapeReader& reader,
                                              const Dims& elements, const Dims* data_dims,
                                              DimValue symbol, const Traced& traced,
                                              size_t index) const {
    std::vector<size_t> holding;
    for (size_t p = 0; p < elements.size(); ++p) {
      if (elements[p].is(traced.old_value)) holding.push_back(p);
    }
    if (holding.empty()) return holding;
    std::optional<size_t> in_data;  // the symbol's position in the data, as the shape counts
    if (data_dims != nullptr) {
      size_t offset = reader.dataOffset(elements.size(), *data_dims);
      for (size_t a = 0; a < data_dims->size(); ++a) {
        if ((*data_dims)[a] == symbol) in_data = a + offset;
      }
    }
    auto at = [&](size_t p) { return std::vector<size_t>(1, p); };
    if (in_data && std::find(holding.begin(), holding.end(), *in_data) != holding.end()) {
      return at(*in_data);
    }
    if (reader.kind == ShapeReader::kReshape) {
      // The data has the dimension, the shape not in its place. Unless a -1 or a 0 can take
      // it, the shape fixes a size the new dimension changes.
      bool absorbs = std::any_of(elements.begin(), elements.end(),
                                 [](DimValue e) { return e.is(-1) || e.is(0); });
      if (!in_data || absorbs) return std::vector<size_t>();
      return Status(ErrorCode::kInvalidArgument,
                    "cannot trace dimension " + std::to_string(traced.axis) + " of input " +
                        quoted(traced.input->name()) + " through the shape " +
                        describeNode(node, index) + " reads: it holds " +
                        std::to_string(traced.old_value) + " elsewhere than in its place " +
                        std::to_string(*in_data) + ", and no -1 or 0 to take it");
    }
    if (std::find(holding.begin(), holding.end(), traced.axis) != holding.end() && !in_data) {
      return at(traced.axis);
    }
    return std::vector<size_t>();
  }

  Element replacement(const Node& node, const ShapeReader& reader, size_t rank,
                      const Dims* data_dims, DimValue symbol, const Traced& traced,
                      size_t p) const {
    // While tracing, the dimension stays a symbol (so that inference carries it on): 0 or 1
    // where the data has it in place, else read at run time. fixNumbers() then writes the
    // numbers asked for.
    if (data_dims != nullptr) {
      size_t offset = reader.dataOffset(rank, *data_dims);
      bool in_place =
          p >= offset && p - offset < data_dims->size() && (*data_dims)[p - offset] == symbol;
      if (in_place && reader.kind == ShapeReader::kReshape &&
          node.intAttr("allowzero").value_or(0) == 0) {
        return {Element::kNumber, 0, &traced};
      }
      if (in_place && reader.kind == ShapeReader::kExpand) return {Element::kNumber, 1, &traced};
    }
    return {Element::kRuntime, 0, &traced};
  }

  Status applyRewrites() {
    Patch patch(model_, graph_);
    for (const Rewrite& rewrite : rewrites_) {
      replaced_shapes_.push_back(rewrite.original);
      patch.setInput(rewrite.node, rewrite.shape_input, buildShape(patch, rewrite, false));
      report_.rewritten.push_back(nodeLabel(*rewrite.node));
      all_rewrites_.push_back(rewrite);
    }
    return patch.apply();
  }

  // The shape `rewrite` gives its node, made by nodes `patch` adds before it: constants, the
  // exporter's own elements sliced from the original shape, and the traced dimensions. While
  // tracing (`final` false) those are read from their inputs at run time, so that inference
  // carries their symbols on; at the end, a dimension set to a number is that number.
  Value* buildShape(Patch& patch, const Rewrite& rewrite, bool final) {
    GraphEditor& edit = edit_;
    std::vector<Value*> pieces;
    std::vector<int64_t> run;
    auto constant = [&](const std::vector<int64_t>& numbers) {
      Value* value = patch.addInitializer(int64Tensor(numbers));
      created_initializers_.push_back(value);
      return value;
    };
    auto close_run = [&] {
      if (!run.empty()) pieces.push_back(constant(run));
      run.clear();
    };
    const std::vector<Element>& elements = rewrite.elements;
    for (size_t p = 0; p < elements.size(); ++p) {
      const Element& element = elements[p];
      if (final && element.traced != nullptr && element.traced->setting->to_value) {
        run.push_back(*element.traced->setting->to_value);
        continue;
      }
      if (element.kind == Element::kNumber) {
        run.push_back(element.number);
        continue;
      }
      close_run();
      if (element.kind == Element::kKept) {
        size_t end = p + 1;
        while (end < elements.size() && elements[end].kind == Element::kKept) ++end;
        std::vector<Value*> reads{rewrite.original, constant({static_cast<int64_t>(p)}),
                                  constant({static_cast<int64_t>(end)}), constant({int64_t{0}})};
        Node* slice = patch.addNode("Slice", reads, 1, rewrite.node);
        created_nodes_.push_back(slice);
        pieces.push_back(slice->output(0));
        p = end - 1;
        continue;
      }
      pieces.push_back(runtimeDim(patch, element.traced));
    }
    close_run();
    if (pieces.size() == 1) return pieces.front();
    Node* concat = patch.addNode("Concat", pieces, 1, rewrite.node);
    edit.setIntAttr(concat, "axis", 0);
    created_nodes_.push_back(concat);
    return concat->output(0);
  }

  // Gather(Shape(input), [axis]): the traced dimension at run time, made once.
  Value* runtimeDim(Patch& patch, const Traced* traced) {
    Value*& dim = runtime_dims_[traced];
    if (dim != nullptr && dim->isAttached()) return dim;
    Node* shape = patch.addNode("Shape", {traced->input}, 1, graph_.firstNode());
    Value* index = patch.addInitializer(int64Tensor({static_cast<int64_t>(traced->axis)}));
    Node* gather = patch.addNode("Gather", {shape->output(0), index}, 1, graph_.firstNode());
    edit_.setIntAttr(gather, "axis", 0);
    created_nodes_.insert(created_nodes_.end(), {shape, gather});
    created_initializers_.push_back(index);
    dim = gather->output(0);
    return dim;
  }

  // The shapes of traced dimensions set to numbers take them as constants; what was made to
  // carry the symbols while tracing, and the exporter's shapes, go once nothing reads them.
  Status fixNumbers() {
    bool numbers = std::any_of(traced_.begin(), traced_.end(),
                               [](const Traced& t) { return t.setting->to_value.has_value(); });
    if (numbers) {
      Patch patch(model_, graph_);
      for (const Rewrite& rewrite : all_rewrites_) {
        patch.setInput(rewrite.node, rewrite.shape_input, buildShape(patch, rewrite, true));
      }
      ONYX_RETURN_IF_ERROR(patch.apply());
    }
    // What was made to carry the symbols and nothing reads now, latest first (a Concat
    // before the Gather it reads, a Gather before its Shape); then the shapes replaced.
    Patch patch(model_, graph_);
    Removal removal;
    for (size_t i = created_nodes_.size(); i-- > 0;) {
      Node* node = created_nodes_[i];
      if (node->graph() == nullptr || !unread(node->output(0), removal)) continue;
      patch.removeNode(node);
      removal.nodes.insert(node);
    }
    for (Value* initializer : created_initializers_) {
      if (initializer->isAttached() && unread(initializer, removal)) {
        patch.removeInitializer(initializer);
        removal.initializers.insert(initializer);
      }
    }
    removeUnread(patch, removal, replaced_shapes_);
    return patch.apply();
  }

  // What a patch removes, as it is recorded.
  struct Removal {
    std::unordered_set<const Node*> nodes;
    std::unordered_set<const Value*> initializers;
  };

  // Whether nothing reads `value` once `removal` is made: each of its uses a node it removes.
  static bool unread(const Value* value, const Removal& removal) {
    for (const Use& use : value->uses()) {
      if (use.user() == nullptr || removal.nodes.count(use.user()) == 0) return false;
    }
    return true;
  }

  // The shapes replaced, and what computed them, when nothing else reads them: constants,
  // initializers (not inputs) and the nodes of the exporter's folded shape arithmetic.
  void removeUnread(Patch& patch, Removal& removal, std::vector<Value*> work) {
    while (!work.empty()) {
      Value* value = work.back();
      work.pop_back();
      if (!value->isAttached() || !unread(value, removal) || value->isGraphInput() ||
          value->isGraphOutputOfItsGraph() || value->graph() != &graph_) {
        continue;
      }
      if (value->isInitializer()) {
        if (removal.initializers.insert(value).second) patch.removeInitializer(value);
        continue;
      }
      Node* producer = value->producer();
      if (producer == nullptr || !isDefaultDomain(*producer) || producer->holdsGraphs() ||
          removal.nodes.count(producer) != 0) {
        continue;
      }
      bool all_unread = true;
      for (const Value* output : producer->outputs()) {
        all_unread = all_unread && (output == nullptr || unread(output, removal));
      }
      if (!all_unread) continue;
      patch.removeNode(producer);
      removal.nodes.insert(producer);
      for (size_t i = 0; i < producer->inputCount(); ++i) {
        if (Value* input = producer->input(i)) work.push_back(input);
      }
    }
  }

  Tensor* int64Tensor(const std::vector<int64_t>& elements) const {
    Array array(ElementType::kInt64, {static_cast<int64_t>(elements.size())});
    std::copy(elements.begin(), elements.end(), array.data<int64_t>());
    return edit_.tensorFromArray(array);
  }

  // The inputs' declarations take the new sizes and symbols; declarations naming a symbol that
  // changes follow.
  Status declareNewDims() {
    auto set = [](Dimension& dim, const DimSetting& setting, Arena& arena) {
      if (setting.to_value) {
        dim.dim_param.reset();
        dim.dim_value = *setting.to_value;
      } else {
        dim.dim_value.reset();
        dim.dim_param = arena.copy(setting.to_symbol);
      }
    };
    Patch inputs(model_, graph_);
    for (const Traced& traced : traced_) {
      redeclare(inputs, traced.input, traced.axis,
                [&](Dimension& dim) { set(dim, *traced.setting, edit_.arena()); });
    }
    for (const Traced& unknown : unknown_) {
      redeclare(inputs, unknown.input, unknown.axis,
                [&](Dimension& dim) { set(dim, *unknown.setting, edit_.arena()); });
    }
    ONYX_RETURN_IF_ERROR(inputs.apply());
    if (renamed_symbols_.empty()) return Status::ok();
    // `type` with the renamed symbols changed (a copy), or itself when it names none.
    auto renamed = [&](Type* type) {
      const TensorShape* shape = type != nullptr && type->isTensor() ? type->shape : nullptr;
      if (shape == nullptr) return type;
      bool names_one = false;
      for (const Dimension& dim : shape->dims) {
        names_one =
            names_one || (dim.dim_param && renamed_symbols_.contains(std::string(*dim.dim_param)));
      }
      if (!names_one) return type;
      Type* copy = edit_.cloneType(*type);
      for (Dimension& dim : copy->shape->dims) {
        if (!dim.dim_param) continue;
        auto found = renamed_symbols_.find(std::string(*dim.dim_param));
        if (found != renamed_symbols_.end()) set(dim, *found->second, edit_.arena());
      }
      return copy;
    };
    // Declared once each: a value may be an output and have a value_info entry too.
    Patch declarations(model_, graph_);
    std::unordered_set<const Value*> followed;
    auto follow = [&](Value* value) {
      if (value == nullptr || value->type() == nullptr || !followed.insert(value).second) return;
      Type* type = const_cast<Type*>(value->type());
      if (Type* changed = renamed(type); changed != type) declarations.declareType(value, changed);
    };
    for (auto& [value, type] : set_aside_) type = renamed(type);
    for (const ValueInfo* input : graph_.inputs) follow(input->value);
    for (const ValueInfo* output : graph_.outputs) follow(output->bound());
    for (const ValueInfo* info : graph_.value_info) {
      if (!info->isRemoved()) follow(info->value);
    }
    return declarations.apply();
  }

  // The types declared for the outputs (and value_info) are set aside while the dimensions
  // are traced and checked: inference merges them with what it finds, and an output declared
  // with the old number would hide the symbol from what reads it.
  Status setDeclarationsAside() {
    auto hold = [&](Value* value) {
      if (value == nullptr || value->type() == nullptr || value->producer() == nullptr) return;
      set_aside_.emplace_back(value, const_cast<Type*>(value->type()));
    };
    for (const ValueInfo* output : graph_.outputs) hold(output->bound());
    for (const ValueInfo* info : graph_.value_info) {
      if (!info->isRemoved()) hold(info->value);
    }
    Patch patch(model_, graph_);
    for (auto& [value, type] : set_aside_) patch.declareType(value, nullptr);
    return patch.apply();
  }

  // The declarations set aside come back, but those inference now contradicts take the
  // inferred types (a number the old batch left in them).
  Status followInference() {
    std::vector<std::pair<Value*, Type*>>& declared = set_aside_;
    InferResult result = inferModel(model_, traceOptions());
    for (const Diagnostic& diagnostic : result.diagnostics.all()) {
      if (diagnostic.severity != Severity::kError || diagnostic.rule != "X5") continue;
      return Status(ErrorCode::kInvalidArgument,
                    "the new dimensions do not fit " + diagnostic.path + ": " + diagnostic.message);
    }
    struct Context {
      InferResult* result;
      GraphEditor* edit;
    } context{&result, &edit_};
    auto text = [](void* self, DimValue dim) -> std::string_view {
      Context& c = *static_cast<Context*>(self);
      if (c.result->dims.isAnonymous(dim)) return {};
      return c.edit->arena().copy(c.result->dims.text(dim));
    };
    Patch restored(model_, graph_);
    for (auto& [value, type] : declared) {
      if (!value->isAttached()) continue;  // removed with the exporter's shape arithmetic
      Type* kept = type;
      auto found = result.values.find(value);
      if (found != result.values.end()) {
        SymbolicDims& dims = result.dims;
        infer::Merged merged =
            infer::mergeTypes(ops::fromDeclared(*type, dims), found->second.type, dims);
        // A number declared where inference now finds a named size (the new symbol, or an
        // expression of it) is the old number left behind too.
        bool stale = !merged.conflict.empty();
        const InferredType& now = found->second.type;
        if (!stale && type->shape != nullptr && now.has_shape &&
            now.dims.size() == type->shape->rank()) {
          for (size_t d = 0; d < now.dims.size(); ++d) {
            stale = stale || (type->shape->dims[d].isKnown() && now.dims[d].isSymbolic() &&
                              !dims.isAnonymous(now.dims[d]));
          }
        }
        Type* inferred = stale ? ops::toDeclared(now, edit_, text, &context) : nullptr;
        if (inferred != nullptr) {
          kept = inferred;
          ++report_.declarations_changed;
        }
      }
      restored.declareType(value, kept);
    }
    return restored.apply();
  }

  Model& model_;
  Graph& graph_;
  GraphEditor edit_;
  std::span<const DimSetting> settings_;
  std::vector<Traced> traced_;
  std::vector<Traced> unknown_;  // dimensions declared neither by number nor by symbol
  std::map<std::string, const DimSetting*> renamed_symbols_;
  std::map<std::string, std::string> traced_symbols_;  // "2->1", "2->symbol batch": its symbol
  std::vector<Rewrite> rewrites_;                      // found by the last round
  std::unordered_set<const Node*> rewritten_;
  std::vector<Rewrite> all_rewrites_;
  std::unordered_map<const Traced*, Value*> runtime_dims_;
  std::vector<Node*> created_nodes_;
  std::vector<Value*> created_initializers_;
  std::vector<Value*> replaced_shapes_;
  std::vector<std::pair<Value*, Type*>> set_aside_;
  SetDimsReport report_;
};

}  // namespace

Result<DimSetting> parseDimSetting(std::string_view text) {
  DimSetting setting;
  size_t equals = text.rfind('=');
  if (equals == std::string_view::npos || equals == 0 || equals + 1 == text.size()) {
    return Status(ErrorCode::kInvalidArgument,
                  "a dimension setting is NAME=VALUE or INPUT:AXIS=VALUE (VALUE a number or a "
                  "symbol), not \"" +
                      std::string(text) + "\"");
  }
  std::string_view target = text.substr(0, equals);
  std::string_view value = text.substr(equals + 1);
  size_t colon = target.rfind(':');
  int64_t axis = 0;
  if (colon != std::string_view::npos && colon + 1 < target.size()) {
    std::string_view digits = target.substr(colon + 1);
    auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), axis);
    if (error == std::errc() && end == digits.data() + digits.size()) {
      setting.input = std::string(target.substr(0, colon));
      setting.axis = axis;
    }
  }
  if (setting.input.empty()) setting.symbol = std::string(target);
  int64_t number = 0;
  auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), number);
  if (error == std::errc() && end == value.data() + value.size()) {
    if (number < 0) {
      return Status(ErrorCode::kInvalidArgument,
                    "a dimension's size cannot be negative: \"" + std::string(text) + "\"");
    }
    setting.to_value = number;
  } else {
    setting.to_symbol = std::string(value);
  }
  return setting;
}

Result<SetDimsReport> setDims(Model& model, std::span<const DimSetting> settings) {
  if (model.graph == nullptr) return Status(ErrorCode::kInvalidArgument, "the model has no graph");
  Model work = cloneModel(model);
  Result<SetDimsReport> report = DimSetter(work, settings).run();
  if (report) model = std::move(work);
  return report;
}

}  // namespace onyx
