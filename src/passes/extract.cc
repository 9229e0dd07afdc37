#include "onyx/passes/extract.h"

#include <algorithm>
#include <memory>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "ir/graph_place.h"
#include "ir/nested_reads.h"
#include "onyx/core/quote.h"
#include "onyx/ir/editor.h"
#include "onyx/ir/patch.h"
#include "onyx/passes/pass.h"
#include "passes/pass_helpers.h"

namespace onyx {

namespace {

// How many outputs, and sources per output, an error about unreached outputs lists.
constexpr size_t kListedOutputs = 5;
constexpr size_t kListedSources = 3;

std::string quotedList(const std::vector<std::string>& names) {
  std::string text;
  for (const std::string& name : names) {
    if (!text.empty()) text += ", ";
    text += quoted(name);
  }
  return text;
}

// Calls `visit(value)` for each value of `graph` that `node` reads: its inputs, and what the
// graphs it holds read from `graph`.
template <class Visit>
void forEachReadIn(const Graph& graph, const Node& node, Visit&& visit) {
  for (size_t i = 0; i < node.inputCount(); ++i) {
    const Value* input = node.input(i);
    if (input != nullptr && input->graph() == &graph) visit(input);
  }
  forEachNestedRead(node, [&](const Value* read) {
    if (read->graph() == &graph) visit(read);
  });
}

// A copy of `type` whose every string lives in `edit`'s model: a tensor type (what inference
// declares), its symbols copied (cloneType would share them with InferredTypes, which goes);
// null for other kinds.
Type* ownedCopy(const Type& type, const GraphEditor& edit) {
  if (!type.isTensor() || !type.elem_type) return nullptr;
  if (type.shape == nullptr) return edit.tensorTypeOfUnknownRank(*type.elem_type);
  return edit.tensorType(*type.elem_type, dimsOf(*type.shape));
}

class Extraction {
 public:
  Extraction(Model& model, const ExtractBoundary& boundary)
      : model_(model), graph_(*model.graph), boundary_(boundary) {}

  Result<ExtractReport> run() {
    ONYX_RETURN_IF_ERROR(resolve());
    ONYX_RETURN_IF_ERROR(walk());
    ONYX_RETURN_IF_ERROR(checkCuts());
    ONYX_RETURN_IF_ERROR(typeBoundary());
    ONYX_RETURN_IF_ERROR(cut());
    return std::move(report_);
  }

 private:
  enum State : uint8_t { kUnseen, kOnPath, kNeeded };

  // The values `names` name in the main graph, in order; an error naming the missing or
  // repeated ones.
  Result<std::vector<Value*>> valuesNamed(const std::vector<std::string>& names,
                                          std::string_view role) const {
    std::vector<Value*> values;
    std::vector<std::string> missing;
    std::unordered_set<std::string_view> seen;
    for (const std::string& name : names) {
      if (!seen.insert(name).second) {
        return Status(ErrorCode::kInvalidArgument,
                      quoted(name) + " is named twice among the " + std::string(role));
      }
      Value* value = graph_.names().find(name);
      if (value == nullptr) {
        missing.push_back(name);
      } else {
        values.push_back(value);
      }
    }
    if (!missing.empty()) {
      return Status(ErrorCode::kNotFound, "the main graph defines no value " + quotedList(missing) +
                                              " (named among the " + std::string(role) + ")");
    }
    return values;
  }

  Status resolve() {
    Status named_inputs = Status::ok();
    if (boundary_.inputs) {
      auto named = valuesNamed(*boundary_.inputs, "inputs");
      if (named) {
        inputs_ = std::move(*named);
      } else {
        named_inputs = named.status();
      }
    } else {
      for (const ValueInfo* input : graph_.inputs) {
        if (input->value != nullptr) inputs_.push_back(input->value);
      }
    }
    if (boundary_.outputs) {
      auto named = valuesNamed(*boundary_.outputs, "outputs");
      if (!named) {
        // Both lists' unknown names in one message.
        if (named_inputs || named_inputs.code() != named.status().code()) return named.status();
        return Status(named_inputs.code(),
                      named_inputs.message() + "; " + named.status().message());
      }
      outputs_ = std::move(*named);
    } else {
      for (const ValueInfo* output : graph_.outputs) {
        if (Value* value = output->bound()) outputs_.push_back(value);
      }
    }
    if (!named_inputs) return named_inputs;
    cuts_.insert(inputs_.begin(), inputs_.end());
    size_t index = 0;
    for (const Node* node : graph_.nodes()) position_.emplace(node, index++);
    state_.assign(index, kUnseen);
    return Status::ok();
  }

  // Walks back from the outputs, depth first, stopping at the inputs: marks the nodes and
  // initializers the part needs, finds cycles among them, and notes whether a source outside
  // the inputs is met (errors about those are built afterwards, per output).
  Status walk() {
    struct Frame {
      const Node* node;
      size_t begin;  // its reads in `pending`
      size_t next;
      size_t end;
    };
    std::vector<Frame> frames;
    std::vector<const Value*> pending;  // the reads of the nodes on the path, frame by frame
    auto enter = [&](const Node* node) {
      state_[position_.at(node)] = kOnPath;
      size_t begin = pending.size();
      forEachReadIn(graph_, *node, [&](const Value* read) { pending.push_back(read); });
      frames.push_back({node, begin, begin, pending.size()});
    };
    for (const Value* output : outputs_) {
      if (!reach(output)) continue;
      enter(output->producer());
      while (!frames.empty()) {
        Frame& top = frames.back();
        if (top.next == top.end) {
          state_[position_.at(top.node)] = kNeeded;
          pending.resize(top.begin);
          frames.pop_back();
          continue;
        }
        const Value* read = pending[top.next++];
        if (!reach(read)) continue;
        const Node* producer = read->producer();
        State state = static_cast<State>(state_[position_.at(producer)]);
        if (state == kUnseen) {
          enter(producer);
        } else if (state == kOnPath) {
          return cycleThrough(producer, frames);
        }
      }
    }
    if (unreached_) return unreachedOutputs();
    return Status::ok();
  }

  // Whether `value`, read by the part, is a node's output to walk into; records an input,
  // initializer or missing source met on the way.
  bool reach(const Value* value) {
    if (cuts_.contains(value)) {
      read_cuts_.insert(value);
      return false;
    }
    if (value->producer() != nullptr) return true;
    if (value->isInitializer()) {
      needed_initializers_.insert(value);
    } else {
      unreached_ = true;
    }
    return false;
  }

  template <class Frames>
  Status cycleThrough(const Node* repeated, const Frames& frames) const {
    std::string message = "the part to extract has a cycle: ";
    bool on_cycle = false;
    for (const auto& frame : frames) {
      on_cycle = on_cycle || frame.node == repeated;
      if (on_cycle) message += describeNode(*frame.node, position_.at(frame.node)) + " -> ";
    }
    message += describeNode(*repeated, position_.at(repeated));
    return Status(ErrorCode::kInvalidArgument, message + " (reading each other's outputs)");
  }

  // The error for outputs whose computation needs a value the inputs do not give: per
  // output, the first sources met (a graph input that is not named, a value nothing defines).
  Status unreachedOutputs() const {
    std::string message;
    size_t listed = 0;
    size_t unreached = 0;
    for (const Value* output : outputs_) {
      std::vector<const Value*> sources = sourcesOutsideTheInputs(output);
      if (sources.empty()) continue;
      ++unreached;
      if (listed == kListedOutputs) continue;
      ++listed;
      message += message.empty() ? "the inputs do not reach " : "; nor ";
      message += "output " + quoted(output->name()) + ": it depends on " + describeSources(sources);
    }
    if (unreached > listed) {
      message += "; and " + std::to_string(unreached - listed) + " more outputs";
    }
    return Status(ErrorCode::kInvalidArgument, message);
  }

  // `'a', 'b' and 2 more, graph inputs not among them; and on 'c', which nothing defines`.
  static std::string describeSources(const std::vector<const Value*>& sources) {
    std::vector<std::string> inputs;
    std::vector<std::string> undefined;
    for (const Value* source : sources) {
      (source->isGraphInput() ? inputs : undefined).emplace_back(source->name());
    }
    auto listed = [](const std::vector<std::string>& names) {
      std::string text;
      size_t shown = std::min(names.size(), kListedSources);
      for (size_t i = 0; i < shown; ++i) {
        if (i > 0) text += i + 1 == shown && shown == names.size() ? " and " : ", ";
        text += quoted(names[i]);
      }
      if (names.size() > shown) text += " and " + std::to_string(names.size() - shown) + " more";
      return text;
    };
    std::string text;
    if (!inputs.empty()) {
      text += listed(inputs) + (inputs.size() == 1 ? ", a graph input not among them"
                                                   : ", graph inputs not among them");
    }
    if (!undefined.empty()) {
      if (!text.empty()) text += "; and on ";
      text += listed(undefined) + ", which nothing defines";
    }
    return text;
  }

  // Breadth first from `output` back to the inputs: the sources met that are neither inputs
  // nor initializers, in the order met.
  std::vector<const Value*> sourcesOutsideTheInputs(const Value* output) const {
    std::vector<const Value*> sources;
    std::unordered_set<const Value*> seen{output};
    std::vector<const Value*> work{output};
    for (size_t i = 0; i < work.size(); ++i) {
      const Value* value = work[i];
      if (cuts_.contains(value) || value->isInitializer()) continue;
      if (value->producer() == nullptr) {
        sources.push_back(value);
        continue;
      }
      forEachReadIn(graph_, *value->producer(), [&](const Value* read) {
        if (seen.insert(read).second) work.push_back(read);
      });
    }
    return sources;
  }

  bool needed(const Node* node) const { return state_[position_.at(node)] == kNeeded; }

  // An input computed by a node must lose its node; a node the part needs for another of its
  // outputs cannot go. A name read but defined nowhere (an invalid model) is no input.
  Status checkCuts() {
    for (Value* input : inputs_) {
      if (input->isUndefined()) {
        return Status(ErrorCode::kInvalidArgument,
                      quoted(input->name()) +
                          " cannot be an input: the graph reads it but "
                          "nothing defines it");
      }
      const Node* producer = input->producer();
      if (producer == nullptr || !needed(producer)) continue;
      return Status(ErrorCode::kInvalidArgument,
                    quoted(input->name()) +
                        " cannot be an input: " + describeNode(*producer, position_.at(producer)) +
                        ", which computes it, computes other values the outputs need");
    }
    return Status::ok();
  }

  // The type each boundary value is declared with: its own, else what inference finds (run
  // once, only when some boundary value declares none), copied into the model.
  Status typeBoundary() {
    auto needs_type = [&](const Value* value) {
      return value->type() == nullptr && (value->producer() != nullptr || !value->isGraphInput());
    };
    bool missing = std::any_of(inputs_.begin(), inputs_.end(), needs_type) ||
                   std::any_of(outputs_.begin(), outputs_.end(), needs_type);
    if (!missing) return Status::ok();
    InferredTypes inferred(model_);
    GraphEditor edit(model_);
    auto record = [&](const Value* value) {
      if (!needs_type(value)) return;
      if (const Type* type = inferred.typeOf(*value)) {
        if (Type* owned = ownedCopy(*type, edit)) types_[value] = owned;
      }
    };
    for (const Value* value : inputs_) record(value);
    for (const Value* value : outputs_) record(value);
    return Status::ok();
  }

  Type* typeOf(const Value* value) const {
    auto found = types_.find(value);
    return found != types_.end() ? found->second : const_cast<Type*>(value->type());
  }

  // One patch: unneeded nodes and initializers removed, the inputs and (when named) the
  // outputs set, all checked before anything changes.
  Status cut() {
    Patch patch(model_, graph_);
    // Inputs a node computed become graph inputs under their names once the node goes.
    std::unordered_map<const Value*, Value*> replaced;
    std::vector<Value*> final_inputs;
    for (Value* input : inputs_) {
      if (!boundary_.inputs && !read_cuts_.contains(input)) continue;  // unread: dropped
      if (input->producer() != nullptr) {
        Value* made = patch.addGraphInput(typeOf(input));
        patch.nameValue(made, input->name());
        patch.replaceAllUsesWith(input, made);
        replaced.emplace(input, made);
        final_inputs.push_back(made);
        continue;
      }
      // An input, or an initializer: an input with that default.
      if (!input->isGraphInput() && input->type() == nullptr && typeOf(input) != nullptr) {
        patch.declareType(input, typeOf(input));
      }
      final_inputs.push_back(input);
    }
    // Inputs with a default that the part reads and nobody named keep it, after the named.
    for (const ValueInfo* input : graph_.inputs) {
      Value* value = input->value;
      if (value != nullptr && !cuts_.contains(value) && needed_initializers_.contains(value)) {
        final_inputs.push_back(value);
      }
    }
    patch.setGraphInputs(final_inputs);
    if (boundary_.outputs) {
      // The outputs named, in order: an entry that already declares one stays (with its type
      // and doc string), a value that was no output gets one.
      std::vector<Value*> final_outputs;
      for (Value* output : outputs_) {
        auto cut = replaced.find(output);
        Value* value = cut != replaced.end() ? cut->second : output;
        if (cut == replaced.end() && !output->isGraphOutputOfItsGraph() &&
            output->type() == nullptr && typeOf(output) != nullptr) {
          patch.declareType(output, typeOf(output));
        }
        final_outputs.push_back(value);
      }
      patch.setGraphOutputs(final_outputs);
    }

    for (Node* node : graph_.nodes()) {
      if (needed(node)) {
        ++report_.nodes_kept;
      } else {
        patch.removeNode(node);
        ++report_.nodes_removed;
      }
    }
    auto unread = [&](Value* value) {
      return value != nullptr && !needed_initializers_.contains(value) &&
             !(cuts_.contains(value) && (boundary_.inputs || read_cuts_.contains(value)));
    };
    for (const Tensor* tensor : graph_.initializers) {
      Value* value = graph_.names().find(tensor->nameOrEmpty());
      if (unread(value) && value->initializer() == tensor) {
        patch.removeInitializer(value);
        ++report_.initializers_removed;
      }
    }
    for (const SparseTensor* tensor : graph_.sparse_initializers) {
      Value* value =
          tensor->values != nullptr ? graph_.names().find(tensor->values->nameOrEmpty()) : nullptr;
      if (unread(value) && value->sparseInitializer() == tensor) {
        patch.removeInitializer(value);
        ++report_.initializers_removed;
      }
    }
    ONYX_RETURN_IF_ERROR(patch.apply());

    for (Value* input : inputs_) {
      if (boundary_.inputs && !read_cuts_.contains(input)) {
        report_.unread_inputs.emplace_back(input->name());
      }
    }
    dropStaleAnnotations();
    report_.functions_removed = passes_internal::removeUncalledFunctions(model_);
    graph_.compact();
    return Status::ok();
  }

  // Quantization annotations of values the part no longer has.
  void dropStaleAnnotations() {
    ArenaList<TensorAnnotation*>& annotations = graph_.quantization_annotation;
    for (size_t i = annotations.size(); i-- > 0;) {
      std::string_view name = annotations[i]->tensor_name.value_or(std::string_view());
      if (graph_.names().find(name) == nullptr) annotations.erase(i);
    }
  }

  Model& model_;
  Graph& graph_;
  const ExtractBoundary& boundary_;
  std::vector<Value*> inputs_;
  std::vector<Value*> outputs_;
  std::unordered_set<const Value*> cuts_;
  std::unordered_set<const Value*> read_cuts_;
  std::unordered_set<const Value*> needed_initializers_;
  std::unordered_map<const Node*, size_t> position_;
  std::vector<uint8_t> state_;
  std::unordered_map<const Value*, Type*> types_;
  bool unreached_ = false;
  ExtractReport report_;
};

}  // namespace

Result<ExtractReport> extractModel(Model& model, const ExtractBoundary& boundary) {
  if (model.graph == nullptr) return Status(ErrorCode::kInvalidArgument, "the model has no graph");
  if (!model.training_info.empty()) {
    return Status(ErrorCode::kUnsupported,
                  "the model has training_info, whose bindings name the main graph's "
                  "initializers; extract takes inference models");
  }
  return Extraction(model, boundary).run();
}

}  // namespace onyx
