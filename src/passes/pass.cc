// The parts of every pass: the walk over a model's graphs, and the inferred types passes share.
#include "onyx/passes/pass.h"

#include <vector>

#include "onyx/infer/infer.h"
#include "onyx/ir/clone.h"
#include "onyx/ir/walk.h"

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

InferredTypes::InferredTypes(const Model& model)
    : inferred_(std::make_unique<Model>(cloneModel(model))) {
  InferOptions options;
  options.write_back = true;
  (void)inferModel(*inferred_, options);
  // The copy has the same graphs in the same order, each value under its own name.
  std::vector<Graph*> originals = graphsOf(model);
  std::vector<Graph*> copies = graphsOf(*inferred_);
  if (originals.size() != copies.size()) return;
  for (size_t g = 0; g < originals.size(); ++g) {
    for (const Node* node : originals[g]->nodes()) {
      for (size_t i = 0; i < node->outputCount(); ++i) {
        const Value* value = node->output(i);
        if (value == nullptr) continue;
        const Value* copy = copies[g]->lookup(value->name());
        if (copy != nullptr && copy->type() != nullptr) types_.emplace(value, copy->type());
      }
    }
  }
}

InferredTypes::~InferredTypes() = default;

const Type* InferredTypes::typeOf(const Value& value) const {
  auto found = types_.find(&value);
  return found != types_.end() ? found->second : value.type();
}

const InferredTypes& PassContext::inferredTypes(const Model& model) {
  if (inferred_ == nullptr) inferred_ = std::make_unique<InferredTypes>(model);
  return *inferred_;
}

const CalleeResolver& PassContext::callees(const Model& model) {
  if (callees_ == nullptr) callees_ = std::make_unique<CalleeResolver>(model);
  return *callees_;
}

void PassContext::changed(Preserves kept) {
  if (!preserves(kept, Preserves::kInferredTypes)) inferred_.reset();
  // The resolver holds pointers to the functions, and a rebuilt model has new ones.
  if (!preserves(kept, Preserves::kFunctionsAndImports) ||
      !preserves(kept, Preserves::kInferredTypes)) {
    callees_.reset();
  }
}

}  // namespace onyx
