#include "onyx/passes/float16.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <map>
#include <string>
#include <string_view>
#include <tuple>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "onyx/core/array.h"
#include "onyx/core/element_type.h"
#include "onyx/core/mapped_file.h"
#include "onyx/core/quote.h"
#include "onyx/infer/infer.h"
#include "onyx/ir/clone.h"
#include "onyx/ir/editor.h"
#include "onyx/ir/graph_scope.h"
#include "onyx/ir/opset_imports.h"
#include "onyx/ir/patch.h"
#include "onyx/ir/tensor_data.h"
#include "onyx/ops/op_schema.h"
#include "onyx/ops/registry.h"
#include "ops/lib/float_casts.h"
#include "passes/pass_patches.h"

namespace onyx {

namespace {

constexpr int32_t kFloatCode = static_cast<int32_t>(ElementType::kFloat);
constexpr int32_t kHalfCode = static_cast<int32_t>(ElementType::kFloat16);

// What a value is, or what a use of it wants: a float32 or float16 tensor, or neither (left
// as it is: other types, and values whose type nothing knows).
enum class Form : uint8_t { kOther, kFloat, kHalf };

// `floats` brought into float16's range (see the header: saturated, nonzero kept nonzero),
// then converted. On the bits, so that the loop vectorizes: magnitudes of positive floats
// order as their bits do, and infinities and NaN lie above every finite one.
void floatsToHalfRange(std::span<float> floats, uint16_t* halves) {
  constexpr uint32_t kHalfMax = 0x477fe000u;   // 65504, float16's largest finite value
  constexpr uint32_t kHalfTiny = 0x33800000u;  // 2^-24, its smallest subnormal
  constexpr uint32_t kInfinity = 0x7f800000u;
  for (float& value : floats) {
    uint32_t bits = std::bit_cast<uint32_t>(value);
    uint32_t sign = bits & 0x80000000u;
    uint32_t magnitude = bits & 0x7fffffffu;
    magnitude = magnitude > kHalfMax && magnitude < kInfinity ? kHalfMax : magnitude;
    magnitude = magnitude != 0 && magnitude < kHalfTiny ? kHalfTiny : magnitude;
    value = std::bit_cast<float>(sign | magnitude);
  }
  ops::cast::floatsToHalves(floats.data(), floats.size(), halves);
}

// Weights of this many float16 bytes or more are computed from the float32 ones when read or
// written rather than held (as channel_fold's are): a model's weights are its bulk.
constexpr uint64_t kComputedFrom = uint64_t{1} << 20;

// The float16 bytes of a float32 tensor, a slice at a time.
Status computeHalves(const void* state, uint64_t offset, std::span<std::byte> out) {
  const auto& source = *static_cast<const Tensor*>(state);
  size_t count = out.size() / sizeof(uint16_t);
  std::vector<float> floats(count);
  ONYX_RETURN_IF_ERROR(readRawBytes(
      source, offset * 2, std::as_writable_bytes(std::span<float>(floats.data(), count))));
  std::vector<uint16_t> halves(count);
  floatsToHalfRange(floats, halves.data());
  std::memcpy(out.data(), halves.data(), count * sizeof(uint16_t));
  if (tensorStorage(source) == TensorStorage::kExternal) {
    // The float32 pages of a mapped file are read once: let them go, so that converting a
    // model of many gigabytes does not keep them all resident.
    Result<TensorBytes> bytes = rawBytes(source);
    if (bytes) MappedFile::releasePagesOf(bytes->bytes().substr(offset * 2, count * 4));
  }
  return Status::ok();
}

// Makes `tensor`, a FLOAT tensor, a FLOAT16 one holding its elements converted; its old
// bytes stay in a copy that the computed bytes read. An error when they cannot be read.
Status halveTensor(Tensor& tensor, const GraphEditor& edit) {
  // The bytes must be the floats the dims say, checked before anything is allocated for them:
  // an unresolved external tensor, or one whose dims and bytes disagree, is refused here, and
  // writing cannot fail later.
  if (tensor.data_type != kFloatCode) {
    return Status(ErrorCode::kInvalidArgument,
                  "tensor " + quoted(tensor.nameOrEmpty()) + " is read as float32 but holds " +
                      std::to_string(tensor.data_type.value_or(0)) + " elements");
  }
  uint64_t stored = 0;
  if (tensorStorage(tensor) == TensorStorage::kComputed) {
    stored = tensor.rare().computed->size;
  } else {
    Result<TensorBytes> bytes = rawBytes(tensor);
    if (!bytes) return std::move(bytes).takeStatus();
    stored = bytes->bytes().size();
  }
  Result<uint64_t> elements = elementCount(tensor.dims);
  const uint64_t count = elements ? *elements : 0;
  if (!elements || stored / sizeof(float) != count || stored % sizeof(float) != 0) {
    return Status(ErrorCode::kInvalidArgument,
                  "tensor " + quoted(tensor.nameOrEmpty()) + " holds " + std::to_string(stored) +
                      " bytes, not the float32 elements its dims give");
  }
  Tensor* source = edit.cloneTensor(tensor);
  uint64_t size = count * sizeof(uint16_t);
  std::string_view eager;
  if (size < kComputedFrom) {
    std::vector<float> floats(static_cast<size_t>(count));
    ONYX_RETURN_IF_ERROR(readRawBytes(*source, 0, std::as_writable_bytes(std::span(floats))));
    auto* halves = static_cast<uint16_t*>(edit.arena().allocate(std::max<uint64_t>(size, 1), 64));
    floatsToHalfRange(floats, halves);
    eager = std::string_view(reinterpret_cast<const char*>(halves), static_cast<size_t>(size));
  }
  tensor.data_type = kHalfCode;
  tensor.data_location.reset();
  tensor.raw_data.reset();
  if (tensor.rare_fields != nullptr) {
    TensorRareFields& more = edit.rare(&tensor);
    more.float_data = PackedData();
    more.external_data = ArenaList<StringStringEntry>();
    more.external_bytes.reset();
    more.computed = nullptr;
  }
  if (size < kComputedFrom) {
    tensor.raw_data = eager;
  } else {
    edit.rare(&tensor).computed =
        edit.arena().make<ComputedBytes>(ComputedBytes{size, &computeHalves, source});
  }
  return Status::ok();
}

// Cast, Constant and ConstantOfShape: operators whose output type an attribute sets.
bool isTypeSetter(const Node& node) {
  return node.outputCount() > 0 &&
         (isStandardOperator(node, "Cast") || isStandardOperator(node, "Constant") ||
          isStandardOperator(node, "ConstantOfShape"));
}

// What one node does with its float32 values: which inputs it reads as float16 or float32,
// which outputs it computes as which.
struct NodePlan {
  bool converted = false;
  std::vector<Form> input_wants;
  std::vector<Form> output_forms;
};

class Float16Conversion {
 public:
  // `model` is the copy converted; `original` what it was copied from, left as it is.
  Float16Conversion(Model& model, const Model& original, const Float16Options& options)
      : model_(model), original_(original), edit_(model), options_(options) {
    for (ValueInfo* output : model.graph->outputs) main_outputs_.insert(&output->output);
  }

  Result<Float16Report> run() {
    InferOptions infer_options;
    infer_options.keep_values = true;
    infer_options.write_back = false;
    InferResult inferred = inferModel(static_cast<const Model&>(model_), infer_options);
    values_ = std::move(inferred.values);
    planGraph(*model_.graph);
    decideConstants(*model_.graph);
    countPlans(*model_.graph);
    for (const std::string& op : options_.keep_ops) {
      if (seen_ops_.count(op) == 0) report_.unmatched_keep_ops.push_back(op);
    }
    {
      // The constants and Casts converted and the Casts added, in every graph at once; then
      // the declarations of the values now float16.
      PassContext context;
      passes_internal::PassPatches patches(model_, context);
      ONYX_RETURN_IF_ERROR(convertGraph(*model_.graph, patches));
      ONYX_RETURN_IF_ERROR(insertCasts(patches));
      ONYX_RETURN_IF_ERROR(patches.commit());
    }
    {
      PassContext context;
      passes_internal::PassPatches patches(model_, context);
      declareHalves(*model_.graph, patches);
      ONYX_RETURN_IF_ERROR(patches.commit());
    }

    Diagnostics after;
    checkInferredTypes(model_, after);
    Diagnostics before;
    // Only a converted model with errors needs the original's count to compare with.
    if (after.errorCount() > 0) checkInferredTypes(original_, before);
    if (after.errorCount() > before.errorCount()) {
      for (const Diagnostic& diagnostic : after.all()) {
        if (diagnostic.severity != Severity::kError) continue;
        return Status(ErrorCode::kInternal,
                      "the float16 model would not type-check, so nothing was converted: " +
                          diagnostic.toString());
      }
    }
    return std::move(report_);
  }

 private:
  // The element type of a tensor value, as inference found it or the model declares it; 0
  // when unknown or not a tensor.
  int32_t tensorElemType(const Value* value) const {
    if (value == nullptr) return 0;
    auto known = values_.find(value);
    if (known != values_.end() && known->second.type.kind == InferredType::Kind::kTensor &&
        known->second.type.elem_type != 0) {
      return known->second.type.elem_type;
    }
    const Type* declared = value->type();
    if (declared != nullptr && declared->isTensor() && declared->elem_type) {
      return *declared->elem_type;
    }
    return 0;
  }
  bool isFloat(const Value* value) const { return tensorElemType(value) == kFloatCode; }

  Form formOf(const Value* value) const {
    auto found = forms_.find(value);
    return found == forms_.end() ? Form::kOther : found->second;
  }

  void planGraph(Graph& graph) {
    bool main = &graph == model_.graph;
    for (ValueInfo* input : graph.inputs) {
      Value* value = input->value;
      if (value == nullptr || value->initializer() != nullptr || !isFloat(value)) continue;
      forms_[value] = main && !options_.keep_io_types ? Form::kHalf : Form::kFloat;
    }
    GraphScope scope = scopeOf(model_, graph);
    for (Node* node : graph.nodes()) {
      NodePlan plan = planNode(*node, scope);
      for (size_t i = 0; i < node->outputCount(); ++i) {
        if (node->output(i) != nullptr && plan.output_forms[i] != Form::kOther) {
          forms_[node->output(i)] = plan.output_forms[i];
        }
      }
      plans_[node] = std::move(plan);
    }
    for (Graph* nested : graph.subgraphs()) planGraph(*nested);
  }

  NodePlan planNode(const Node& node, const GraphScope& scope) const {
    NodePlan plan;
    plan.input_wants.assign(node.inputCount(), Form::kOther);
    plan.output_forms.assign(node.outputCount(), Form::kOther);
    for (size_t i = 0; i < node.inputCount(); ++i) {
      if (isFloat(node.input(i))) plan.input_wants[i] = Form::kFloat;
    }
    for (size_t i = 0; i < node.outputCount(); ++i) {
      if (isFloat(node.output(i))) plan.output_forms[i] = Form::kFloat;
    }
    std::string_view op = node.opType();
    bool asked_kept = std::find(options_.keep_ops.begin(), options_.keep_ops.end(), op) !=
                      options_.keep_ops.end();
    if (asked_kept || node.holdsGraphs() || !node.rare().overload.value_or("").empty()) {
      return plan;
    }
    std::string_view domain = node.domainOrDefault();
    const OpSchema* schema = findSchema(domain, op, scope.opset(domain));
    if (schema == nullptr) return plan;

    if (isTypeSetter(node)) return planTypeSetter(node, std::move(plan));
    // The positions each type variable binds; a heterogeneous variadic parameter binds each
    // of its arguments to a variable of its own.
    std::unordered_map<std::string, std::vector<std::pair<bool, size_t>>> groups;
    auto bind = [&](const FormalParameter* formal, bool input, size_t position) {
      if (formal == nullptr) return;
      std::string key = formal->type;
      if (formal->option == ParameterOption::kVariadic && !formal->homogeneous) {
        key += "#" + std::to_string(input) + std::to_string(position);
      }
      groups[key].push_back({input, position});
    };
    for (size_t i = 0; i < node.inputCount(); ++i) bind(schema->inputAt(i), true, i);
    for (size_t i = 0; i < node.outputCount(); ++i) bind(schema->outputAt(i), false, i);

    std::vector<std::pair<bool, size_t>> halved;
    for (const auto& [key, positions] : groups) {
      auto float_at = [&](const std::pair<bool, size_t>& at) {
        return (at.first ? plan.input_wants[at.second] : plan.output_forms[at.second]) ==
               Form::kFloat;
      };
      if (std::none_of(positions.begin(), positions.end(), float_at)) continue;
      std::string name = key.substr(0, key.find('#'));
      // A parameter of one fixed type ("tensor(float)") stays float32.
      if (name.find('(') != std::string::npos) continue;
      const TypeConstraint* constraint = schema->constraint(name);
      bool allows_half =
          constraint != nullptr && (constraint->allowed.tensor & (uint32_t{1} << kHalfCode)) != 0;
      // The output follows an input it shares a variable with; a variable no input binds is
      // set by an attribute (RandomNormal's dtype), which this does not rewrite. An input of
      // unknown type the variable binds would be left out of the conversion.
      bool bound_by_input = false;
      bool unknown_input = false;
      for (const auto& [input, position] : positions) {
        if (!input || node.input(position) == nullptr) continue;
        bound_by_input = true;
        if (tensorElemType(node.input(position)) == 0) unknown_input = true;
      }
      if (!allows_half || !bound_by_input || unknown_input) return plan;
      for (const auto& at : positions) {
        if (float_at(at)) halved.push_back(at);
      }
    }
    for (const auto& [input, position] : halved) {
      (input ? plan.input_wants[position] : plan.output_forms[position]) = Form::kHalf;
    }
    plan.converted = !halved.empty();
    return plan;
  }

  // Cast, Constant and ConstantOfShape: their output type is an attribute, rewritten to
  // float16 (convertTypeSetter) when it says float32.
  NodePlan planTypeSetter(const Node& node, NodePlan plan) const {
    std::string_view op = node.opType();
    if (op == "Cast" && !plan.input_wants.empty() && plan.input_wants[0] == Form::kFloat) {
      plan.input_wants[0] = Form::kHalf;
      plan.converted = true;
    }
    bool sparse = node.attribute("sparse_value") != nullptr;
    if (!plan.output_forms.empty() && plan.output_forms[0] == Form::kFloat && !sparse) {
      plan.output_forms[0] = Form::kHalf;
      plan.converted = true;
    }
    return plan;
  }

  // Initializers (and inputs with a default), and the float32 outputs of Cast, Constant and
  // ConstantOfShape, become float16 when a reader wants float16; otherwise they stay float32
  // (Resize's scales made by a Constant).
  void decideConstants(Graph& graph) {
    auto wanted = [&](const Value* value) {
      for (const Use& use : value->uses()) {
        if (wantOf(use) == Form::kHalf) return Form::kHalf;
      }
      return Form::kFloat;
    };
    for (Value* value : graph.values()) {
      if (!value->isAttached() || !isFloat(value)) continue;
      // A sparse initializer stays float32, its readers given a Cast.
      if (value->sparseInitializer() != nullptr) forms_[value] = Form::kFloat;
      if (value->initializer() != nullptr) forms_[value] = wanted(value);
    }
    for (Node* node : graph.nodes()) {
      NodePlan& plan = plans_.at(node);
      if (!isTypeSetter(*node) || plan.output_forms[0] != Form::kHalf) continue;
      if (wanted(node->output(0)) == Form::kFloat) {
        plan.output_forms[0] = Form::kFloat;
        forms_[node->output(0)] = Form::kFloat;
        plan.converted = plan.input_wants.size() > 0 && plan.input_wants[0] == Form::kHalf;
      }
    }
    for (Graph* nested : graph.subgraphs()) decideConstants(*nested);
  }

  void countPlans(const Graph& graph) {
    for (const Node* node : graph.nodes()) {
      const NodePlan& plan = plans_.at(node);
      seen_ops_.insert(node->opType());
      auto is_float = [](Form form) { return form != Form::kOther; };
      bool has_float = std::any_of(plan.input_wants.begin(), plan.input_wants.end(), is_float) ||
                       std::any_of(plan.output_forms.begin(), plan.output_forms.end(), is_float);
      if (plan.converted) {
        ++report_.nodes_converted;
      } else if (has_float) {
        ++report_.kept_ops[std::string(node->opType())];
      }
    }
    for (const Graph* nested : graph.subgraphs()) countPlans(*nested);
  }

  // What a use wants its value to be: a node's plan for its input; float16 for the main
  // graph's outputs unless their types are kept; float32 for a nested graph's (its holder
  // keeps its interface).
  Form wantOf(const Use& use) const {
    if (use.isGraphOutput()) {
      const Value* value = use.value();
      if (formOf(value) == Form::kOther) return Form::kOther;
      return main_outputs_.count(&use) != 0 && !options_.keep_io_types ? Form::kHalf : Form::kFloat;
    }
    auto plan = plans_.find(use.user());
    if (plan == plans_.end()) return Form::kOther;
    return plan->second.input_wants[use.index()];
  }

  Status convertGraph(Graph& graph, passes_internal::PassPatches& patches) {
    for (Node* node : graph.nodes()) {
      const NodePlan& plan = plans_.at(node);
      if (!plan.converted) continue;
      if (isTypeSetter(*node) && plan.output_forms[0] == Form::kHalf) {
        ONYX_RETURN_IF_ERROR(convertTypeSetter(*node, patches.of(graph)));
      }
    }
    for (Value* value : graph.values()) {
      Tensor* tensor = value->initializer();
      if (tensor == nullptr || !value->isAttached() || formOf(value) != Form::kHalf) continue;
      ONYX_RETURN_IF_ERROR(halveTensor(*tensor, edit_));
      ++report_.tensors_converted;
    }
    for (Graph* nested : graph.subgraphs()) ONYX_RETURN_IF_ERROR(convertGraph(*nested, patches));
    return Status::ok();
  }

  // A converted Cast, Constant or ConstantOfShape whose float32 output becomes float16.
  Status convertTypeSetter(Node& node, Patch& patch) {
    std::string_view op = node.opType();
    if (op == "Cast") {
      edit_.setIntAttr(&patch.attributesFor(&node), "to", kHalfCode);
      return Status::ok();
    }
    Attribute* value = node.attribute("value");
    if (value != nullptr && value->t != nullptr) {
      ONYX_RETURN_IF_ERROR(halveTensor(*value->t, edit_));
      ++report_.tensors_converted;
      return Status::ok();
    }
    // Constant's value_float / value_floats, and ConstantOfShape's default (a float 0): a
    // float16 `value` tensor instead.
    std::vector<float> floats;
    std::vector<int64_t> shape;
    if (op == "ConstantOfShape") {
      floats.push_back(0.0f);
      shape.push_back(1);
    } else if (const Attribute* one = node.attribute("value_float"); one != nullptr) {
      floats.push_back(one->f.value_or(0.0f));
    } else if (const Attribute* many = node.attribute("value_floats"); many != nullptr) {
      floats.assign(many->floats.begin(), many->floats.end());
      shape.push_back(static_cast<int64_t>(floats.size()));
    } else {
      return Status(ErrorCode::kInternal, "a float Constant without a value to convert");
    }
    Array array(ElementType::kFloat16, shape);
    floatsToHalfRange(floats, array.data<uint16_t>());
    patch.removeAttribute(&node, "value_float");
    patch.removeAttribute(&node, "value_floats");
    edit_.setTensorAttr(&patch.attributesFor(&node), "value", edit_.tensorFromArray(array));
    ++report_.tensors_converted;
    return Status::ok();
  }

  // Every use whose value is float32 where it wants float16 or the reverse reads a Cast
  // instead: one per value, graph and direction. A graph output keeps its name: the value
  // computing it is renamed, and the Cast takes the name.
  Status insertCasts(passes_internal::PassPatches& patches) {
    std::vector<std::pair<Use*, Form>> mismatched;
    collectMismatches(*model_.graph, mismatched);
    std::map<std::tuple<const Value*, const Graph*, Form>, Value*> casts;
    std::unordered_set<const Value*> renamed;
    for (auto& [use, want] : mismatched) {
      Value* value = use->value();
      if (use->isGraphOutput()) {
        auto [graph, index] = output_graphs_.at(use);
        Patch& patch = patches.of(*graph);
        Value* cast = castOf(*value, *graph, want, patch);
        // The output keeps its name (once: a value output twice keeps it for the first).
        if (value->graph() == graph && renamed.insert(value).second) {
          std::string name(value->name());
          std::string hint = name + (formOf(value) == Form::kHalf ? "_float16" : "_float32");
          patch.renameValue(value, edit_.uniqueName(*graph, hint));
          patch.nameValue(cast, name);
        }
        patch.setGraphOutput(index, cast);
        continue;
      }
      Graph& graph = *use->user()->graph();
      Patch& patch = patches.of(graph);
      Value*& cached = casts[{value, &graph, want}];
      if (cached == nullptr) cached = castOf(*value, graph, want, patch);
      patch.setInput(use->user(), use->index(), cached);
    }
    return Status::ok();
  }

  void collectMismatches(Graph& graph, std::vector<std::pair<Use*, Form>>& out) {
    for (Node* node : graph.nodes()) {
      for (size_t i = 0; i < node->inputCount(); ++i) {
        Use& use = const_cast<Use&>(node->inputs()[i]);
        noteMismatch(use, out);
      }
    }
    for (size_t i = 0; i < graph.outputs.size(); ++i) {
      Use& output = graph.outputs[i]->output;
      if (output.value() != nullptr) {
        output_graphs_[&output] = {&graph, i};
        noteMismatch(output, out);
      }
    }
    for (Graph* nested : graph.subgraphs()) collectMismatches(*nested, out);
  }

  void noteMismatch(Use& use, std::vector<std::pair<Use*, Form>>& out) {
    Form form = formOf(use.value());
    Form want = wantOf(use);
    if (form != Form::kOther && want != Form::kOther && form != want) out.push_back({&use, want});
  }

  // A new Cast of `value` to `want` in `graph` (`patch` is the graph's): after the node
  // computing it when that node is in `graph`, else first.
  Value* castOf(Value& value, Graph& graph, Form want, Patch& patch) {
    Node* producer = value.producer();
    Node* before =
        producer != nullptr && producer->graph() == &graph ? producer->next() : graph.firstNode();
    Node* cast = patch.addNode("Cast", {&value}, 1, before);
    edit_.setIntAttr(cast, "to", want == Form::kHalf ? kHalfCode : kFloatCode);
    Value* result = cast->output(0);
    patch.nameAfter(result,
                    std::string(value.name()) + (want == Form::kHalf ? "_float16" : "_float32"));
    forms_[result] = want;
    ++report_.casts_added;
    return result;
  }

  // The declared types of float16 values follow them.
  void declareHalves(Graph& graph, passes_internal::PassPatches& patches) {
    for (Value* value : graph.values()) {
      if (!value->isAttached() || formOf(value) != Form::kHalf) continue;
      const Type* declared = value->type();
      if (declared == nullptr || !declared->isTensor() || declared->elem_type != kFloatCode) {
        continue;
      }
      Type* half = edit_.cloneType(*declared);
      half->elem_type = kHalfCode;
      patches.of(graph).declareType(value, half);
    }
    for (Graph* nested : graph.subgraphs()) declareHalves(*nested, patches);
  }

  Model& model_;
  const Model& original_;
  GraphEditor edit_;
  const Float16Options& options_;
  std::unordered_map<const Value*, KnownValue> values_;
  std::unordered_map<const Value*, Form> forms_;
  std::unordered_map<const Node*, NodePlan> plans_;
  std::unordered_map<const Use*, std::pair<Graph*, size_t>> output_graphs_;  // graph, index
  std::unordered_set<const Use*> main_outputs_;
  std::unordered_set<std::string_view> seen_ops_;
  Float16Report report_;
};

}  // namespace

Result<Float16Report> convertToFloat16(Model& model, const Float16Options& options) {
  if (model.graph == nullptr) return Status(ErrorCode::kInvalidArgument, "the model has no graph");
  Model work = cloneModel(model);
  Result<Float16Report> report = Float16Conversion(work, model, options).run();
  if (report) model = std::move(work);
  return report;
}

}  // namespace onyx
