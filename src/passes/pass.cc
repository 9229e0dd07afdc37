// The parts of every pass: the walk over a model's graphs, and the inferred types passes share.
#include "onyx/passes/pass.h"

#include <vector>

#include "onyx/infer/infer.h"
#include "onyx/ir/editor.h"
#include "onyx/ir/walk.h"
#include "ops/type_conversion.h"

namespace onyx {

namespace {

std::vector<Graph*> graphsOf(const Model& model) {
  std::vector<Graph*> graphs;
  forEachGraph(model, [&graphs](Graph& graph) { graphs.push_back(&graph); });
  return graphs;
}

}  // namespace

Result<PassResult> GraphPass::run(Model& model, PassContext& context) {
  std::vector<Graph*> graphs = graphsOf(model);
  PassResult total;
  // Innermost first: forEachGraph lists a graph before those its nodes hold, so a graph
  // whose holder this pass removes has been visited already and is not touched again.
  for (auto graph = graphs.rbegin(); graph != graphs.rend(); ++graph) {
    Result<PassResult> done = runOnGraph(model, **graph, scopeOf(model, **graph), context);
    if (!done) return done.status();
    total += *done;
  }
  return total;
}

// What inference knew of each value (InferOptions::keep_values), and the declared form of
// the types asked for so far, kept in a model of its own (only its arena is used): the model
// inferred is only read.
struct InferredTypes::Known {
  InferResult result;
  Model types;
  // Only looked up, never iterated: the pointer keys do not reach any output.
  std::unordered_map<const Value*, const Type*> declared;

  // A symbolic dimension's dim_param, as inference writes it back: a symbol's name, or
  // none (unknown) for a symbol nothing named.
  static std::string_view symbolText(void* self, DimValue dim) {
    Known& known = *static_cast<Known*>(self);
    if (known.result.dims.isAnonymous(dim)) return {};
    return GraphEditor(known.types).arena().copy(known.result.dims.text(dim));
  }
};

InferredTypes::InferredTypes(const Model& model, bool constant_initializers)
    : known_(std::make_unique<Known>()) {
  InferOptions options;
  options.constant_initializers = constant_initializers;
  options.keep_values = true;
  known_->result = inferModel(model, options);  // a const model: nothing written
}

InferredTypes::~InferredTypes() = default;

const Type* InferredTypes::typeOf(const Value& value) const {
  // A graph input's declared type; an initializer that is no input declares none, and
  // inference's (from the tensor) answers for it.
  if (value.producer() == nullptr && value.type() != nullptr) return value.type();
  auto [cached, fresh] = known_->declared.try_emplace(&value, nullptr);
  if (!fresh) return cached->second != nullptr ? cached->second : value.type();
  auto found = known_->result.values.find(&value);
  if (found != known_->result.values.end()) {
    cached->second = ops::toDeclared(found->second.type, GraphEditor(known_->types),
                                     &Known::symbolText, known_.get());
  }
  return cached->second != nullptr ? cached->second : value.type();
}

const InferredTypes& PassContext::inferredTypes(const Model& model) {
  if (inferred_ == nullptr) {
    inferred_ = std::make_unique<InferredTypes>(model, constant_initializers);
  }
  return *inferred_;
}

InitializerInputs PassContext::initializerInputs(const Model& model) const {
  return initializerInputsOf(model, constant_initializers);
}

const CalleeResolver& PassContext::callees(const Model& model) {
  if (callees_ == nullptr) callees_ = std::make_unique<CalleeResolver>(model);
  return *callees_;
}

void PassContext::changed(Preserves kept) {
  if (!preserves(kept, Preserves::kInferredTypes)) inferred_.reset();
  // The resolver holds pointers to the functions, which such a pass may remove.
  if (!preserves(kept, Preserves::kFunctionsAndImports) ||
      !preserves(kept, Preserves::kInferredTypes)) {
    callees_.reset();
  }
}

}  // namespace onyx
