#include "onyx/ir/unique_names.h"
#include "onyx/ir/editor.h"

#include <string>

#include "ir/graph_builder.h"
#include "onyx/core/quote.h"

namespace onyx {

namespace {

bool definedInNested(const Graph& graph, std::string_view name) {
  for (const Graph* sub : graph.subgraphs()) {
    if (sub->names().find(name) != nullptr || definedInNested(*sub, name)) return true;
  }
  return false;
}

}  // namespace

bool isNameInScope(const Graph& graph, std::string_view name) {
  return graph.lookup(name) != nullptr || definedInNested(graph, name);
}

std::string_view GraphEditor::uniqueName(Graph& graph, std::string_view hint) const {
  Arena& arena = *arena_;
  if (hint.empty()) hint = "v";
  if (!isNameInScope(graph, hint)) return arena.copy(hint);
  std::string candidate;
  do {
    candidate.assign(hint);
    candidate += '_';
    candidate += std::to_string(++ir_internal::GraphBuilder::nameCounter(&graph));
  } while (isNameInScope(graph, candidate));
  return arena.copy(candidate);
}

Status GraphEditor::rename(Value* renamed, std::string_view new_name) const {
  Arena& arena = *arena_;
  Value& value = *renamed;
  using B = ir_internal::GraphBuilder;
  using ir_internal::NameTableWriter;
  Graph* graph = value.graph();
  if (graph == nullptr) {
    return Status(ErrorCode::kInvalidArgument, "the value was removed from its graph");
  }
  if (new_name == value.name()) return Status::ok();
  if (new_name.empty()) return Status(ErrorCode::kInvalidArgument, "a value needs a name");
  if (isNameInScope(*graph, new_name)) {
    return Status(ErrorCode::kInvalidArgument,
                  "the name " + quoted(new_name) + " is already taken in scope");
  }
  std::string_view old_name = value.name();
  bool in_table = !old_name.empty() && graph->names().find(old_name) == &value;
  if (in_table) B::names(graph).erase(old_name);
  std::string_view name = B::name(&value) = arena.copy(new_name);
  // A second definition of a name (kept from an invalid file) becomes the name's only one.
  NameTableWriter::put(B::names(graph), arena, &value);
  // Declarations that carry the name as text follow it.
  if (value.initializer() != nullptr) value.initializer()->name = name;
  SparseTensor* sparse = value.sparseInitializer();
  if (sparse != nullptr && sparse->values != nullptr) sparse->values->name = name;
  if (value.graphInput() != nullptr) value.graphInput()->name = name;
  if (value.valueInfo() != nullptr) value.valueInfo()->name = name;
  for (TensorAnnotation* annotation : graph->quantization_annotation) {
    if (annotation->tensor_name.value_or("") == old_name) annotation->tensor_name = name;
  }
  return Status::ok();
}

}  // namespace onyx
